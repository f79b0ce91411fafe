"""Variant files round-trip (the seed's DVAR upload/download) and bad data is named.

Seed, last bullet: 'the variant round-trips through the existing DVAR
upload/download path'. Convoy's path is ``engine.export_variant`` (download)
and ``engine.import_variant`` (upload); a refused upload says which province,
edge, power or field is wrong, so a variant author can fix it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import MapDataError, export_variant, import_variant

MAPS = ("classical", "1900")
MAP_DIR = Path(engine.__file__).parent / "maps"


@pytest.mark.parametrize("name", MAPS)
def test_export_import_export_is_unchanged(name: str) -> None:
    """Round trip: an exported variant, through JSON text and back in, exports identically."""
    exported = export_variant(engine.load_map(name))
    text = json.dumps(exported, sort_keys=True)
    again = export_variant(import_variant(json.loads(text)))
    assert again == exported
    assert json.dumps(again, sort_keys=True) == text


@pytest.mark.parametrize("name", MAPS)
def test_export_loses_nothing_from_the_packaged_file(name: str) -> None:
    """The export is the packaged file itself, up to the order of edges and units
    (export sorts them), so the loader dropped nothing the file says."""
    source = json.loads((MAP_DIR / f"{name}.json").read_text(encoding="utf-8"))
    exported = export_variant(engine.load_map(name))

    def edge_key(e: dict[str, Any]) -> tuple[str, str, str, str]:
        return (e["from"], e["from_coast"] or "", e["to"], e["to_coast"] or "")

    assert exported["edges"] == sorted(source["edges"], key=edge_key)
    units = sorted(source["starting_units"], key=lambda u: (u["power"], u["province"]))
    assert exported["starting_units"] == units
    rest = {k: v for k, v in source.items() if k not in ("edges", "starting_units")}
    assert {k: exported[k] for k in rest} == rest
    assert set(exported) == set(source)


@pytest.mark.parametrize("name", MAPS)
def test_imported_variant_plays_like_the_packaged_map(name: str) -> None:
    """An imported copy is a working map: same start, same legal opening orders."""
    packaged = engine.load_map(name)
    imported = import_variant(export_variant(packaged))
    state = engine.initial_state(imported)
    assert state == engine.initial_state(packaged)
    for power in packaged.power_ids:
        assert engine.legal_orders(state, imported, power) == engine.legal_orders(state, packaged, power)


def test_import_does_not_keep_the_callers_data() -> None:
    """Upload copies: changing the uploaded dict afterwards cannot change the map."""
    data = export_variant(engine.load_map("1900"))
    imported = import_variant(data)
    data["provinces"][0]["name"] = "changed"
    assert export_variant(imported)["provinces"][0]["name"] != "changed"


def _edit(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """Set data[...] along a path like 'provinces.id=GIB.convoy_node'."""

    def change(data: dict[str, Any]) -> None:
        *steps, last = path.split(".")
        here: Any = data
        for step in steps:
            if "=" in step:
                field, want = step.split("=")
                here = next(r for r in here if r.get(field) == want)
            else:
                here = here[int(step)] if isinstance(here, list) else here[step]
        here[last] = value

    return change


def _edge(a: str, b: str, **extra: Any) -> dict[str, Any]:
    return {"from": a, "from_coast": None, "to": b, "to_coast": None, "army": True, "fleet": False,
            **extra}


BAD: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("schema version", _edit("schema_version", 2), "schema_version 2"),
    ("missing field", lambda d: d.pop("edges"), "'edges'"),
    ("province without kind", lambda d: d["provinces"][0].pop("kind"), "province ADR: missing field 'kind'"),
    ("unknown province kind", _edit("provinces.id=GIB.kind", "rock"), "province GIB"),
    ("province twice", lambda d: d["provinces"].append(copy.deepcopy(d["provinces"][0])),
     "ADR is listed twice"),
    ("edge to unknown province", lambda d: d["edges"].append(_edge("PAR", "ATL")), "ATL"),
    ("army edge into the sea", lambda d: d["edges"].append(_edge("PAR", "ENG")), "edge PAR-ENG"),
    ("edge listed twice", lambda d: d["edges"].append(copy.deepcopy(d["edges"][0])), "listed twice"),
    ("edge listed in reverse too", lambda d: d["edges"].append(_edge("BUR", "BEL")), "BUR-BEL"),
    ("fleet edge without coast", lambda d: d["edges"].append(
        {**_edge("LYO", "SPA"), "army": False, "fleet": True}), "SPA must name a coast"),
    ("unknown coast on edge", lambda d: d["edges"].append(
        {**_edge("LYO", "SPA"), "army": False, "fleet": True, "to_coast": "SC"}), "SPA has no coast SC"),
    ("bad strength", _edit("edges.label=cape_of_good_hope.strength", "quarter"), "edge EGY-MAO"),
    ("coasts on a land province", _edit("provinces.id=SIB.coasts", ["NC"]), "province SIB"),
    ("unknown coast name", _edit("provinces.id=SPA.coasts", ["EC", "NC", "XC"]), "province SPA"),
    ("land convoy node", _edit("provinces.id=SIB.convoy_node", True), "province SIB"),
    ("home power unknown", _edit("provinces.id=PAR.home_power", "PRUSSIA"), "province PAR"),
    ("home power disagrees", _edit("provinces.id=BER.home_power", "FRANCE"), "province BER"),
    ("home centre not a centre", _edit("powers.id=RUSSIA.home_centers", ["MOS", "SEV", "STP", "WAR", "SIB"]),
     "SIB"),
    ("starting centre owned by another", _edit("starting_ownership.EGY", "TURKEY"), "EGY"),
    ("unit of unknown power", _edit("starting_units.province=GIB.power", "SPAIN"), "GIB"),
    ("army at sea", lambda d: d["starting_units"].append(
        {"power": "RUSSIA", "kind": "army", "province": "BLA", "coast": None}), "BLA"),
    ("unit kind", _edit("starting_units.province=GIB.kind", "zeppelin"), "starting unit in GIB"),
    ("unit coast missing", _edit("starting_units.province=STP.coast", None), "STP"),
    ("centre count", _edit("supply_center_count", 40), "supply_center_count"),
    ("neutral centre owned", _edit("neutral_supply_centers", ["EGY"]), "EGY"),
    ("emergency build site unknown", _edit("rules.emergency_measures.0.build_provinces", ["SIX"]), "SIX"),
    ("emergency home not a centre", _edit("rules.emergency_measures.0.home_centers", ["MOS", "UKR"]),
     "UKR"),
    ("civil disorder power unknown", _edit("rules.civil_disorder_extra_home_centers",
                                           {"SPAIN": ["EGY"]}), "SPAIN"),
    ("civil disorder province not a centre", _edit("rules.civil_disorder_extra_home_centers",
                                                   {"BRITAIN": ["SUE"]}), "SUE"),
    ("victory too high", _edit("victory.solo_supply_centers", 45), "solo_supply_centers"),
]


@pytest.mark.parametrize(("what", "change", "named"), BAD, ids=[b[0] for b in BAD])
def test_bad_variant_is_refused_naming_the_culprit(
    what: str, change: Callable[[dict[str, Any]], None], named: str
) -> None:
    """Validation: each inconsistency is a MapDataError whose message names the
    province, edge, power or field at fault."""
    data = export_variant(engine.load_map("1900"))
    change(data)
    with pytest.raises(MapDataError) as refused:
        import_variant(data)
    assert named in str(refused.value), what


def test_not_an_object_is_refused() -> None:
    with pytest.raises(MapDataError, match="JSON object"):
        import_variant([])
