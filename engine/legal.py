"""Legal-order menus, and which powers the table is waiting for.

``legal_orders`` builds the candidate orders a client may offer as menus and then
keeps only those the one legality check (``engine.validation``) accepts, returning the order as
validate normalises it: there is one legality check in the engine, and a menu
can never offer an order that order entry would refuse. The candidates are
generated from the map's adjacency (and, for convoys, the fleets on the board),
which is what decides the menu's size; validate decides what stays.
``legal_menus`` gives several powers' menus from one request (the sandbox, a bot or a
player holding several powers), working out what they share once: the same menus as
asking ``legal_orders`` power by power (tests/engine/test_legal.py compares them).

Menu conventions (why they are this way):

* A move into a province held by one's own unit is a legal order (it may succeed
  if that unit moves away), so it is offered.
* An army's convoyed moves are offered as ``Move(via_convoy=True)`` to every
  coastal province a chain of fleets now on the board could carry it to. Where
  such a province is also adjacent, both the plain and the VIA form are offered,
  because they mean different things under the 2023 rules (DATC 4.A.3).
* A fleet's moves name the exact coast it would reach.
* A convoy is offered for a fleet at sea (a convoy node) for every army on a
  coast and every coastal destination such that the fleet is a necessary link of
  some route of fleets on the board joining them (DATC 6.G.19: a fleet that is
  only ever a detour convoys nothing): the same ``engine.convoys`` answer that
  validation and adjudication use.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence

from engine.allowance import adjustment_balance, build_sites
from engine.maps.loader import MapData
from engine.position import Position
from engine.types import (
    ACTIVE,
    ARMY,
    FLEET,
    MOVEMENT,
    RETREAT,
    Build,
    Convoy,
    Disband,
    GameState,
    Hold,
    Location,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)
from engine.validation import ValidationResult, check

_TYPE_RANK = {
    cls: i
    for i, cls in enumerate((Hold, Move, SupportHold, SupportMove, Convoy, Retreat, Disband, Build, Waive))
}


MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy


def legal_orders(state: GameState, map: MapData, power: str) -> list[Order]:
    """Every legal order ``power`` may give now, without duplicates, in a fixed order.

    Ordered by the unit's province (build location for builds), then order kind
    (hold, moves, supports to hold, supports to move, convoys), then what the order
    names, so menus are stable between calls.
    """
    return legal_menus(state, map, (power,)).get(power, [])


def legal_menus(state: GameState, map: MapData, powers: Iterable[str]) -> dict[str, list[Order]]:
    """``legal_orders`` of each of ``powers`` that the map has (others are left out), from
    one request.

    A request for several menus (the sandbox, a bot playing several powers, a spectator's
    board) shares what they have in common: every unit's moves, the convoy routes of
    the position, and the one ``Position`` whose answers they read.
    """
    wanted = sorted({p for p in powers if p in map.powers})
    if state.status is not ACTIVE or not wanted:
        return dict.fromkeys(wanted, [])  # validate() would refuse everything: no candidates
    pos = Position(state, map)
    if state.phase_type is MOVEMENT:  # generated in menu order, each once
        return {power: [order for order in candidates if _as_is(check(order, pos), order)]
                for power, candidates in _movement_candidates(pos, wanted).items()}
    out = {}
    for power in wanted:
        if state.phase_type is RETREAT:
            candidates = _retreat_candidates(state, power)
        else:
            candidates = _adjustment_candidates(state, map, power)
        out[power] = sorted({order for order in candidates if _as_is(check(order, pos), order)},
                            key=_order_key)
    return out


def _as_is(legality: Order | ValidationResult, order: Order) -> bool:
    """Did the one legality check accept the candidate exactly as it is? (Candidates are
    built in their normalised form, so one that it would rewrite is a bug.)"""
    return legality is order or (type(legality) is not ValidationResult and legality == order)


def powers_with_orders_to_give(state: GameState, map: MapData) -> tuple[str, ...]:
    """The powers whose orders the phase waits for, sorted.

    Movement: every power with a unit. Retreat: powers with a dislodged unit.
    Adjustment: powers that must remove units, and powers owed a build that have
    somewhere to build it (a power offered nothing but WAIVE is not waited on).
    """
    if state.status is not ACTIVE:
        return ()
    if state.phase_type is MOVEMENT:
        return state.powers_with_units()
    if state.phase_type is RETREAT:
        return tuple(sorted({d.unit.power for d in state.dislodged}))
    out = []
    for power in map.power_ids:
        balance = adjustment_balance(state, map, power)
        if balance < 0 or (balance > 0 and build_sites(state, map, power)):
            out.append(power)
    return tuple(out)


def _order_key(order: Order) -> tuple[str, int, str, str, bool]:
    """Place (unit, or build location; waives last), order kind, then what it names."""
    if isinstance(order, Build):
        return (str(order.location), _TYPE_RANK[Build], order.kind.value, "", False)
    if isinstance(order, Waive):
        return ("~", _TYPE_RANK[Waive], "", "", False)
    aim = getattr(order, "origin", None) or getattr(order, "target", None)
    dest = getattr(order, "dest", None)
    return (str(order.unit), _TYPE_RANK[type(order)], "" if aim is None else str(aim),
            "" if dest is None else str(dest), getattr(order, "via_convoy", False))


# --- movement --------------------------------------------------------------------------------


def _targets(unit: Unit, pos: Position, wanted: Container[str]) -> list[tuple[Location, bool]]:
    """Where ``unit`` could be ordered to move, sorted: (destination, by convoy), of the
    provinces in ``wanted`` only."""
    m = pos.map
    if unit.kind is FLEET:
        return [(dest, False) for dest in m.fleet_targets[unit.location] if dest.province in wanted]
    places = m.locations_by_text
    return [(places[p], False) for p in m.army_targets[unit.province] if p in wanted] + [
        (places[p], True) for p in sorted(pos.convoy_destinations(unit.province)) if p in wanted]


class _Everywhere:
    """A container holding every province: a unit's own moves are all offered."""

    def __contains__(self, province: object) -> bool:
        return True


EVERYWHERE = _Everywhere()


def _movement_candidates(pos: Position, powers: Sequence[str]) -> dict[str, list[MovementOrder]]:
    """Per power, per unit in province order: its hold, its moves, its supports (of every
    unit's hold and every unit's candidate move it could reach into), its convoys. Other
    powers' units' moves are listed only into the provinces a wanted power could support
    into; every unit's moves are worked out once for all the powers."""
    units = pos.units
    asked = set(powers)
    mine = [(here, units[here]) for here in sorted(units) if units[here].power in asked]
    reach = {here: sorted(pos.map.support_reach(unit) - {here}) for here, unit in mine}
    wanted = {p for near in reach.values() for p in near}
    into: dict[str, list[tuple[Unit, Location]]] = {}  # province -> (unit, dest) moves there
    targets: dict[str, list[tuple[Location, bool]]] = {}
    adjacent = pos.map.army_adjacent
    for here, unit in units.items():
        options = _targets(unit, pos, EVERYWHERE if unit.power in asked else wanted)
        targets[here] = options
        for dest, via in options:
            if dest.province in wanted and (not via or dest.province not in adjacent[here]):
                into.setdefault(dest.province, []).append((unit, dest))
    convoys = _convoys(pos, asked)
    out: dict[str, list[MovementOrder]] = {power: [] for power in powers}
    for here, unit in mine:
        power, at, kind = unit.power, unit.location, unit.kind
        menu = out[power]
        menu.append(Hold(power, at, kind))
        menu += [Move(power, at, dest, via, kind) for dest, via in targets[here]]
        near = reach[here]
        menu += [SupportHold(power, at, units[p].location, kind, units[p].kind) for p in near if p in units]
        supports = [SupportMove(power, at, other.location, dest, kind, other.kind)
                    for p in near for other, dest in into.get(p, ()) if other.province != here]
        supports.sort(key=_support_key)
        menu += supports
        menu += convoys.get(here, ())
    return out


def _support_key(order: SupportMove) -> tuple[str, str, str]:
    return (order.origin.province, order.dest.province, order.dest.coast or "")


def _convoys(pos: Position, powers: Container[str]) -> dict[str, list[Convoy]]:
    """Convoy orders for the fleets of ``powers``, by fleet province: each (army,
    destination) whose convoy routes have that fleet as a necessary link
    (``engine.convoys``). An army no such fleet could carry is skipped before any route
    is searched."""
    fleets = {p: u for p, u in pos.units.items()
              if u.power in powers and u.kind is FLEET and pos.map.is_convoy_node(p)}
    out: dict[str, list[Convoy]] = {}
    if not fleets:
        return out
    places = pos.map.locations_by_text
    for _, army in sorted(pos.units.items()):
        if army.kind is not ARMY or pos.convoy_reach(army.province).isdisjoint(fleets):
            continue
        for dest in sorted(pos.convoy_destinations(army.province)):
            for province in sorted(pos.necessary_links(army.province, dest) & fleets.keys()):
                fleet = fleets[province]
                out.setdefault(province, []).append(
                    Convoy(fleet.power, fleet.location, army.location, places[dest], fleet.kind, ARMY))
    return out


# --- retreats and adjustments -------------------------------------------------------------------


def _retreat_candidates(state: GameState, power: str) -> list[Order]:
    out: list[Order] = []
    for dislodged in state.dislodged:
        unit = dislodged.unit
        if unit.power != power:
            continue
        out.extend(Retreat(power, unit.location, dest, unit.kind) for dest in dislodged.retreats)
        out.append(Disband(power, unit.location, unit.kind))
    return out


def _adjustment_candidates(state: GameState, map: MapData, power: str) -> list[Order]:
    balance = adjustment_balance(state, map, power)
    out: list[Order] = []
    if balance > 0:
        for site in build_sites(state, map, power):
            if not map.is_sea(site):
                out.append(Build(power, Location(site), ARMY))
            out.extend(Build(power, loc, FLEET) for loc in map.fleet_locations(site))
        out.append(Waive(power))
    elif balance < 0:
        out.extend(Disband(power, u.location, u.kind) for u in state.units_of(power))
    return out
