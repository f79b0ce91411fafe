"""Who sits where: seated players, dummy powers, open seats, civil disorder, active powers.

Pure functions over a ``GameRecord`` (no store, no clock), shared by the views, the
vote count, process_turn's lifecycle hooks and the seat use cases.

Vocabulary (docs/rules.md "Seats"):
- a *seated* power has a player (an entry in ``game.players`` holding its token hash);
- a *dummy* power (``settings.dummy_powers``) is never joinable and never waited on;
- an *open* seat has no player and is not a dummy: never taken yet, left
  (``POST /leave``), opened by the creator, or in *civil disorder* after missed
  movement phases (``game.seats[power]["status"]``). ``join`` takes an open seat;
- an *active* power is a seated survivor: it is waited on, and it counts for the
  draw and concession quorum. Dummies, open seats, civil disorder and eliminated
  powers are not active.
The game *has started* once every seat was filled at least once (``started_at``).
"""

from __future__ import annotations

from collections.abc import Sequence

import engine
from functions.ports import GameRecord
from functions.usecases.game import game_map, state_of, survivors

OPEN = "open"
CIVIL_DISORDER = "civil_disorder"


def all_powers(game: GameRecord, seats: Sequence[str] | None = None) -> list[str]:
    """Every seat of the game: ``seats`` as the game's kind gives them (the callers that
    dispatch on kinds pass them: join, lobby), else the Diplomacy map's powers."""
    return sorted(seats) if seats is not None else sorted(game_map(game.variant).power_ids)


def dummy_powers(game: GameRecord) -> list[str]:
    return sorted(str(p) for p in game.settings.get("dummy_powers") or [])


def open_seats(game: GameRecord, seats: Sequence[str] | None = None) -> list[str]:
    """Seats a newcomer may take: no player, not a dummy."""
    dummies = set(dummy_powers(game))
    return [p for p in all_powers(game, seats) if p not in game.players and p not in dummies]


def seat_status(game: GameRecord, power: str) -> str:
    """``player``, ``dummy``, ``civil_disorder`` or ``open``."""
    if power in game.players:
        return "player"
    if power in dummy_powers(game):
        return "dummy"
    status = str((game.seats.get(power) or {}).get("status") or OPEN)
    return CIVIL_DISORDER if status == CIVIL_DISORDER else OPEN


def in_civil_disorder(game: GameRecord, seats: Sequence[str] | None = None) -> list[str]:
    return [p for p in all_powers(game, seats) if seat_status(game, p) == CIVIL_DISORDER]


def has_started(game: GameRecord, seats: Sequence[str] | None = None) -> bool:
    """Every seat was filled once (games stored before ``started_at``: every seat is filled)."""
    return game.started_at is not None or not open_seats(game, seats)


def excused(game: GameRecord) -> set[str]:
    """Powers nobody waits on: dummies always; open seats once the game has started.

    A game still forming waits on every non-dummy power, so it never auto-processes
    before its last seat is taken.
    """
    out = set(dummy_powers(game))
    if game.started_at is not None:
        out |= set(open_seats(game))
    return out


def waited_on(game: GameRecord, state: engine.GameState, the_map: engine.MapData) -> list[str]:
    """Powers with a decision to make in ``state`` (engine's ``powers_with_orders_to_give``),
    less those nobody waits on (``excused``): from a state the caller decoded once."""
    if game.status != "ACTIVE":
        return []
    skip = excused(game)
    return sorted(p for p in engine.powers_with_orders_to_give(state, the_map) if p not in skip)


def active_powers(game: GameRecord, state: engine.GameState | None = None) -> list[str]:
    """Seated survivors: the draw/concession quorum."""
    the_state = state if state is not None else state_of(game)
    alive = set(survivors(the_state, game_map(game.variant)))
    return sorted(p for p in game.players if p in alive and p not in dummy_powers(game))
