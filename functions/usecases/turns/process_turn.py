"""Process a turn: adjudicate the pending orders with the engine and commit atomically.

Allowed to the game's creator, the operator token and the deadline scheduler; the creator
only once the game is full and, in a timed game, after the deadline or once every power has
submitted (``GAME_NOT_FULL`` / ``DEADLINE_NOT_REACHED``; functions/usecases/turns/fairness.py).
The caller names the phase it means to close (``expected_phase``; the API answers 422 without
it): another phase is ``STALE_PHASE``, so a retry, a double click or a trigger racing the
deadline never closes the next phase too.
A paused game is processed only by hand (creator or operator): the scheduler actor
(deadline firing, sweeper, auto-process) gets ``GAME_PAUSED``, also when the pause
committed between its read and this one. A deadline firing (``due_by``) processes only a
phase whose deadline has passed (``NotDue`` otherwise).
Missing orders get the engine's defaults (units hold, dislodged units disband,
builds are waived, removals follow civil disorder). With ``require_all`` the call
is refused (409 ``ORDERS_MISSING``) while a power with a decision still owes orders.

A turn is a pipeline of steps that return values (issue 29/30), one module each, called in
order from here and never back: ``load`` (turn_load.py: one read, META and the powers' own
items, every refusal, the state decoded once), ``adjudicate`` (turn_adjudicate.py: an NMR
extension instead, or the engine on the phase and on the phases nobody can order after it,
with their consequences), ``record`` (turn_record.py: the PHASE items, the events and the
notices, ``notify`` among them, numbered), one commit (one ``TransactWriteItems``, conditional
on the version read and on the next event numbers being free), then ``schedule``
(deadlines.py: the current phase's deadline, by name). The phase just closed keeps its
schedules (a fired one deleted itself; one left by an early processing fires as a no-op).

Two racing calls: one commits, the other reloads, sees the phase moved on and answers
``STALE_PHASE``: a phase is adjudicated exactly once. An order stored meanwhile took the next
event number, so the commit fails and the turn starts over with it.

A phase in which no seated power has a decision (only dummies retreat or build, say, in a
demo game) is processed at once, in the same commit (turn_adjudicate.py); ``follow=False``
processes the one phase only.
"""

from __future__ import annotations

from datetime import datetime
from itertools import count

from functions.ports import Clock, DeadlineScheduler, GameRecord, GameStore
from functions.usecases.game import retrying
from functions.usecases.players import Actor
from functions.usecases.turns.deadlines import schedule_phase
from functions.usecases.turns.outcomes import Processed, TurnRequest
from functions.usecases.turns.turn_adjudicate import plan_turn
from functions.usecases.turns.turn_load import check_actor, load_turn
from functions.usecases.turns.turn_record import record_turn


def process_turn(
    store: GameStore,
    clock: Clock,
    game_id: str,
    actor: Actor,
    *,
    expected_phase: str,
    require_all: bool = False,
    scheduler: DeadlineScheduler | None = None,
    due_by: datetime | None = None,
    game: GameRecord | None = None,
    follow: bool = True,
) -> Processed:
    """Close ``expected_phase``: load -> adjudicate -> record -> commit -> schedule, retried
    while raced. ``game``: the record as just read or written by the caller (used for the first
    attempt instead of a read; a stale one fails the commit and is read again). ``due_by``: a
    deadline firing's time (the phase is processed only if due)."""
    check_actor(actor)
    request = TurnRequest(game_id, actor, expected_phase, require_all, due_by)
    given = [game] if game is not None else []
    attempts = count(1)

    def attempt() -> Processed:
        now = clock.now()
        turn = load_turn(store, request, now, given.pop() if given else None, again=next(attempts) > 1)
        plan = plan_turn(turn, now, by_deadline=actor.kind == "scheduler", follow=follow)
        written = record_turn(turn, plan, now)
        committed = store.commit_turn(written.game, expected_version=turn.game.version, phases=written.phases,
                                      events=written.events, outbox=written.outbox)
        schedule_phase(scheduler, committed, now, was_timed=plan.extension is not None)
        return written.answer

    return retrying(attempt)
