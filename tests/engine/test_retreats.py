"""Retreat-phase resolution, unit level (engine.retreats.resolve_retreats).

Positions are built by hand as the movement adjudicator would leave them: the
``retreats`` of each DislodgedUnit are the legal retreat sets the DATC 6.H cases
describe. The full DATC files are run elsewhere by a table-driven runner.
"""

from __future__ import annotations

from dataclasses import replace

from engine.maps.loader import MapData, load_map
from engine.retreats import resolve_retreats
from engine.rulebook import RULEBOOKS
from engine.types import (
    Convoy,
    Disband,
    DislodgedUnit,
    GameState,
    Location,
    Move,
    Order,
    OrderResult,
    PhaseType,
    ResultCode,
    Retreat,
    Season,
    SupportMove,
    Unit,
    UnitKind,
)

A, F = UnitKind.ARMY, UnitKind.FLEET
RULES = RULEBOOKS["2023"]


def L(text: str) -> Location:
    return Location.parse(text)


def unit(kind: UnitKind, power: str, where: str) -> Unit:
    return Unit(kind, power, L(where))


def retreat_state(units: list[Unit], dislodged: list[DislodgedUnit]) -> GameState:
    return GameState(1901, Season.SPRING, PhaseType.RETREAT, frozenset(units), dislodged=tuple(dislodged))


def run(
    state: GameState, orders: list[Order], game_map: MapData | None = None
) -> tuple[frozenset[Unit], tuple[OrderResult, ...]]:
    return resolve_retreats(state, orders, game_map or load_map("classical"), RULES)


def test_successful_retreat_places_the_unit_6_H_4() -> None:
    """6.H.4: A HOL dislodged by A RUH (F KIE supporting) retreats to BEL."""
    state = retreat_state(
        [unit(F, "ENGLAND", "NTH"), unit(F, "GERMANY", "KIE"), unit(A, "GERMANY", "HOL")],
        [DislodgedUnit(unit(A, "ENGLAND", "HOL"), "RUH", (L("BEL"),))],
    )
    units, results = run(state, [Retreat("ENGLAND", L("HOL"), L("BEL"))])
    assert unit(A, "ENGLAND", "BEL") in units
    assert len(units) == 4
    assert [(r.order, r.result) for r in results] == [
        (Retreat("ENGLAND", L("HOL"), L("BEL"), A), ResultCode.OK)
    ]


def test_movement_orders_are_void_in_a_retreat_phase_6_H_3_and_6_H_4() -> None:
    """6.H.3: no convoy during a retreat; 6.H.4: a non-dislodged unit cannot move."""
    state = retreat_state(
        [unit(F, "ENGLAND", "NTH"), unit(F, "GERMANY", "KIE"), unit(A, "GERMANY", "HOL")],
        [DislodgedUnit(unit(A, "ENGLAND", "HOL"), "RUH", (L("BEL"),))],
    )
    orders: list[Order] = [
        Retreat("ENGLAND", L("HOL"), L("YOR")),  # not a legal retreat: would need a convoy
        Convoy("ENGLAND", L("NTH"), L("HOL"), L("YOR")),
        Move("ENGLAND", L("NTH"), L("NWG")),
    ]
    units, results = run(state, orders)
    assert units == state.units  # the army disbanded, nobody moved
    by_type = {type(r.order): r for r in results}
    assert by_type[Convoy].result is ResultCode.VOID
    assert by_type[Move].result is ResultCode.VOID
    move_reason, retreat_reason = by_type[Move].reason, by_type[Retreat].reason
    assert move_reason is not None and "WRONG_PHASE" in move_reason.detail
    assert by_type[Retreat].result is ResultCode.VOID
    assert retreat_reason is not None
    assert retreat_reason.code == "ILLEGAL"
    assert "RETREAT_NOT_ALLOWED" in retreat_reason.detail
    # The unordered (illegally ordered) unit is reported as disbanded.
    assert by_type[Disband].order == Disband("ENGLAND", L("HOL"), A)
    assert by_type[Disband].result is ResultCode.DISBAND


def test_support_in_retreat_phase_is_void_6_H_1() -> None:
    """6.H.1: supports are not given in a retreat phase; two retreats to ALB bounce."""
    state = retreat_state(
        [unit(A, "AUSTRIA", "SER"), unit(A, "ITALY", "VEN"), unit(A, "ITALY", "TRI"),
         unit(F, "ITALY", "GRE"), unit(F, "ITALY", "AEG")],
        [DislodgedUnit(unit(F, "AUSTRIA", "TRI"), "TYR", (L("ADR"), L("ALB"))),
         DislodgedUnit(unit(F, "TURKEY", "GRE"), "ION", (L("ALB"),))],
    )
    orders: list[Order] = [
        Retreat("AUSTRIA", L("TRI"), L("ALB")),
        SupportMove("AUSTRIA", L("SER"), L("TRI"), L("ALB")),
        Retreat("TURKEY", L("GRE"), L("ALB")),
    ]
    units, results = run(state, orders)
    assert units == state.units
    codes = sorted((type(r.order).__name__, r.result.value) for r in results)
    assert codes == [("Retreat", "BOUNCE"), ("Retreat", "BOUNCE"), ("SupportMove", "VOID")]
    bounce = next(r for r in results if r.order.power == "TURKEY")
    assert bounce.reason is not None and bounce.reason.units == ("TRI",)


def test_two_retreats_to_one_area_both_disband_6_H_7() -> None:
    """6.H.7: A BOH and A VIE both retreat to TYR; both are disbanded."""
    state = retreat_state(
        [unit(A, "AUSTRIA", "BUD"), unit(A, "AUSTRIA", "VIE"), unit(A, "GERMANY", "MUN"),
         unit(A, "GERMANY", "BOH")],
        [DislodgedUnit(unit(A, "ITALY", "VIE"), "TRI", (L("GAL"), L("TYR"))),
         DislodgedUnit(unit(A, "ITALY", "BOH"), "SIL", (L("TYR"),))],
    )
    orders: list[Order] = [Retreat("ITALY", L("BOH"), L("TYR")), Retreat("ITALY", L("VIE"), L("TYR"))]
    units, results = run(state, orders)
    assert units == state.units
    assert [r.result for r in results] == [ResultCode.BOUNCE, ResultCode.BOUNCE]


def test_triple_retreat_to_one_area_all_disband_6_H_8() -> None:
    """6.H.8: three fleets retreat to NTH; all three are disbanded."""
    state = retreat_state(
        [unit(A, "ENGLAND", "EDI"), unit(F, "ENGLAND", "YOR"), unit(A, "GERMANY", "KIE"),
         unit(A, "GERMANY", "HOL"), unit(A, "RUSSIA", "SWE"), unit(A, "RUSSIA", "NWY")],
        [DislodgedUnit(unit(F, "ENGLAND", "NWY"), "FIN", (L("NTH"), L("NWG"))),
         DislodgedUnit(unit(F, "RUSSIA", "EDI"), "LVP", (L("NTH"), L("NWG"), L("CLY"))),
         DislodgedUnit(unit(F, "RUSSIA", "HOL"), "RUH", (L("NTH"), L("BEL"), L("HEL")))],
    )
    orders: list[Order] = [
        Retreat("ENGLAND", L("NWY"), L("NTH")),
        Retreat("RUSSIA", L("EDI"), L("NTH")),
        Retreat("RUSSIA", L("HOL"), L("NTH")),
    ]
    units, results = run(state, orders)
    assert units == state.units
    assert all(r.result is ResultCode.BOUNCE for r in results) and len(results) == 3


def test_fleet_retreat_keeps_its_coast_and_unordered_units_disband() -> None:
    """A fleet retreating to a split-coast province stands on the ordered coast;
    a dislodged unit with no order disbands with an explicit result."""
    state = retreat_state(
        [unit(F, "FRANCE", "POR"), unit(F, "FRANCE", "WES")],
        [DislodgedUnit(unit(F, "ENGLAND", "MAO"), "POR", (L("SPA/NC"), L("SPA/SC"), L("NAO"))),
         DislodgedUnit(unit(A, "GERMANY", "BUR"), "PAR", (L("MUN"),))],
    )
    units, results = run(state, [Retreat("ENGLAND", L("MAO"), L("SPA/NC"))])
    assert unit(F, "ENGLAND", "SPA/NC") in units
    assert not any(u.power == "GERMANY" for u in units)
    assert [(r.order, r.result) for r in results] == [
        (Retreat("ENGLAND", L("MAO"), L("SPA/NC"), F), ResultCode.OK),
        (Disband("GERMANY", L("BUR"), A), ResultCode.DISBAND),
    ]


def test_retreat_without_coast_when_two_are_open_is_void() -> None:
    """Both SPA coasts open: the retreat must name one (validation: COAST_REQUIRED)."""
    state = retreat_state(
        [], [DislodgedUnit(unit(F, "ENGLAND", "MAO"), "POR", (L("SPA/NC"), L("SPA/SC")))]
    )
    units, results = run(state, [Retreat("ENGLAND", L("MAO"), L("SPA"))])
    assert units == frozenset()
    void = next(r for r in results if r.result is ResultCode.VOID)
    assert void.reason is not None and "COAST_REQUIRED" in void.reason.detail


def test_disband_order_and_duplicate_orders() -> None:
    """The first valid order for a unit counts; later ones are VOID (DUPLICATE).
    An invalid first order does not use up the unit's order."""
    state = retreat_state(
        [],
        [DislodgedUnit(unit(A, "ITALY", "VIE"), "TRI", (L("GAL"), L("TYR"))),
         DislodgedUnit(unit(A, "ITALY", "BOH"), "SIL", (L("TYR"),))],
    )
    orders: list[Order] = [
        Retreat("ITALY", L("VIE"), L("BUD")),  # illegal: not in the retreat set
        Retreat("ITALY", L("VIE"), L("GAL")),  # first valid: counts
        Retreat("ITALY", L("VIE"), L("TYR")),  # duplicate
        Disband("ITALY", L("BOH")),
        Retreat("ITALY", L("BOH"), L("TYR")),  # duplicate: the army already disbands
    ]
    units, results = run(state, orders)
    assert units == frozenset({unit(A, "ITALY", "GAL")})
    duplicates = [r for r in results if r.reason is not None and r.reason.code == "DUPLICATE"]
    assert {r.order for r in duplicates} == {orders[2], orders[4]}
    assert all(r.result is ResultCode.VOID for r in duplicates)
    bare = [replace(r, explanation=None) for r in results]
    assert OrderResult(Disband("ITALY", L("BOH"), A), ResultCode.DISBAND) in bare
    assert OrderResult(Retreat("ITALY", L("VIE"), L("GAL"), A), ResultCode.OK) in bare


def test_order_for_another_powers_unit_is_void() -> None:
    state = retreat_state([], [DislodgedUnit(unit(A, "ITALY", "VIE"), "TRI", (L("GAL"),))])
    units, results = run(state, [Retreat("AUSTRIA", L("VIE"), L("GAL"))])
    assert units == frozenset()
    void = next(r for r in results if r.result is ResultCode.VOID)
    assert void.reason is not None and "NOT_YOUR_UNIT" in void.reason.detail


def test_results_are_deterministic_whatever_the_order_given() -> None:
    state = retreat_state(
        [],
        [DislodgedUnit(unit(A, "ITALY", "VIE"), "TRI", (L("GAL"), L("TYR"))),
         DislodgedUnit(unit(A, "AUSTRIA", "BOH"), "SIL", (L("TYR"),))],
    )
    orders: list[Order] = [Retreat("ITALY", L("VIE"), L("TYR")), Retreat("AUSTRIA", L("BOH"), L("TYR"))]
    first = run(state, orders)
    second = run(state, list(reversed(orders)))
    assert first == second
    assert [r.order.power for r in first[1]] == ["AUSTRIA", "ITALY"]


# --- the generic edge feature retreat_disbanded_if_contested (1900: EGY-MAO, HEJ-MAO) ----------


def test_weak_edge_retreat_gives_way_to_an_ordinary_one() -> None:
    """shared/maps/SCHEMA.md: a retreat across a retreat_disbanded_if_contested edge
    disbands when another unit retreats to the same place, and the other succeeds."""
    game_map = load_map("1900")
    assert game_map.edge("EGY", "MAO").retreat_disbanded_if_contested
    state = retreat_state(
        [],
        [DislodgedUnit(unit(F, "BRITAIN", "EGY"), "EAS", (L("MAO"),)),
         DislodgedUnit(unit(F, "FRANCE", "POR"), "SPA", (L("MAO"),))],
    )
    orders: list[Order] = [Retreat("BRITAIN", L("EGY"), L("MAO")), Retreat("FRANCE", L("POR"), L("MAO"))]
    units, results = run(state, orders, game_map)
    assert units == frozenset({unit(F, "FRANCE", "MAO")})
    outcome = {r.order.power: r for r in results}
    assert outcome["FRANCE"].result is ResultCode.OK
    assert outcome["BRITAIN"].result is ResultCode.BOUNCE
    assert outcome["BRITAIN"].reason is not None
    assert outcome["BRITAIN"].reason.code == "CONTESTED_WEAK_EDGE"


def test_weak_edge_alone_succeeds_and_two_weak_edges_both_disband() -> None:
    game_map = load_map("1900")
    egy = DislodgedUnit(unit(F, "BRITAIN", "EGY"), "EAS", (L("MAO"),))
    hej = DislodgedUnit(unit(F, "TURKEY", "HEJ"), "EGY", (L("MAO"),))
    alone, _ = run(retreat_state([], [egy]), [Retreat("BRITAIN", L("EGY"), L("MAO"))], game_map)
    assert alone == frozenset({unit(F, "BRITAIN", "MAO")})
    both, results = run(
        retreat_state([], [egy, hej]),
        [Retreat("BRITAIN", L("EGY"), L("MAO")), Retreat("TURKEY", L("HEJ"), L("MAO"))],
        game_map,
    )
    assert both == frozenset()
    assert [r.result for r in results] == [ResultCode.BOUNCE, ResultCode.BOUNCE]


def test_weak_edge_with_two_ordinary_retreats_everyone_disbands() -> None:
    game_map = load_map("1900")
    state = retreat_state(
        [],
        [DislodgedUnit(unit(F, "BRITAIN", "EGY"), "EAS", (L("MAO"),)),
         DislodgedUnit(unit(F, "FRANCE", "POR"), "SPA", (L("MAO"),)),
         DislodgedUnit(unit(F, "FRANCE", "BRE"), "ENG", (L("MAO"),))],
    )
    orders: list[Order] = [
        Retreat("BRITAIN", L("EGY"), L("MAO")),
        Retreat("FRANCE", L("POR"), L("MAO")),
        Retreat("FRANCE", L("BRE"), L("MAO")),
    ]
    units, results = run(state, orders, game_map)
    assert units == frozenset()
    assert all(r.result is ResultCode.BOUNCE for r in results)


def test_retreats_to_two_coasts_of_one_province_bounce() -> None:
    """Both coasts are one province: F MAO - SPA/NC and F LYO - SPA/SC both disband."""
    state = retreat_state(
        [],
        [DislodgedUnit(unit(F, "ENGLAND", "MAO"), "POR", (L("SPA/NC"),)),
         DislodgedUnit(unit(F, "ITALY", "LYO"), "TYS", (L("SPA/SC"),))],
    )
    orders: list[Order] = [Retreat("ENGLAND", L("MAO"), L("SPA/NC")), Retreat("ITALY", L("LYO"), L("SPA/SC"))]
    units, results = run(state, orders)
    assert units == frozenset()
    assert [r.result for r in results] == [ResultCode.BOUNCE, ResultCode.BOUNCE]
