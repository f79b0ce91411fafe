"""Backgammon, the second kind of game (issue 32): its use cases over the pure rules.

What other rooms use of this area is exported here; inside the area, modules import each
other directly."""

from __future__ import annotations

from functions.usecases.backgammon.backgammon_game import BACKGAMMON, play

__all__ = [
    "BACKGAMMON",
    "play",
]
