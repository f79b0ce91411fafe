"""The one seam between the platform and its games: a ``GameKind`` per kind of game.

The shared use cases (create, join, list, view) ask the game's kind for what differs between
games — its seats, its view, how it is created and what happens when the last seat is taken —
instead of testing the game's name. A record's kind is ``settings["game"]``; records without it
are Diplomacy (every game stored before backgammon existed). Everything else about a game stays
in its own modules: Diplomacy in the use cases around ``engine``, backgammon in
``backgammon_game.py`` around ``backgammon``.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from functions.errors import UnknownGame
from functions.ports import Clock, EventRecord, GameRecord, GameStore

if TYPE_CHECKING:
    from functions.usecases.common import Actor
    from functions.usecases.create_game import Created, CreateGame

DIPLOMACY = "diplomacy"


class GameKind(Protocol):
    name: str

    def create(self, store: GameStore, clock: Clock, request: CreateGame) -> Created:
        """Store a new game of this kind; the creator's token comes back once."""
        ...

    def seats(self, game: GameRecord) -> list[str]:
        """The seat names a player may join as (powers, sides), sorted."""
        ...

    def on_start(self, game: GameRecord, now: datetime) -> list[EventRecord]:
        """Change the working copy when the last seat is taken; the events to append."""
        ...

    def view(self, game: GameRecord, actor: Actor) -> dict[str, Any]:
        """The game as ``actor`` may see it (the one view builder of this kind)."""
        ...


def kind_name(game: GameRecord) -> str:
    return str(game.settings.get("game") or DIPLOMACY)


def kind_named(name: str) -> GameKind:
    kinds = _kinds()
    if name not in kinds:
        raise UnknownGame(f"unknown game {name!r}; games: {', '.join(sorted(kinds))}")
    return kinds[name]


def kind_of(game: GameRecord) -> GameKind:
    return kind_named(kind_name(game))


@lru_cache(maxsize=1)
def _kinds() -> dict[str, GameKind]:
    # Built on first use, not at import: each kind wraps use cases (views, create_game) that
    # themselves ask this module for a game's kind, so importing them here would be a cycle.
    from functions.usecases.backgammon_game import BACKGAMMON
    from functions.usecases.diplomacy_kind import DIPLOMACY_KIND

    kinds: tuple[GameKind, ...] = (DIPLOMACY_KIND, BACKGAMMON)
    return {kind.name: kind for kind in kinds}
