"""The game record, read and decoded: loading it (``GAME_NOT_FOUND``, ``GAME_NOT_ACTIVE``), its
kind, its map and its Diplomacy state. The engine is used only through its façade
(``import engine``); maps are cached per variant (they are immutable values)."""

from __future__ import annotations

from functools import lru_cache

import engine
from functions.errors import GameNotActive, GameNotFound, UnknownVariant, WrongGameKind
from functions.ports import GameRecord, GameStore, ItemNotFound, PowerPress

DIPLOMACY = "diplomacy"  # the kind of a record without settings["game"] (usecases/games/game_kinds.py)


def kind_name(game: GameRecord) -> str:
    return str(game.settings.get("game") or DIPLOMACY)


@lru_cache(maxsize=8)
def game_map(variant: str) -> engine.MapData:
    try:
        return engine.load_map(variant)
    except (KeyError, FileNotFoundError, engine.MapDataError, ValueError) as exc:
        raise UnknownVariant(f"unknown variant {variant!r}") from exc


def state_of(game: GameRecord) -> engine.GameState:
    """The Diplomacy state of ``game``; another kind of game is ``WRONG_GAME_KIND`` (409), so every
    Diplomacy-only call (orders, process_turn, ...) refuses, say, a backgammon game cleanly."""
    if kind_name(game) != DIPLOMACY:
        raise WrongGameKind(f"game {game.game_id} is {kind_name(game)}: this call is for Diplomacy games")
    return engine.state_from_dict(game.state)


def order_key(order: engine.Order) -> str:
    """Orders of one power are keyed by the province they concern (unit or build site)."""
    where = getattr(order, "unit", None) or getattr(order, "location", None)
    return where.province if where is not None else f"{order.order_type}"


def load(store: GameStore, game_id: str) -> GameRecord:
    try:
        return store.load(game_id)
    except ItemNotFound as exc:
        raise GameNotFound(f"no game {game_id!r}") from exc


def load_with_press(store: GameStore, game_id: str) -> tuple[GameRecord, dict[str, PowerPress] | None]:
    """The game and its powers' press ledgers, in one read (a player's view)."""
    try:
        return store.load_with_press(game_id)
    except ItemNotFound as exc:
        raise GameNotFound(f"no game {game_id!r}") from exc


def load_active(store: GameStore, game_id: str) -> GameRecord:
    """The game, for a change: ``GAME_NOT_FOUND`` if absent, ``GAME_NOT_ACTIVE`` once it is over."""
    game = load(store, game_id)
    if game.status != "ACTIVE":
        raise GameNotActive("the game is over")
    return game
