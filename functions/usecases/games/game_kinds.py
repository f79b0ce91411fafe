"""The one seam between the platform and its games: a ``GameKind`` per kind of game.

The shared use cases (create, join, list, view) ask the game's kind for what differs between
games — its seats, its view, how it is created and what happens when the last seat is taken —
instead of testing the game's name. A record's kind is ``settings["game"]``; records without it
are Diplomacy (every game stored before backgammon existed). Everything else about a game stays
in its own modules: Diplomacy in the use cases around ``engine``, backgammon in
``backgammon_game.py`` around ``backgammon``.

This module names the seam (``GameKind``; a record's kind name is ``common.kind_name``) and
knows no kind; the registry that maps a name to its kind is ``kind_registry.py``, above the
kinds it imports, so no two modules import each other (tests/contracts/test_boundaries.py).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from functions.ports import Clock, EventRecord, GameRecord, GameStore
from functions.usecases.players import Actor

if TYPE_CHECKING:  # a view never creates a game: create_game is not on its path (issue 9)
    from functions.usecases.games.create_game import Created, CreateGame


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
