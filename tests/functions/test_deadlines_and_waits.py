"""Deadlines wired into the use cases: schedules follow the phase, firings adjudicate once,
wait flags hold auto-processing, and the creator can pause, resume and extend."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from functions.adapters import StoreDeadlineGames
from functions.errors import Forbidden, NoDeadline
from functions.usecases.games import CreateGame, create_game
from functions.usecases.players import Actor
from functions.usecases.seats import extend_deadline, join_game, pause_game, resume_game
from functions.usecases.turns import process_turn, set_wait_flag, submit_orders
from functions.usecases.turns.deadlines import FireOutcome, fire_deadline, sweep
from testkit.fakes import FakeClock, InMemoryGameStore
from testkit.openings import SPRING_1901

POWERS = sorted(SPRING_1901)
CREATOR = Actor("creator")
OPERATOR = Actor("operator")  # processes a timed game by hand before its deadline (issue 11)
PHASES = {"MOVEMENT": 600, "RETREAT": 300, "ADJUSTMENT": 300}
# The deadline schedules alone: a phase with a reminder starts with the reminder's schedule,
# whose firing schedules the deadline (issue 29; tests/functions/test_reminders_and_pause.py)
NO_REMINDER = {"reminder_seconds": 0}


class RecordingScheduler:
    """The DeadlineScheduler port in memory: {(game, phase): at}, plus a log of every call."""

    def __init__(self) -> None:
        self.schedules: dict[tuple[str, str], datetime] = {}
        self.calls: list[tuple[str, str, str]] = []
        self.reminders: dict[tuple[str, str], datetime] = {}

    def schedule_deadline(self, game_id: str, phase: str, at: datetime) -> str:
        self.schedules[(game_id, phase)] = at
        self.calls.append(("schedule", game_id, phase))
        return f"dl.{game_id}.{phase}"

    def delete_deadline(self, game_id: str, phase: str) -> None:
        self.schedules.pop((game_id, phase), None)
        self.calls.append(("delete", game_id, phase))

    def schedule_reminder(self, game_id: str, phase: str, at: datetime) -> str:
        self.reminders[(game_id, phase)] = at
        self.calls.append(("remind", game_id, phase))
        return f"rm.{game_id}.{phase}"

    def delete_reminder(self, game_id: str, phase: str) -> None:
        self.reminders.pop((game_id, phase), None)
        self.calls.append(("unremind", game_id, phase))


def _game(store: InMemoryGameStore, clock: FakeClock, sched: RecordingScheduler, **options: Any) -> str:
    game_id = create_game(store, clock, CreateGame(phase_seconds=PHASES, **options)).game_id
    for power in POWERS:
        join_game(store, clock, game_id, power, scheduler=sched)
    return game_id


def _deadline(store: InMemoryGameStore, game_id: str) -> datetime:
    text = store.load(game_id).deadline
    assert text is not None
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_the_last_join_schedules_the_first_deadline_and_each_process_moves_it() -> None:
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched, **NO_REMINDER)
    assert sched.schedules == {(game_id, "S1901M"): _deadline(store, game_id)}
    sched.calls.clear()
    process_turn(store, clock, game_id, OPERATOR, expected_phase="S1901M", scheduler=sched)
    assert sched.schedules[(game_id, "F1901M")] == _deadline(store, game_id)
    # issue 29: the turn's only Scheduler call puts the next phase's schedule, by name (its
    # reminder's where one applies: test_reminders_and_pause.py); the Spring schedule processed
    # early by hand is left to fire as a no-op (STALE), not listed
    assert sched.calls == [("schedule", game_id, "F1901M")]


def test_a_game_without_deadlines_makes_no_scheduler_call() -> None:
    """Issue 29: today's main listed schedules four times per turn even when nothing was ever
    scheduled. Untimed: joins, orders, waits, votes, pause, resume and turns call nothing."""
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = create_game(store, clock, CreateGame(auto_process=True)).game_id
    for power in POWERS:
        join_game(store, clock, game_id, power, scheduler=sched)
    set_wait_flag(store, clock, game_id, Actor("player", "ITALY"), True, scheduler=sched)
    for power, orders in SPRING_1901.items():
        submit_orders(store, clock, game_id, Actor("player", power), orders, scheduler=sched)
    pause_game(store, clock, game_id, CREATOR, scheduler=sched)
    resume_game(store, clock, game_id, CREATOR, scheduler=sched)
    set_wait_flag(store, clock, game_id, Actor("player", "ITALY"), False, scheduler=sched)  # auto-processes
    process_turn(store, clock, game_id, OPERATOR, expected_phase="F1901M", scheduler=sched)
    assert store.load(game_id).phase == "W1901A" and sched.calls == []


def test_a_deadline_firing_twice_or_after_a_manual_process_adjudicates_once() -> None:
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched, **NO_REMINDER)
    games = StoreDeadlineGames(store, clock, scheduler=sched)
    # early: re-scheduled, nothing processed
    early = fire_deadline(game_id, "S1901M", now=clock.now(), games=games, scheduler=sched)
    assert early == FireOutcome.RESCHEDULED and store.commits == 0
    clock.at = _deadline(store, game_id) + timedelta(seconds=1)
    outcomes = [
        fire_deadline(game_id, "S1901M", now=clock.now(), games=games, scheduler=sched) for _ in range(2)
    ]
    assert outcomes == [FireOutcome.PROCESSED, FireOutcome.STALE]
    assert store.commits == 1 and store.load(game_id).phase == "F1901M"
    # the next phase was scheduled by the firing's own process_turn
    assert (game_id, "F1901M") in sched.schedules
    # a manual process first, then the (late) firing: still one adjudication of F1901M
    process_turn(store, clock, game_id, OPERATOR, expected_phase=store.load(game_id).phase, scheduler=sched)
    clock.at += timedelta(hours=1)
    late = fire_deadline(game_id, "F1901M", now=clock.now(), games=games, scheduler=sched)
    assert late == FireOutcome.STALE
    assert store.commits == 2
    # the sweeper finds the overdue W1901A and processes it once
    clock.at = _deadline(store, game_id) + timedelta(seconds=1)
    report = sweep(now=clock.now(), games=games, scheduler=sched)
    assert report.outcomes == {game_id: FireOutcome.PROCESSED} and store.commits == 3


def test_wait_flags_hold_auto_processing_and_are_cleared_each_phase() -> None:
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched, auto_process=True, **NO_REMINDER)
    assert set_wait_flag(store, clock, game_id, Actor("player", "FRANCE"), True).wait_flags == ["FRANCE"]
    results = [
        submit_orders(store, clock, game_id, Actor("player", p), o, scheduler=sched)
        for p, o in SPRING_1901.items()
    ]
    assert not any(r.auto_processed for r in results) and store.load(game_id).phase == "S1901M"
    lowered = set_wait_flag(store, clock, game_id, Actor("player", "FRANCE"), False, scheduler=sched)
    assert lowered.auto_processed and lowered.phase == "F1901M" and lowered.wait_flags == []
    assert (game_id, "F1901M") in sched.schedules
    set_wait_flag(store, clock, game_id, Actor("player", "ITALY"), True)
    process_turn(store, clock, game_id, OPERATOR, expected_phase=store.load(game_id).phase)
    assert store.load(game_id).wait_flags == {}
    with pytest.raises(Forbidden):
        set_wait_flag(store, clock, game_id, CREATOR, True)


def test_pause_removes_the_schedule_resume_recreates_it_extend_moves_it() -> None:
    store, clock, sched = InMemoryGameStore(), FakeClock(), RecordingScheduler()
    game_id = _game(store, clock, sched, **NO_REMINDER)
    before = _deadline(store, game_id)
    with pytest.raises(Forbidden):
        pause_game(store, clock, game_id, Actor("player", "FRANCE"), scheduler=sched)
    paused = pause_game(store, clock, game_id, CREATOR, scheduler=sched)
    assert paused.paused and paused.deadline is None and sched.schedules == {}
    assert pause_game(store, clock, game_id, CREATOR, scheduler=sched).paused  # idempotent
    with pytest.raises(NoDeadline):
        extend_deadline(store, clock, game_id, CREATOR, 60, scheduler=sched)
    clock.at += timedelta(hours=5)  # time spent paused does not count
    resumed = resume_game(store, clock, game_id, CREATOR, scheduler=sched)
    after = _deadline(store, game_id)
    assert not resumed.paused and after - clock.at <= before - clock.at + timedelta(hours=5, seconds=1)
    assert timedelta(seconds=590) < after - clock.at <= timedelta(seconds=601)
    assert sched.schedules == {(game_id, "S1901M"): after}
    extend_deadline(store, clock, game_id, CREATOR, 120, scheduler=sched)
    assert _deadline(store, game_id) == after + timedelta(seconds=120)
    assert sched.schedules == {(game_id, "S1901M"): after + timedelta(seconds=120)}
    assert [o.kind for o in store.outbox[game_id]][-1] == "DEADLINE_EXTENDED"
