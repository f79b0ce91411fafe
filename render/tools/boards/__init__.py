"""What the geometry author needs to know of each board besides the map: where its provinces
are on the globe (seed points), its extent and projection, and its drawn crossings.

One module per board (``render/tools/boards/<map>.py`` defines ``BOARD``); Classical and
1900 are read from ``render/tools/seeds.py``, where they were first written.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from render.tools import seeds as S
from render.tools.projections import Projection

Point = tuple[float, float]


@dataclass(frozen=True)
class BoardConfig:
    seeds: dict[str, list[Point]]
    extent: list[Point]
    cols: int
    projection: Any = None  # a projections.Projection or Warp; None: the European default
    islands: dict[str, list[Point]] = field(default_factory=dict)
    neutral_land: list[Point] = field(default_factory=list)
    crossings: list[tuple[str, str]] = field(default_factory=list)
    offmap: list[tuple[str, str, str]] = field(default_factory=list)
    label_at: dict[str, Point] = field(default_factory=dict)
    water: list[list[Point]] = field(default_factory=list)  # (lon, lat) rings forced to water


# The Caspian Sea, which the land mask (an elevation model) counts as land.
CASPIAN = [
    (46.7, 44.8),
    (47.5, 45.6),
    (49.2, 46.6),
    (51.2, 47.1),
    (53.2, 46.8),
    (53.0, 45.2),
    (51.3, 44.5),
    (50.3, 44.3),
    (51.3, 43.1),
    (52.6, 42.0),
    (52.9, 41.0),
    (53.9, 40.6),
    (53.0, 39.2),
    (53.9, 37.3),
    (51.5, 36.8),
    (49.9, 37.4),
    (48.9, 38.4),
    (49.3, 39.6),
    (49.6, 40.4),
    (48.6, 41.8),
    (47.6, 43.0),
    (47.5, 44.0),
]


CROSSINGS = {"classical": [("DEN", "SWE")], "1900": [("DEN", "SWE"), ("CLY", "IRE"), ("GIB", "MOR")]}
CAPE = "round the Cape"
OFFMAP = {"1900": [("EGY", "MAO", CAPE), ("HEJ", "MAO", CAPE)]}


def board(map_id: str) -> BoardConfig:
    if map_id in ("classical", "1900"):
        config = BoardConfig(
            seeds=S.CLASSICAL if map_id == "classical" else S.V1900,
            extent=S.EXTENT[map_id],
            cols={"classical": 620, "1900": 680}[map_id],
            islands=S.ISLANDS[map_id],
            neutral_land=S.NEUTRAL_LAND[map_id],
            crossings=CROSSINGS[map_id],
            offmap=OFFMAP.get(map_id, []),
            label_at=S.LABEL_AT.get(map_id, {}),
        )
    else:
        config = importlib.import_module(f"render.tools.boards.{map_id}").BOARD
    if config.projection is None:
        config = BoardConfig(**{**config.__dict__, "projection": Projection()})
    return config
