"""Pause, resume and extend a game's deadline (the creator or the operator).

- pause: the deadline clock stops; the phase's schedule is deleted. The seconds that
  were left are kept. Orders, wait flags, auto-processing and a manual process_turn
  still work; a phase that starts while paused has no deadline until resumed.
- resume: the deadline is set again, to what was left at pause (or the phase's full
  length if the phase changed meanwhile) from now, and a fresh schedule is created.
- extend: the deadline moves later by N seconds (from the current deadline, or from
  now if it already passed); the schedule is moved (delete + create).
Pause and resume are idempotent (pausing a paused game changes nothing).
The schedule is changed after the commit (`sync_schedule`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta

from functions.errors import Forbidden, GameNotActive, NoDeadline
from functions.notification_ports import DeadlineScheduler
from functions.ports import Clock, GameRecord, GameStore
from functions.usecases.common import (
    Actor,
    add_event,
    add_outbox,
    deadline_for,
    game_map,
    iso,
    load,
    parse_iso,
    retrying,
)
from functions.usecases.deadlines import sync_schedule

MAX_EXTEND_SECONDS = 30 * 86400


@dataclass(frozen=True)
class DeadlineState:
    phase: str
    deadline: str | None
    paused: bool


def _require_controller(actor: Actor) -> None:
    if actor.kind not in ("creator", "operator"):
        raise Forbidden("only the game's creator or the operator may pause, resume or extend a game")


def _state(game: GameRecord) -> DeadlineState:
    return DeadlineState(game.phase, game.deadline, game.paused)


def pause_game(
    store: GameStore, clock: Clock, game_id: str, actor: Actor, *, scheduler: DeadlineScheduler | None = None
) -> DeadlineState:
    _require_controller(actor)

    def attempt() -> DeadlineState:
        game = load(store, game_id)
        if game.status != "ACTIVE":
            raise GameNotActive("the game is over")
        if game.paused:
            return _state(game)
        version, now = game.version, clock.now()
        if game.deadline:
            left = (parse_iso(game.deadline) - now).total_seconds()
            game.paused_remaining = max(1, math.ceil(left))
        game.paused, game.deadline = True, None
        event = add_event(game, "GAME_PAUSED", {"remaining_seconds": game.paused_remaining}, now)
        saved = store.save(game, expected_version=version, events=[event])
        sync_schedule(scheduler, game_id, previous_phase=None, phase=saved.phase, deadline=None)
        return _state(saved)

    return retrying(attempt)


def resume_game(
    store: GameStore, clock: Clock, game_id: str, actor: Actor, *, scheduler: DeadlineScheduler | None = None
) -> DeadlineState:
    _require_controller(actor)

    def attempt() -> DeadlineState:
        game = load(store, game_id)
        if game.status != "ACTIVE":
            raise GameNotActive("the game is over")
        if not game.paused:
            return _state(game)
        version, now = game.version, clock.now()
        started = len(game.players) == len(game_map(game.variant).power_ids)
        if game.paused_remaining:
            game.deadline = iso(now + timedelta(seconds=game.paused_remaining))
        elif started:
            game.deadline = deadline_for(game, str(game.state.get("phase_type", "")), now)
        game.paused, game.paused_remaining = False, None
        event = add_event(game, "GAME_RESUMED", {"deadline": game.deadline}, now)
        saved = store.save(game, expected_version=version, events=[event])
        sync_schedule(scheduler, game_id, previous_phase=None, phase=saved.phase, deadline=saved.deadline)
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
        game = load(store, game_id)
        if game.status != "ACTIVE":
            raise GameNotActive("the game is over")
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
        sync_schedule(scheduler, game_id, previous_phase=None, phase=saved.phase, deadline=saved.deadline)
        return _state(saved)

    return retrying(attempt)
