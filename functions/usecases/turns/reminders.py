"""DEADLINE_APPROACHING: one notice per phase, some time before its deadline.

`send_reminder` is what the phase's reminder schedule ends in (deadline function,
``{"game_id", "phase", "kind": "reminder"}``). It re-reads the game and writes the
OUTBOX item in the same conditional META write that records ``reminded_phase``, so:

- a repeated or concurrent firing finds ``reminded_phase == phase`` (after the version
  check made the loser reload) and writes nothing: ``ALREADY_SENT``;
- the phase moved on, the game is paused/over, or the deadline is gone or passed: ``STALE``;
- the firing is more than a minute early (a schedule that was not moved after an
  extend): the reminder is re-scheduled, ``RESCHEDULED``;
- every power with a decision has submitted: nothing to say, ``NOTHING_OWED``.

The notice names only the powers that still owe orders (powers with a decision to
make this phase that have not submitted); it never carries anyone's orders.
"""

from __future__ import annotations

import enum
from datetime import timedelta

from functions.errors import GameNotFound
from functions.ports import DEADLINE_APPROACHING, Clock, DeadlineScheduler, GameStore
from functions.usecases.game import add_outbox, load, parse_iso, retrying
from functions.usecases.turns.deadlines import reminder_for
from functions.usecases.turns.views import missing_powers

EARLY_SLACK = timedelta(seconds=60)


class RemindOutcome(enum.StrEnum):
    SENT = "SENT"
    ALREADY_SENT = "ALREADY_SENT"
    NOTHING_OWED = "NOTHING_OWED"
    RESCHEDULED = "RESCHEDULED"
    STALE = "STALE"


def send_reminder(
    store: GameStore,
    clock: Clock,
    game_id: str,
    phase: str,
    *,
    scheduler: DeadlineScheduler | None = None,
) -> RemindOutcome:
    def attempt() -> RemindOutcome:
        try:
            game = load(store, game_id)
        except GameNotFound:
            return RemindOutcome.STALE
        if game.status != "ACTIVE" or game.paused or game.phase != phase or not game.deadline:
            return RemindOutcome.STALE
        if game.reminded_phase == phase:
            return RemindOutcome.ALREADY_SENT
        now = clock.now()
        deadline = parse_iso(game.deadline)
        if deadline <= now:
            return RemindOutcome.STALE  # the deadline itself is due; it says enough
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

    return retrying(attempt)
