"""The lobby: the games listing, with each game's open seats (asked of its kind).

Apart from views.py because it dispatches on the game's kind (kind_registry.py), and the
Diplomacy kind is itself built on views.py.
"""

from __future__ import annotations

from typing import Any

from functions.ports import GameRecord, GameStore
from functions.usecases.common import kind_name
from functions.usecases.kind_registry import kind_of
from functions.usecases.results import with_scores
from functions.usecases.roster import dummy_powers, in_civil_disorder, open_seats


def game_summary(game: GameRecord) -> dict[str, Any]:
    seats = kind_of(game).seats(game)
    return {
        "game_id": game.game_id,
        "variant": game.variant,
        "rules": game.rules,
        "phase": game.phase,
        "status": game.status,
        "private": bool(game.settings.get("private")),
        "players": sorted(game.players),
        # status mirrors the engine (ACTIVE/COMPLETED); a game still forming shows here
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
