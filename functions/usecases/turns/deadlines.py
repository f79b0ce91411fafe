"""Deadline use cases: fire a phase deadline, sweep overdue games, keep schedules in step.

`fire_deadline` is what the Scheduler target runs with ``{game_id, phase}``. It is
safe to run any number of times, early or late, because process_turn reads the game (once)
and decides:
- the game is gone, not active, or no longer in `phase`  -> STALE (a repeat or late firing);
- the game has no deadline (paused, or deadlines switched off) -> STALE;
- the deadline is still ahead (Scheduler may fire up to a minute early) -> re-schedule, RESCHEDULED;
- otherwise process *that* phase; the game store's version check makes the
  adjudication exactly-once, so losing a race to a manual process or another
  firing is LOST_RACE, not a second adjudication.

`sweep` is the backstop (a rate schedule every few minutes): games whose deadline
passed without processing (a lost schedule, a failed invocation) go through the
same `fire_deadline`.

`fire_reminder` is what the phase's reminder schedule runs with ``{game_id, phase,
kind: "reminder"}``: it writes the DEADLINE_APPROACHING notice at most once per phase
(functions/usecases/turns/reminders.py) and schedules the phase's deadline; a repeated or
stale firing writes nothing, and one after the deadline fires the deadline itself.

One schedule per phase start (issue 29, "nothing else synchronous except the schedule of
the next deadline"): a phase with a reminder gets the reminder's schedule only, and the
reminder's firing schedules the deadline; a phase without one gets the deadline's. A lost
reminder firing means a deadline never scheduled: the sweeper processes that phase within
its rate, as it does for a lost deadline firing.

`sync_schedule` keeps EventBridge in step when a phase starts, the game is paused/resumed,
or a deadline is extended or ends, by name (infra/scheduler.py: (game, phase, kind); creating
replaces, deleting a missing one is fine; never a listing). A game without deadlines never
calls Scheduler. A phase's schedules are not deleted when the phase is processed: a deadline
that fired deleted itself, and one left by a phase processed early fires later as a no-op
(STALE): one stale invocation instead of two DeleteSchedule calls on every turn.

`reminder_time` says when a phase's reminder is due: ``deadline - lead`` where
lead = min(the game's ``reminder_seconds``, default 1 hour; a quarter of the phase
length), none if that is not in the future, the lead is under a second, or the phase
was already reminded.

`ready_to_auto_process` is the W10 rule: with auto_process on, process as soon as
every power with a decision has submitted and nobody raised a wait flag.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Collection, Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, NamedTuple

from functions.ports import DeadlineScheduler, GameRecord
from functions.usecases.game import parse_iso

if TYPE_CHECKING:  # a lazy port (functions/ports/__init__.py): the API imports this module too
    from functions.ports.deadlines import DeadlineGames

log = logging.getLogger(__name__)


DEFAULT_REMINDER_SECONDS = 3600
REMINDER_PHASE_FRACTION = 4  # the lead is at most 1/4 of the phase length


class FireOutcome(enum.StrEnum):
    PROCESSED = "PROCESSED"
    RESCHEDULED = "RESCHEDULED"
    STALE = "STALE"
    LOST_RACE = "LOST_RACE"


def reminder_lead(phase_seconds: int | None, reminder_seconds: int | None = None) -> int:
    """Whole seconds before the deadline a reminder goes out; 0 means no reminder."""
    if not phase_seconds or phase_seconds <= 0:
        return 0
    wanted = DEFAULT_REMINDER_SECONDS if reminder_seconds is None else max(0, int(reminder_seconds))
    return min(wanted, int(phase_seconds) // REMINDER_PHASE_FRACTION)


def reminder_time(
    *,
    deadline: datetime | None,
    phase_seconds: int | None,
    now: datetime,
    reminder_seconds: int | None = None,
    already_reminded: bool = False,
) -> datetime | None:
    """When this phase's reminder should fire, or None (no deadline, too short, past, or sent)."""
    if deadline is None or already_reminded:
        return None
    lead = reminder_lead(phase_seconds, reminder_seconds)
    if lead < 1:
        return None
    at = deadline - timedelta(seconds=lead)
    return at if at > now else None


def reminder_for(game: GameRecord, now: datetime) -> datetime | None:
    """When ``game``'s current phase should be reminded (``reminder_time``), None if not."""
    if game.status != "ACTIVE" or game.paused or not game.deadline:
        return None
    phase_type = str(game.state.get("phase_type", ""))
    phase_seconds = (game.settings.get("phase_seconds") or {}).get(phase_type)
    grid = game.settings.get("deadline_at")
    if grid:  # a phase on the deadline_at grid lasts about its every_days (deadline_grid.py)
        phase_seconds = int((grid.get("every_days") or {}).get(phase_type, 1)) * 86400
    return reminder_time(
        deadline=parse_iso(game.deadline),
        phase_seconds=phase_seconds,
        now=now,
        reminder_seconds=game.settings.get("reminder_seconds"),
        already_reminded=game.reminded_phase == game.phase,
    )


class SweepReport(NamedTuple):
    """Counts per outcome, plus the games that raised (they are retried on the next sweep)."""

    outcomes: Mapping[str, FireOutcome]
    errors: Mapping[str, str]


def fire_deadline(
    game_id: str,
    phase: str,
    *,
    now: datetime,
    games: DeadlineGames,
    scheduler: DeadlineScheduler,
) -> FireOutcome:
    """Process `phase` of `game_id` if, and only if, it is still that phase and its deadline
    passed: one read of the game (process_turn's own), and a re-schedule if it fired early."""
    firing = games.process_if_due(game_id, phase, now)
    if firing.outcome == "NOT_DUE" and firing.deadline is not None:
        scheduler.schedule_deadline(game_id, phase, firing.deadline)  # replaces it, by name
        return FireOutcome.RESCHEDULED
    if firing.outcome == "NOT_DUE":
        return FireOutcome.STALE
    return FireOutcome(firing.outcome)


def fire_reminder(game_id: str, phase: str, *, now: datetime, games: DeadlineGames,
                  scheduler: DeadlineScheduler) -> str:
    """The reminder schedule's target: at most one DEADLINE_APPROACHING per phase, and the
    phase's deadline scheduled (see reminders.py). A firing that comes after the deadline,
    which only it would have scheduled, fires the deadline itself."""
    said = games.remind_if_in_phase(game_id, phase)
    if said == "DUE":
        return str(fire_deadline(game_id, phase, now=now, games=games, scheduler=scheduler))
    return said


SCHEDULE_GRACE = timedelta(seconds=60)  # what a schedule is given to fire before the sweeper steps in


def sweep(*, now: datetime, games: DeadlineGames, scheduler: DeadlineScheduler,
          grace: timedelta = timedelta(0)) -> SweepReport:
    """Fire every deadline overdue by more than ``grace``; one game's error does not stop the
    others. The sweep handler gives a phase's own schedule ``SCHEDULE_GRACE`` to fire: a backstop
    that takes a phase due a moment ago races the schedule about to fire it, and counts a
    deadline as missed (the OverdueGames metric) that was not (issue 28)."""
    outcomes: dict[str, FireOutcome] = {}
    errors: dict[str, str] = {}
    for info in sorted(games.overdue(now - grace), key=lambda i: i.game_id):
        try:
            outcomes[info.game_id] = fire_deadline(
                info.game_id, info.phase, now=now, games=games, scheduler=scheduler
            )
        except Exception as exc:  # keep sweeping; the next sweep retries this game
            log.exception("sweep: game %s failed", info.game_id)
            errors[info.game_id] = f"{type(exc).__name__}: {exc}"
    return SweepReport(outcomes=outcomes, errors=errors)


def reschedule_phase(
    game_id: str,
    *,
    phase: str,
    deadline: datetime | None,
    scheduler: DeadlineScheduler,
    reminder: datetime | None = None,
    was_timed: bool = False,
) -> None:
    """Make `phase`'s named schedules match the game with one call where it can: with a
    deadline and a `reminder` still to come, the reminder's schedule alone (its firing schedules
    the deadline: reminders.py); with a deadline and no reminder, the deadline's schedule (and,
    for a phase that was timed, the reminder that no longer applies deleted: already sent, too
    late, or too short a phase); without a deadline, the phase's schedules deleted if it had
    one before (`was_timed`: paused, ended early), else nothing.

    A deadline schedule left at an earlier time (the deadline was extended after the reminder
    fired) fires early and is moved then (`fire_deadline`: RESCHEDULED)."""
    if deadline is None:
        if was_timed:
            scheduler.delete_deadline(game_id, phase)
            scheduler.delete_reminder(game_id, phase)
        return
    if reminder is not None:
        scheduler.schedule_reminder(game_id, phase, reminder)
        return
    scheduler.schedule_deadline(game_id, phase, deadline)
    if was_timed:
        scheduler.delete_reminder(game_id, phase)


def ready_to_auto_process(
    *,
    auto_process: bool,
    powers_with_decisions: Collection[str],
    submitted: Collection[str],
    wait_flags: Mapping[str, bool],
) -> bool:
    """W10: everyone who must decide has submitted, and no wait flag is up.

    A phase in which nobody has a decision (possible in some variants) is ready at
    once. Wait flags of powers without a decision still hold the table: a player
    may ask everyone to wait for diplomacy even when they have nothing to order.
    """
    if not auto_process:
        return False
    if any(wait_flags.get(power) for power in wait_flags):
        return False
    return set(powers_with_decisions) <= set(submitted)


def sync_schedule(
    scheduler: DeadlineScheduler | None,
    game_id: str,
    *,
    phase: str,
    deadline: str | None,
    reminder: datetime | None = None,
    was_timed: bool = False,
) -> None:
    """`reschedule_phase` after a committed state change, from META's ISO `deadline`
    (`reminder`: `reminder_for(game, now)`; `was_timed`: the
    phase had a running deadline before the change).

    `scheduler` None means deadlines are not wired (unit tests, a deployment without
    the deadline function). A Scheduler failure is logged, not raised: the state
    change has committed, and the backstop sweeper processes the phase on time
    within its rate anyway.
    """
    if scheduler is None:
        return
    at = parse_iso(deadline) if deadline else None
    try:
        reschedule_phase(
            game_id,
            phase=phase,
            deadline=at,
            scheduler=scheduler,
            reminder=reminder if at is not None else None,
            was_timed=was_timed,
        )
    except Exception:
        log.exception("could not update the deadline schedule of %s %s", game_id, phase)


def schedule_deadline(scheduler: DeadlineScheduler | None, game_id: str, phase: str, at: datetime) -> None:
    """The phase's deadline schedule, by name, from its reminder's firing; a Scheduler failure is
    logged, not raised (the backstop sweeper processes the phase within its rate anyway)."""
    if scheduler is None:
        return
    try:
        scheduler.schedule_deadline(game_id, phase, at)
    except Exception:
        log.exception("could not schedule the deadline of %s %s", game_id, phase)


def schedule_phase(scheduler: DeadlineScheduler | None, game: GameRecord, now: datetime, *,
                   was_timed: bool = False) -> None:
    """A committed game's current phase scheduled (its deadline and reminder, by name): a turn's
    last step, after its commit; nothing for a game without deadlines."""
    sync_schedule(scheduler, game.game_id, phase=game.phase, deadline=game.deadline,
                  reminder=reminder_for(game, now), was_timed=was_timed)
