"""The variant checker finds every seeded mistake in a broken copy of a map, naming each culprit.

Issue 35 item 5 ("a variant in a day"): a checker reports every inconsistency (an adjacency
that is not mutual, a coast without a fleet edge, a home centre that is not a centre, ...)
with the culprit named. Mistakes are seeded all at once into one copy of a packaged map, in
both forms an author writes: the adjacency sheet (``engine.maps.draft``, where one-sided
adjacencies can happen) and schema-v1 data (``engine.maps.checker``); every one must be
reported, with its code and culprit, and the packaged maps must report nothing.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import engine
from engine import MapDataError, export_variant, import_variant
from engine.maps.checker import Problem, check_variant
from engine.maps.draft import compile_draft, draft_from_variant


def _province(sheet: dict[str, Any], pid: str) -> dict[str, Any]:
    return next(p for p in sheet["provinces"] if p["id"] == pid)


def _power(data: dict[str, Any], pid: str) -> dict[str, Any]:
    return next(p for p in data["powers"] if p["id"] == pid)


def _found(problems: tuple[Problem, ...]) -> set[tuple[str, str]]:
    return {(p.code, p.culprit) for p in problems}


@pytest.mark.parametrize("name", engine.available_maps())
def test_every_packaged_map_is_clean_and_its_sheet_compiles_back(name: str) -> None:
    data = export_variant(engine.load_map(name))
    assert check_variant(data) == ()
    again, problems = compile_draft(json.loads(json.dumps(draft_from_variant(data))))
    assert problems == ()
    assert again == data


def test_the_sheet_checker_finds_every_seeded_mistake() -> None:
    sheet = draft_from_variant(export_variant(engine.load_map("classical")))
    seeded: list[tuple[str, str]] = []
    # an army adjacency written from one side only: Burgundy forgets Paris
    _province(sheet, "BUR")["army"].remove("PAR")
    seeded.append(("NOT_MUTUAL", "PAR-BUR"))
    # a fleet adjacency written from one side only: Gascony forgets Spain's north coast
    _province(sheet, "GAS")["fleet"].remove("SPA/NC")
    seeded.append(("NOT_MUTUAL", "SPA/NC-GAS"))
    # a fleet neighbour with named coasts written without its coast
    mao = _province(sheet, "MAO")["fleet"]
    mao[mao.index("SPA/SC")] = "SPA"
    seeded += [("FLEET_NEIGHBOUR_COAST", "MAO-SPA"), ("NOT_MUTUAL", "SPA/SC-MAO")]
    # a neighbour that is no province
    _province(sheet, "TYR")["army"].append("SWI")
    seeded.append(("UNKNOWN_NEIGHBOUR", "TYR-SWI"))
    # a coast without a fleet edge: Bulgaria gains a west coast nothing reaches
    _province(sheet, "BUL")["fleet"]["WC"] = []
    seeded.append(("COAST_WITHOUT_FLEET_EDGE", "BUL/WC"))
    # a home centre that is not a centre
    _power(sheet, "FRANCE")["home_centers"].append("PIC")
    seeded.append(("HOME_NOT_CENTRE", "PIC"))
    # a fleet starting inland, two units in one province, a unit line that does not read
    sheet["units"] += ["FRANCE F BUR", "ITALY A VEN", "ITALY ARMY ROM"]
    seeded += [("UNIT_SPOT", "BUR"), ("UNITS_SHARE", "VEN"), ("UNIT_LINE", "ITALY ARMY ROM")]
    # a province nothing reaches
    sheet["provinces"].append({"id": "ATL", "name": "Atlantis", "kind": "sea", "fleet": []})
    seeded += [("COAST_WITHOUT_FLEET_EDGE", "ATL"), ("MAP_IN_PIECES", "ATL")]

    _, problems = compile_draft(sheet)

    found = _found(problems)
    missing = [s for s in seeded if s not in found]
    assert missing == [], [str(p) for p in problems]
    for problem in problems:  # each message names its culprit's provinces
        assert all(part in problem.message for part in problem.culprit.replace("-", " ").split()), problem


def test_the_data_checker_finds_every_seeded_mistake_at_once() -> None:
    data = copy.deepcopy(export_variant(engine.load_map("1900")))
    seeded: list[tuple[str, str]] = []

    def edge(a: str, b: str, **extra: Any) -> dict[str, Any]:
        return {
            "from": a,
            "from_coast": None,
            "to": b,
            "to_coast": None,
            "army": True,
            "fleet": False,
            **extra,
        }

    data["edges"].append(edge("PAR", "ENG"))
    seeded.append(("ARMY_EDGE_SEA", "PAR-ENG"))
    data["edges"].append({**edge("LYO", "SPA"), "army": False, "fleet": True})
    seeded.append(("FLEET_EDGE_NO_COAST", "LYO-SPA"))
    data["edges"].append(edge("BUR", "BEL"))
    seeded.append(("EDGE_BOTH_WAYS", "BUR-BEL"))
    data["edges"].append(edge("MUN", "MUN"))
    seeded.append(("EDGE_TO_ITSELF", "MUN-MUN"))
    data["edges"].append(edge("PAR", "ATL"))
    seeded.append(("EDGE_UNKNOWN_PROVINCE", "PAR-ATL"))
    next(p for p in data["provinces"] if p["id"] == "BUL")["coasts"] = ["EC", "SC", "NC"]
    seeded.append(("COAST_WITHOUT_FLEET_EDGE", "BUL/NC"))
    _power(data, "RUSSIA")["home_centers"].append("SIB")
    seeded.append(("HOME_NOT_CENTRE", "SIB"))
    next(p for p in data["provinces"] if p["id"] == "BER")["home_power"] = "FRANCE"
    seeded.append(("HOME_POWER", "BER"))
    data["starting_ownership"]["EGY"] = "TURKEY"
    seeded += [("OWNED_NOT_STARTING", "EGY"), ("STARTING_NOT_OWNED", "BRITAIN")]
    data["neutral_supply_centers"].remove("SWE")
    seeded.append(("CENTRE_UNACCOUNTED", "SWE"))
    data["starting_units"].append({"power": "RUSSIA", "kind": "army", "province": "BLA", "coast": None})
    seeded.append(("UNIT_SPOT", "BLA"))
    data["supply_center_count"] = 40
    seeded.append(("CENTRE_COUNT", "supply_center_count"))
    data["victory"]["solo_supply_centers"] = 45
    seeded.append(("VICTORY_COUNT", "victory"))
    data["rules"]["build_sites"] = "anywhere"
    seeded.append(("BUILD_SITES_RULE", "rules.build_sites"))
    data["start"] = {"year": 1900, "season": "WINTER", "phase": "MOVEMENT"}
    seeded.append(("START_PHASE", "start"))

    problems = check_variant(data)

    found = _found(problems)
    assert [s for s in seeded if s not in found] == [], [str(p) for p in problems]
    with pytest.raises(MapDataError) as refused:  # an upload is refused with the whole list
        import_variant(data)
    assert len(str(refused.value).splitlines()) == len(problems)


def test_the_checker_never_raises_on_bad_shapes() -> None:
    bad_shapes: tuple[object, ...] = (
        [],
        {},
        {"schema_version": 1, "map_id": "x", "powers": 3, "provinces": [], "edges": []},
        {"schema_version": 1, "map_id": "x", "powers": [], "provinces": [7], "edges": []},
    )
    for bad in bad_shapes:
        assert check_variant(bad)
