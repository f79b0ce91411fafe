"""DEADLINE_APPROACHING reminders (once per phase, only who still owes orders) and pause
semantics (nothing processes a paused game by itself; resume picks up where it left off)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

from functions.adapters import StoreDeadlineGames
from functions.deadline.handler import make_handlers
from functions.errors import GamePaused
from functions.usecases.players import SCHEDULER, Actor
from functions.usecases.seats import extend_deadline, pause_game, resume_game
from functions.usecases.turns import process_turn, submit_orders
from functions.usecases.turns.deadlines import FireOutcome, fire_deadline, sweep
from functions.usecases.turns.reminders import RemindOutcome, send_reminder
from testkit.fakes import FakeClock, InMemoryGameStore
from testkit.openings import SPRING_1901
from tests.functions.test_deadlines_and_waits import CREATOR, OPERATOR, RecordingScheduler, _deadline, _game

LEAD = timedelta(seconds=150)  # min(1 hour, 600 s // 4)


def _notices(
    store: InMemoryGameStore, game_id: str, kind: str = "DEADLINE_APPROACHING"
) -> list[dict[str, Any]]:
    return [o.payload for o in store.outbox[game_id] if o.kind == kind]


def test_every_deadline_schedule_comes_with_a_reminder_schedule_that_follows_it() -> None:
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched)
    assert sched.reminders == {(game_id, "S1901M"): _deadline(store, game_id) - LEAD}
    extend_deadline(store, clock, game_id, CREATOR, 60, scheduler=sched)
    assert sched.reminders == {(game_id, "S1901M"): _deadline(store, game_id) - LEAD}
    pause_game(store, clock, game_id, CREATOR, scheduler=sched)
    assert sched.reminders == {} and sched.schedules == {}
    clock.at += timedelta(days=1)
    resume_game(store, clock, game_id, CREATOR, scheduler=sched)
    assert sched.reminders == {(game_id, "S1901M"): _deadline(store, game_id) - LEAD}
    process_turn(store, clock, game_id, OPERATOR, expected_phase=store.load(game_id).phase, scheduler=sched)
    # the next phase's reminder follows its deadline; Spring's, left by the early processing,
    # fires later as a no-op (issue 29: no deletes on the turn's path)
    assert sched.reminders[(game_id, "F1901M")] == _deadline(store, game_id) - LEAD


def test_no_reminder_schedule_when_its_time_already_passed_or_the_phase_is_short() -> None:
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched)
    pause_game(store, clock, game_id, CREATOR, scheduler=sched)
    store.games[game_id].paused_remaining = 100  # less than the lead is left
    resume_game(store, clock, game_id, CREATOR, scheduler=sched)
    assert sched.reminders == {} and (game_id, "S1901M") in sched.schedules
    short_store, short_sched = InMemoryGameStore(), RecordingScheduler()
    from functions.usecases.games import CreateGame, create_game
    from functions.usecases.seats import join_game

    short = create_game(short_store, clock, CreateGame(phase_seconds={"MOVEMENT": 3})).game_id
    for power in sorted(SPRING_1901):
        join_game(short_store, clock, short, power, scheduler=short_sched)
    assert short_sched.reminders == {} and (short, "S1901M") in short_sched.schedules


def test_a_phase_with_a_reminder_starts_with_it_alone_and_its_firing_schedules_the_deadline() -> None:
    """Issue 29 item 2: a turn's only synchronous Scheduler call is one schedule (docs/notifications.md)."""
    # Given a game whose last join started Spring 1901 with a reminder 150 s before the deadline
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched)
    assert list(sched.reminders) == [(game_id, "S1901M")] and sched.schedules == {}
    # When the reminder fires (twice: a Scheduler retry), and once every power has submitted
    handler, _ = make_handlers(lambda: _Deps(store, clock, sched), now=clock.now)
    event = {"game_id": game_id, "phase": "S1901M", "kind": "reminder"}
    clock.at = sched.reminders[(game_id, "S1901M")]
    answers = [handler(event, None)["outcome"] for _ in range(2)]
    # Then each firing schedules the deadline, by name, at the game's deadline
    assert answers == ["SENT", "ALREADY_SENT"]
    assert sched.schedules == {(game_id, "S1901M"): _deadline(store, game_id)}
    assert [c for c in sched.calls if c[0] == "schedule"] == [("schedule", game_id, "S1901M")] * 2
    # and a turn processed by hand schedules the next phase's reminder alone again
    process_turn(store, clock, game_id, OPERATOR, expected_phase="S1901M", scheduler=sched)
    assert (game_id, "F1901M") in sched.reminders and (game_id, "F1901M") not in sched.schedules


def test_a_reminder_with_nothing_to_say_still_schedules_the_deadline() -> None:
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched)
    for power, orders in SPRING_1901.items():
        submit_orders(store, clock, game_id, Actor("player", power), orders)
    clock.at = sched.reminders[(game_id, "S1901M")]
    assert send_reminder(store, clock, game_id, "S1901M", scheduler=sched) == RemindOutcome.NOTHING_OWED
    assert sched.schedules == {(game_id, "S1901M"): _deadline(store, game_id)}


def test_a_reminder_firing_after_its_deadline_processes_the_phase() -> None:
    # Given Spring's reminder, delivered only after Spring's deadline (so no deadline schedule exists)
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched)
    clock.at = _deadline(store, game_id) + timedelta(seconds=30)
    handler, _ = make_handlers(lambda: _Deps(store, clock, sched), now=clock.now)
    # When it fires
    answer = handler({"game_id": game_id, "phase": "S1901M", "kind": "reminder"}, None)
    # Then the phase is processed there and then, as its deadline's firing would have done
    assert answer["outcome"] == "PROCESSED" and store.load(game_id).phase == "F1901M"
    assert _notices(store, game_id) == []


def test_a_reminder_delivered_twice_writes_one_notice_naming_only_powers_still_owing() -> None:
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched)
    for power in ("FRANCE", "ENGLAND"):
        submit_orders(store, clock, game_id, Actor("player", power), SPRING_1901[power], scheduler=sched)
    clock.at = sched.reminders[(game_id, "S1901M")]
    handler, _ = make_handlers(lambda: _Deps(store, clock, sched), now=clock.now)
    event = {"game_id": game_id, "phase": "S1901M", "kind": "reminder"}
    answers = [handler(event, None)["outcome"] for _ in range(2)]
    assert answers == ["SENT", "ALREADY_SENT"]
    (notice,) = _notices(store, game_id)
    assert notice["phase"] == "S1901M" and notice["deadline"] == store.load(game_id).deadline
    assert notice["waiting_on"] == sorted(set(SPRING_1901) - {"FRANCE", "ENGLAND"})
    text = json.dumps(notice)
    assert not any(order in text for orders in SPRING_1901.values() for order in orders)
    # already reminded: pause + resume does not schedule it again
    pause_game(store, clock, game_id, CREATOR, scheduler=sched)
    resume_game(store, clock, game_id, CREATOR, scheduler=sched)
    assert sched.reminders == {}


def test_concurrent_reminder_firings_write_one_notice() -> None:
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched)
    clock.at = sched.reminders[(game_id, "S1901M")]
    inner: list[RemindOutcome] = []
    # the second firing commits between the first one's read and its write
    store.before_write = lambda: inner.append(send_reminder(store, clock, game_id, "S1901M"))
    outer = send_reminder(store, clock, game_id, "S1901M")
    assert (inner, outer) == ([RemindOutcome.SENT], RemindOutcome.ALREADY_SENT)
    assert len(_notices(store, game_id)) == 1


def test_no_reminder_after_the_phase_was_processed_or_while_paused_or_when_nobody_owes() -> None:
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched)
    reminder_at = sched.reminders[(game_id, "S1901M")]
    process_turn(store, clock, game_id, OPERATOR, expected_phase=store.load(game_id).phase, scheduler=sched)
    clock.at = reminder_at
    assert send_reminder(store, clock, game_id, "S1901M") == RemindOutcome.STALE
    clock.at = sched.reminders[(game_id, "F1901M")]
    pause_game(store, clock, game_id, CREATOR, scheduler=sched)
    assert send_reminder(store, clock, game_id, "F1901M") == RemindOutcome.STALE
    resume_game(store, clock, game_id, CREATOR, scheduler=sched)
    assert send_reminder(store, clock, game_id, "F1901M") == RemindOutcome.SENT
    assert _notices(store, game_id) == [
        {"phase": "F1901M", "deadline": store.load(game_id).deadline, "waiting_on": sorted(SPRING_1901)}
    ]
    assert send_reminder(store, clock, game_id, "NOPE") == RemindOutcome.STALE
    assert send_reminder(store, clock, "no-such-game", "F1901M") == RemindOutcome.STALE


def test_everyone_submitted_means_no_reminder_and_an_early_one_is_rescheduled() -> None:
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched)
    assert send_reminder(store, clock, game_id, "S1901M", scheduler=sched) == RemindOutcome.RESCHEDULED
    assert sched.reminders == {(game_id, "S1901M"): _deadline(store, game_id) - LEAD}
    for power, orders in SPRING_1901.items():
        submit_orders(store, clock, game_id, Actor("player", power), orders)
    clock.at = sched.reminders[(game_id, "S1901M")]
    assert send_reminder(store, clock, game_id, "S1901M") == RemindOutcome.NOTHING_OWED
    assert _notices(store, game_id) == []


class _Deps:
    def __init__(self, store: InMemoryGameStore, clock: FakeClock, sched: RecordingScheduler) -> None:
        self.scheduler = sched
        self.games = StoreDeadlineGames(store, clock, scheduler=sched)


# ---------------------------------------------------------------- pause semantics


def test_a_paused_game_is_not_processed_by_its_deadline_the_sweeper_or_the_scheduler() -> None:
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched)
    games = StoreDeadlineGames(store, clock, scheduler=sched)
    pause_game(store, clock, game_id, CREATOR, scheduler=sched)
    clock.at += timedelta(days=2)
    fired = fire_deadline(game_id, "S1901M", now=clock.now(), games=games, scheduler=sched)
    assert fired == FireOutcome.STALE
    assert sweep(now=clock.now(), games=games, scheduler=sched).outcomes == {}
    # a firing that read the game before the pause committed still cannot process it
    assert games.process_if_due(game_id, "S1901M", clock.now()).outcome == "STALE"
    with pytest.raises(GamePaused) as caught:
        process_turn(store, clock, game_id, SCHEDULER, expected_phase="S1901M")
    assert caught.value.body()["code"] == "GAME_PAUSED"
    assert store.commits == 0 and store.load(game_id).phase == "S1901M"


def test_a_paused_game_accepts_orders_but_does_not_auto_process_until_resumed() -> None:
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched, auto_process=True)
    pause_game(store, clock, game_id, CREATOR, scheduler=sched)
    results = [
        submit_orders(store, clock, game_id, Actor("player", p), o, scheduler=sched)
        for p, o in SPRING_1901.items()
    ]
    assert all(r.accepted and not r.auto_processed for r in results)
    assert store.load(game_id).phase == "S1901M" and store.commits == 0
    resumed = resume_game(store, clock, game_id, CREATOR, scheduler=sched)
    assert resumed.phase == "F1901M" and not resumed.paused and store.commits == 1
    assert (game_id, "F1901M") in sched.reminders  # whose firing schedules the deadline (issue 29)


def test_the_creator_may_still_process_a_paused_game_by_hand() -> None:
    """Once every power has submitted (issue 11: before that, the time left is the players')."""
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched)
    pause_game(store, clock, game_id, CREATOR, scheduler=sched)
    for power, orders in SPRING_1901.items():
        submit_orders(store, clock, game_id, Actor("player", power), orders, scheduler=sched)
    done = process_turn(store, clock, game_id, CREATOR,
                        expected_phase=store.load(game_id).phase, scheduler=sched)
    game = store.load(game_id)
    assert done.phase == "F1901M" and game.paused and game.deadline is None
    assert sched.schedules == {} and sched.reminders == {}
    resume_game(store, clock, game_id, CREATOR, scheduler=sched)  # the new phase gets its full length
    assert _deadline(store, game_id) - clock.at == timedelta(seconds=600)
    assert sched.reminders == {(game_id, "F1901M"): _deadline(store, game_id) - LEAD}


def test_the_reminder_lead_is_a_game_setting() -> None:
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched, reminder_seconds=60)
    assert sched.reminders == {(game_id, "S1901M"): _deadline(store, game_id) - timedelta(seconds=60)}
    quiet = _game(store, clock, sched, reminder_seconds=0)
    assert (quiet, "S1901M") not in sched.reminders and (quiet, "S1901M") in sched.schedules
