"""The one seam between the platform and its games: a ``GameKind`` per kind of game.

The shared use cases ask the game's kind for what differs between games — how it is
created, what happens when the last seat is taken, and its view — instead of testing the
game's name. Two things are plain data on the record instead, so that the modules a kind
wraps never need this registry (no import cycle): the kind's name (``common.kind_name``,
``settings["game"]``) and its seats (``common.seats_of``). Everything else about a game
stays in its own modules: Diplomacy in the use cases around ``engine``, backgammon in
``backgammon_game.py`` around ``backgammon``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol

from functions.errors import UnknownGame
from functions.ports import Clock, EventRecord, GameRecord, GameStore
from functions.usecases.common import Actor, kind_name
from functions.usecases.create_game import Created, CreateGame


class GameKind(Protocol):
    @property
    def name(self) -> str: ...

    def create(self, store: GameStore, clock: Clock, request: CreateGame) -> Created:
        """Store a new game of this kind; the creator's token comes back once."""
        ...

    def on_start(self, game: GameRecord, now: datetime) -> list[EventRecord]:
        """Change the working copy when the last seat is taken; the events to append."""
        ...

    def view(self, game: GameRecord, actor: Actor) -> dict[str, Any]:
        """The game as ``actor`` may see it (the one view builder of this kind)."""
        ...


def _diplomacy() -> GameKind:
    from functions.usecases.diplomacy_kind import DIPLOMACY_KIND

    return DIPLOMACY_KIND


def _backgammon() -> GameKind:
    from functions.usecases.backgammon_game import BACKGAMMON

    return BACKGAMMON


# name -> loader: a kind's modules (its rules package) load when a game of that kind is first
# touched, so a Diplomacy request never pays for importing backgammon (API cold start, issue 9).
KINDS: dict[str, Callable[[], GameKind]] = {"diplomacy": _diplomacy, "backgammon": _backgammon}


def kind_named(name: str) -> GameKind:
    if name not in KINDS:
        raise UnknownGame(f"unknown game {name!r}; games: {', '.join(sorted(KINDS))}")
    return KINDS[name]()


def kind_of(game: GameRecord) -> GameKind:
    return kind_named(kind_name(game))
