"""The author's adjacency sheet: a variant written province by province, compiled to schema v1.

Why a second form: a map's sources (a board, a rulebook, DPjudge's ``ABUTS`` lines, godip's
``Conn`` calls) list each province's neighbours, so an author copies facts province by
province, and each adjacency is then written twice (once from each side). Schema v1 lists
every edge once, which is what the engine wants but hides a mistake the sheet exposes: an
adjacency written from one side only. ``compile_draft`` checks that every neighbour is listed
from both sides (coast by coast for fleets), then builds the schema-v1 data and runs the
variant checker on it, so the author gets every problem at once (docs/variants.md walks
through a sheet).

The sheet (JSON)::

    {"map_id": "pure", "name": "Pure", "description": "...", "start": {...}, "victory": {...},
     "rules": {...}, "notes": [...],
     "powers": [{"id": "FRANCE", "name": "France", "adjective": "French",
                 "home_centers": ["PAR"], "starting_centers": ["PAR"]}],      # starting: optional
     "provinces": [
        {"id": "SPA", "name": "Spain", "kind": "coast", "supply_center": true, "aliases": [],
         "army": ["GAS", "MAR", "POR"],
         "fleet": {"NC": ["GAS", "MAO", "POR"], "SC": ["LYO", "MAO", "MAR", "POR", "WES"]}},
        {"id": "GAS", "name": "Gascony", "kind": "coast", "army": ["BRE", "BUR", "MAR", "PAR", "SPA"],
         "fleet": ["BRE", "MAO", "SPA/NC"]}],
     "units": ["FRANCE F BRE", "RUSSIA F STP/SC"],
     "edge_rules": [{"between": ["EGY", "MAO"], "strength": "half", "label": "cape"}]}

``fleet`` is a list for a province without named coasts and an object by coast otherwise; a
neighbour with named coasts is written with its coast (``SPA/NC``). ``home_power``,
``starting_ownership``, ``neutral_supply_centers`` and ``supply_center_count`` are derived.
``draft_from_variant`` writes the sheet of an existing map (the way to start a new one).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.maps.checker import EDGE_FLAGS, SCHEMA_VERSION, Problem, check_variant

Spot = tuple[str, str | None]  # (province, coast)
PASSED_ON = ("map_id", "name", "description", "picture", "start", "victory", "rules", "rules_text", "notes")


def compile_draft(draft: dict[str, Any]) -> tuple[dict[str, Any], tuple[Problem, ...]]:
    """The schema-v1 data of an adjacency sheet, and every problem of the sheet and the data."""
    provinces = draft.get("provinces", [])
    army = {p["id"]: set(p.get("army", [])) for p in provinces}
    fleet = dict(_fleet_lists(provinces))
    problems = [*_one_sided_army(army), *_one_sided_fleet(fleet, provinces)]
    data: dict[str, Any] = {"schema_version": SCHEMA_VERSION}
    data.update({k: draft[k] for k in PASSED_ON if k in draft})
    data["powers"] = [_power(p) for p in draft.get("powers", [])]
    homes = {c: p["id"] for p in draft.get("powers", []) for c in p.get("home_centers", [])}
    data["provinces"] = [_province(p, homes) for p in provinces]
    data["edges"] = _edges(army, fleet, draft.get("edge_rules", []))
    units, bad_units = _units(draft.get("units", []))
    data["starting_units"] = units
    problems += bad_units
    owned = {c: p["id"] for p in data["powers"] for c in p["starting_centers"]}
    centres = sorted(p["id"] for p in provinces if p.get("supply_center"))
    data["starting_ownership"] = dict(sorted(owned.items()))
    data["neutral_supply_centers"] = [c for c in centres if c not in owned]
    data["supply_center_count"] = len(centres)
    return data, (*problems, *check_variant(data))


def _fleet_lists(provinces: list[dict[str, Any]]) -> Iterator[tuple[Spot, set[Spot]]]:
    for p in provinces:
        given = p.get("fleet", [])
        by_coast = given.items() if isinstance(given, dict) else [(None, given)]
        for coast, near in by_coast:
            yield (p["id"], coast), {_spot(text) for text in near}


def _spot(text: str) -> Spot:
    province, _, coast = text.partition("/")
    return (province, coast or None)


def _text(spot: Spot) -> str:
    return f"{spot[0]}/{spot[1]}" if spot[1] else spot[0]


def _one_sided_army(army: dict[str, set[str]]) -> Iterator[Problem]:
    for a in sorted(army):
        for b in sorted(army[a]):
            if b not in army:
                yield Problem("UNKNOWN_NEIGHBOUR", f"{a}-{b}", f"{a} lists {b}, which is not a province")
            elif a not in army[b]:
                yield Problem(
                    "NOT_MUTUAL", f"{a}-{b}", f"{a} lists {b} as an army neighbour, but {b} does not list {a}"
                )


def _one_sided_fleet(fleet: dict[Spot, set[Spot]], provinces: list[dict[str, Any]]) -> Iterator[Problem]:
    coasts = {p["id"]: bool(isinstance(p.get("fleet"), dict)) for p in provinces}
    for here in sorted(fleet, key=_text):
        for there in sorted(fleet[here], key=_text):
            if there[0] not in coasts:
                yield Problem(
                    "UNKNOWN_NEIGHBOUR",
                    f"{_text(here)}-{there[0]}",
                    f"{_text(here)} lists {there[0]}, which is not a province",
                )
            elif coasts.get(there[0]) and there[1] is None:
                yield Problem(
                    "FLEET_NEIGHBOUR_COAST",
                    f"{_text(here)}-{there[0]}",
                    f"{_text(here)} lists {there[0]} as a fleet neighbour: name its coast",
                )
            elif here not in fleet.get(there, ()):
                yield Problem(
                    "NOT_MUTUAL",
                    f"{_text(here)}-{_text(there)}",
                    f"{_text(here)} lists {_text(there)} as a fleet neighbour, but "
                    f"{_text(there)} does not list {_text(here)}",
                )


def _power(p: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": p["id"],
        "name": p.get("name", p["id"].title()),
        "adjective": p.get("adjective", ""),
        "home_centers": list(p.get("home_centers", [])),
        "starting_centers": list(p.get("starting_centers", p.get("home_centers", []))),
    }


def _province(p: dict[str, Any], homes: dict[str, str]) -> dict[str, Any]:
    fleet = p.get("fleet", [])
    return {
        "id": p["id"],
        "name": p.get("name", p["id"]),
        "kind": p.get("kind", "land"),
        "supply_center": bool(p.get("supply_center", False)),
        "home_power": homes.get(p["id"]),
        "coasts": sorted(fleet) if isinstance(fleet, dict) else [],
        "convoy_node": bool(p.get("convoy_node", p.get("kind") == "sea")),
        "aliases": list(p.get("aliases", [])),
    }


def _edges(
    army: dict[str, set[str]], fleet: dict[Spot, set[Spot]], edge_rules: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Each adjacency once (``from`` < ``to``); an army edge and a coastless fleet edge between
    the same two provinces share one record. Only pairs listed from both sides become edges
    (the one-sided ones are reported)."""
    records: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for a, lands in army.items():
        for b in lands:
            if a < b and a in army.get(b, ()):
                records[(a, "", b, "")] = _record((a, None), (b, None), army=True, fleet=False)
    for here, spots in fleet.items():
        for there in spots:
            if here[0] < there[0] and here in fleet.get(there, set()):
                key = (here[0], here[1] or "", there[0], there[1] or "")
                if key in records:
                    records[key]["fleet"] = True
                else:
                    records[key] = _record(here, there, army=False, fleet=True)
    features = {frozenset(r["between"]): {k: v for k, v in r.items() if k != "between"} for r in edge_rules}
    out = []
    for key in sorted(records):
        record = records[key]
        extra = features.get(frozenset((key[0], key[2])))
        if extra:
            record.update({"strength": "full", **dict.fromkeys(EDGE_FLAGS, False), **extra})
        out.append(record)
    return out


def _record(a: Spot, b: Spot, *, army: bool, fleet: bool) -> dict[str, Any]:
    return {"from": a[0], "from_coast": a[1], "to": b[0], "to_coast": b[1], "army": army, "fleet": fleet}


def _units(lines: list[str]) -> tuple[list[dict[str, Any]], list[Problem]]:
    """``"FRANCE F BRE"`` -> a starting-unit record; a line that does not read so is a problem."""
    units, problems = [], []
    for line in lines:
        words = line.split()
        if len(words) != 3 or words[1] not in ("A", "F"):
            problems.append(Problem("UNIT_LINE", line, f"unit {line!r}: write POWER A|F PROVINCE[/COAST]"))
            continue
        province, coast = _spot(words[2])
        units.append(
            {
                "power": words[0],
                "kind": "army" if words[1] == "A" else "fleet",
                "province": province,
                "coast": coast,
            }
        )
    return sorted(units, key=lambda u: (u["power"], u["province"])), problems


def draft_from_variant(data: dict[str, Any]) -> dict[str, Any]:
    """The adjacency sheet of schema-v1 data (``engine.export_variant``'s output): how an author
    starts a new map from an existing one. ``compile_draft`` of it gives the data back."""
    army: dict[str, set[str]] = {p["id"]: set() for p in data["provinces"]}
    fleet: dict[Spot, set[Spot]] = {}
    for e in data["edges"]:
        a, b = (e["from"], e.get("from_coast")), (e["to"], e.get("to_coast"))
        if e.get("army"):
            army[a[0]].add(b[0])
            army[b[0]].add(a[0])
        if e.get("fleet"):
            fleet.setdefault(a, set()).add(b)
            fleet.setdefault(b, set()).add(a)
    sheet = {k: data[k] for k in PASSED_ON if k in data}
    sheet["powers"] = [
        {k: p[k] for k in ("id", "name", "adjective", "home_centers", "starting_centers")}
        for p in data["powers"]
    ]
    sheet["provinces"] = [_sheet_province(p, army, fleet) for p in data["provinces"]]
    sheet["units"] = [
        f"{u['power']} {'A' if u['kind'] == 'army' else 'F'} {_text((u['province'], u.get('coast')))}"
        for u in data.get("starting_units", [])
    ]
    rules = {}
    for e in data["edges"]:
        extra = {k: e[k] for k in ("strength", *EDGE_FLAGS, "label") if k in e}
        if extra:
            rules[(e["from"], e["to"])] = extra
    sheet["edge_rules"] = [{"between": list(pair), **extra} for pair, extra in sorted(rules.items())]
    return sheet


def _sheet_province(
    p: dict[str, Any], army: dict[str, set[str]], fleet: dict[Spot, set[Spot]]
) -> dict[str, Any]:
    out: dict[str, Any] = {k: p[k] for k in ("id", "name", "kind", "supply_center", "aliases") if k in p}
    if p.get("convoy_node") != (p["kind"] == "sea"):
        out["convoy_node"] = p.get("convoy_node", False)
    if p["kind"] != "sea":
        out["army"] = sorted(army[p["id"]])
    if p["kind"] != "land":
        if p.get("coasts"):
            out["fleet"] = {c: sorted(_text(s) for s in fleet.get((p["id"], c), ())) for c in p["coasts"]}
        else:
            out["fleet"] = sorted(_text(s) for s in fleet.get((p["id"], None), ()))
    return out
