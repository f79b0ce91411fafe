"""The board as a picture (issue 14): a phase's map as SVG or PNG, as a caller may see it.

An area of its own, above turns, because it is the one that draws (``render``: Pillow, resvg):
the functions that never draw a map (the deadlines, the relay, the bot, the live socket) import
the turns area without shipping the renderer (deploy/build_artifacts.py follows imports).

What other rooms use of this area is exported here; inside the area, modules import each
other directly."""

from __future__ import annotations

from functions.usecases.maps.map_view import MapPicture, MapRequest, map_picture, seat_board_png

__all__ = ["MapPicture", "MapRequest", "map_picture", "seat_board_png"]
