"""A simple, deterministic player for dummy powers (demo games, seed W9).

``simple_orders(state, map, power, seed)`` returns legal orders for one power in any
phase. It is not strong, only plausible: armies and fleets head for the nearest
supply centre they do not own, a unit standing on a foreign centre in the fall stays
to take it, units that have nothing better to do support a friendly move (or hold),
dislodged units retreat towards centres, builds use every site allowed (armies
mostly, fleets on coasts now and then) and removals drop the units farthest from
any target.

Why it is built this way:
- It uses only the engine's public API (``legal_orders`` for every candidate, so
  whatever it plays passes ``validate``; ``adjustment_balance``; the map's provinces
  and supply centres), so it survives changes to the engine's internals.
- Distances come from the map's adjacency for each unit kind (what the menus offer a
  lone unit), built per call in microseconds: no cache to keep.
- It is deterministic: all choices come from ``random.Random`` seeded with
  ``seed`` and the power (string seeds hash the same in every process), and every
  collection is walked in sorted order. Callers seed with game id and phase.
Pure: no I/O, standard library only.
"""

from __future__ import annotations

import random
from collections import deque

from engine.allowance import adjustment_balance
from engine.legal import legal_orders
from engine.maps.loader import MapData
from engine.types import (
    Build,
    Disband,
    GameState,
    Hold,
    Location,
    Move,
    Order,
    PhaseType,
    Retreat,
    Season,
    SupportHold,
    SupportMove,
    Unit,
    UnitKind,
)

FAR = 99
Graph = dict[str, frozenset[str]]


def simple_orders(state: GameState, map: MapData, power: str, seed: str) -> list[Order]:
    """Legal orders for ``power`` in ``state``'s phase, the same for the same seed."""
    rng = random.Random(f"{seed}:{power}")
    legal = legal_orders(state, map, power)
    if not legal:
        return []
    targets = frozenset(c for c in map.supply_centers if state.ownership.get(c) != power)
    distances = {kind: _distances(graph, targets) for kind, graph in _graphs(map).items()}
    if state.phase_type is PhaseType.MOVEMENT:
        return _movement(state, power, legal, targets, distances, rng)
    if state.phase_type is PhaseType.RETREAT:
        return _retreats(legal, distances, rng)
    return _adjustments(state, map, power, legal, distances, rng)


# --- the map as graphs -----------------------------------------------------------------------


def _graphs(the_map: MapData) -> dict[UnitKind, Graph]:
    """Province -> provinces a lone army / fleet there may move to: the map's adjacency,
    a fleet's coasts merged (what ``legal_orders`` offers a lone unit, without a convoy)."""
    fleets: dict[str, frozenset[str]] = {}
    for location, near in the_map.fleet_adjacent.items():
        fleets[location.province] = fleets.get(location.province, frozenset()) | {d.province for d in near}
    armies = {p: near for p, near in the_map.army_adjacent.items() if not the_map.is_sea(p)}
    return {UnitKind.ARMY: armies, UnitKind.FLEET: fleets}


def _distances(graph: Graph, targets: frozenset[str]) -> dict[str, int]:
    """Moves from each province to the nearest target (breadth first from the targets)."""
    incoming: dict[str, set[str]] = {}
    for origin, reach in graph.items():
        for dest in reach:
            incoming.setdefault(dest, set()).add(origin)
    found = {t: 0 for t in targets if t in graph}
    queue = deque(sorted(found))
    while queue:
        here = queue.popleft()
        for origin in sorted(incoming.get(here, ())):
            if origin not in found:
                found[origin] = found[here] + 1
                queue.append(origin)
    return found


# --- phases ----------------------------------------------------------------------------------


def _by_unit(legal: list[Order]) -> dict[Location, list[Order]]:
    out: dict[Location, list[Order]] = {}
    for order in legal:
        where = getattr(order, "unit", None)
        if isinstance(where, Location):
            out.setdefault(where, []).append(order)
    return out


def _movement(state: GameState, power: str, legal: list[Order], targets: frozenset[str],
              distances: dict[UnitKind, dict[str, int]], rng: random.Random) -> list[Order]:
    menus = _by_unit(legal)
    units = sorted((u for u in state.units if u.power == power), key=lambda u: u.location)
    rng.shuffle(units)
    claimed: set[str] = set()
    moves: dict[Location, Move] = {}
    for unit in units:
        move = _best_move(state, unit, menus.get(unit.location, []), targets, distances[unit.kind],
                          claimed, rng)
        if move is None:
            claimed.add(unit.province)
        else:
            moves[unit.location] = move
            claimed.add(move.dest.province)
    orders: list[Order] = list(moves.values())
    wanted = {m.unit: m.dest for m in moves.values()}
    staying = {u.province for u in units if u.location not in moves}
    for unit in units:
        if unit.location not in moves:
            orders.append(_holder(unit, menus.get(unit.location, []), wanted, staying, targets, rng))
    return sorted(orders, key=_order_key)


def _best_move(state: GameState, unit: Unit, menu: list[Order], targets: frozenset[str],
               distance: dict[str, int], claimed: set[str], rng: random.Random) -> Move | None:
    """The move that gets nearest a target, or None to stay (on a centre to take, or nothing better)."""
    here = unit.province
    if state.season is Season.FALL and here in targets:
        return None
    stay = -10 * distance.get(here, FAR) + 3 * rng.random()
    best: tuple[float, Move] | None = None
    for order in menu:
        if not isinstance(order, Move) or order.via_convoy or order.dest.province in claimed:
            continue
        occupant = state.units_by_province.get(order.dest.province)
        if occupant is not None and occupant.power == unit.power:
            continue
        score = -10 * distance.get(order.dest.province, FAR) + 3 * rng.random()
        score += 15 if order.dest.province in targets else 0
        if best is None or score > best[0]:
            best = (score, order)
    if best is None or best[0] <= stay:
        return None
    return best[1]


def _holder(unit: Unit, menu: list[Order], wanted: dict[Location, Location], staying: set[str],
            targets: frozenset[str], rng: random.Random) -> Order:
    """A unit that stays: support a friendly move (into a target first), else maybe support a
    friendly unit that also stays, else hold."""
    supports = [o for o in menu if isinstance(o, SupportMove) and _matches(o, wanted.get(o.origin))]
    if supports:
        supports.sort(key=lambda o: (o.dest.province not in targets, _order_key(o)))
        return supports[0]
    holds = [o for o in menu if isinstance(o, SupportHold) and o.target.province in staying]
    if holds and rng.random() < 0.3:
        return holds[rng.randrange(len(holds))]
    return next((o for o in menu if isinstance(o, Hold)), menu[0])


def _matches(support: SupportMove, dest: Location | None) -> bool:
    """Does ``support`` support the move to ``dest`` (a support may leave out the coast)?"""
    if dest is None or support.dest.province != dest.province:
        return False
    return support.dest.coast in (None, dest.coast)


def _retreats(legal: list[Order], distances: dict[UnitKind, dict[str, int]],
              rng: random.Random) -> list[Order]:
    claimed: set[str] = set()
    orders: list[Order] = []
    for _, menu in sorted(_by_unit(legal).items()):
        kind = next((o.kind for o in menu if isinstance(o, Retreat | Disband) and o.kind), UnitKind.ARMY)
        options = [o for o in menu if isinstance(o, Retreat) and o.dest.province not in claimed]
        if options:
            choice = min(options, key=lambda o: (distances[kind].get(o.dest.province, FAR), rng.random()))
            claimed.add(choice.dest.province)
            orders.append(choice)
        else:
            orders.append(next(o for o in menu if isinstance(o, Disband)))
    return orders


def _adjustments(state: GameState, the_map: MapData, power: str, legal: list[Order],
                 distances: dict[UnitKind, dict[str, int]], rng: random.Random) -> list[Order]:
    balance = adjustment_balance(state, the_map, power)
    if balance > 0:
        sites: dict[str, list[Build]] = {}
        for order in legal:
            if isinstance(order, Build):
                sites.setdefault(order.location.province, []).append(order)
        chosen: list[Order] = []
        for province in rng.sample(sorted(sites), min(balance, len(sites))):
            options = sorted(sites[province], key=_order_key)
            armies = [o for o in options if o.kind is UnitKind.ARMY]
            fleets = [o for o in options if o.kind is UnitKind.FLEET]
            pool = fleets if fleets and (not armies or rng.random() < 0.35) else armies
            chosen.append(pool[rng.randrange(len(pool))])
        return sorted(chosen, key=_order_key)
    if balance < 0:
        units = sorted((u for u in state.units if u.power == power), key=lambda u: u.location)
        far = sorted(units, key=lambda u: (-distances[u.kind].get(u.province, FAR), u.location))
        drop = {u.location for u in far[:-balance]}
        return sorted((o for o in legal if isinstance(o, Disband) and o.unit in drop), key=_order_key)
    return []


def _order_key(order: Order) -> tuple[str, str, str]:
    where = getattr(order, "unit", None) or getattr(order, "location", None)
    return (str(where), type(order).__name__, repr(order))
