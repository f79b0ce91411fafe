"""The geometry check of issue 14, item 1, run on every shipped variant, and shown to bite (one
mistake at a time, and a list of them seeded at once into a broken copy, issue 35 item 5)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

import engine
from render.geometry import (
    BORDER_TOLERANCE,
    GeometryError,
    _read,
    build_geometry,
    geometry_problems,
    load_geometry,
    shared_borders,
    touching_pairs,
)

MAPS = engine.available_maps()


def _doc(map_id: str) -> dict[str, Any]:
    text = resources.files("render").joinpath("geometry", f"{map_id}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@pytest.mark.parametrize("map_id", MAPS)
def test_every_province_has_a_shape_and_its_anchors(map_id: str) -> None:
    board, geometry = engine.load_map(map_id), load_geometry(map_id)
    assert set(geometry.provinces) == set(board.provinces)
    for pid, province in board.provinces.items():
        shape = geometry.provinces[pid]
        assert shape.rings and shape.unit and shape.label
        assert (shape.supply_center is not None) == province.supply_center
        assert set(shape.coasts) == set(province.coasts), pid


@pytest.mark.parametrize("map_id", MAPS)
def test_the_picture_agrees_with_the_adjacency_graph(map_id: str) -> None:
    # Given the loaded (already checked) geometry, recount here what the loader enforces
    board, geometry = engine.load_map(map_id), load_geometry(map_id)
    borders = shared_borders(geometry)
    crossed = {frozenset(c.provinces) for c in geometry.crossings}
    must = touching_pairs(board)
    # Then adjacent provinces touch or have a drawn crossing ...
    assert [sorted(p) for p in must if borders.get(p, 0) <= 0 and p not in crossed] == []
    # ... and non-adjacent ones share no real border
    assert [sorted(p) for p, n in borders.items() if p not in must and n > BORDER_TOLERANCE] == []


@pytest.mark.parametrize("map_id", MAPS)
def test_anchors_lie_on_the_board(map_id: str) -> None:
    geometry = load_geometry(map_id)
    for shape in geometry.provinces.values():
        for x, y in [shape.unit, shape.label, *shape.coasts.values()]:
            assert 0 <= x <= geometry.width and 0 <= y <= geometry.height


def test_a_missing_coast_anchor_is_refused() -> None:
    doc = _doc("classical")
    del doc["provinces"]["SPA"]["coasts"]["NC"]
    with pytest.raises(GeometryError, match="SPA coast anchors"):
        build_geometry(doc, engine.load_map("classical"))


def test_a_missing_province_is_refused() -> None:
    doc = _doc("classical")
    del doc["provinces"]["BUR"]
    with pytest.raises(GeometryError, match="without a shape: BUR"):
        build_geometry(doc, engine.load_map("classical"))


def test_adjacent_provinces_that_do_not_touch_are_refused() -> None:
    # Given Denmark and Sweden without the drawn crossing over the Sound
    doc = _doc("classical")
    doc["crossings"] = [c for c in doc["crossings"] if set(c["provinces"]) != {"DEN", "SWE"}]
    with pytest.raises(GeometryError, match="DEN and SWE are adjacent"):
        build_geometry(doc, engine.load_map("classical"))


def test_a_border_between_non_adjacent_provinces_is_refused() -> None:
    # Given Paris and Holland drawn in each other's place: Paris would border the North Sea
    doc = _doc("classical")
    par, hol = doc["provinces"]["PAR"], doc["provinces"]["HOL"]
    par["shape"], hol["shape"] = hol["shape"], par["shape"]
    with pytest.raises(GeometryError, match="are not adjacent but share"):
        build_geometry(doc, engine.load_map("classical"))


def test_geometry_of_another_map_is_refused() -> None:
    with pytest.raises(GeometryError, match="not 'classical'"):
        build_geometry(_doc("1900"), engine.load_map("classical"))


def test_every_seeded_picture_mistake_is_reported_at_once() -> None:
    """A broken copy of Classical's picture: each mistake is in the list, naming its culprit."""
    doc = _doc("classical")
    par, hol = doc["provinces"]["PAR"], doc["provinces"]["HOL"]
    par["shape"], hol["shape"] = hol["shape"], par["shape"]  # borders the graph does not have
    doc["crossings"] = [c for c in doc["crossings"] if set(c["provinces"]) != {"DEN", "SWE"}]
    doc["crossings"].append({"provinces": ["LON", "PAR"], "kind": "strait", "points": [[0, 0], [1, 1]]})
    problems = geometry_problems(_read(doc), engine.load_map("classical"))
    text = "\n".join(problems)
    # Paris drawn where Holland is borders the North Sea; Holland drawn in France borders Brest
    assert "NTH and PAR are not adjacent but share 121.3 units of border" in problems
    assert "BRE and HOL are not adjacent but share 68.5 units of border" in problems
    assert "HOL and NTH are adjacent but neither touch nor have a drawn crossing" in problems
    assert "DEN and SWE are adjacent but neither touch nor have a drawn crossing" in text
    assert "crossing between ('LON', 'PAR') that the map does not connect" in text
    doc = _doc("classical")
    del doc["provinces"]["SPA"]["coasts"]["NC"]
    del doc["provinces"]["BEL"]["supply_center"]
    problems = geometry_problems(_read(doc), engine.load_map("classical"))
    assert problems == ["BEL is a supply centre without a centre marker",
                        "SPA coast anchors ['SC'] differ from its coasts ['NC', 'SC']"]
