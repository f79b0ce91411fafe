"""Issue 29 items 1 and 2, counted on the real adapters over moto: a process_turn is one read
and one transaction, and its only other AWS call puts the next phase's one schedule by name (its
reminder, whose firing schedules its deadline; the deadline where no reminder applies). No
ListSchedules, no second load, whether the creator's API call, a deadline firing or the
sweeper processes the turn; a game without deadlines makes no Scheduler call at all.

The calls are counted with botocore's own events on the clients the adapters use, so nothing
the adapters do can hide from the count (main before issue 29: 2 loads, 1 transaction and 4
ListSchedules per turn, also in an untimed game)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import boto3
import pytest

from composition import wiring
from composition.settings import load_settings
from functions.adapters import StoreDeadlineGames
from functions.api.services import Services
from functions.usecases.game import parse_iso
from functions.usecases.games import CreateGame, create_game
from functions.usecases.players import Actor
from functions.usecases.seats import join_game
from functions.usecases.turns import submit_orders
from functions.usecases.turns.deadlines import FireOutcome, fire_deadline, fire_reminder, sweep
from infra.dynamodb.game_store import DynamoGameStore
from infra.dynamodb.press_store import DynamoPressStore
from infra.scheduler import (
    REMINDER,
    EventBridgeDeadlineScheduler,
    SchedulerSettings,
    at_expression,
    schedule_name,
)
from local_stack.http_adapter import LocalContext, to_event
from testkit.fakes import FakeClock
from testkit.openings import FALL_1901, SPRING_1901

GROUP = "convoy-deadlines"
SETTINGS = SchedulerSettings(GROUP, "arn:aws:lambda:us-east-1:123456789012:function:deadline",
                             "arn:aws:iam::123456789012:role/scheduler")
OPERATOR_TOKEN = "operator-token-for-the-call-count"
TIMED = {"MOVEMENT": 3600, "RETREAT": 3600, "ADJUSTMENT": 3600}


class Calls:
    """Every AWS operation a client makes, in order (botocore's ``provide-client-params``)."""

    def __init__(self, *clients: Any) -> None:
        self.names: list[str] = []
        for client in clients:
            client.meta.events.register("provide-client-params", self._record)

    def _record(self, model: Any, **_: Any) -> None:
        self.names.append(model.name)

    def count(self, name: str) -> int:
        return self.names.count(name)


class Table:
    def __init__(self, names: dict[str, str]) -> None:
        self.dynamodb = boto3.client("dynamodb", region_name="us-east-1")
        self.scheduler_client = boto3.client("scheduler", region_name="us-east-1")
        self.scheduler_client.create_schedule_group(Name=GROUP)
        self.store = DynamoGameStore(names["GAME_TABLE"], client=self.dynamodb)
        self.press = DynamoPressStore(names["GAME_TABLE"], client=self.dynamodb)
        self.scheduler = EventBridgeDeadlineScheduler(lambda: self.scheduler_client, SETTINGS)
        self.clock = FakeClock()

    def game(self, phase_seconds: dict[str, int] | None = None) -> tuple[str, str]:
        created = create_game(self.store, self.clock, CreateGame(phase_seconds=phase_seconds or {}))
        for power in sorted(SPRING_1901):
            join_game(self.store, self.clock, created.game_id, power, scheduler=self.scheduler)
        for power, orders in SPRING_1901.items():
            submit_orders(self.store, self.clock, created.game_id, Actor("player", power), orders)
        return created.game_id, created.token

    def calls(self) -> Calls:
        return Calls(self.dynamodb, self.scheduler_client)


@pytest.fixture
def table(aws: dict[str, str]) -> Table:
    return Table(aws)


@pytest.fixture
def api(table: Table) -> Iterator[Table]:
    """The API Lambda's handler over the real adapters on moto."""
    settings = load_settings()._replace(operator_token=OPERATOR_TOKEN,
                                               game_table=table.store.table_name)
    wiring.override(Services(settings=settings, store=table.store, clock=table.clock, idempotency=None,
                                    scheduler=table.scheduler, press=table.press))
    yield table
    wiring.reset()


def _process(game_id: str, token: str, phase: str) -> dict[str, Any]:
    from composition import api as handler

    body = json.dumps({"phase": phase}).encode()
    headers = {"content-type": "application/json", "authorization": f"Bearer {token}"}
    event = to_event("POST", f"/games/{game_id}/process_turn", headers, body, "127.0.0.1")
    answer = handler.lambda_handler(event, LocalContext())
    assert answer["statusCode"] == 200, answer["body"]
    return dict(json.loads(answer["body"]))


def _one_read_one_transaction(calls: Calls) -> None:
    reads = [n for n in calls.names if n in ("GetItem", "Query", "BatchGetItem", "Scan")]
    assert reads == ["Query"], calls.names  # the game's head: META and the powers' items
    assert calls.count("TransactWriteItems") == 1 and calls.count("PutItem") == 0, calls.names
    assert calls.count("ListSchedules") == 0, calls.names


def test_the_creators_process_turn_is_one_read_one_transaction_and_the_next_schedules(api: Table) -> None:
    game_id, _ = api.game(TIMED)
    calls = api.calls()
    done = _process(game_id, OPERATOR_TOKEN, "S1901M")
    assert done["resolution"]["phase"] == "S1901M" and done["phase"] == "F1901M"
    _one_read_one_transaction(calls)
    scheduler_calls = [n for n in calls.names if n.endswith("Schedule") or n == "ListSchedules"]
    assert scheduler_calls == ["CreateSchedule"]  # F1901M's reminder (its firing schedules the deadline)


def test_a_deadline_firing_and_the_sweeper_each_read_the_game_once(table: Table) -> None:
    game_id, _ = table.game(TIMED)
    games = StoreDeadlineGames(table.store, table.clock, scheduler=table.scheduler)
    deadline = table.store.load(game_id).deadline
    assert deadline is not None
    late = parse_iso(deadline) + timedelta(seconds=1)
    calls = table.calls()
    assert fire_deadline(game_id, "S1901M", now=late, games=games, scheduler=table.scheduler) == (
        FireOutcome.PROCESSED)
    _one_read_one_transaction(calls)
    assert calls.count("CreateSchedule") == 1 and calls.count("DeleteSchedule") == 0
    # the sweeper: its index query, then the same one read and one transaction per overdue game
    for power, orders in FALL_1901.items():
        submit_orders(table.store, table.clock, game_id, Actor("player", power), orders)
    fall = table.store.load(game_id).deadline
    assert fall is not None
    calls = table.calls()
    report = sweep(now=parse_iso(fall) + timedelta(seconds=1), games=games, scheduler=table.scheduler)
    assert report.outcomes == {game_id: FireOutcome.PROCESSED}
    game_reads = [n for n in calls.names if n in ("GetItem", "Query")]
    assert len(game_reads) == 16 + 1  # the 16 buckets of the deadline index, then the game once
    assert calls.count("TransactWriteItems") == 1 and calls.count("ListSchedules") == 0


def test_an_early_firing_reschedules_by_name_after_one_read(table: Table) -> None:
    game_id, _ = table.game(TIMED)
    games = StoreDeadlineGames(table.store, table.clock, scheduler=table.scheduler)
    # the join scheduled S1901M's reminder alone; any firing of it schedules the deadline (here
    # an early one, which also moves itself)
    fire_reminder(game_id, "S1901M", now=table.clock.now(), games=games, scheduler=table.scheduler)
    calls = table.calls()
    early = fire_deadline(game_id, "S1901M", now=table.clock.now(), games=games, scheduler=table.scheduler)
    assert early == FireOutcome.RESCHEDULED
    # the firing's own schedule still holds the name (ConflictException): it is updated in place
    assert calls.names == ["Query", "CreateSchedule", "UpdateSchedule"]


def test_a_game_without_deadlines_calls_no_scheduler_on_any_turn(api: Table) -> None:
    game_id, _ = api.game()
    calls = api.calls()
    _process(game_id, OPERATOR_TOKEN, "S1901M")
    for power, orders in FALL_1901.items():
        submit_orders(api.store, api.clock, game_id, Actor("player", power), orders, scheduler=api.scheduler)
    _process(game_id, OPERATOR_TOKEN, "F1901M")
    assert not [n for n in calls.names if "Schedule" in n], calls.names
    assert calls.count("TransactWriteItems") == 2 + len(FALL_1901)


def _in_timed_fall(table: Table) -> tuple[str, StoreDeadlineGames, datetime]:
    """A timed game whose Spring 1901 deadline fired: its id, the deadline games over the table,
    and Fall 1901's deadline."""
    game_id, _ = table.game(TIMED)
    games = StoreDeadlineGames(table.store, table.clock, scheduler=table.scheduler)
    spring = parse_iso(str(table.store.load(game_id).deadline))
    after_spring = spring + timedelta(seconds=1)
    fire_deadline(game_id, "S1901M", now=after_spring, games=games, scheduler=table.scheduler)
    return game_id, games, parse_iso(str(table.store.load(game_id).deadline))


def test_a_turn_schedules_the_reminder_alone_and_its_firing_schedules_the_deadline(table: Table) -> None:
    # Given a timed game whose Spring 1901 was processed: F1901M has a reminder due before its deadline
    game_id, games, fall = _in_timed_fall(table)
    names = {s["Name"] for s in table.scheduler_client.list_schedules(GroupName=GROUP)["Schedules"]}
    assert schedule_name(game_id, "F1901M", kind=REMINDER) in names  # issue 29 item 2: one schedule
    assert schedule_name(game_id, "F1901M") not in names
    # When the reminder fires (nobody in Fall has ordered)
    table.clock.at = fall - timedelta(minutes=15)
    calls = table.calls()
    said = fire_reminder(game_id, "F1901M", now=table.clock.now(), games=games, scheduler=table.scheduler)
    # Then the notice is written and the deadline is scheduled by name, for the game's deadline
    assert said == "SENT"
    assert calls.names == ["Query", "TransactWriteItems", "CreateSchedule"]
    deadline = table.scheduler_client.get_schedule(Name=schedule_name(game_id, "F1901M"), GroupName=GROUP)
    assert deadline["ScheduleExpression"] == at_expression(fall)


def test_a_reminder_firing_after_its_deadline_processes_the_phase(table: Table) -> None:
    # Given F1901M's reminder firing only after F1901M's deadline passed (its schedule was late)
    game_id, games, fall = _in_timed_fall(table)
    table.clock.at = fall + timedelta(seconds=5)
    # When it fires
    said = fire_reminder(game_id, "F1901M", now=table.clock.now(), games=games, scheduler=table.scheduler)
    # Then the deadline it would have scheduled is fired there and then
    assert said == "PROCESSED" and table.store.load(game_id).phase != "F1901M"
