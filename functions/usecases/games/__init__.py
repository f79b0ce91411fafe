"""Creating games of every kind: the GameKind seam, creation and import.

What other rooms use of this area is exported here; inside the area, modules import each
other directly."""

from __future__ import annotations

from functions.usecases.games.create_game import Created, CreateGame, create_game
from functions.usecases.games.game_import import import_game, take_import_slot
from functions.usecases.games.game_kinds import GameKind

__all__ = [
    "CreateGame",
    "Created",
    "GameKind",
    "create_game",
    "import_game",
    "take_import_slot",
]
