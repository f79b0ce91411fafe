"""Map data: the JSON map files (schema v1) loaded into an indexed, validated MapData.

The loader checks the data once (known provinces, coasts where coasts are due,
starting units on legal spots, no duplicate edges) and builds every index the
rules need so that lookups are dictionary reads. It does not know any variant by
name: rule features are read from the data (see docs/variants.md).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from typing import Any

from engine.types import ARMY, Location, Ownership, PhaseType, Season, Unit, UnitKind


class MapDataError(ValueError):
    """The map data is inconsistent; the message names the offending province or edge."""


@dataclass(frozen=True)
class Province:
    id: str
    name: str
    kind: str  # "land" | "sea" | "coast"
    supply_center: bool
    home_power: str | None
    coasts: tuple[str, ...]
    convoy_node: bool
    aliases: tuple[str, ...]

    @property
    def is_sea(self) -> bool:
        return self.kind == "sea"

    @property
    def is_land(self) -> bool:
        return self.kind == "land"


@dataclass(frozen=True)
class EdgeRules:
    """Generic rule features that a variant may attach to one adjacency.

    ``strength`` is 2 (full) or 1 (half) in the doubled integer scale the
    adjudicator uses; the rest are the SCHEMA's edge flags.
    """

    strength: int = 2
    no_support_across: bool = False
    move_does_not_cut_support: bool = False
    retreat_disbanded_if_contested: bool = False
    label: str | None = None


FULL_EDGE = EdgeRules()


@dataclass(frozen=True)
class Power:
    id: str
    name: str
    adjective: str
    home_centers: tuple[str, ...]
    starting_centers: tuple[str, ...]


@dataclass(frozen=True)
class EmergencyMeasures:
    """Extra unit allowance and build sites while a power holds some but not all homes."""

    power: str
    home_centers: tuple[str, ...]
    extra_units: int
    build_provinces: tuple[str, ...]
    build_requires_unoccupied: bool

    def active(self, ownership: Ownership) -> bool:
        held = sum(1 for c in self.home_centers if ownership.get(c) == self.power)
        return 0 < held < len(self.home_centers)


@dataclass(frozen=True)
class Victory:
    solo_supply_centers: int
    strictly_more_than_any_other: bool


# ``rules.build_sites``: where a power may build (docs/map-schema.md; read by ``engine.allowance`` only).
HOME_CENTERS = "home_centers"  # its own home centres (the standard rule)
ANY_OWNED_CENTER = "any_owned_center"  # any supply centre it owns (Chaos, Modern, Hundred)
BUILD_SITE_RULES = (HOME_CENTERS, ANY_OWNED_CENTER)


@dataclass(frozen=True, eq=False)
class MapData:
    """A map with every index the engine needs. Built by ``load_map``; do not mutate."""

    map_id: str
    name: str
    raw: dict[str, Any] = field(repr=False)
    powers: dict[str, Power] = field(repr=False)
    provinces: dict[str, Province] = field(repr=False)
    army_adjacent: dict[str, frozenset[str]] = field(repr=False)
    fleet_adjacent: dict[Location, frozenset[Location]] = field(repr=False)
    edge_rules: dict[tuple[str, str], EdgeRules] = field(repr=False)
    names: dict[str, str] = field(repr=False)
    start_year: int = 1901
    start_season: Season = Season.SPRING
    start_phase: PhaseType = PhaseType.MOVEMENT
    starting_units: frozenset[Unit] = frozenset()
    starting_ownership: Ownership = field(default_factory=Ownership)
    victory: Victory = Victory(18, True)
    emergency_measures: tuple[EmergencyMeasures, ...] = ()
    civil_disorder_extra_home_centers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    build_sites_rule: str = HOME_CENTERS
    # Every location a unit can name, by canonical text (``PAR``, ``SPA/NC``): the map's one
    # Location value per place, which its edges, starting units and parsed orders share, so
    # the rules' comparisons mostly succeed on identity.
    locations_by_text: dict[str, Location] = field(default_factory=dict, repr=False)

    # --- queries -------------------------------------------------------------------------
    @property
    def power_ids(self) -> tuple[str, ...]:
        return tuple(sorted(self.powers))

    @cached_property
    def supply_centers(self) -> frozenset[str]:
        return frozenset(p.id for p in self.provinces.values() if p.supply_center)

    def home_centers(self, power: str) -> tuple[str, ...]:
        return self.powers[power].home_centers

    def is_sea(self, province: str) -> bool:
        return self.provinces[province].is_sea

    def fleet_locations(self, province: str) -> tuple[Location, ...]:
        """Where a fleet can stand in ``province`` (one per coast; none inland)."""
        p = self.provinces[province]
        if p.is_land:
            return ()
        if p.coasts:
            return tuple(self.locations_by_text[f"{province}/{c}"] for c in p.coasts)
        return (self.locations_by_text[province],)

    @cached_property
    def fleet_moves(self) -> dict[Location, dict[str, tuple[Location, ...]]]:
        """For each fleet location, the exact locations it reaches, by province."""
        out: dict[Location, dict[str, tuple[Location, ...]]] = {}
        for src, dests in self.fleet_adjacent.items():
            by_province: dict[str, list[Location]] = {}
            for d in sorted(dests):
                by_province.setdefault(d.province, []).append(d)
            out[src] = {p: tuple(locs) for p, locs in by_province.items()}
        return out

    @cached_property
    def army_targets(self) -> dict[str, tuple[str, ...]]:
        """For each province, where an army there may move over land, sorted."""
        return {p: tuple(sorted(near)) for p, near in self.army_adjacent.items()}

    @cached_property
    def fleet_targets(self) -> dict[Location, tuple[Location, ...]]:
        """For each fleet location, the exact locations it may move to, sorted."""
        return {src: tuple(sorted(dests)) for src, dests in self.fleet_adjacent.items()}

    @cached_property
    def army_provinces(self) -> frozenset[str]:
        return frozenset(p.id for p in self.provinces.values() if not p.is_sea)

    @cached_property
    def fleet_spots(self) -> frozenset[tuple[str, str | None]]:
        """(province, coast) pairs a fleet may stand on: string keys, cheap to hash."""
        return frozenset((loc.province, loc.coast) for loc in self.fleet_adjacent)

    def unit_can_stand(self, kind: UnitKind, location: Location) -> bool:
        """The one statement of where a unit may stand: an army in a province that is not
        sea, naming no coast; a fleet on a spot of the fleet graph (a named coast of a
        split-coast province, otherwise the province itself; never inland). The map's
        starting units and every position the engine is handed (``check_state``) are
        held to it."""
        if kind is ARMY:
            return location.coast is None and location.province in self.army_provinces
        return location in self.fleet_adjacent

    def adjacent(self, kind: UnitKind, src: Location, dest: Location) -> bool:
        """Can a unit of ``kind`` at ``src`` move directly to ``dest`` (coast exact for fleets)."""
        if kind is ARMY:
            return dest.province in self.army_adjacent.get(src.province, ())
        return dest in self.fleet_adjacent.get(src, ())

    @cached_property
    def fleet_reach(self) -> dict[Location, frozenset[str]]:
        """For each fleet location, the provinces it reaches (coasts ignored)."""
        return {src: frozenset(d.province for d in dests) for src, dests in self.fleet_adjacent.items()}

    def edge(self, a: str, b: str) -> EdgeRules:
        return self.edge_rules.get((a, b), FULL_EDGE)

    def support_reach(self, unit: Unit) -> frozenset[str]:
        """The support-reach rule: the provinces ``unit`` may support into (it could move
        there itself, coasts ignored, and no edge forbids support across)."""
        if unit.kind is ARMY:
            return self._army_support.get(unit.province, frozenset())
        return self._fleet_support.get(unit.location, frozenset())

    @cached_property
    def _army_support(self) -> dict[Location | str, frozenset[str]]:
        return {p: self._supportable(p, near) for p, near in self.army_adjacent.items()}

    @cached_property
    def _fleet_support(self) -> dict[Location | str, frozenset[str]]:
        return {loc: self._supportable(loc.province, near) for loc, near in self.fleet_reach.items()}

    def _supportable(self, province: str, near: frozenset[str]) -> frozenset[str]:
        return frozenset(p for p in near if not self.edge(province, p).no_support_across)

    def resolve_name(self, text: str) -> str | None:
        """A province id from an id, full name or alias (case and punctuation insensitive)."""
        return self.names.get(normalize_name(text))

    @cached_property
    def name_prefixes(self) -> frozenset[str]:
        """The leading words of every multi-word name (``north``, ``north atlantic``), so
        a parser reading a name word by word knows when to stop."""
        out: set[str] = set()
        for name in self.names:
            words = name.split(" ")
            out.update(" ".join(words[:n]) for n in range(1, len(words)))
        return frozenset(out)

    @cached_property
    def one_word_names(self) -> dict[str, str]:
        """Province ids by the upper-case word of each one-word name that begins no longer
        one (``PAR``, ``PARIS``; not ``NORTH``): the parser reads such a word in one look-up."""
        out = {}
        for name, province in self.names.items():
            word = name.upper()
            if word.isalnum() and word.lower() == name and name not in self.name_prefixes:
                out[word] = province
        return out

    def is_convoy_node(self, province: str) -> bool:
        return self.provinces[province].convoy_node

    @cached_property
    def water_neighbours(self) -> dict[str, frozenset[str]]:
        """Province-level fleet adjacency (any coast to any coast): the convoy graph."""
        out: dict[str, set[str]] = {pid: set() for pid in self.provinces}
        for src, dests in self.fleet_adjacent.items():
            out[src.province].update(d.province for d in dests)
        return {k: frozenset(v) for k, v in out.items()}

    @cached_property
    def convoy_water(self) -> dict[str, frozenset[str]]:
        """The convoy graph: each province's water neighbours where a fleet may convoy."""
        nodes = {pid for pid, p in self.provinces.items() if p.convoy_node}
        return {pid: near & nodes for pid, near in self.water_neighbours.items()}

    @cached_property
    def convoy_shores(self) -> frozenset[str]:
        """Where a convoy may start or end: every coastal province."""
        return frozenset(pid for pid, p in self.provinces.items() if p.kind == "coast")

    @cached_property
    def convoy_landings(self) -> dict[str, frozenset[str]]:
        """For each province, the coastal provinces next to it over water (where a convoy
        whose last fleet stands there may land)."""
        shores = self.convoy_shores
        return {pid: near & shores for pid, near in self.water_neighbours.items()}

    def can_be_convoyed(self, province: str) -> bool:
        """An army may start or end a convoy in any coastal province."""
        return province in self.convoy_shores


def normalize_name(text: str) -> str:
    return re.sub(r"[\s.\-_']+", " ", text.strip().lower()).strip()


# --- loading ---------------------------------------------------------------------------------


@cache
def load_map(map_id: str = "classical") -> MapData:
    """Load a packaged map by id ("classical", "1900"); cached, so load once."""
    package = resources.files("engine.maps")
    path = package / f"{map_id}.json"
    if not path.is_file():
        raise KeyError(f"unknown map {map_id!r}")
    return build_map(json.loads(path.read_text(encoding="utf-8")))


def available_maps() -> tuple[str, ...]:
    package = resources.files("engine.maps")
    return tuple(sorted(p.name[:-5] for p in package.iterdir() if p.name.endswith(".json")))


def build_map(data: dict[str, Any]) -> MapData:
    """Validate map JSON and build its indexes; raises MapDataError naming what is wrong."""
    provinces = _provinces(data)
    powers = _powers(data, provinces)
    places = _places(provinces)
    army, fleet, edge_rules = _edges(data, provinces, places)
    starting_units = _starting_units(data, provinces, powers)
    ownership = Ownership(data.get("starting_ownership", {}))
    for prov, power in ownership.items():
        if prov not in provinces or not provinces[prov].supply_center:
            raise MapDataError(f"starting ownership of {prov}: not a supply centre")
        if power not in powers:
            raise MapDataError(f"starting ownership of {prov}: unknown power {power}")
    rules = data.get("rules", {})
    start = data.get("start", {})
    victory = data.get("victory", {})
    game_map = MapData(
        map_id=data["map_id"],
        name=data.get("name", data["map_id"]),
        raw=data,
        powers=powers,
        provinces=provinces,
        army_adjacent=army,
        fleet_adjacent=fleet,
        edge_rules=edge_rules,
        names=_names(provinces),
        start_year=int(start.get("year", 1901)),
        start_season=Season(start.get("season", "SPRING")),
        start_phase=PhaseType(start.get("phase", "MOVEMENT")),
        starting_units=starting_units,
        starting_ownership=ownership,
        victory=Victory(
            int(victory.get("solo_supply_centers", 18)),
            bool(victory.get("strictly_more_than_any_other", True)),
        ),
        emergency_measures=_emergency_measures(rules, provinces, powers),
        civil_disorder_extra_home_centers={
            p: tuple(v) for p, v in rules.get("civil_disorder_extra_home_centers", {}).items()
        },
        build_sites_rule=_build_sites_rule(rules),
        locations_by_text=places,
    )
    for u in starting_units:
        if not game_map.unit_can_stand(u.kind, u.location):
            raise MapDataError(f"starting unit {u.kind.value} {u.location} ({u.power}): "
                               f"a{'n army' if u.kind is ARMY else ' fleet'} cannot stand there")
    # Starting units stand on the map's own Location values, as parsed orders do.
    object.__setattr__(game_map, "starting_units", frozenset(
        Unit(u.kind, u.power, places[str(u.location)]) for u in starting_units
    ))
    return game_map


def _provinces(data: dict[str, Any]) -> dict[str, Province]:
    out: dict[str, Province] = {}
    for p in data["provinces"]:
        pid = p["id"].upper()
        if pid in out:
            raise MapDataError(f"province {pid} is listed twice")
        if p["kind"] not in ("land", "sea", "coast"):
            raise MapDataError(f"province {pid}: unknown kind {p['kind']!r}")
        out[pid] = Province(
            id=pid,
            name=p["name"],
            kind=p["kind"],
            supply_center=bool(p.get("supply_center", False)),
            home_power=p.get("home_power"),
            coasts=tuple(c.upper() for c in p.get("coasts", [])),
            convoy_node=bool(p.get("convoy_node", p["kind"] == "sea")),
            aliases=tuple(p.get("aliases", [])),
        )
    return out


def _powers(data: dict[str, Any], provinces: dict[str, Province]) -> dict[str, Power]:
    out: dict[str, Power] = {}
    for p in data["powers"]:
        for centre in [*p["home_centers"], *p.get("starting_centers", [])]:
            if centre not in provinces or not provinces[centre].supply_center:
                raise MapDataError(f"power {p['id']}: {centre} is not a supply centre")
        out[p["id"]] = Power(
            id=p["id"],
            name=p.get("name", p["id"].title()),
            adjective=p.get("adjective", ""),
            home_centers=tuple(p["home_centers"]),
            starting_centers=tuple(p.get("starting_centers", p["home_centers"])),
        )
    return out


def _places(provinces: dict[str, Province]) -> dict[str, Location]:
    """One Location value per place a unit can stand or name, by canonical text."""
    out = {pid: Location(pid) for pid in provinces}
    out.update({f"{pid}/{c}": Location(pid, c) for pid, p in provinces.items() for c in p.coasts})
    return out


def _edge_location(
    provinces: dict[str, Province], places: dict[str, Location], pid: str, coast: str | None, what: str
) -> Location:
    if pid not in provinces:
        raise MapDataError(f"edge {what}: unknown province {pid}")
    p = provinces[pid]
    if coast is None and p.coasts:
        raise MapDataError(f"edge {what}: fleet edge to {pid} must name a coast")
    if coast is not None and coast not in p.coasts:
        raise MapDataError(f"edge {what}: {pid} has no coast {coast}")
    if p.is_land:
        raise MapDataError(f"edge {what}: a fleet cannot enter land province {pid}")
    return places[f"{pid}/{coast}" if coast else pid]


EdgeIndexes = tuple[
    dict[str, frozenset[str]], dict[Location, frozenset[Location]], dict[tuple[str, str], EdgeRules]
]


def _edges(data: dict[str, Any], provinces: dict[str, Province], places: dict[str, Location]) -> EdgeIndexes:
    army: dict[str, set[str]] = {pid: set() for pid in provinces}
    fleet: dict[Location, set[Location]] = {}
    for pid, p in provinces.items():
        if not p.is_land:
            for coast in p.coasts or (None,):
                fleet[places[f"{pid}/{coast}" if coast else pid]] = set()
    rules: dict[tuple[str, str], EdgeRules] = {}
    seen: set[tuple[str, str | None, str, str | None]] = set()
    for e in data["edges"]:
        a, b = e["from"].upper(), e["to"].upper()
        what = f"{a}-{b}"
        key = (a, e.get("from_coast"), b, e.get("to_coast"))
        if key in seen:
            raise MapDataError(f"edge {what} is listed twice")
        seen.add(key)
        if a == b:
            raise MapDataError(f"edge {what} joins a province to itself")
        if e.get("army"):
            if e.get("from_coast") or e.get("to_coast"):
                raise MapDataError(f"edge {what}: an army edge carries no coast")
            for pid in (a, b):
                if pid not in provinces or provinces[pid].is_sea:
                    raise MapDataError(f"edge {what}: an army cannot enter {pid}")
            army[a].add(b)
            army[b].add(a)
        if e.get("fleet"):
            la = _edge_location(provinces, places, a, e.get("from_coast"), what)
            lb = _edge_location(provinces, places, b, e.get("to_coast"), what)
            fleet[la].add(lb)
            fleet[lb].add(la)
        edge = _edge_rules(e, what)
        if edge != FULL_EDGE:
            rules[(a, b)] = rules[(b, a)] = edge
    return (
        {k: frozenset(v) for k, v in army.items()},
        {k: frozenset(v) for k, v in fleet.items()},
        rules,
    )


def _edge_rules(e: dict[str, Any], what: str) -> EdgeRules:
    strength = e.get("strength", "full")
    if strength not in ("full", "half"):
        raise MapDataError(f"edge {what}: strength must be 'full' or 'half', not {strength!r}")
    return EdgeRules(
        strength=2 if strength == "full" else 1,
        no_support_across=bool(e.get("no_support_across", False)),
        move_does_not_cut_support=bool(e.get("move_does_not_cut_support", False)),
        retreat_disbanded_if_contested=bool(e.get("retreat_disbanded_if_contested", False)),
        label=e.get("label"),
    )


def _starting_units(
    data: dict[str, Any],
    provinces: dict[str, Province],
    powers: dict[str, Power],
) -> frozenset[Unit]:
    """The starting units as the data names them (where each may stand is checked once the
    map is built, by ``MapData.unit_can_stand``)."""
    units = set()
    for u in data.get("starting_units", []):
        kind = UnitKind.ARMY if u["kind"] == "army" else UnitKind.FLEET
        loc = Location(u["province"], u.get("coast"))
        what = f"starting unit {kind.value} {loc} ({u['power']})"
        if u["power"] not in powers:
            raise MapDataError(f"{what}: unknown power")
        if loc.province not in provinces:
            raise MapDataError(f"{what}: unknown province")
        units.add(Unit(kind, u["power"], loc))
    if len({u.province for u in units}) != len(units):
        raise MapDataError("two starting units share a province")
    return frozenset(units)


def _emergency_measures(
    rules: dict[str, Any], provinces: dict[str, Province], powers: dict[str, Power]
) -> tuple[EmergencyMeasures, ...]:
    out = []
    for r in rules.get("emergency_measures", []):
        if r["power"] not in powers:
            raise MapDataError(f"emergency measures: unknown power {r['power']}")
        if r.get("active_when", "owns_some_but_not_all_home_centers") != (
            "owns_some_but_not_all_home_centers"
        ):
            raise MapDataError(f"emergency measures: unknown condition {r['active_when']!r}")
        for pid in r.get("build_provinces", []):
            if pid not in provinces:
                raise MapDataError(f"emergency measures: unknown build province {pid}")
        out.append(
            EmergencyMeasures(
                power=r["power"],
                home_centers=tuple(r["home_centers"]),
                extra_units=int(r.get("extra_units", 1)),
                build_provinces=tuple(r.get("build_provinces", [])),
                build_requires_unoccupied=bool(r.get("build_requires_unoccupied", True)),
            )
        )
    return tuple(out)


def _build_sites_rule(rules: dict[str, Any]) -> str:
    rule = rules.get("build_sites", HOME_CENTERS)
    if rule not in BUILD_SITE_RULES:
        raise MapDataError(f"rules.build_sites: unknown rule {rule!r} (one of {', '.join(BUILD_SITE_RULES)})")
    return str(rule)


def _names(provinces: dict[str, Province]) -> dict[str, str]:
    names: dict[str, str] = {}
    for pid, p in provinces.items():
        for text in (p.name, *p.aliases):
            names.setdefault(normalize_name(text), pid)
            names.setdefault(normalize_name(text).replace(" ", ""), pid)
    for pid in provinces:  # ids win over aliases that happen to spell another id
        names[pid.lower()] = pid
    return names
