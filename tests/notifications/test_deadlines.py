"""Deadline firing is idempotent: twice, late, early or after a manual process adjudicates once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from functions.deadline.handler import make_handlers
from functions.ports.deadlines import Firing
from functions.ports.notifications import DiscordTarget, OutboxMessage, TelegramTarget
from functions.usecases.notifications.notifications import deliver
from functions.usecases.notifications.rendering import render_text, webhook_document
from functions.usecases.turns.deadlines import (
    FireOutcome,
    fire_deadline,
    ready_to_auto_process,
    reminder_time,
    reschedule_phase,
    sweep,
)
from tests.notifications.fakes import (
    FakeGames,
    FakeScheduler,
    MemoryDeliveryLog,
    RecordingDeliverer,
    StaticTargets,
)

NOW = datetime(2030, 1, 1, 12, tzinfo=UTC)


def test_a_deadline_firing_twice_adjudicates_the_phase_once() -> None:
    games = FakeGames("g", ["S1901M", "F1901M"], deadline=NOW - timedelta(seconds=1))
    scheduler = FakeScheduler()

    first = fire_deadline("g", "S1901M", now=NOW, games=games, scheduler=scheduler)
    second = fire_deadline("g", "S1901M", now=NOW, games=games, scheduler=scheduler)

    assert (first, second) == (FireOutcome.PROCESSED, FireOutcome.STALE)
    assert games.adjudicated == ["S1901M"]


def test_a_firing_after_a_manual_process_is_a_no_op() -> None:
    games = FakeGames("g", ["S1901M", "F1901M"], deadline=NOW)
    games.process_if_due("g", "S1901M", NOW)  # the creator processed by hand
    games.deadline = NOW  # and F1901M got its own deadline

    outcome = fire_deadline("g", "S1901M", now=NOW, games=games, scheduler=FakeScheduler())

    assert outcome is FireOutcome.STALE
    assert games.adjudicated == ["S1901M"]


def test_an_early_firing_reschedules_instead_of_processing() -> None:
    deadline = NOW + timedelta(seconds=40)  # Scheduler may fire up to a minute early
    games = FakeGames("g", ["S1901M"], deadline=deadline)
    scheduler = FakeScheduler()

    outcome = fire_deadline("g", "S1901M", now=NOW, games=games, scheduler=scheduler)

    assert outcome is FireOutcome.RESCHEDULED
    assert games.adjudicated == []
    assert scheduler.schedules == {("g", "S1901M"): deadline}


def test_paused_or_finished_games_are_never_processed() -> None:
    for status, deadline in (("PAUSED", NOW), ("ACTIVE", None), ("FINISHED", NOW)):
        games = FakeGames("g", ["S1901M"], deadline=deadline, status=status)
        assert (
            fire_deadline("g", "S1901M", now=NOW, games=games, scheduler=FakeScheduler()) is FireOutcome.STALE
        )
        assert games.adjudicated == []


def test_losing_the_race_inside_process_is_reported_not_repeated() -> None:
    class RacingGames(FakeGames):
        def process_if_due(self, game_id: str, phase: str, now: datetime) -> Firing:
            return Firing("LOST_RACE")  # the store's condition refused: someone else committed first

    games = RacingGames("g", ["S1901M"], deadline=NOW)
    assert (
        fire_deadline("g", "S1901M", now=NOW, games=games, scheduler=FakeScheduler()) is FireOutcome.LOST_RACE
    )


def test_the_sweeper_processes_overdue_games_and_survives_errors() -> None:
    overdue = FakeGames("g", ["S1901M", "F1901M"], deadline=NOW - timedelta(minutes=3))
    report = sweep(now=NOW, games=overdue, scheduler=FakeScheduler())
    assert report.outcomes == {"g": FireOutcome.PROCESSED}
    assert sweep(now=NOW, games=overdue, scheduler=FakeScheduler()).outcomes == {}

    class Broken(FakeGames):
        def process_if_due(self, game_id: str, phase: str, now: datetime) -> Firing:
            raise RuntimeError("table unavailable")

    broken = Broken("b", ["S1901M"], deadline=NOW)
    assert sweep(now=NOW, games=broken, scheduler=FakeScheduler()).errors == {
        "b": "RuntimeError: table unavailable"
    }


def test_reschedule_phase_puts_the_new_phases_schedule_and_deletes_only_what_was_timed() -> None:
    scheduler = FakeScheduler()
    scheduler.schedule_deadline("g", "S1901M", NOW)

    reschedule_phase("g", phase="F1901M", deadline=NOW, scheduler=scheduler)  # the next phase, by name
    assert scheduler.schedules == {("g", "S1901M"): NOW, ("g", "F1901M"): NOW}  # Spring's fires as a no-op

    scheduler.calls.clear()
    reschedule_phase("g", phase="F1901M", deadline=None, scheduler=scheduler)  # untimed: nothing to do
    assert scheduler.calls == []
    reschedule_phase("g", phase="F1901M", deadline=None, scheduler=scheduler, was_timed=True)  # pause
    assert scheduler.schedules == {("g", "S1901M"): NOW}


def test_auto_process_needs_every_decision_and_no_wait_flag() -> None:
    decide = {"FRANCE", "ENGLAND"}
    assert ready_to_auto_process(
        auto_process=True, powers_with_decisions=decide, submitted={"FRANCE", "ENGLAND"}, wait_flags={}
    )
    assert not ready_to_auto_process(
        auto_process=True, powers_with_decisions=decide, submitted={"FRANCE"}, wait_flags={}
    )
    assert not ready_to_auto_process(
        auto_process=True, powers_with_decisions=decide, submitted=decide, wait_flags={"ITALY": True}
    )
    assert not ready_to_auto_process(
        auto_process=False, powers_with_decisions=decide, submitted=decide, wait_flags={}
    )
    assert ready_to_auto_process(
        auto_process=True, powers_with_decisions=decide, submitted=decide, wait_flags={"ITALY": False}
    )


def test_the_handler_fires_once_and_rejects_malformed_events() -> None:
    class Deps:
        games = FakeGames("g", ["S1901M", "F1901M"], deadline=NOW)
        scheduler = FakeScheduler()

    handler, sweep_handler = make_handlers(lambda: Deps, now=lambda: NOW)

    assert handler({"game_id": "g", "phase": "S1901M"}, None)["outcome"] == "PROCESSED"
    assert handler({"game_id": "g", "phase": "S1901M"}, None)["outcome"] == "STALE"
    assert handler({"phase": "S1901M"}, None) == {"outcome": "INVALID_EVENT"}
    assert sweep_handler({}, None) == {"outcomes": {}, "errors": {}}
    assert Deps.games.adjudicated == ["S1901M"]


def test_the_handler_routes_reminder_events_and_refuses_unknown_kinds() -> None:
    games = FakeGames("g", ["S1901M", "F1901M"], deadline=NOW + timedelta(hours=1))
    deps = type("Deps", (), {"games": games, "scheduler": FakeScheduler()})()
    handler, _ = make_handlers(lambda: deps, now=lambda: NOW)
    event = {"game_id": "g", "phase": "S1901M", "kind": "reminder"}

    answers = [handler(event, None)["outcome"] for _ in range(2)]
    assert answers == ["SENT", "ALREADY_SENT"] and games.adjudicated == []
    assert handler({**event, "phase": "F1901M"}, None)["outcome"] == "STALE"
    assert handler({**event, "kind": "nonsense"}, None) == {"outcome": "INVALID_EVENT"}


def test_reminder_times_keep_a_lead_of_at_most_a_quarter_phase_and_never_lie_in_the_past() -> None:
    deadline = NOW + timedelta(days=1)
    assert reminder_time(deadline=deadline, phase_seconds=86400, now=NOW) == deadline - timedelta(hours=1)
    assert reminder_time(deadline=deadline, phase_seconds=600, now=NOW) == deadline - timedelta(seconds=150)
    assert reminder_time(deadline=deadline, phase_seconds=86400, now=NOW, reminder_seconds=60) == (
        deadline - timedelta(seconds=60)
    )
    assert reminder_time(deadline=deadline, phase_seconds=86400, now=NOW, reminder_seconds=0) is None
    assert reminder_time(deadline=deadline, phase_seconds=3, now=NOW) is None  # lead under a second
    assert reminder_time(deadline=NOW + timedelta(minutes=30), phase_seconds=86400, now=NOW) is None
    assert reminder_time(deadline=deadline, phase_seconds=86400, now=NOW, already_reminded=True) is None
    assert reminder_time(deadline=None, phase_seconds=86400, now=NOW) is None


def test_reschedule_phase_keeps_the_reminder_in_step() -> None:
    scheduler = FakeScheduler()
    remind = NOW - timedelta(hours=1)
    reschedule_phase("g", phase="S1901M", deadline=NOW, scheduler=scheduler, reminder=remind)
    assert scheduler.reminders == {("g", "S1901M"): remind}
    # extended past the reminder's use (already sent, too short): the phase's reminder goes
    reschedule_phase("g", phase="S1901M", deadline=NOW, scheduler=scheduler, was_timed=True)
    assert scheduler.reminders == {}
    reschedule_phase("g", phase="F1901M", deadline=NOW, scheduler=scheduler, reminder=remind)
    reschedule_phase("g", phase="F1901M", deadline=None, scheduler=scheduler, was_timed=True)  # pause
    assert scheduler.reminders == {} and scheduler.schedules == {("g", "S1901M"): NOW}


def test_a_deadline_approaching_notice_is_rendered_with_who_still_owes_orders() -> None:
    message = OutboxMessage(
        dedupe_key="g:S1901M:reminder",
        kind="DEADLINE_APPROACHING",
        game_id="g",
        payload={
            "phase": "S1901M", "deadline": "2030-01-01T12:00:00.000Z", "waiting_on": ["ITALY", "RUSSIA"]
        },
    )
    text = render_text(message)
    assert text == (
        "Game g: the deadline for S1901M is 2030-01-01T12:00:00.000Z. Still waiting on: ITALY, RUSSIA."
    )
    targets = StaticTargets({"g": [TelegramTarget(7), DiscordTarget("https://discord.example/x")]})
    deliverer, log = RecordingDeliverer(), MemoryDeliveryLog()
    for _ in range(2):  # a redelivery sends nothing new
        deliver(message, targets=targets, deliverer=deliverer, log=log)
    assert sorted(sent[1:] for sent in deliverer.sent) == [
        ("discord:https://discord.example/x", text), ("telegram:7", text)
    ]
    body = webhook_document(message, text)
    assert body["kind"] == "DEADLINE_APPROACHING" and body["payload"]["waiting_on"] == ["ITALY", "RUSSIA"]



def test_the_sweeper_publishes_how_many_games_were_overdue(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 11 item 4: OverdueGames (EMF) feeds template.yaml's OverdueGamesAlarm, zero included."""
    import json

    class Deps:
        games = FakeGames("g", ["S1901M", "F1901M"], deadline=NOW - timedelta(minutes=10))
        scheduler = FakeScheduler()

    _, sweep_handler = make_handlers(lambda: Deps, now=lambda: NOW)
    sweep_handler({}, None)
    sweep_handler({}, None)

    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if "OverdueGames" in line]
    assert [line["OverdueGames"] for line in lines] == [[1.0], [0.0]]  # the game, then none
    (metric,) = lines[0]["_aws"]["CloudWatchMetrics"][0]["Metrics"]
    assert metric == {"Name": "OverdueGames", "Unit": "Count"}
    assert lines[0]["_aws"]["CloudWatchMetrics"][0]["Namespace"] == "Convoy"
    # template.yaml's OverdueGamesAlarm reads exactly this dimension
    assert lines[0]["_aws"]["CloudWatchMetrics"][0]["Dimensions"] == [["service"]]
    assert all(line["service"] == "convoy" for line in lines)
