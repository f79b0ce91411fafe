"""Adjustment-phase resolution: builds, waives, removals and civil-disorder removals.

Why it works the way it does:

* Orders are taken **one by one in the order given** (DATC 4.D.4 / 4.D.6
  preference). Each is checked by ``engine.validation.validate`` against the
  position as updated by the orders already accepted, so the one legality check
  also rejects a second build on a site (6.I.7), a build or removal beyond the
  count (6.I.1, 6.J.1) and removing the same unit twice (6.J.2). A waive uses up
  a build but leaves the board alone, so waives are counted here.
* Builds a power leaves unused are waived; each gets an explicit WAIVE result so
  players can see it happened.
* Removals a power leaves unordered follow the rulebook's civil-disorder policy
  (DATC 4.D.8), see ``civil_disorder_removals``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import replace

from engine.allowance import adjustment_balance
from engine.explain import explanation
from engine.maps.loader import MapData
from engine.reasons import AdjustmentOutcome, Decision, OrderOutcome
from engine.rulebook import CivilDisorder, Rulebook
from engine.types import (
    FLEET,
    Build,
    Disband,
    GameState,
    Location,
    Order,
    OrderResult,
    Reason,
    ResultCode,
    Unit,
    Waive,
)
from engine.validation import ErrorCode, illegal_reason, validate

UNREACHABLE = 10**6  # a distance larger than any path on a real map


def resolve_adjustments(
    state: GameState, orders: Iterable[Order], map: MapData, rules: Rulebook
) -> tuple[frozenset[Unit], tuple[OrderResult, ...]]:
    """Resolve an adjustment phase; returns the units after it and every result.

    Results come power by power (sorted), each power's in the order it gave
    them, then its silent waives, then its civil-disorder removals.
    """
    given: dict[str, list[Order]] = {}
    for order in orders:
        given.setdefault(order.power, []).append(order)
    powers = sorted(set(map.power_ids) | {u.power for u in state.units} | set(given))
    current = state
    results: list[OrderResult] = []
    for power in powers:
        current, power_results = _resolve_power(current, given.get(power, []), power, map, rules)
        results.extend(power_results)
    names = {u.province: str(u) for u in state.units}
    return current.units, tuple(_explained(r, names) for r in results)


def _explained(result: OrderResult, names: dict[str, str]) -> OrderResult:
    """The result with its explanation: the adjustment step, or the check that voided it."""
    decision = Decision.LEGALITY if result.result is ResultCode.VOID else Decision.ADJUSTMENT
    said = explanation(result.order, result.result, result.reason, decision, names=names)
    return replace(result, explanation=said)


def _resolve_power(
    state: GameState, orders: list[Order], power: str, map: MapData, rules: Rulebook
) -> tuple[GameState, list[OrderResult]]:
    results: list[OrderResult] = []
    waived = 0
    for order in orders:
        check = validate(order, state, map)
        if not check.ok or check.order is None:
            results.append(OrderResult(order, ResultCode.VOID, reason=illegal_reason(check)))
            continue
        normal = check.order
        if isinstance(normal, Build | Waive) and waived >= adjustment_balance(state, map, power):
            # validate() cannot see waives (they leave the board unchanged), so the
            # builds they used up are checked here.
            detail = f"{ErrorCode.NO_BUILDS_LEFT.value}: {power} has no builds left"
            reason = Reason(OrderOutcome.ILLEGAL, detail=detail)
            results.append(OrderResult(order, ResultCode.VOID, reason=reason))
            continue
        if isinstance(normal, Build):
            unit = Unit(normal.kind, power, normal.location)
            state = replace(state, units=state.units | {unit})
            results.append(OrderResult(normal, ResultCode.BUILD))
        elif isinstance(normal, Waive):
            waived += 1
            results.append(OrderResult(normal, ResultCode.WAIVE))
        else:
            assert isinstance(normal, Disband)
            gone = state.unit_at(normal.unit.province)
            state = replace(state, units=frozenset(u for u in state.units if u != gone))
            results.append(OrderResult(normal, ResultCode.DISBAND))

    if power not in map.powers:
        return state, results
    balance = adjustment_balance(state, map, power)
    for _ in range(balance - waived):
        results.append(
            OrderResult(
                Waive(power),
                ResultCode.WAIVE,
                reason=Reason(AdjustmentOutcome.NOT_ORDERED, detail="a build was not ordered and is waived"),
            )
        )
    if balance < 0:
        removals = civil_disorder_removals(state, map, power, -balance, rules.civil_disorder)
        for unit in removals:
            results.append(
                OrderResult(
                    Disband(power, unit.location, unit.kind),
                    ResultCode.DISBAND,
                    reason=Reason(
                        AdjustmentOutcome.CIVIL_DISORDER,
                        units=(unit.province,),
                        detail="a removal was not ordered; the unit farthest from its "
                        "power's supply centres is removed",
                    ),
                )
            )
        state = replace(state, units=state.units - set(removals))
    return state, results


def civil_disorder_removals(
    state: GameState, map: MapData, power: str, count: int, policy: CivilDisorder
) -> tuple[Unit, ...]:
    """The ``count`` units of ``power`` that civil disorder removes (DATC 4.D.8).

    Units are ranked by distance (greatest first), then fleets before armies, then
    by the province's full name alphabetically (case-insensitive; the id breaks
    any remaining tie). Distance is the fewest moves to a target centre:

    * ``OWNED_CENTERS_ANY_ROUTE`` (2023 rulebook, DATC v3.0 preference, 6.J.3-6.J.11):
      targets are the centres the power **owns**; both kinds count moves over the
      union of land and sea adjacencies (province level), so a fleet may cross
      land and an army may cross sea. The map's extra civil-disorder home centres
      play no part (they matter only for a distance-from-home rule).
    * ``HOME_CENTERS_BY_KIND`` (2000 rulebook, DATC v2.4, 6.J.x@v2.4 and
      6.J.11@pre2023): targets are the power's **home** centres (owned or not) plus
      the map's ``civil_disorder_extra_home_centers``. An army counts over land and
      sea alike, as if convoyed: DATC 6.J.10 ("for calculating the distance for
      armies all areas must be considered"), which 6.J.10@v2.4 needs (A GRE is 2
      from NAP via ION, A SIL 3 from VEN; over land only both are 3 and the
      alphabetical rule would wrongly remove Greece). A fleet counts only fleet
      moves, coast by coast ("fleets cannot go over land", DATC v2.4 6.J.5), so a
      fleet on SPA/NC is not one move from the Gulf of Lyon. No @v2.4 case tells
      the two fleet readings apart; this one follows the rule text.
    """
    units = state.units_of(power)
    if count <= 0 or not units:
        return ()
    if policy is CivilDisorder.OWNED_CENTERS_ANY_ROUTE:
        targets = frozenset(state.centers_of(power))
        graph = _any_route_graph(map)
        distance = {u: _province_distance(u.province, targets, graph) for u in units}
    else:
        extra = map.civil_disorder_extra_home_centers.get(power, ())
        targets = frozenset(map.home_centers(power)) | frozenset(extra)
        graph = _any_route_graph(map)
        distance = {
            u: _fleet_distance(u.location, targets, map)
            if u.kind is FLEET
            else _province_distance(u.province, targets, graph)
            for u in units
        }
    ranked = sorted(
        units,
        key=lambda u: (
            -distance[u],
            0 if u.kind is FLEET else 1,
            map.provinces[u.province].name.casefold(),
            u.province,
        ),
    )
    return tuple(ranked[:count])


def _any_route_graph(map: MapData) -> Mapping[str, frozenset[str]]:
    """Province adjacency over land and sea alike: army edges plus fleet edges."""
    return {
        p: map.army_adjacent.get(p, frozenset()) | map.water_neighbours.get(p, frozenset())
        for p in map.provinces
    }


def _province_distance(start: str, targets: frozenset[str], graph: Mapping[str, frozenset[str]]) -> int:
    """Breadth-first distance from ``start`` to the nearest of ``targets``."""
    seen = {start}
    frontier: deque[tuple[str, int]] = deque([(start, 0)])
    while frontier:
        here, dist = frontier.popleft()
        if here in targets:
            return dist
        for nxt in sorted(graph.get(here, ())):
            if nxt not in seen:
                seen.add(nxt)
                frontier.append((nxt, dist + 1))
    return UNREACHABLE


def _fleet_distance(start: Location, targets: frozenset[str], map: MapData) -> int:
    """Fewest fleet moves (exact coasts) from ``start`` to any coast of a target province."""
    seen = {start}
    frontier: deque[tuple[Location, int]] = deque([(start, 0)])
    while frontier:
        here, dist = frontier.popleft()
        if here.province in targets:
            return dist
        for nxt in sorted(map.fleet_adjacent.get(here, ())):
            if nxt not in seen:
                seen.add(nxt)
                frontier.append((nxt, dist + 1))
    return UNREACHABLE
