"""Backgammon on the platform (issue 18 item 4): the ``GameKind`` and the one intent, ``play``.

The game is ``backgammon.step`` driven one intent at a time by a stateless server: the META
item holds ``backgammon.state_to_dict`` output; a move or an undo is one ``step``; the dice
are rolled here, as the n-th roll of the game's seed (``backgammon.seeded_roll``), whenever the
state waits for them, so a seeded game replays exactly. The seed's broadcast outputs become
events (GAME_STATE, TURN_ROLLS, MOVE_ROLLS, GAME_WON) next to MOVE_MADE / MOVE_UNDONE for each
accepted input; an INVALID_MOVE is a 422 with the seed's code, and nothing is written.

What is not here: deadlines (a backgammon game has none), notifications, the Diplomacy routes
(orders, process_turn, ... answer WRONG_GAME_KIND through ``common.state_of``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import backgammon as bg
from functions.errors import (
    GameNotStarted,
    InvalidMove,
    NotYourTurn,
    StalePhase,
    ValidationFailed,
    WrongGameKind,
)
from functions.ports import Clock, EventRecord, GameRecord, GameStore
from functions.usecases.game import add_event, iso, kind_name, load_active, retrying
from functions.usecases.games import Created, CreateGame
from functions.usecases.players import Actor, hash_password, hash_token, new_token, require_player

NAME = "backgammon"
SIDES = sorted(side.name for side in bg.Side)
MESSAGES = {
    "INVALID_MOVE_TYPE": "MOVE needs a move [die index, source]; UNDO takes none",
    "NOTHING_TO_UNDO": "no move of this turn to undo",
    "INVALID_INPUT_TYPE": "input must be MOVE or UNDO",
    "DIE_INDEX_INVALID": "that die index does not exist or is already played",
    "SOURCE_INVALID": "the source must be null while a checker is on the bar, else a point 0-23",
    "SOURCE_NOT_OWNED_PIECE": "none of your checkers stands on that point",
    "DESTINATION_OCCUPIED": "two or more opposing checkers hold the destination",
    "DESTINATION_OUT_OF_BOARD": "bearing off is allowed only once all your checkers are home",
    "BEAR_OFF_NOT_FARTHEST": "a higher die bears off only your farthest checker",
    "MUST_USE_MORE_DICE": "another move lets you use more of this roll",
    "MUST_USE_LARGER_DIE": "only one die can be used: it must be the larger",
}


def state_of(game: GameRecord) -> bg.GameState:
    if kind_name(game) != NAME:
        raise WrongGameKind(f"game {game.game_id} is {kind_name(game)}, not backgammon")
    return bg.state_from_dict(game.state)


def label(state: bg.GameState) -> str:
    """The record's ``phase``: T<n>, n the rolls so far, so a client can say which turn it means."""
    return f"T{state.rolls}"


def public_state(state: bg.GameState) -> dict[str, Any]:
    """The state as anyone may see it: the undo snapshots become a count; the state's phase
    (what it waits for) is ``stage``, as the record's ``phase`` is the turn label."""
    shown = bg.state_to_dict(state)
    shown["moves_this_turn"] = len(shown.pop("undo"))
    shown["stage"] = shown.pop("phase")
    return shown


def _events(game: GameRecord, outputs: tuple[bg.Output, ...], now: datetime) -> list[EventRecord]:
    """The seed's outputs for both sides as events (an INVALID_MOVE never gets this far)."""
    found = []
    for out in outputs:
        if out.type is bg.OutputType.GAME_STATE:
            data: dict[str, Any] = {"state": public_state(out.data)}
        elif out.type in (bg.OutputType.TURN_ROLLS, bg.OutputType.MOVE_ROLLS):
            data = {"dice": list(out.data)}
        else:
            data = {"winner": out.data.name}
        found.append(add_event(game, out.type.value, data, now))
    return found


def _advance(
    game: GameRecord,
    state: bg.GameState,
    outputs: tuple[bg.Output, ...],
    now: datetime,
) -> list[EventRecord]:
    """Log ``outputs``, roll while the game waits for dice, and put the result on the record."""
    events: list[EventRecord] = []
    seed = int(game.settings["dice_seed"])
    while True:
        game.phase = label(state)
        events += _events(game, outputs, now)
        if state.phase not in (bg.Phase.TURN_ROLL, bg.Phase.MOVE_ROLL):
            break
        state, outputs = bg.step(state, bg.Roll(bg.seeded_roll(seed, state.rolls)))
    game.state = bg.state_to_dict(state)
    if state.phase is bg.Phase.OVER:
        game.status = "COMPLETED"
    return events


class Backgammon:
    name = NAME

    def create(self, store: GameStore, clock: Clock, request: CreateGame) -> Created:
        diplomacy_only = {
            "variant": request.variant != "classical",
            "rules": request.rules != "2023",
            "phase_seconds": bool(request.phase_seconds),
            "auto_process": request.auto_process,
            "reminder_seconds": request.reminder_seconds is not None,
            "notify": bool(request.notify),
        }
        given = sorted(k for k, v in diplomacy_only.items() if v)
        if given:
            raise ValidationFailed(f"{', '.join(given)}: Diplomacy settings, not for backgammon")
        if request.private and not request.join_password:
            raise ValidationFailed("a private game needs a join_password")
        now, token = clock.now(), new_token()
        state, outputs = bg.new_game(request.move_by_turn_rolls)
        settings: dict[str, object] = {
            "game": NAME,
            "private": request.private,
            "move_by_turn_rolls": request.move_by_turn_rolls,
            "seeded": request.seed is not None,  # a known seed makes the dice predictable
            "dice_seed": request.seed if request.seed is not None else secrets.randbits(62),
        }
        if request.private and request.join_password:
            settings["join_password"] = hash_password(request.join_password)
        game = GameRecord(
            game_id=secrets.token_hex(6),
            variant=NAME,
            rules="standard",
            created_at=iso(now),
            creator_token_hash=hash_token(token),
            state=bg.state_to_dict(state),
            phase=label(state),
            phase_started_at=iso(now),
            settings={**settings, **({"name": request.name} if request.name else {})},
            creator_user_id=request.creator_user_id,
        )
        created = add_event(game, "GAME_CREATED", {"game": NAME, "private": request.private}, now)
        store.create(game, [created, *_events(game, outputs, now)])
        return Created(game_id=game.game_id, token=token)

    def seats(self, game: GameRecord) -> list[str]:
        return list(SIDES)

    def on_start(self, game: GameRecord, now: datetime) -> list[EventRecord]:
        """Both sides are seated: the turn-deciding roll (and the first move's) happen now,
        not at creation, so nobody picks a side knowing who moves first."""
        return _advance(game, state_of(game), (), now)

    def view(self, game: GameRecord, actor: Actor) -> dict[str, Any]:
        state = state_of(game)
        side = actor.power if actor.kind == "player" else None
        to_play = state.turn.name if state.turn is not None and state.phase is bg.Phase.MOVING else None
        mine = side is not None and side == to_play and game.status == "ACTIVE"
        return {
            "game_id": game.game_id,
            "game": NAME,
            "status": game.status,
            "phase": game.phase,
            "side": side,
            "to_play": to_play,
            **public_state(state),
            "legal_moves": [[d, s] for d, s in bg.legal_moves(state)] if mine else [],
            "can_undo": mine and bool(state.undo),
            "board_text": bg.render(state),
            "players": {s: {"joined_at": info.get("joined_at")} for s, info in sorted(game.players.items())},
            "open_seats": [s for s in SIDES if s not in game.players],
            "private": bool(game.settings.get("private")),
            "seeded": bool(game.settings.get("seeded")),
            "event_seq": game.event_seq,
        }


BACKGAMMON = Backgammon()


@dataclass(frozen=True)
class Played:
    game: GameRecord
    events: list[EventRecord]


def _input(kind: str, move: list[int | None] | None) -> tuple[Any, Any]:
    """The request as the seed's input pair; an unknown kind stays a string (INVALID_INPUT_TYPE)."""
    given = bg.InputType[kind] if kind in bg.InputType.__members__ else kind
    return given, None if move is None else tuple(move)


def play(
    store: GameStore,
    clock: Clock,
    game_id: str,
    actor: Actor,
    kind: str,
    move: list[int | None] | None = None,
    *,
    phase: str | None = None,
) -> Played:
    """One MOVE or UNDO by the caller's side; refused inputs raise and write nothing."""
    side = require_player(actor)

    def attempt() -> Played:
        game = load_active(store, game_id)
        state = state_of(game)
        if state.phase is not bg.Phase.MOVING or state.turn is None:
            raise GameNotStarted("waiting for both sides to join")
        if phase is not None and phase != game.phase:
            raise StalePhase(f"this move is for {phase} but the game is at {game.phase}", phase=game.phase)
        if state.turn.name != side:
            raise NotYourTurn(f"{state.turn.name} is to play", to_play=state.turn.name)
        after, outputs = bg.step(state, _input(kind, move))
        refused = [o.data.value for o in outputs if o.type is bg.OutputType.INVALID_MOVE]
        if refused:
            raise InvalidMove(refused[0], MESSAGES[refused[0]], side=side)
        now, version = clock.now(), game.version
        made: dict[str, Any] = {"side": side, "input": kind}
        if move is not None:
            made["move"] = list(move)
        events = [add_event(game, "MOVE_MADE" if kind == "MOVE" else "MOVE_UNDONE", made, now)]
        events += _advance(game, after, outputs, now)
        saved = store.save(game, expected_version=version, events=events)
        return Played(saved, events)

    return retrying(attempt)
