"""Pause, resume and extend a game's deadline (the creator or the operator).

- pause: the deadline clock stops; the phase's schedules (deadline and reminder) are
  deleted. The seconds that were left are kept. Nothing processes a paused game by
  itself: no deadline firing, no sweeper, no auto-process (process_turn refuses the
  scheduler actor with GAME_PAUSED). Orders and wait flags are still accepted, and the
  creator or operator may still process by hand; a phase that starts that way has no
  deadline until resumed.
- resume: the deadline is set again, to what was left at pause (or the phase's full
  length if the phase changed meanwhile) from now, and fresh schedules are created
  (the reminder only if the phase was not reminded yet and its time is still ahead).
  If everyone owing orders submitted during the pause and auto_process is on (and no
  wait flag is up), the turn is processed at once, as a submission would have.
- extend: the deadline moves later by N seconds (from the current deadline, or from
  now if it already passed); the phase's schedules are replaced by name.
Pause and resume are idempotent (pausing a paused game changes nothing).
The schedule is changed after the commit (`sync_schedule`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta

from functions.errors import Forbidden, NoDeadline, NotAPlayer
from functions.ports import Clock, DeadlineScheduler, GameRecord, GameStore
from functions.usecases.game import (
    add_event,
    add_outbox,
    deadline_for,
    iso,
    load,
    load_active,
    parse_iso,
    retrying,
)
from functions.usecases.kinds import kind_of
from functions.usecases.players import Actor, has_started
from functions.usecases.turns import maybe_auto_process, reminder_for, sync_schedule


@dataclass(frozen=True)
class DeadlineState:
    phase: str
    deadline: str | None
    paused: bool


def _require_controller(actor: Actor) -> None:
    if actor.kind == "anonymous":
        raise NotAPlayer("an Authorization: Bearer <creator or operator token> header is required")
    if not actor.controls:
        raise Forbidden("only the game's creator or the operator may pause, resume or extend a game")


def _state(game: GameRecord) -> DeadlineState:
    return DeadlineState(game.phase, game.deadline, game.paused)


def pause_game(
    store: GameStore, clock: Clock, game_id: str, actor: Actor, *, scheduler: DeadlineScheduler | None = None
) -> DeadlineState:
    _require_controller(actor)

    def attempt() -> DeadlineState:
        game = load_active(store, game_id)
        if game.paused:
            return _state(game)
        version, now, timed = game.version, clock.now(), bool(game.deadline)
        if game.deadline:
            left = (parse_iso(game.deadline) - now).total_seconds()
            game.paused_remaining = max(1, math.ceil(left))
        game.paused, game.deadline = True, None
        event = add_event(game, "GAME_PAUSED", {"remaining_seconds": game.paused_remaining}, now)
        saved = store.save(game, expected_version=version, events=[event])
        sync_schedule(scheduler, game_id, phase=saved.phase, deadline=None, was_timed=timed)
        return _state(saved)

    return retrying(attempt)


def resume_game(
    store: GameStore, clock: Clock, game_id: str, actor: Actor, *, scheduler: DeadlineScheduler | None = None
) -> DeadlineState:
    _require_controller(actor)

    def attempt() -> DeadlineState:
        game = load_active(store, game_id)
        if not game.paused:
            return _state(game)
        version, now = game.version, clock.now()
        started = has_started(game, kind_of(game).seats(game))
        if game.paused_remaining:
            game.deadline = iso(now + timedelta(seconds=game.paused_remaining))
        elif started:
            game.deadline = deadline_for(game, str(game.state.get("phase_type", "")), now)
        game.paused, game.paused_remaining = False, None
        event = add_event(game, "GAME_RESUMED", {"deadline": game.deadline}, now)
        saved = store.save(game, expected_version=version, events=[event])
        sync_schedule(scheduler, game_id, phase=saved.phase, deadline=saved.deadline,
                      reminder=reminder_for(saved, now))
        if maybe_auto_process(store, clock, saved, scheduler):
            return _state(load(store, game_id))
        return _state(saved)

    return retrying(attempt)


def extend_deadline(
    store: GameStore,
    clock: Clock,
    game_id: str,
    actor: Actor,
    seconds: int,
    *,
    scheduler: DeadlineScheduler | None = None,
) -> DeadlineState:
    _require_controller(actor)

    def attempt() -> DeadlineState:
        game = load_active(store, game_id)
        if game.paused or not game.deadline:
            raise NoDeadline("this phase has no running deadline (untimed, not started, or paused)")
        version, now = game.version, clock.now()
        game.deadline = iso(max(parse_iso(game.deadline), now) + timedelta(seconds=seconds))
        event = add_event(game, "DEADLINE_EXTENDED", {"seconds": seconds, "deadline": game.deadline}, now)
        notice = add_outbox(
            game, "DEADLINE_EXTENDED", {"phase": game.phase, "deadline": game.deadline},
            f"{game.phase}:extended:{game.event_seq}",
        )
        saved = store.save(game, expected_version=version, events=[event], outbox=[notice])
        sync_schedule(scheduler, game_id, phase=saved.phase, deadline=saved.deadline,
                      reminder=reminder_for(saved, now), was_timed=True)  # replaced by name
        return _state(saved)

    return retrying(attempt)
