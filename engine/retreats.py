"""Retreat-phase resolution: dislodged units retreat, bounce off each other, or disband.

The movement adjudicator has already worked out each dislodged unit's legal
retreat set (``DislodgedUnit.retreats``: not the attacker's origin, not a
standoff province, not occupied), so this module only has to decide what
happens when the orders meet. The rules it applies, and why:

* every order goes through ``engine.validation.validate`` first, the one legality
  check shared with order entry and menus; an illegal order is reported VOID and
  the unit counts as unordered (DATC 4.E.1: illegal orders are ignored);
* a second order for a unit already ordered is VOID ("DUPLICATE"), so one unit
  never gets two outcomes and the first thing a player wrote wins;
* two or more retreats into one province all fail and the units disband
  (rulebook; DATC 6.H.x standoffs). A map may mark an edge
  ``retreat_disbanded_if_contested`` (1900's route around Africa): a unit
  retreating across such an edge loses any contest outright, and if exactly one
  ordinary retreat is left in the contest it succeeds (shared/maps/SCHEMA.md);
* a dislodged unit without a valid order disbands, and gets an explicit DISBAND
  result so players can read why it vanished.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from engine.explain import explanation
from engine.maps.loader import MapData
from engine.reasons import Decision, OrderOutcome, RetreatOutcome, Role
from engine.rulebook import Rulebook
from engine.types import (
    FLEET,
    Disband,
    DislodgedUnit,
    GameState,
    Location,
    Order,
    OrderResult,
    Reason,
    ResultCode,
    Retreat,
    Unit,
)
from engine.validation import illegal_reason, validate


def result_sort_key(result: OrderResult) -> tuple[str, str, str, str]:
    """A total, deterministic order for results: power, the unit's place, type, text."""
    order = result.order
    place = ""
    if isinstance(order, Retreat | Disband):
        place = str(order.unit)
    return (order.power, place, order.order_type.value, repr(order))


def resolve_retreats(
    state: GameState, orders: Iterable[Order], map: MapData, rules: Rulebook
) -> tuple[frozenset[Unit], tuple[OrderResult, ...]]:
    """Resolve a retreat phase; returns the units on the board after it and every result.

    ``rules`` is accepted for symmetry with the other phases: no rulebook choice
    in the DATC touches retreats beyond what the retreat sets already encode.
    """
    del rules
    results: list[OrderResult] = []
    chosen = _first_valid_orders(state, orders, map, results)
    retreats = _retreats_by_destination(state, chosen, results)
    units = set(state.units)
    for dest, contenders in sorted(retreats.items()):
        for dislodged, order, code, reason in _settle(dest, contenders, map):
            results.append(OrderResult(order, code, reason=reason))
            if code is ResultCode.OK:
                unit = dislodged.unit
                units.add(Unit(unit.kind, unit.power, _landing(order.dest, unit)))
    names = {u.province: str(u) for u in state.units}
    names.update((d.unit.province, str(d.unit)) for d in state.dislodged)  # a retreat's subject
    explained = (_explained(r, names) for r in sorted(results, key=result_sort_key))
    return frozenset(units), tuple(explained)


def _first_valid_orders(
    state: GameState, orders: Iterable[Order], map: MapData, results: list[OrderResult]
) -> dict[str, Retreat | Disband]:
    """Each dislodged unit's order, by its province: the first legal one it was given.

    An illegal order or a second order for the same unit is appended to ``results`` as
    VOID here, so the unit gets one outcome and a player can read why the rest were ignored.
    """
    chosen: dict[str, Retreat | Disband] = {}
    for order in orders:
        check = validate(order, state, map)
        if not check.ok or check.order is None:
            results.append(OrderResult(order, ResultCode.VOID, reason=illegal_reason(check)))
            continue
        normal = check.order
        assert isinstance(normal, Retreat | Disband)
        province = normal.unit.province
        if province in chosen:
            results.append(
                OrderResult(
                    order,
                    ResultCode.VOID,
                    reason=Reason(
                        OrderOutcome.DUPLICATE,
                        units=(province,),
                        detail=f"the unit in {province} already has an order this phase",
                    ),
                )
            )
            continue
        chosen[province] = normal
    return chosen


def _retreats_by_destination(
    state: GameState, chosen: dict[str, Retreat | Disband], results: list[OrderResult]
) -> dict[str, list[tuple[DislodgedUnit, Retreat]]]:
    """The retreats grouped by the province they head for, so contests can be settled.

    Every other dislodged unit disbands now, its result appended to ``results``: the one
    ordered to, and the one without a valid order, with a reason saying so.
    """
    retreats: dict[str, list[tuple[DislodgedUnit, Retreat]]] = {}
    for dislodged in state.dislodged:
        given = chosen.get(dislodged.unit.province)
        if isinstance(given, Retreat):
            retreats.setdefault(given.dest.province, []).append((dislodged, given))
        elif isinstance(given, Disband):
            results.append(OrderResult(given, ResultCode.DISBAND))
        else:
            unit = dislodged.unit
            results.append(
                OrderResult(
                    Disband(unit.power, unit.location, unit.kind),
                    ResultCode.DISBAND,
                    reason=Reason(
                        RetreatOutcome.NO_ORDER, detail=f"{unit} had no valid retreat order and disbands"
                    ),
                )
            )
    return retreats


def _explained(result: OrderResult, names: dict[str, str]) -> OrderResult:
    """The result with its explanation: the retreat step, or the legality check that
    voided it; a retreat standoff names the other units retreating there."""
    void = result.result is ResultCode.VOID
    decision = Decision.LEGALITY if void else Decision.RETREAT
    reason = result.reason
    others = reason.units if reason is not None and not void else ()
    units = ((Role.OPPONENTS, others),) if others else ()
    said = explanation(result.order, result.result, reason, decision, (), units, names)
    return replace(result, explanation=said)


def _landing(dest: Location, unit: Unit) -> Location:
    """Where the unit stands after retreating: armies never carry a coast."""
    return dest if unit.kind is FLEET else dest.bare


def _settle(
    dest: str, contenders: list[tuple[DislodgedUnit, Retreat]], map: MapData
) -> list[tuple[DislodgedUnit, Retreat, ResultCode, Reason | None]]:
    """Who, of the units retreating into ``dest``, gets there.

    Alone: it arrives. Otherwise units crossing a ``retreat_disbanded_if_contested``
    edge are the weaker claim and disband; of the rest, exactly one survivor
    arrives and two or more bounce (and disband) as usual.
    """
    if len(contenders) == 1:
        dislodged, order = contenders[0]
        return [(dislodged, order, ResultCode.OK, None)]
    everyone = tuple(sorted(d.unit.province for d, _ in contenders))
    weak = [
        (d, o) for d, o in contenders if map.edge(d.unit.province, dest).retreat_disbanded_if_contested
    ]
    strong = [(d, o) for d, o in contenders if (d, o) not in weak]
    out: list[tuple[DislodgedUnit, Retreat, ResultCode, Reason | None]] = []
    for d, o in weak:
        others = tuple(p for p in everyone if p != d.unit.province)
        out.append(
            (
                d,
                o,
                ResultCode.BOUNCE,
                Reason(
                    RetreatOutcome.CONTESTED_WEAK_EDGE,
                    units=others,
                    detail=f"another unit also retreated to {dest}; a retreat across this edge "
                    "gives way and the unit disbands",
                ),
            )
        )
    if len(strong) == 1:
        d, o = strong[0]
        out.append((d, o, ResultCode.OK, None))
        return out
    for d, o in strong:
        others = tuple(p for p in everyone if p != d.unit.province)
        out.append(
            (
                d,
                o,
                ResultCode.BOUNCE,
                Reason(
                    RetreatOutcome.RETREAT_STANDOFF,
                    units=others,
                    detail=f"two or more units retreated to {dest}; all of them disband",
                ),
            )
        )
    return out
