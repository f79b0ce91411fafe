"""The lobby: the games listing, with each game's open seats (asked of its kind).

Apart from views.py because it dispatches on the game's kind (kind_registry.py), and the
Diplomacy kind is itself built on views.py.

What a listing says of a game (ARCHITECTURE §8; ``listing_fields``), read from the game record
alone: its ``name``, the seats people fill (``seats_filled`` of ``seats_total``: every seat of
the game less its dummy powers, which nobody takes) and ``stage``, the lobby's word for where
it stands — ``waiting for players`` until every seat was filled once (``roster.has_started``),
then ``in play`` (or ``paused``), ``finished`` once it is over; and the two settings a player
picks a Diplomacy game by before joining: its ``press`` mode and whether it is played in
``fog`` of war (null and false for a kind without press or fog). ``status`` stays the engine's
``ACTIVE``/``COMPLETED`` as in the game's view, so a client that compares it keeps working.
"""

from __future__ import annotations

from typing import Any, Literal

from functions.ports import GameRecord, GameStore
from functions.usecases.game import DIPLOMACY, kind_name, with_scores
from functions.usecases.kinds.kind_registry import kind_of
from functions.usecases.players import dummy_powers, has_started, in_civil_disorder, is_fog_game, open_seats
from functions.usecases.press import press_mode

Stage = Literal["waiting for players", "in play", "paused", "finished"]
WAITING: Stage = "waiting for players"


def game_name(game: GameRecord) -> str:
    """The name a person gave the game, else ``<variant> <game id>``."""
    return str(game.settings.get("name") or f"{game.variant} {game.game_id}")


def stage(game: GameRecord, seats: list[str] | None = None) -> Stage:
    """Where the game stands, in the lobby's words (``seats``: the kind's, when known)."""
    if game.status != "ACTIVE":
        return "finished"
    if not has_started(game, seats if seats is not None else kind_of(game).seats(game)):
        return WAITING
    return "paused" if game.paused else "in play"


def listing_fields(game: GameRecord) -> dict[str, Any]:
    """What every listing (``GET /games``, ``/me/games``) says of a game beyond its id."""
    seats = kind_of(game).seats(game)
    takeable = [s for s in seats if s not in set(dummy_powers(game))]
    return {
        "name": game_name(game),
        "variant": game.variant,
        "seats_filled": sum(1 for s in takeable if s in game.players),
        "seats_total": len(takeable),
        "stage": stage(game, seats),
        "deadline": game.deadline,
        "press": press_mode(game) if kind_name(game) == DIPLOMACY else None,
        "fog": is_fog_game(game),
    }


def game_summary(game: GameRecord) -> dict[str, Any]:
    seats = kind_of(game).seats(game)
    return {
        "game_id": game.game_id,
        **listing_fields(game),
        "rules": game.rules,
        "phase": game.phase,
        "status": game.status,
        "private": bool(game.settings.get("private")),
        "players": sorted(game.players),
        "open_seats": open_seats(game, seats),
        "dummy_powers": dummy_powers(game),
        "civil_disorder": in_civil_disorder(game, seats),
        "demo": bool(game.settings.get("demo")),
        "result": with_scores(game.result),
        "game": kind_name(game),
        "created_at": game.created_at,
    }


def list_games(store: GameStore, limit: int = 50) -> list[dict[str, Any]]:
    return [game_summary(g) for g in store.list_games(limit)]
