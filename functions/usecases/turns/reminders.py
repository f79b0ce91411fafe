"""DEADLINE_APPROACHING: one notice per phase, some time before its deadline.

`send_reminder` is what the phase's reminder schedule ends in (deadline function,
``{"game_id", "phase", "kind": "reminder"}``). A phase with a reminder has only that
schedule when it starts (one Scheduler call on the turn's path, issue 29): every firing of
it for the current, running phase schedules the phase's deadline, by name, whatever else it
does; a firing after the deadline answers ``DUE`` and the deadline function processes the
phase there and then (deadlines.fire_reminder). It re-reads the game and writes the
OUTBOX item in the same conditional META write that records ``reminded_phase``, so:

- a repeated or concurrent firing finds ``reminded_phase == phase`` (after the version
  check made the loser reload) and writes nothing: ``ALREADY_SENT``;
- the phase moved on, the game is paused/over, or the deadline is gone: ``STALE``;
- the deadline has passed (a late firing): ``DUE``;
- the firing is more than a minute early (a schedule that was not moved after an
  extend): the reminder is re-scheduled, ``RESCHEDULED``;
- every power with a decision has submitted: nothing to say, ``NOTHING_OWED``.

The notice names only the powers that still owe orders (powers with a decision to
make this phase that have not submitted); it never carries anyone's orders.
"""

from __future__ import annotations

import enum
from datetime import datetime, timedelta

from functions.errors import GameNotFound
from functions.ports import DEADLINE_APPROACHING, Clock, DeadlineScheduler, GameRecord, GameStore
from functions.usecases.game import add_outbox, load, parse_iso, retrying
from functions.usecases.turns.deadlines import reminder_for, schedule_deadline
from functions.usecases.turns.views import missing_powers

EARLY_SLACK = timedelta(seconds=60)


class RemindOutcome(enum.StrEnum):
    SENT = "SENT"
    ALREADY_SENT = "ALREADY_SENT"
    NOTHING_OWED = "NOTHING_OWED"
    RESCHEDULED = "RESCHEDULED"
    STALE = "STALE"
    DUE = "DUE"  # the phase's deadline has passed: the firing processes it (deadlines.fire_reminder)


def send_reminder(
    store: GameStore,
    clock: Clock,
    game_id: str,
    phase: str,
    *,
    scheduler: DeadlineScheduler | None = None,
) -> RemindOutcome:
    """The reminder firing of ``phase`` (the module text): the notice at most once, and the
    phase's deadline scheduled unless it is already due (``DUE``) or the phase is gone."""

    def attempt() -> tuple[RemindOutcome, datetime | None]:
        try:
            game = load(store, game_id)
        except GameNotFound:
            return RemindOutcome.STALE, None
        if game.status != "ACTIVE" or game.paused or game.phase != phase or not game.deadline:
            return RemindOutcome.STALE, None
        deadline = parse_iso(game.deadline)
        return remind(game, deadline), deadline

    def remind(game: GameRecord, deadline: datetime) -> RemindOutcome:
        now = clock.now()
        if deadline <= now:
            return RemindOutcome.DUE
        if game.reminded_phase == phase:
            return RemindOutcome.ALREADY_SENT
        due = reminder_for(game, now - EARLY_SLACK)
        if due is not None and due - now > EARLY_SLACK:
            if scheduler is not None:
                scheduler.schedule_reminder(game_id, phase, due)
            return RemindOutcome.RESCHEDULED
        waiting = missing_powers(game)
        if not waiting:
            return RemindOutcome.NOTHING_OWED
        version = game.version
        game.reminded_phase = phase
        notice = add_outbox(
            game,
            DEADLINE_APPROACHING,
            {"phase": phase, "deadline": game.deadline, "waiting_on": waiting},
            f"{phase}:reminder",
        )
        store.save(game, expected_version=version, outbox=[notice])
        return RemindOutcome.SENT

    outcome, deadline = retrying(attempt)
    if deadline is not None and outcome is not RemindOutcome.DUE:
        schedule_deadline(scheduler, game_id, phase, deadline)
    return outcome
