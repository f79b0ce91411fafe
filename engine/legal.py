"""Legal-order menus, and which powers the table is waiting for.

``legal_orders`` builds the candidate orders a client may offer as menus and then
keeps only those ``engine.validation.validate`` accepts, returning the order as
validate normalises it: there is one legality check in the engine, and a menu
can never offer an order that order entry would refuse. The candidates are
generated from the map's adjacency (and, for convoys, the fleets on the board),
which is what decides the menu's size; validate decides what stays.

Menu conventions (why they are this way):

* A move into a province held by one's own unit is a legal order (it may succeed
  if that unit moves away), so it is offered.
* An army's convoyed moves are offered as ``Move(via_convoy=True)`` to every
  coastal province a chain of fleets now on the board could carry it to. Where
  such a province is also adjacent, both the plain and the VIA form are offered,
  because they mean different things under the 2023 rules (DATC 4.A.3).
* A fleet's moves name the exact coast it would reach.
* A convoy is offered for a fleet at sea (a convoy node) for every army on a
  coast and every coastal destination such that a chain of fleets on the board
  that **includes this fleet** joins them. Candidates are the simple chains
  through the fleet; validate then keeps only those where the fleet is a
  necessary link of some route (DATC 6.G.19: a fleet that is only ever a detour
  convoys nothing), which is a subset of the candidates.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from engine.allowance import adjustment_balance, build_sites
from engine.maps.loader import MapData
from engine.types import (
    Build,
    Convoy,
    Disband,
    GameState,
    GameStatus,
    Hold,
    Location,
    Move,
    Order,
    PhaseType,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitKind,
    Waive,
)
from engine.validation import validate

_TYPE_RANK = {
    cls: i
    for i, cls in enumerate((Hold, Move, SupportHold, SupportMove, Convoy, Retreat, Disband, Build, Waive))
}


def legal_orders(state: GameState, map: MapData, power: str) -> list[Order]:  # noqa: A002
    """Every legal order ``power`` may give now, without duplicates, in a fixed order.

    Sorted by the ordered unit's location (build location for builds), then
    order kind, then the order's fields, so menus are stable between calls.
    """
    if state.status is not GameStatus.ACTIVE or power not in map.powers:
        return []  # validate() would refuse everything anyway; skip building candidates
    if state.phase_type is PhaseType.MOVEMENT:
        candidates: Iterable[Order] = _movement_candidates(state, map, power)
    elif state.phase_type is PhaseType.RETREAT:
        candidates = _retreat_candidates(state, power)
    else:
        candidates = _adjustment_candidates(state, map, power)
    legal: set[Order] = set()
    for order in candidates:
        check = validate(order, state, map)
        if check.ok and check.order is not None:
            legal.add(check.order)
    return sorted(legal, key=_order_key)


def powers_with_orders_to_give(state: GameState, map: MapData) -> tuple[str, ...]:  # noqa: A002
    """The powers whose orders the phase waits for, sorted.

    Movement: every power with a unit. Retreat: powers with a dislodged unit.
    Adjustment: powers that must remove units, and powers owed a build that have
    somewhere to build it (a power offered nothing but WAIVE is not waited on).
    """
    if state.status is not GameStatus.ACTIVE:
        return ()
    if state.phase_type is PhaseType.MOVEMENT:
        return state.powers_with_units()
    if state.phase_type is PhaseType.RETREAT:
        return tuple(sorted({d.unit.power for d in state.dislodged}))
    out = []
    for power in map.power_ids:
        balance = adjustment_balance(state, map, power)
        if balance < 0 or (balance > 0 and build_sites(state, map, power)):
            out.append(power)
    return tuple(out)


def _order_key(order: Order) -> tuple[str, int, str]:
    if isinstance(order, Build):
        place = str(order.location)
    elif isinstance(order, Waive):
        place = "~"  # after every location
    else:
        place = str(order.unit)
    return (place, _TYPE_RANK[type(order)], repr(order))


# --- movement --------------------------------------------------------------------------------


def _fleet_provinces(state: GameState) -> frozenset[str]:
    return frozenset(u.province for u in state.units if u.kind is UnitKind.FLEET)


def convoy_destinations(map: MapData, src: str, fleets: frozenset[str]) -> frozenset[str]:  # noqa: A002
    """Coastal provinces an army in ``src`` could be convoyed to by the fleets present.

    The same reach as ``MapData.convoy_possible`` (chains of fleets at convoy
    nodes), computed for every destination in one search.
    """
    if not map.can_be_convoyed(src):
        return frozenset()
    start = [f for f in map.water_neighbours[src] if f in fleets and map.is_convoy_node(f)]
    seen = set(start)
    queue = deque(start)
    out: set[str] = set()
    while queue:
        here = queue.popleft()
        for nxt in map.water_neighbours[here]:
            if map.can_be_convoyed(nxt) and nxt != src:
                out.add(nxt)
            if nxt not in seen and nxt in fleets and map.is_convoy_node(nxt):
                seen.add(nxt)
                queue.append(nxt)
    return frozenset(out)


def _unit_moves(unit: Unit, state: GameState, map: MapData) -> list[Move]:  # noqa: A002
    """Candidate moves of ``unit``: adjacent ones, plus VIA moves for armies."""
    if unit.kind is UnitKind.FLEET:
        return [
            Move(unit.power, unit.location, dest, kind=unit.kind)
            for dest in sorted(map.fleet_adjacent.get(unit.location, ()))
        ]
    moves = [
        Move(unit.power, unit.location, Location(p), kind=unit.kind)
        for p in sorted(map.army_adjacent.get(unit.province, ()))
    ]
    for p in sorted(convoy_destinations(map, unit.province, _fleet_provinces(state))):
        moves.append(Move(unit.power, unit.location, Location(p), via_convoy=True, kind=unit.kind))
    return moves


def _movement_candidates(state: GameState, map: MapData, power: str) -> list[Order]:  # noqa: A002
    out: list[Order] = []
    others_moves = {u: _unit_moves(u, state, map) for u in state.units}
    for unit in state.units_of(power):
        out.append(Hold(power, unit.location, unit.kind))
        out.extend(others_moves[unit])
        for other in sorted(state.units):
            if other == unit:
                continue
            if map.can_support_into(unit, other.province):
                out.append(SupportHold(power, unit.location, other.location, unit.kind, other.kind))
            for move in others_moves[other]:
                if move.dest.province != unit.province and map.can_support_into(unit, move.dest.province):
                    out.append(
                        SupportMove(power, unit.location, other.location, move.dest, unit.kind, other.kind)
                    )
        if unit.kind is UnitKind.FLEET and map.is_convoy_node(unit.province):
            out.extend(_convoys(unit, state, map))
    return out


def _convoys(fleet: Unit, state: GameState, map: MapData) -> list[Order]:  # noqa: A002
    """Convoy orders for ``fleet``: each (army, destination) a chain through it joins."""
    fleets = frozenset(
        u.province for u in state.units if u.kind is UnitKind.FLEET and map.is_convoy_node(u.province)
    )
    component = _component(fleet.province, fleets, map)
    shore = {p for f in component for p in map.water_neighbours[f] if map.can_be_convoyed(p)}
    out: list[Order] = []
    for army in sorted(state.units):
        if army.kind is not UnitKind.ARMY or army.province not in shore:
            continue
        for dest in sorted(shore - {army.province, fleet.province}):
            if _on_simple_path(fleet.province, army.province, dest, component, map):
                out.append(
                    Convoy(fleet.power, fleet.location, army.location, Location(dest),
                           fleet.kind, UnitKind.ARMY)
                )
    return out


def _component(start: str, fleets: frozenset[str], map: MapData) -> frozenset[str]:  # noqa: A002
    """The fleets (at convoy nodes) connected to ``start`` through each other."""
    seen = {start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for nxt in map.water_neighbours[here]:
            if nxt in fleets and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return frozenset(seen)


def _on_simple_path(
    via: str, src: str, dest: str, fleets: frozenset[str], map: MapData  # noqa: A002
) -> bool:
    """Is there a chain src - fleet - ... - fleet - dest through ``via`` with no fleet repeated?

    Equivalent to two paths from ``via``, one to ``src`` and one to ``dest``, sharing no
    fleet: a unit-capacity max flow of 2 from ``via`` (each other fleet split into an
    in and out node of capacity 1) to a sink fed by ``src`` and ``dest``.
    """
    sink = ("SINK", "")
    cap: dict[tuple[str, str], dict[tuple[str, str], int]] = {}

    def arc(a: tuple[str, str], b: tuple[str, str]) -> None:
        cap.setdefault(a, {}).setdefault(b, 0)
        cap[a][b] += 1
        cap.setdefault(b, {}).setdefault(a, 0)

    source = (via, "out")
    for f in fleets:
        if f != via:
            arc((f, "in"), (f, "out"))
        for nxt in map.water_neighbours[f]:
            if nxt in (src, dest):
                arc((f, "out"), (nxt, "end"))
            elif nxt in fleets and nxt != via:
                arc((f, "out"), (nxt, "in"))
    arc((src, "end"), sink)
    arc((dest, "end"), sink)
    flow = 0
    while flow < 2:
        parent: dict[tuple[str, str], tuple[str, str]] = {source: source}
        frontier = deque([source])
        while frontier and sink not in parent:
            here = frontier.popleft()
            for step, room in cap.get(here, {}).items():
                if room > 0 and step not in parent:
                    parent[step] = here
                    frontier.append(step)
        if sink not in parent:
            return False
        node = sink
        while node != source:
            prev = parent[node]
            cap[prev][node] -= 1
            cap[node][prev] += 1
            node = prev
        flow += 1
    return True


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


def _adjustment_candidates(state: GameState, map: MapData, power: str) -> list[Order]:  # noqa: A002
    balance = adjustment_balance(state, map, power)
    out: list[Order] = []
    if balance > 0:
        for site in build_sites(state, map, power):
            if not map.is_sea(site):
                out.append(Build(power, Location(site), UnitKind.ARMY))
            out.extend(Build(power, loc, UnitKind.FLEET) for loc in map.fleet_locations(site))
        out.append(Waive(power))
    elif balance < 0:
        out.extend(Disband(power, u.location, u.kind) for u in state.units_of(power))
    return out
