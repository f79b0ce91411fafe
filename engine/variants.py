"""Variant files: export a map to schema-v1 JSON data and import it back, validated.

This is Convoy's equivalent of the DVAR upload/download of the 1900 seed: a
variant is nothing but data (shared/maps/SCHEMA.md, docs/variants.md), so a
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

from engine.maps.loader import FULL_EDGE, EdgeRules, MapData, MapDataError, build_map
from engine.types import COASTS, Location, UnitKind

SCHEMA_VERSION = 1
ACTIVE_WHEN = "owns_some_but_not_all_home_centers"
EDGE_FLAGS = ("no_support_across", "move_does_not_cut_support", "retreat_disbanded_if_contested")

# Fields each record must have before the loader can read it (the rest have defaults).
REQUIRED: dict[str, tuple[str, ...]] = {
    "": ("schema_version", "map_id", "powers", "provinces", "edges"),
    "powers": ("id", "home_centers"),
    "provinces": ("id", "name", "kind"),
    "edges": ("from", "to"),
    "starting_units": ("power", "kind", "province"),
}


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
        "victory": {
            **{k: v for k, v in raw.get("victory", {}).items() if k in ("checked_after", "text")},
            "solo_supply_centers": game_map.victory.solo_supply_centers,
            "strictly_more_than_any_other": game_map.victory.strictly_more_than_any_other,
        },
        "supply_center_count": len(game_map.supply_centers),
        "powers": [
            {
                "id": p.id,
                "name": p.name,
                "adjective": p.adjective,
                "home_centers": list(p.home_centers),
                "starting_centers": list(p.starting_centers),
            }
            for _, p in sorted(game_map.powers.items())
        ],
        "provinces": [
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
        ],
        "edges": _export_edges(game_map),
        "starting_units": [
            {
                "power": u.power,
                "kind": "army" if u.kind is UnitKind.ARMY else "fleet",
                "province": u.province,
                "coast": u.location.coast,
            }
            for u in sorted(game_map.starting_units, key=lambda u: (u.power, u.province))
        ],
        "starting_ownership": owned,
        "neutral_supply_centers": sorted(game_map.supply_centers - set(owned)),
        "rules": {
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
        },
    }
    if "rules_text" in raw:
        out["rules_text"] = copy.deepcopy(raw["rules_text"])
    out["notes"] = list(raw.get("notes", []))
    return out


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

    Raises ``MapDataError`` whose message names what is wrong: a missing field
    (with the record it is missing from), a wrong schema version, a count that
    disagrees with the provinces, or anything the loader refuses (unknown or
    inconsistent province, edge, coast, power, starting unit or rule reference).
    The caller's data is copied, never kept or changed.
    """
    if not isinstance(data, dict):
        raise MapDataError("a variant must be a JSON object")
    _check_shape(data)
    if data["schema_version"] != SCHEMA_VERSION:
        raise MapDataError(
            f"schema_version {data['schema_version']!r} is not supported (expected {SCHEMA_VERSION})"
        )
    _check_references(data)
    game_map = build_map(copy.deepcopy(data))
    centres = game_map.supply_centers
    count = data.get("supply_center_count")
    if count is not None and count != len(centres):
        raise MapDataError(f"supply_center_count is {count} but {len(centres)} provinces are supply centres")
    if "neutral_supply_centers" in data:
        for pid in data["neutral_supply_centers"]:
            if pid not in centres:
                raise MapDataError(f"neutral supply centre {pid}: not a supply centre")
            if pid in game_map.starting_ownership:
                raise MapDataError(
                    f"neutral supply centre {pid}: owned by {game_map.starting_ownership[pid]} at start"
                )
    solo = game_map.victory.solo_supply_centers
    if not 0 < solo <= len(centres):
        raise MapDataError(f"victory: solo_supply_centers {solo} must be between 1 and {len(centres)}")
    return game_map


def _check_shape(data: dict[str, Any]) -> None:
    """Every record is an object with the fields the loader needs, named in the error."""
    for name in REQUIRED[""]:
        if name not in data:
            raise MapDataError(f"missing field {name!r}")
    for section, fields in REQUIRED.items():
        if not section:
            continue
        records = data.get(section, [])
        if not isinstance(records, list):
            raise MapDataError(f"{section} must be a list")
        for i, record in enumerate(records):
            if not isinstance(record, dict):
                raise MapDataError(f"{section}[{i}] must be an object")
            label = _label(section, i, record)
            for name in fields:
                if name not in record:
                    raise MapDataError(f"{label}: missing field {name!r}")
    for i, u in enumerate(data.get("starting_units", [])):
        if u["kind"] not in ("army", "fleet"):
            raise MapDataError(f"{_label('starting_units', i, u)}: kind must be 'army' or 'fleet'")


def _check_references(data: dict[str, Any]) -> None:
    """What the loader would accept silently or fail on without a name: coasts and
    convoy flags on the wrong kind of province, home centres the two sides of the
    data disagree on, edges listed in both directions or with conflicting rule
    features, starting centres owned by someone else, rule references to unknowns."""
    provinces = {str(p["id"]).upper(): p for p in data["provinces"]}
    powers = {p["id"]: p for p in data["powers"]}
    centres = {pid for pid, p in provinces.items() if p.get("supply_center")}
    for pid, p in provinces.items():
        coasts = p.get("coasts", [])
        if coasts and p["kind"] != "coast":
            raise MapDataError(f"province {pid}: only a coastal province has named coasts")
        for coast in coasts:
            if str(coast).upper() not in COASTS:
                raise MapDataError(f"province {pid}: unknown coast {coast!r} (NC, SC, EC or WC)")
        if p.get("convoy_node") and p["kind"] == "land":
            raise MapDataError(f"province {pid}: a land province cannot be a convoy node")
        home = p.get("home_power")
        if home is not None and (home not in powers or pid not in powers[home]["home_centers"]):
            raise MapDataError(f"province {pid}: home_power {home} does not list it as a home centre")
    for power_id, power in powers.items():
        for centre in power["home_centers"]:
            if centre in provinces and provinces[centre].get("home_power") != power_id:
                raise MapDataError(f"power {power_id}: home centre {centre} has home_power "
                                   f"{provinces[centre].get('home_power')}")
    ownership = data.get("starting_ownership", {})
    for power_id, power in powers.items():
        for centre in power.get("starting_centers", power["home_centers"]):
            if ownership.get(centre) != power_id:
                raise MapDataError(f"power {power_id}: starting centre {centre} is owned by "
                                   f"{ownership.get(centre)} in starting_ownership")
    for centre, owner in ownership.items():
        if owner in powers and centre not in powers[owner].get("starting_centers", ()):
            raise MapDataError(f"starting ownership of {centre}: not among {owner}'s starting centres")
    listed = {(e["from"], e.get("from_coast"), e["to"], e.get("to_coast")) for e in data["edges"]}
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for e in data["edges"]:
        a, b = str(e["from"]).upper(), str(e["to"]).upper()
        rules = {k: e[k] for k in ("strength", *EDGE_FLAGS, "label") if k in e}
        for key in ((a, b), (b, a)):
            if key in seen and seen[key] != rules:
                raise MapDataError(f"edge {a}-{b}: its rule features differ from another record of "
                                   "the same two provinces")
        seen[(a, b)] = rules
        if (e["to"], e.get("to_coast"), e["from"], e.get("from_coast")) in listed:
            raise MapDataError(f"edge {a}-{b} is also listed as {b}-{a}; list each edge once")
    rules = data.get("rules", {})
    for em in rules.get("emergency_measures", []):
        for centre in em.get("home_centers", []):
            if centre not in centres:
                raise MapDataError(
                    f"emergency measures of {em.get('power')}: {centre} is not a supply centre"
                )
    for power_id, extra in rules.get("civil_disorder_extra_home_centers", {}).items():
        if power_id not in powers:
            raise MapDataError(f"civil_disorder_extra_home_centers: unknown power {power_id}")
        for centre in extra:
            if centre not in centres:
                raise MapDataError(f"civil_disorder_extra_home_centers of {power_id}: "
                                   f"{centre} is not a supply centre")


def _label(section: str, i: int, record: dict[str, Any]) -> str:
    if section == "edges" and "from" in record and "to" in record:
        return f"edge {record['from']}-{record['to']}"
    if section == "provinces" and "id" in record:
        return f"province {record['id']}"
    if section == "powers" and "id" in record:
        return f"power {record['id']}"
    if section == "starting_units" and "province" in record:
        return f"starting unit in {record['province']}"
    return f"{section}[{i}]"
