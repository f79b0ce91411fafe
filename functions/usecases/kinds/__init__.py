"""The registry of game kinds and what reads a game whatever its kind: the player's view, the lobby.

What other rooms use of this area is exported here; inside the area, modules import each
other directly."""

from __future__ import annotations

from functions.usecases.kinds.kind_registry import kind_named, kind_of
from functions.usecases.kinds.lobby import WAITING, game_name, listing_fields
from functions.usecases.kinds.player_view import view_for

__all__ = [
    "WAITING",
    "game_name",
    "kind_named",
    "kind_of",
    "listing_fields",
    "view_for",
]
