"""Variant files: export a map to schema-v1 JSON data and import it back, validated.

This is Convoy's equivalent of the DVAR upload/download of the 1900 seed: a
variant is nothing but data (docs/map-schema.md, docs/variants.md), so a
variant author downloads an existing map with ``export_variant``, edits it, and
uploads it with ``import_variant``, which refuses inconsistent data with a
``MapDataError`` naming the offending province, edge, power or field.

Why export is built from the loaded ``MapData`` and not copied from the file:
what is exported is then exactly what the engine plays (nothing the loader
dropped or misread can hide in a copy), and the output is canonical (provinces,
edges and units sorted, one record per army/fleet edge) so that
``export_variant(import_variant(x)) == x`` for any exported ``x``. Only the
fields that are for people (description, rules text, notes, the victory text)
are carried over from the source data unchanged.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.maps.checker import ACTIVE_WHEN, EDGE_FLAGS, SCHEMA_VERSION, check_variant
from engine.maps.loader import FULL_EDGE, HOME_CENTERS, EdgeRules, MapData, MapDataError, build_map
from engine.types import Location, UnitKind


def export_variant(game_map: MapData) -> dict[str, Any]:
    """The map as JSON-ready schema-v1 data (plain dicts, lists, str, int, bool, None)."""
    raw = game_map.raw
    owned = dict(game_map.starting_ownership)
    out: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "map_id": game_map.map_id,
        "name": game_map.name,
        "description": raw.get("description", ""),
        "start": {
            "year": game_map.start_year,
            "season": game_map.start_season.value,
            "phase": game_map.start_phase.value,
        },
        "victory": _export_victory(game_map),
        "supply_center_count": len(game_map.supply_centers),
        "powers": _export_powers(game_map),
        "provinces": _export_provinces(game_map),
        "edges": _export_edges(game_map),
        "starting_units": _export_starting_units(game_map),
        "starting_ownership": owned,
        "neutral_supply_centers": sorted(game_map.supply_centers - set(owned)),
        "rules": _export_rules(game_map),
    }
    if "rules_text" in raw:
        out["rules_text"] = copy.deepcopy(raw["rules_text"])
    if "picture" in raw:
        out["picture"] = raw["picture"]
    out["notes"] = list(raw.get("notes", []))
    return out


def _export_victory(game_map: MapData) -> dict[str, Any]:
    """The solo condition the engine plays, with the source's words for people kept as written."""
    said = {k: v for k, v in game_map.raw.get("victory", {}).items() if k in ("checked_after", "text")}
    return {
        **said,
        "solo_supply_centers": game_map.victory.solo_supply_centers,
        "strictly_more_than_any_other": game_map.victory.strictly_more_than_any_other,
    }


def _export_powers(game_map: MapData) -> list[dict[str, Any]]:
    """The powers, sorted by id so that the output is canonical."""
    return [
        {
            "id": p.id,
            "name": p.name,
            "adjective": p.adjective,
            "home_centers": list(p.home_centers),
            "starting_centers": list(p.starting_centers),
        }
        for _, p in sorted(game_map.powers.items())
    ]


def _export_provinces(game_map: MapData) -> list[dict[str, Any]]:
    """The provinces, sorted by id so that the output is canonical."""
    return [
        {
            "id": p.id,
            "name": p.name,
            "kind": p.kind,
            "supply_center": p.supply_center,
            "home_power": p.home_power,
            "coasts": list(p.coasts),
            "convoy_node": p.convoy_node,
            "aliases": list(p.aliases),
        }
        for _, p in sorted(game_map.provinces.items())
    ]


def _export_starting_units(game_map: MapData) -> list[dict[str, Any]]:
    """The opening units, sorted by power then province so that the output is canonical."""
    return [
        {
            "power": u.power,
            "kind": "army" if u.kind is UnitKind.ARMY else "fleet",
            "province": u.province,
            "coast": u.location.coast,
        }
        for u in sorted(game_map.starting_units, key=lambda u: (u.power, u.province))
    ]


def _export_rules(game_map: MapData) -> dict[str, Any]:
    """The map's rule features; ``build_sites`` only when it differs from the default, so
    a classical map exports no rule it does not have."""
    return {
        "emergency_measures": [
            {
                "power": em.power,
                "home_centers": list(em.home_centers),
                "active_when": ACTIVE_WHEN,
                "extra_units": em.extra_units,
                "build_provinces": list(em.build_provinces),
                "build_requires_unoccupied": em.build_requires_unoccupied,
            }
            for em in game_map.emergency_measures
        ],
        "civil_disorder_extra_home_centers": {
            power: list(centres)
            for power, centres in sorted(game_map.civil_disorder_extra_home_centers.items())
        },
        **({"build_sites": game_map.build_sites_rule}
           if game_map.build_sites_rule != HOME_CENTERS else {}),
    }


def _export_edges(game_map: MapData) -> list[dict[str, Any]]:
    """One record per army edge and per fleet coast pair; an army edge and a coastless
    fleet edge between the same provinces share one record (SCHEMA.md)."""
    records: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for a, neighbours in game_map.army_adjacent.items():
        for b in neighbours:
            if a < b:
                records[(a, "", b, "")] = _edge_record(Location(a), Location(b), army=True, fleet=False)
    for src, dests in game_map.fleet_adjacent.items():
        for dest in dests:
            if src.province >= dest.province:
                continue
            key = (src.province, src.coast or "", dest.province, dest.coast or "")
            if key in records:
                records[key]["fleet"] = True
            else:
                records[key] = _edge_record(src, dest, army=False, fleet=True)
    out = []
    for key in sorted(records):
        record = records[key]
        rules = game_map.edge_rules.get((key[0], key[2]), FULL_EDGE)
        if rules != FULL_EDGE:
            record.update(_edge_attributes(rules))
        out.append(record)
    return out


def _edge_record(a: Location, b: Location, *, army: bool, fleet: bool) -> dict[str, Any]:
    return {"from": a.province, "from_coast": a.coast, "to": b.province, "to_coast": b.coast,
            "army": army, "fleet": fleet}


def _edge_attributes(rules: EdgeRules) -> dict[str, Any]:
    attrs: dict[str, Any] = {"strength": "full" if rules.strength == 2 else "half"}
    attrs.update({flag: getattr(rules, flag) for flag in EDGE_FLAGS})
    if rules.label is not None:
        attrs["label"] = rules.label
    return attrs


def import_variant(data: Any) -> MapData:
    """Validate schema-v1 variant data and build the playable map.

    Raises ``MapDataError`` listing every problem ``engine.maps.checker.check_variant``
    finds (one per line, each naming its province, edge, coast, power or field), so an
    upload is refused with the whole list at once. The caller's data is copied, never kept
    or changed.
    """
    problems = check_variant(data)
    if problems:
        raise MapDataError("\n".join(p.message for p in problems))
    return build_map(copy.deepcopy(data))
