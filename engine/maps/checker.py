"""The variant checker: every inconsistency of schema-v1 map data, each naming its culprit.

Why a checker beside the loader: ``build_map`` guards the engine and stops at the first thing
it cannot build; an author fixing a new map wants the whole list at once ("a coast without a
fleet edge", "a home centre that is not a centre", ...), including mistakes the loader would
accept silently (a province nothing reaches, a named coast no fleet can use, a centre that is
neither owned nor neutral). ``check_variant`` never raises on any input: it reports.
``engine.import_variant`` refuses data for which it reports anything (docs/variants.md).

Each ``Problem`` has a stable ``code`` (for tests and tools), the ``culprit`` (a province, a
``PROV/COAST``, an edge ``A-B``, a power, or a field) and a sentence for people.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.maps.loader import BUILD_SITE_RULES
from engine.types import COASTS, PhaseType, Season

SCHEMA_VERSION = 1
KINDS = ("land", "sea", "coast")
STRENGTHS = ("full", "half")
EDGE_FLAGS = ("no_support_across", "move_does_not_cut_support", "retreat_disbanded_if_contested")
ACTIVE_WHEN = "owns_some_but_not_all_home_centers"
SEASONS = tuple(s.value for s in Season)
PHASES = tuple(p.value for p in PhaseType)
START_PHASES = {("SPRING", "MOVEMENT"), ("FALL", "MOVEMENT"), ("WINTER", "ADJUSTMENT")}

# Fields each record must have (the rest have defaults).
REQUIRED: dict[str, tuple[str, ...]] = {
    "": ("schema_version", "map_id", "powers", "provinces", "edges"),
    "powers": ("id", "home_centers"),
    "provinces": ("id", "name", "kind"),
    "edges": ("from", "to"),
    "starting_units": ("power", "kind", "province"),
}


@dataclass(frozen=True)
class Problem:
    code: str
    culprit: str
    message: str

    def __str__(self) -> str:
        return self.message


def check_variant(data: Any) -> tuple[Problem, ...]:
    """Every problem of ``data`` as a variant (empty: it loads and plays), in a stable order."""
    if not isinstance(data, dict):
        return (Problem("NOT_AN_OBJECT", "variant", "a variant must be a JSON object"),)
    shape = tuple(_shape(data))
    if shape:  # the records cannot be read further
        return shape
    return tuple(_Checker(data).problems())


def _shape(data: dict[str, Any]) -> Iterator[Problem]:
    for name in REQUIRED[""]:
        if name not in data:
            yield Problem("MISSING_FIELD", name, f"missing field {name!r}")
    for section, fields in REQUIRED.items():
        if not section:
            continue
        records = data.get(section, [])
        if not isinstance(records, list):
            yield Problem("NOT_A_LIST", section, f"{section} must be a list")
            continue
        for i, record in enumerate(records):
            if not isinstance(record, dict):
                yield Problem("NOT_AN_OBJECT", f"{section}[{i}]", f"{section}[{i}] must be an object")
                continue
            label = _label(section, i, record)
            for name in fields:
                if name not in record:
                    yield Problem("MISSING_FIELD", label, f"{label}: missing field {name!r}")
            for name in ("id", "from", "to", "power", "province"):
                if name in record and not isinstance(record[name], str):
                    yield Problem("NOT_A_STRING", label, f"{label}: {name} must be a string")


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


class _Checker:
    """One pass per part of the data; each yields its problems."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.provinces: dict[str, dict[str, Any]] = {}
        self.duplicates: list[str] = []
        for p in data["provinces"]:
            pid = p["id"]
            if pid in self.provinces:
                self.duplicates.append(pid)
            self.provinces[pid] = p
        self.powers = {p["id"]: p for p in data["powers"]}
        self.centres = {pid for pid, p in self.provinces.items() if p.get("supply_center")}
        self.army: dict[str, set[str]] = defaultdict(set)
        self.fleet: dict[tuple[str, str | None], set[tuple[str, str | None]]] = defaultdict(set)

    def problems(self) -> Iterator[Problem]:
        yield from self._header()
        yield from self._provinces()
        yield from self._edges()
        yield from self._reach()
        yield from self._powers()
        yield from self._units()
        yield from self._ownership()
        yield from self._rules()

    # --- the parts -------------------------------------------------------------------------

    def _header(self) -> Iterator[Problem]:
        version = self.data["schema_version"]
        if version != SCHEMA_VERSION:
            yield Problem(
                "SCHEMA_VERSION",
                "schema_version",
                f"schema_version {version!r} is not supported (expected {SCHEMA_VERSION})",
            )
        start = self.data.get("start", {})
        season, phase = start.get("season", "SPRING"), start.get("phase", "MOVEMENT")
        if (season, phase) not in START_PHASES:
            yield Problem(
                "START_PHASE",
                "start",
                f"start: {season} {phase} is not a phase (SPRING or FALL MOVEMENT, WINTER ADJUSTMENT)",
            )
        if not isinstance(start.get("year", 1901), int):
            yield Problem("START_YEAR", "start", "start: year must be an integer")

    def _provinces(self) -> Iterator[Problem]:
        for pid in self.duplicates:
            yield Problem("PROVINCE_TWICE", pid, f"province {pid} is listed twice")
        for pid, p in self.provinces.items():
            if not pid.isalnum() or not pid.isupper():
                yield Problem("PROVINCE_ID", pid, f"province {pid}: an id is upper-case letters and digits")
            kind = p["kind"]
            if kind not in KINDS:
                yield Problem(
                    "PROVINCE_KIND", pid, f"province {pid}: unknown kind {kind!r} (land, sea, coast)"
                )
            coasts = p.get("coasts", [])
            if coasts and kind != "coast":
                yield Problem(
                    "COASTS_NOT_COASTAL", pid, f"province {pid}: only a coastal province has named coasts"
                )
            if len(coasts) == 1:
                yield Problem(
                    "ONE_NAMED_COAST",
                    pid,
                    f"province {pid}: one coast is no coast to name (list two or more, or none)",
                )
            for coast in coasts:
                if coast not in COASTS:
                    yield Problem(
                        "COAST_NAME", pid, f"province {pid}: unknown coast {coast!r} (NC, SC, EC or WC)"
                    )
            if p.get("convoy_node") and kind == "land":
                yield Problem(
                    "LAND_CONVOY_NODE", pid, f"province {pid}: a land province cannot be a convoy node"
                )
            if p.get("supply_center") and kind == "sea":
                yield Problem("SEA_CENTRE", pid, f"province {pid}: a sea cannot be a supply centre")
            home = p.get("home_power")
            if home is not None and (home not in self.powers or pid not in self.powers[home]["home_centers"]):
                yield Problem(
                    "HOME_POWER", pid, f"province {pid}: home_power {home} does not list it as a home centre"
                )

    def _edges(self) -> Iterator[Problem]:
        seen: set[tuple[str, str | None, str, str | None]] = set()
        rules_of: dict[frozenset[str], dict[str, Any]] = {}
        for e in self.data["edges"]:
            a, b = e["from"], e["to"]
            what = f"edge {a}-{b}"
            key = (a, e.get("from_coast"), b, e.get("to_coast"))
            if key in seen:
                yield Problem("EDGE_TWICE", f"{a}-{b}", f"{what} is listed twice")
            elif (b, e.get("to_coast"), a, e.get("from_coast")) in seen:
                yield Problem(
                    "EDGE_BOTH_WAYS", f"{a}-{b}", f"{what} is also listed as {b}-{a}; list each edge once"
                )
            seen.add(key)
            yield from self._edge(e, a, b, what)
            rules = {k: e[k] for k in ("strength", *EDGE_FLAGS, "label") if k in e}
            pair = frozenset((a, b))
            if pair in rules_of and rules_of[pair] != rules:
                yield Problem(
                    "EDGE_RULES_DIFFER",
                    f"{a}-{b}",
                    f"{what}: its rule features differ from another record of the same two provinces",
                )
            rules_of.setdefault(pair, rules)

    def _edge(self, e: dict[str, Any], a: str, b: str, what: str) -> Iterator[Problem]:
        unknown = [p for p in (a, b) if p not in self.provinces]
        for pid in unknown:
            yield Problem("EDGE_UNKNOWN_PROVINCE", f"{a}-{b}", f"{what}: unknown province {pid}")
        if unknown:
            return
        if a == b:
            yield Problem("EDGE_TO_ITSELF", f"{a}-{b}", f"{what} joins a province to itself")
        if not e.get("army") and not e.get("fleet"):
            yield Problem("EDGE_FOR_NOBODY", f"{a}-{b}", f"{what}: neither army nor fleet may cross it")
        if e.get("strength", "full") not in STRENGTHS:
            yield Problem(
                "EDGE_STRENGTH",
                f"{a}-{b}",
                f"{what}: strength must be 'full' or 'half', not {e['strength']!r}",
            )
        if e.get("army"):
            if e.get("from_coast") or e.get("to_coast"):
                yield Problem("ARMY_EDGE_COAST", f"{a}-{b}", f"{what}: an army edge carries no coast")
            for pid in (a, b):
                if self.provinces[pid]["kind"] == "sea":
                    yield Problem("ARMY_EDGE_SEA", f"{a}-{b}", f"{what}: an army cannot enter {pid}")
            self.army[a].add(b)
            self.army[b].add(a)
        if e.get("fleet"):
            ends = [
                self._fleet_end(pid, e.get(side), what) for pid, side in ((a, "from_coast"), (b, "to_coast"))
            ]
            for found in ends:
                if isinstance(found, Problem):
                    yield found
            la, lb = ends
            if not isinstance(la, Problem) and not isinstance(lb, Problem):
                self.fleet[la].add(lb)
                self.fleet[lb].add(la)

    def _fleet_end(self, pid: str, coast: str | None, what: str) -> tuple[str, str | None] | Problem:
        p = self.provinces[pid]
        culprit = what.removeprefix("edge ")
        if p["kind"] == "land":
            return Problem("FLEET_EDGE_INLAND", culprit, f"{what}: a fleet cannot enter land province {pid}")
        coasts = p.get("coasts", [])
        if coast is None and coasts:
            return Problem("FLEET_EDGE_NO_COAST", culprit, f"{what}: fleet edge to {pid} must name a coast")
        if coast is not None and coast not in coasts:
            return Problem("FLEET_EDGE_COAST", culprit, f"{what}: {pid} has no coast {coast}")
        return (pid, coast)

    def _reach(self) -> Iterator[Problem]:
        """Every place a unit could stand is reachable: each named coast, each sea and each
        coastal province has a fleet edge, each non-sea province an army edge, and the map is
        one piece."""
        for pid, p in sorted(self.provinces.items()):
            if p["kind"] in ("sea", "coast"):
                for coast in p.get("coasts", []) or [None]:
                    if not self.fleet.get((pid, coast)):
                        where = f"{pid}/{coast}" if coast else pid
                        yield Problem(
                            "COAST_WITHOUT_FLEET_EDGE",
                            where,
                            f"{where}: no fleet edge leaves it (a fleet there could never move)",
                        )
            if p["kind"] == "land" and not self.army.get(pid):  # an island may have none
                yield Problem("NO_ARMY_EDGE", pid, f"province {pid}: no army edge leaves it")
        neighbours: dict[str, set[str]] = defaultdict(set)
        for a, lands in self.army.items():
            neighbours[a] |= lands
        for (a, _), spots in self.fleet.items():
            neighbours[a] |= {b for b, _ in spots}
        pieces = _components(set(self.provinces), neighbours)
        for piece in pieces[1:]:
            names = ", ".join(sorted(piece))
            yield Problem(
                "MAP_IN_PIECES", min(piece), f"provinces {names} are cut off from the rest of the map"
            )

    def _powers(self) -> Iterator[Problem]:
        for power_id, power in self.powers.items():
            label = f"power {power_id}"
            for centre in power["home_centers"]:
                if centre not in self.provinces:
                    yield Problem("HOME_UNKNOWN", centre, f"{label}: home centre {centre} is not a province")
                elif centre not in self.centres:
                    yield Problem(
                        "HOME_NOT_CENTRE", centre, f"{label}: home centre {centre} is not a supply centre"
                    )
                elif self.provinces[centre].get("home_power") != power_id:
                    yield Problem(
                        "HOME_POWER",
                        power_id,
                        f"{label}: home centre {centre} has home_power "
                        f"{self.provinces[centre].get('home_power')}",
                    )
            for centre in power.get("starting_centers", ()):
                if centre not in self.centres:
                    yield Problem(
                        "START_CENTRE_NOT_CENTRE",
                        power_id,
                        f"{label}: starting centre {centre} is not a supply centre",
                    )
            rule = self.data.get("rules", {}).get("build_sites", "home_centers")
            if not power["home_centers"] and rule == "home_centers":
                yield Problem(
                    "NO_BUILD_SITE", power_id, f"{label}: no home centre, and builds are on home centres only"
                )

    def _units(self) -> Iterator[Problem]:
        where: dict[str, str] = {}
        for u in self.data.get("starting_units", []):
            prov, kind, coast = u["province"], u["kind"], u.get("coast")
            what = f"starting unit {kind} {prov}{'/' + coast if coast else ''} ({u['power']})"
            if kind not in ("army", "fleet"):
                yield Problem("UNIT_KIND", prov, f"starting unit in {prov}: kind must be 'army' or 'fleet'")
                continue
            if u["power"] not in self.powers:
                yield Problem("UNIT_POWER", prov, f"{what}: unknown power")
            if prov in where:
                yield Problem("UNITS_SHARE", prov, f"{what}: {where[prov]}'s unit already stands there")
            where[prov] = u["power"]
            p = self.provinces.get(prov)
            if p is None:
                yield Problem("UNIT_PROVINCE", prov, f"{what}: unknown province")
            elif kind == "army" and (p["kind"] == "sea" or coast):
                yield Problem("UNIT_SPOT", prov, f"{what}: an army stands on land, without a coast")
            elif kind == "fleet" and (
                p["kind"] == "land"
                or bool(p.get("coasts")) != bool(coast)
                or coast not in (p.get("coasts") or [None])
            ):
                yield Problem("UNIT_SPOT", prov, f"{what}: a fleet cannot stand there")

    def _ownership(self) -> Iterator[Problem]:
        owned: dict[str, str] = self.data.get("starting_ownership", {})
        for centre, owner in owned.items():
            if centre not in self.centres:
                yield Problem(
                    "OWNED_NOT_CENTRE", centre, f"starting ownership of {centre}: not a supply centre"
                )
            if owner not in self.powers:
                yield Problem(
                    "OWNER_UNKNOWN", centre, f"starting ownership of {centre}: unknown power {owner}"
                )
            elif centre not in self.powers[owner].get("starting_centers", self.powers[owner]["home_centers"]):
                yield Problem(
                    "OWNED_NOT_STARTING",
                    centre,
                    f"starting ownership of {centre}: not among {owner}'s starting centres",
                )
        for power_id, power in self.powers.items():
            for centre in power.get("starting_centers", power["home_centers"]):
                if owned.get(centre) != power_id:
                    yield Problem(
                        "STARTING_NOT_OWNED",
                        power_id,
                        f"power {power_id}: starting centre {centre} "
                        f"is owned by {owned.get(centre)} in starting_ownership",
                    )
        neutral = self.data.get("neutral_supply_centers")
        if neutral is not None:
            for pid in neutral:
                if pid not in self.centres:
                    yield Problem(
                        "NEUTRAL_NOT_CENTRE", pid, f"neutral supply centre {pid}: not a supply centre"
                    )
                elif pid in owned:
                    yield Problem(
                        "NEUTRAL_OWNED", pid, f"neutral supply centre {pid}: owned by {owned[pid]} at start"
                    )
            for pid in sorted(self.centres - set(owned) - set(neutral)):
                yield Problem(
                    "CENTRE_UNACCOUNTED",
                    pid,
                    f"supply centre {pid} is neither owned at start nor listed as neutral",
                )
        count = self.data.get("supply_center_count")
        if count is not None and count != len(self.centres):
            yield Problem(
                "CENTRE_COUNT",
                "supply_center_count",
                f"supply_center_count is {count} but {len(self.centres)} provinces are supply centres",
            )
        solo = self.data.get("victory", {}).get("solo_supply_centers", 18)
        if not isinstance(solo, int) or not 0 < solo <= len(self.centres):
            yield Problem(
                "VICTORY_COUNT",
                "victory",
                f"victory: solo_supply_centers {solo} must be between 1 and {len(self.centres)}",
            )

    def _rules(self) -> Iterator[Problem]:
        rules = self.data.get("rules", {})
        rule = rules.get("build_sites", "home_centers")
        if rule not in BUILD_SITE_RULES:
            yield Problem(
                "BUILD_SITES_RULE",
                "rules.build_sites",
                f"rules.build_sites: unknown rule {rule!r} (one of {', '.join(BUILD_SITE_RULES)})",
            )
        for em in rules.get("emergency_measures", []):
            who = em.get("power")
            if who not in self.powers:
                yield Problem("EMERGENCY_POWER", str(who), f"emergency measures: unknown power {who}")
            if em.get("active_when", ACTIVE_WHEN) != ACTIVE_WHEN:
                yield Problem(
                    "EMERGENCY_CONDITION",
                    str(who),
                    f"emergency measures: unknown condition {em['active_when']!r}",
                )
            for centre in em.get("home_centers", []):
                if centre not in self.centres:
                    yield Problem(
                        "EMERGENCY_HOME",
                        centre,
                        f"emergency measures of {who}: {centre} is not a supply centre",
                    )
            for pid in em.get("build_provinces", []):
                if pid not in self.provinces:
                    yield Problem("EMERGENCY_SITE", pid, f"emergency measures: unknown build province {pid}")
        for power_id, extra in rules.get("civil_disorder_extra_home_centers", {}).items():
            if power_id not in self.powers:
                yield Problem(
                    "DISORDER_POWER", power_id, f"civil_disorder_extra_home_centers: unknown power {power_id}"
                )
            for centre in extra:
                if centre not in self.centres:
                    yield Problem(
                        "DISORDER_CENTRE",
                        centre,
                        f"civil_disorder_extra_home_centers of {power_id}: {centre} is not a supply centre",
                    )


def _components(nodes: set[str], neighbours: dict[str, set[str]]) -> list[set[str]]:
    """Connected pieces of the map, largest first (ties: by the smallest id)."""
    left, pieces = set(nodes), []
    while left:
        start = min(left)
        piece, todo = {start}, [start]
        while todo:
            for nxt in neighbours.get(todo.pop(), ()):
                if nxt in left and nxt not in piece:
                    piece.add(nxt)
                    todo.append(nxt)
        left -= piece
        pieces.append(piece)
    return sorted(pieces, key=lambda p: (-len(p), min(p)))
