"""Board geometry: one shape and the anchor points of every province, loaded and checked.

The geometry files (render/geometry/<map>.json) are data authored by
render/tools/author_geometry.py from real geography; see docs/render.md. This module reads one
and refuses it unless it agrees with the engine's map (issue 14, item 1):

- every province of the map has a shape, a unit anchor and a label point; every supply centre a
  centre marker; every coast of a split-coast province its own unit anchor;
- provinces adjacent on the map share a border, or a crossing is drawn between them;
- provinces that are not adjacent share no border longer than ``BORDER_TOLERANCE``.

Pure: standard library only, no drawing. Geometry uses SVG user units, origin top-left.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from engine import MapData, load_map

Point = tuple[float, float]
Ring = tuple[Point, ...]

# Longest border (SVG units, of a 1000-unit-wide board) two non-adjacent provinces may share:
# a simplified coastline may leave a corner where three provinces meet, never a real border.
BORDER_TOLERANCE = 2.0


class GeometryError(ValueError):
    """The geometry does not fit the map; the message names the province or the pair."""


@dataclass(frozen=True)
class ProvinceShape:
    id: str
    rings: tuple[Ring, ...]
    unit: Point
    label: Point
    supply_center: Point | None
    coasts: Mapping[str, Point]

    @property
    def path(self) -> str:
        """The SVG path data of all rings (even-odd fill draws the holes)."""
        return rings_path(self.rings)


@dataclass(frozen=True)
class Crossing:
    """A drawn link between two adjacent provinces that do not touch on the picture.

    ``strait``: a dashed line between ``points`` (Denmark-Sweden across the Sound).
    ``offmap``: a route that leaves the board (1900's Cape route), drawn as a labelled stub at
    each end; ``label`` names the route ("round the Cape").
    """

    provinces: tuple[str, str]
    kind: str
    points: tuple[Point, ...]
    label: str


@dataclass(frozen=True, eq=False)
class Geometry:
    map_id: str
    width: float
    height: float
    provinces: Mapping[str, ProvinceShape]
    neutral_land: tuple[Ring, ...]
    neutral_water: tuple[Ring, ...]
    crossings: tuple[Crossing, ...]

    def anchor(self, province: str, coast: str | None = None) -> Point:
        """Where a unit in ``province`` (on ``coast``, if given) is drawn."""
        shape = self.provinces[province]
        if coast is not None and coast in shape.coasts:
            return shape.coasts[coast]
        return shape.unit


def rings_path(rings: tuple[Ring, ...]) -> str:
    parts = []
    for ring in rings:
        head, *rest = ring
        parts.append(f"M{_n(head[0])} {_n(head[1])}" + "".join(f"L{_n(x)} {_n(y)}" for x, y in rest) + "Z")
    return "".join(parts)


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


@cache
def load_geometry(map_id: str) -> Geometry:
    """The checked geometry of a map shipped with the package. A rule variant drawn on another
    map's board (Chaos, Fleet Rome: the classical board) names it in its ``picture`` field."""
    board = load_map(map_id)
    picture = picture_of(board)
    try:
        text = resources.files("render").joinpath("geometry", f"{picture}.json").read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise GeometryError(f"no geometry for map {map_id!r}") from exc
    return build_geometry(json.loads(text), board)


def picture_of(board: MapData) -> str:
    """The geometry a map is drawn with: its own, or the board named by its ``picture``."""
    return str(board.raw.get("picture", board.map_id))


def build_geometry(data: dict[str, Any], board: MapData) -> Geometry:
    """Read a geometry document and check it against ``board`` (see module docstring); the
    error lists every problem ``geometry_problems`` finds, one per line."""
    try:
        geometry = _read(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise GeometryError(f"malformed geometry document: {exc}") from exc
    problems = geometry_problems(geometry, board)
    if problems:
        raise GeometryError("\n".join(problems))
    return geometry


def geometry_problems(geometry: Geometry, board: MapData) -> list[str]:
    """Every way the picture disagrees with the map, each naming its province or pair."""
    if geometry.map_id != picture_of(board):
        return [f"geometry is for map {geometry.map_id!r}, not {picture_of(board)!r}"]
    anchors = list(anchor_problems(geometry, board))
    if anchors:  # borders cannot be compared while shapes are missing
        return anchors
    return list(border_problems(geometry, board))


def _read(data: dict[str, Any]) -> Geometry:
    provinces = {}
    for pid, entry in sorted(data["provinces"].items()):
        provinces[pid] = ProvinceShape(
            id=pid,
            rings=_rings(entry["shape"]),
            unit=_point(entry["unit"]),
            label=_point(entry["label"]),
            supply_center=_point(entry["supply_center"]) if entry.get("supply_center") else None,
            coasts={c: _point(p) for c, p in sorted(entry.get("coasts", {}).items())},
        )
    crossings = tuple(
        Crossing(
            provinces=(c["provinces"][0], c["provinces"][1]),
            kind=c["kind"],
            points=tuple(_point(p) for p in c.get("points", ())),
            label=c.get("label", ""),
        )
        for c in data.get("crossings", ())
    )
    return Geometry(
        map_id=data["map_id"],
        width=float(data["width"]),
        height=float(data["height"]),
        provinces=provinces,
        neutral_land=_rings(data.get("neutral_land", [])),
        neutral_water=_rings(data.get("neutral_water", [])),
        crossings=crossings,
    )


def _point(value: Any) -> Point:
    x, y = value
    return (float(x), float(y))


def _rings(value: Any) -> tuple[Ring, ...]:
    rings = tuple(tuple(_point(p) for p in ring) for ring in value)
    if any(len(ring) < 3 for ring in rings):
        raise ValueError("a ring needs at least three points")
    return rings


def anchor_problems(geometry: Geometry, board: MapData) -> Iterator[str]:
    missing = sorted(set(board.provinces) - set(geometry.provinces))
    if missing:
        yield f"provinces without a shape: {', '.join(missing)}"
    unknown = sorted(set(geometry.provinces) - set(board.provinces))
    if unknown:
        yield f"shapes for provinces the map does not have: {', '.join(unknown)}"
    for pid, province in sorted(board.provinces.items()):
        shape = geometry.provinces.get(pid)
        if shape is None:
            continue
        if not shape.rings:
            yield f"{pid} has an empty shape"
        if province.supply_center and shape.supply_center is None:
            yield f"{pid} is a supply centre without a centre marker"
        if set(shape.coasts) != set(province.coasts):
            yield f"{pid} coast anchors {sorted(shape.coasts)} differ from its coasts {list(province.coasts)}"


def touching_pairs(board: MapData) -> frozenset[frozenset[str]]:
    """Pairs of provinces the picture must show as neighbours: any army edge, any fleet edge."""
    pairs = {frozenset((a, b)) for a, others in board.army_adjacent.items() for b in others}
    for src, dests in board.fleet_adjacent.items():
        pairs.update(frozenset((src.province, d.province)) for d in dests)
    return frozenset(p for p in pairs if len(p) == 2)


def shared_borders(geometry: Geometry) -> dict[frozenset[str], float]:
    """Length of border each pair of provinces shares (segments drawn by both, in either order)."""
    owners: dict[tuple[Point, Point], set[str]] = defaultdict(set)
    for pid, shape in geometry.provinces.items():
        for ring in shape.rings:
            for i, a in enumerate(ring):
                b = ring[(i + 1) % len(ring)]
                owners[(a, b) if a <= b else (b, a)].add(pid)
    lengths: dict[frozenset[str], float] = defaultdict(float)
    for (a, b), pids in owners.items():
        if len(pids) == 2:
            lengths[frozenset(pids)] += math.dist(a, b)
    return dict(lengths)


def border_problems(geometry: Geometry, board: MapData) -> Iterator[str]:
    """A drawn border the graph does not have, an adjacency the picture does not show, and a
    crossing between provinces the map does not connect."""
    must = touching_pairs(board)
    borders = shared_borders(geometry)
    crossed = {frozenset(c.provinces) for c in geometry.crossings}
    for pair, length in sorted(borders.items(), key=lambda kv: sorted(kv[0])):
        if pair not in must and length > BORDER_TOLERANCE:
            a, b = sorted(pair)
            yield f"{a} and {b} are not adjacent but share {length:.1f} units of border"
    for pair in sorted(must, key=sorted):
        if borders.get(pair, 0.0) <= 0.0 and pair not in crossed:
            a, b = sorted(pair)
            yield f"{a} and {b} are adjacent but neither touch nor have a drawn crossing"
    for crossing in geometry.crossings:
        if frozenset(crossing.provinces) not in must:
            yield f"crossing between {crossing.provinces} that the map does not connect"
