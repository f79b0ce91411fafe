"""Read a map in the DPjudge map-file format into an adjacency sheet. Run by hand:

    python -m render.tools.dpjudge_map path/to/ancmed.map --id ancmed > sheet.json

Authoring-time only (never imported by the package). The DPjudge format (used by DPjudge and
by MILA's ``diplomacy`` package for its maps) lists, per location, the places it abuts; the
case of each entry says who may cross: all upper case both kinds of unit, all lower case armies
only, only the first letter upper case fleets only. A split-coast province has one line for its
armies (its id in lower case) and one per coast (``SPA/NC``). Location types: ``LAND``,
``WATER``, ``COAST``, ``PORT`` (a coast a fleet may convoy from) and ``SHUT`` (impassable: left
out). Power blocks (``NAME (ADJECTIVE) HOME...`` then ``A XXX`` / ``F XXX/NC`` units),
``UNOWNED`` centres, ``Full Name = ABB alias ...`` names and ``BEGIN SEASON YEAR PHASE``
complete a map. The sheet then goes through ``engine.maps.draft.compile_draft``, which
reports every one-sided adjacency (docs/variants.md).

Only facts are read (names, adjacencies, centres, units); the sheet is written by this tool.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any

KINDS = {"LAND": "land", "WATER": "sea", "COAST": "coast", "PORT": "coast"}
POWER_LINE = re.compile(r"^([A-Z][A-Z-]*)\s+\(([^)]*)\)\s*(.*)$")
UNIT_LINE = re.compile(r"^([AF])\s+([A-Za-z]{3}(?:/[A-Z]{2})?)$")


@dataclass
class Reading:
    start: dict[str, Any] = field(default_factory=dict)
    build_any: bool = False
    powers: list[dict[str, Any]] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    unowned: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, list[str]] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)  # province -> kind
    ports: set[str] = field(default_factory=set)
    shut: set[str] = field(default_factory=set)
    abuts: dict[str, list[str]] = field(default_factory=dict)  # location as written -> entries


def read(text: str) -> Reading:
    r = Reading()
    power: str | None = None
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        head = words[0].upper()
        if head == "BEGIN":
            r.start = {"season": words[1].upper(), "year": int(words[2]), "phase": words[3].upper()}
        elif head == "RULES":
            r.build_any = "BUILD_ANY" in (w.upper() for w in words[1:])
        elif head in (*KINDS, "SHUT") and len(words) > 2 and words[2].upper() == "ABUTS":
            _location(r, head, words[1], words[3:])
        elif head == "UNOWNED":
            r.unowned += [w.upper() for w in words[1:]]
        elif "=" in line:
            _name(r, line)
        elif (unit := UNIT_LINE.match(line)) and power is not None:
            r.units.append(f"{power} {unit.group(1)} {unit.group(2).upper()}")
        elif match := POWER_LINE.match(line):
            power = match.group(1).replace("-", "_")
            adjective = match.group(2).split(":")[0].title()
            homes = [w.upper() for w in match.group(3).split()]
            r.powers.append(
                {
                    "id": power,
                    "name": match.group(1).replace("-", " ").title(),
                    "adjective": adjective,
                    "home_centers": sorted(homes),
                }
            )
    return r


def _location(r: Reading, kind: str, where: str, entries: list[str]) -> None:
    province = where[:3].upper()
    if kind == "SHUT":
        r.shut.add(province)
        return
    r.kinds[province] = KINDS[kind]
    if kind == "PORT":
        r.ports.add(province)
    r.abuts[where] = entries


def _name(r: Reading, line: str) -> None:
    name, _, rest = line.partition("=")
    words = rest.split()
    if not words or "/" in words[0]:
        return  # a coast's own name
    province = words[0].upper()
    r.names[province] = name.strip()
    r.aliases[province] = sorted(
        {
            w.replace("+", " ").lower()
            for w in words[1:]
            if "/" not in w and "(" not in w and w.upper() != province
        }
    )


def sheet(r: Reading, map_id: str) -> dict[str, Any]:
    """The adjacency sheet (engine.maps.draft) of a reading."""
    army: dict[str, set[str]] = {p: set() for p in r.kinds}
    fleet: dict[str, dict[str | None, set[str]]] = {p: {} for p in r.kinds}
    for where, entries in r.abuts.items():
        province, _, coast = where.partition("/")
        province = province.upper()
        for entry in entries:
            target = entry[:3].upper()
            if target in r.shut or target not in r.kinds:
                continue
            army_ok = entry.islower() or entry.isupper()
            fleet_ok = entry[0].isupper()
            split = any("/" in w for w in r.abuts if w[:3].upper() == province)
            kinds = (r.kinds[province], r.kinds[target])
            if army_ok and not (split and where.isupper()) and "sea" not in kinds:
                army[province].add(target)
            if fleet_ok and not (split and not coast) and "land" not in kinds:
                fleet[province].setdefault(coast or None, set()).add(entry.upper())
    centres = {c for p in r.powers for c in p["home_centers"]} | set(r.unowned)
    provinces = []
    for pid in sorted(r.kinds):
        record: dict[str, Any] = {
            "id": pid,
            "name": r.names.get(pid, pid),
            "kind": r.kinds[pid],
            "supply_center": pid in centres,
            "aliases": r.aliases.get(pid, []),
        }
        if pid in r.ports:
            record["convoy_node"] = True
        if r.kinds[pid] != "sea":
            record["army"] = sorted(army[pid])
        if r.kinds[pid] != "land":
            coasts = fleet[pid]
            if None in coasts or not coasts:
                record["fleet"] = sorted(coasts.get(None, set()))
            else:
                record["fleet"] = {c: sorted(near) for c, near in sorted(coasts.items()) if c}
        provinces.append(record)
    out: dict[str, Any] = {
        "map_id": map_id,
        "name": map_id,
        "start": {
            "year": r.start.get("year", 1901),
            "season": r.start.get("season", "SPRING"),
            "phase": r.start.get("phase", "MOVEMENT"),
        },
    }
    if r.build_any:
        out["rules"] = {"build_sites": "any_owned_center"}
    out["powers"] = r.powers
    out["provinces"] = provinces
    out["units"] = r.units
    return out


def main(argv: list[str]) -> None:
    path, map_id = argv[0], argv[argv.index("--id") + 1] if "--id" in argv else "draft"
    with open(path, encoding="utf-8") as handle:
        print(json.dumps(sheet(read(handle.read()), map_id), indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
