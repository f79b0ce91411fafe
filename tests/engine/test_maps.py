"""The map files as data (issue 2 §3; shared/maps/SCHEMA.md): what MapData answers.

Counts come from the Classical rulebook map: 75 provinces (Switzerland impassable and
not listed), 34 supply centres, 22 starting units, 7 powers; 1900 has 39 centres.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

import engine
from engine import Location, UnitKind
from engine.maps import MapDataError, build_map

CLASSICAL = engine.load_map("classical")


def _classical_json() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((resources.files("engine.maps") / "classical.json").read_text())
    return data


def test_load_once_and_cache() -> None:
    assert engine.load_map("classical") is CLASSICAL
    with pytest.raises(KeyError):
        engine.load_map("no-such-map")


def test_classical_counts() -> None:
    assert len(CLASSICAL.provinces) == 75
    assert len(CLASSICAL.supply_centers) == 34
    assert len(CLASSICAL.starting_units) == 22
    assert CLASSICAL.power_ids == ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
    assert CLASSICAL.home_centers("RUSSIA") == ("MOS", "SEV", "STP", "WAR")
    assert CLASSICAL.victory.solo_supply_centers == 18
    assert len(engine.load_map("1900").supply_centers) == 39


@pytest.mark.parametrize(("text", "expected"), [
    ("Mid-Atlantic Ocean", "MAO"), ("MID", "MAO"), ("mao", "MAO"), ("St Petersburg", "STP"),
    ("st. petersburg", "STP"), ("North Sea", "NTH"), ("nwg", "NWG"), ("Norway", "NWY"),
])
def test_names_resolve_to_ids(text: str, expected: str) -> None:
    assert CLASSICAL.resolve_name(text) == expected


def test_kinds_and_coasts() -> None:
    assert CLASSICAL.provinces["MUN"].is_land and CLASSICAL.provinces["NTH"].is_sea
    assert CLASSICAL.provinces["SPA"].coasts == ("NC", "SC")
    assert CLASSICAL.fleet_locations("STP") == (Location("STP", "NC"), Location("STP", "SC"))
    assert CLASSICAL.fleet_locations("MUN") == ()


def test_adjacency_is_coast_aware_and_symmetric() -> None:
    """A fleet on Spain's north coast reaches MAO and GAS but not the Gulf of Lyon."""
    assert CLASSICAL.adjacent(UnitKind.FLEET, Location("SPA", "NC"), Location("MAO"))
    assert not CLASSICAL.adjacent(UnitKind.FLEET, Location("SPA", "NC"), Location("LYO"))
    assert CLASSICAL.adjacent(UnitKind.ARMY, Location("PAR"), Location("BUR"))
    assert not CLASSICAL.adjacent(UnitKind.ARMY, Location("LVP"), Location("IRI"))
    for src, dests in CLASSICAL.fleet_adjacent.items():
        assert all(src in CLASSICAL.fleet_adjacent[d] for d in dests)
    for province, near in CLASSICAL.army_adjacent.items():
        assert all(province in CLASSICAL.army_adjacent[p] for p in near)


def test_where_units_may_stand() -> None:
    assert CLASSICAL.unit_can_stand(UnitKind.ARMY, Location("PAR"))
    assert not CLASSICAL.unit_can_stand(UnitKind.ARMY, Location("NTH"))
    assert not CLASSICAL.unit_can_stand(UnitKind.FLEET, Location("STP"))  # must name a coast
    assert CLASSICAL.unit_can_stand(UnitKind.FLEET, Location("STP", "SC"))
    assert not CLASSICAL.unit_can_stand(UnitKind.FLEET, Location("MUN"))


def test_starting_units_stand_on_legal_spots() -> None:
    assert all(CLASSICAL.unit_can_stand(u.kind, u.location) for u in CLASSICAL.starting_units)


@pytest.mark.parametrize(("damage", "culprit"), [
    (lambda d: d["edges"].append(dict(d["edges"][0])), "listed twice"),
    (lambda d: d["edges"].append({"from": "PAR", "to": "XXX", "army": True, "fleet": False}), "XXX"),
    (lambda d: d["starting_units"].append(
        {"power": "FRANCE", "kind": "army", "province": "NTH", "coast": None}), "NTH"),
    (lambda d: d["edges"].append(
        {"from": "GAS", "to": "SPA", "to_coast": None, "army": False, "fleet": True}), "SPA"),
])
def test_inconsistent_data_is_refused_naming_the_culprit(
    damage: Callable[[dict[str, Any]], None], culprit: str
) -> None:
    data = copy.deepcopy(_classical_json())
    damage(data)
    with pytest.raises(MapDataError, match=culprit):
        build_map(data)
