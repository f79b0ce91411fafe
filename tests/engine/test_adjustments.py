"""Adjustment-phase resolution, unit level (engine.adjustments.resolve_adjustments).

Setups are the DATC 6.I / 6.J positions (shared/datc/datc_v3.0_cases.txt) and
their @v2.4 / @pre2023 alternatives (datc_extra_and_alternative_cases.txt),
built by hand; ownership is taken as written, as FORMAT.md prescribes.
"""

from __future__ import annotations

import pytest

from engine.adjustments import civil_disorder_removals, resolve_adjustments
from engine.maps.loader import MapData, load_map
from engine.rulebook import RULEBOOKS, CivilDisorder
from engine.types import (
    Build,
    Disband,
    GameState,
    Location,
    Move,
    Order,
    OrderResult,
    Ownership,
    PhaseType,
    ResultCode,
    Season,
    Unit,
    UnitKind,
    Waive,
)

A, F = UnitKind.ARMY, UnitKind.FLEET


def L(text: str) -> Location:
    return Location.parse(text)


def units_from(text: str) -> frozenset[Unit]:
    """'RUSSIA: A LVN, F STP/SC; ITALY: A ROM' -> units."""
    out = set()
    for chunk in filter(None, (c.strip() for c in text.split(";"))):
        power, _, rest = chunk.partition(":")
        for item in filter(None, (i.strip() for i in rest.split(","))):
            kind, where = item.split()
            out.add(Unit(UnitKind(kind), power.strip(), L(where)))
    return frozenset(out)


def adj_state(units: str, owners: dict[str, str]) -> GameState:
    return GameState(1901, Season.WINTER, PhaseType.ADJUSTMENT, units_from(units), Ownership(owners))


def run(
    state: GameState, orders: list[Order], rules: str = "2023", game_map: MapData | None = None
) -> tuple[frozenset[Unit], tuple[OrderResult, ...]]:
    return resolve_adjustments(state, orders, game_map or load_map("classical"), RULEBOOKS[rules])


def codes(results: tuple[OrderResult, ...]) -> list[tuple[Order, ResultCode]]:
    return [(r.order, r.result) for r in results]


# --- builds --------------------------------------------------------------------------------------


def test_too_many_builds_taken_one_by_one_6_I_1() -> None:
    """6.I.1 / DATC 4.D.4: Germany may build one; WAR is not German, KIE is built,
    MUN is one build too many."""
    state = adj_state("RUSSIA: A WAR; GERMANY: A PAR", {"WAR": "RUSSIA", "KIE": "GERMANY", "MUN": "GERMANY"})
    orders: list[Order] = [
        Build("GERMANY", L("WAR"), A), Build("GERMANY", L("KIE"), A), Build("GERMANY", L("MUN"), A)
    ]
    units, results = run(state, orders)
    assert units == units_from("RUSSIA: A WAR; GERMANY: A PAR, A KIE")
    assert [r.result for r in results] == [ResultCode.VOID, ResultCode.BUILD, ResultCode.VOID]
    assert results[0].reason is not None and "NOT_A_HOME_CENTRE" in results[0].reason.detail
    assert results[2].reason is not None and "NO_BUILDS_LEFT" in results[2].reason.detail


def test_fleet_cannot_be_built_inland_and_the_build_is_waived_6_I_2() -> None:
    """6.I.2 / DATC 4.C.4: F MOS fails (not turned into an army); the unused build
    is waived and reported."""
    state = adj_state("RUSSIA: A STP", {"STP": "RUSSIA", "MOS": "RUSSIA"})
    units, results = run(state, [Build("RUSSIA", L("MOS"), F)])
    assert units == state.units
    assert codes(results) == [
        (Build("RUSSIA", L("MOS"), F), ResultCode.VOID), (Waive("RUSSIA"), ResultCode.WAIVE)
    ]
    assert results[0].reason is not None and "CANNOT_BUILD_HERE" in results[0].reason.detail
    assert results[1].reason is not None and results[1].reason.code == "NOT_ORDERED"


@pytest.mark.parametrize(
    ("units", "owners", "order", "code"),
    [
        # 6.I.3: the centre must be empty.
        ("GERMANY: A BER", {"BER": "GERMANY", "MUN": "GERMANY"}, Build("GERMANY", L("BER"), A), "OCCUPIED"),
        # 6.I.4: both coasts of STP count as occupied.
        ("RUSSIA: F STP/SC", {"STP": "RUSSIA", "MOS": "RUSSIA"}, Build("RUSSIA", L("STP/NC"), A), "OCCUPIED"),
        # 6.I.5: a home centre owned by someone else.
        ("RUSSIA: A MOS", {"BER": "RUSSIA", "MUN": "GERMANY"}, Build("GERMANY", L("BER"), A), "NOT_OWNED"),
        # 6.I.6: an owned centre that is not a home centre.
        ("GERMANY: A BER", {"BER": "GERMANY", "WAR": "GERMANY"}, Build("GERMANY", L("WAR"), A),
         "NOT_A_HOME_CENTRE"),
        # 6.B.14 / DATC 4.B.7: a fleet build in STP must name the coast.
        ("RUSSIA: A MOS", {"MOS": "RUSSIA", "STP": "RUSSIA"}, Build("RUSSIA", L("STP"), F), "COAST_REQUIRED"),
    ],
)
def test_illegal_builds_are_void_with_the_validation_code(
    units: str, owners: dict[str, str], order: Build, code: str
) -> None:
    state = adj_state(units, owners)
    after, results = run(state, [order])
    assert after == state.units
    assert results[0].result is ResultCode.VOID
    assert results[0].reason is not None and results[0].reason.code == "ILLEGAL"
    assert code in results[0].reason.detail


def test_only_one_build_per_home_centre_6_I_7() -> None:
    """6.I.7: the second build in MOS is VOID (the first occupied it); the build
    left over is waived."""
    state = adj_state("RUSSIA: A WAR", {"MOS": "RUSSIA", "STP": "RUSSIA", "WAR": "RUSSIA"})
    orders: list[Order] = [Build("RUSSIA", L("MOS"), A), Build("RUSSIA", L("MOS"), A)]
    units, results = run(state, orders)
    assert units == units_from("RUSSIA: A WAR, A MOS")
    assert [r.result for r in results] == [ResultCode.BUILD, ResultCode.VOID, ResultCode.WAIVE]
    assert results[1].reason is not None and "OCCUPIED" in results[1].reason.detail


def test_fleet_build_on_a_coast_and_waive_uses_up_a_build() -> None:
    """A WAIVE counts as one of the builds (validate cannot see waives; the resolver
    counts them), so a build after the last build was waived is VOID."""
    state = adj_state("RUSSIA: A WAR", {"MOS": "RUSSIA", "STP": "RUSSIA", "WAR": "RUSSIA"})
    orders: list[Order] = [
        Build("RUSSIA", L("STP/NC"), F), Waive("RUSSIA"), Build("RUSSIA", L("MOS"), A), Waive("RUSSIA")
    ]
    units, results = run(state, orders)
    assert units == units_from("RUSSIA: A WAR, F STP/NC")
    assert [r.result for r in results] == [
        ResultCode.BUILD, ResultCode.WAIVE, ResultCode.VOID, ResultCode.VOID
    ]


def test_wrong_phase_and_unowed_orders_are_void() -> None:
    state = adj_state("FRANCE: A PAR; GERMANY: A MUN", {"PAR": "FRANCE", "MUN": "GERMANY"})
    orders: list[Order] = [
        Move("FRANCE", L("PAR"), L("BUR")),
        Disband("GERMANY", L("MUN")),
        Waive("FRANCE"),
    ]
    units, results = run(state, orders)
    assert units == state.units
    assert [r.result for r in results] == [ResultCode.VOID] * 3
    details = {type(r.order): r.reason.detail if r.reason else "" for r in results}
    assert "WRONG_PHASE" in details[Move]
    assert "NO_DISBANDS_DUE" in details[Disband]
    assert "NO_BUILDS_LEFT" in details[Waive]


# --- removals ---------------------------------------------------------------------------------


def test_too_many_disbands_taken_one_by_one_6_J_1() -> None:
    """6.J.1 / DATC 4.D.6: removing F LYO fails (no unit), A PIC is removed, removing
    A PAR fails (no more removals due)."""
    state = adj_state("FRANCE: A PIC, A PAR", {"PAR": "FRANCE"})
    orders: list[Order] = [
        Disband("FRANCE", L("LYO"), F), Disband("FRANCE", L("PIC"), A), Disband("FRANCE", L("PAR"), A)
    ]
    units, results = run(state, orders)
    assert units == units_from("FRANCE: A PAR")
    assert [r.result for r in results] == [ResultCode.VOID, ResultCode.DISBAND, ResultCode.VOID]
    assert results[0].reason is not None and "NO_SUCH_UNIT" in results[0].reason.detail
    assert results[2].reason is not None and "NO_DISBANDS_DUE" in results[2].reason.detail


@pytest.mark.parametrize("rules", ["2023", "2000"])
def test_removing_the_same_unit_twice_6_J_2(rules: str) -> None:
    """6.J.2 (and 6.J.2@v2.4): the second removal of A PAR is VOID; civil disorder
    removes F LYO, the unit farthest from Paris (3 moves) under either policy."""
    state = adj_state("FRANCE: A PAR, A PIC, F LYO", {"PAR": "FRANCE"})
    orders: list[Order] = [Disband("FRANCE", L("PAR"), A), Disband("FRANCE", L("PAR"), A)]
    units, results = run(state, orders, rules)
    assert units == units_from("FRANCE: A PIC")
    assert [r.result for r in results] == [ResultCode.DISBAND, ResultCode.VOID, ResultCode.DISBAND]
    assert results[2].order == Disband("FRANCE", L("LYO"), F)
    assert results[2].reason is not None and results[2].reason.code == "CIVIL_DISORDER"


# (case id, units, owned centres, units expected to remain); ORDERS empty in every case.
CIVIL_DISORDER_2023 = [
    ("6.J.3", "RUSSIA: A LVN, A SWE", {"STP": "RUSSIA"}, "RUSSIA: A LVN"),
    ("6.J.4", "RUSSIA: A LVN, A UKR", {"MOS": "RUSSIA"}, "RUSSIA: A UKR"),
    ("6.J.5", "RUSSIA: F SKA, F BER", {"STP": "RUSSIA"}, "RUSSIA: F SKA"),
    ("6.J.6", "RUSSIA: F BOT, F NTH", {"MUN": "RUSSIA"}, "RUSSIA: F NTH"),
    ("6.J.7", "RUSSIA: A BOH, F SKA, F NTH", {"STP": "RUSSIA", "WAR": "RUSSIA"}, "RUSSIA: A BOH, F SKA"),
    ("6.J.8", "RUSSIA: A TYR, F BAL", {"WAR": "RUSSIA"}, "RUSSIA: F BAL"),
    ("6.J.9.a", "RUSSIA: A GRE, A SEV, F BAL", {"STP": "RUSSIA", "SEV": "RUSSIA"}, "RUSSIA: A SEV, F BAL"),
    ("6.J.9.b", "RUSSIA: A GRE, A SEV, F SKA", {"STP": "RUSSIA", "SEV": "RUSSIA"}, "RUSSIA: A SEV, F SKA"),
    ("6.J.10", "ITALY: A GRE, A PIE", {"NAP": "ITALY"}, "ITALY: A GRE"),
    ("6.J.11", "ITALY: A WAR, A TUS", {"WAR": "ITALY"}, "ITALY: A WAR"),
]

RUSSIA_HOMES_OWNED = {"MOS": "RUSSIA", "STP": "RUSSIA", "WAR": "RUSSIA"}
ITALY_HOMES_OWNED = {"VEN": "ITALY", "ROM": "ITALY", "NAP": "ITALY"}
CIVIL_DISORDER_2000 = [
    ("6.J.3@v2.4", "RUSSIA: A MOS, A STP, A LVN, A SWE", RUSSIA_HOMES_OWNED, "RUSSIA: A MOS, A STP, A LVN"),
    ("6.J.4@v2.4", "RUSSIA: A MOS, A STP, A LVN, A UKR", RUSSIA_HOMES_OWNED, "RUSSIA: A MOS, A STP, A UKR"),
    ("6.J.5@v2.4", "RUSSIA: A MOS, A STP, F SKA, F BER", RUSSIA_HOMES_OWNED, "RUSSIA: A MOS, A STP, F SKA"),
    ("6.J.6@v2.4", "RUSSIA: A MOS, A STP, F SKA, F BAL", RUSSIA_HOMES_OWNED, "RUSSIA: A MOS, A STP, F SKA"),
    ("6.J.7@v2.4", "RUSSIA: A BOH, F SKA, F NTH", {"STP": "RUSSIA", "WAR": "RUSSIA"}, "RUSSIA: A BOH, F SKA"),
    ("6.J.8@v2.4", "RUSSIA: A MOS, A STP, A TYR, F BAL", RUSSIA_HOMES_OWNED, "RUSSIA: A MOS, A STP, F BAL"),
    ("6.J.9@v2.4.part1", "RUSSIA: A TYR, F BAL", {"STP": "RUSSIA"}, "RUSSIA: F BAL"),
    ("6.J.9@v2.4.part2", "RUSSIA: A TYR, F SKA", {"STP": "RUSSIA"}, "RUSSIA: F SKA"),
    # An army counts over sea: A GRE is 2 from NAP via ION, A SIL 3 from VEN.
    ("6.J.10@v2.4", "ITALY: A VEN, F ION, A GRE, A SIL", ITALY_HOMES_OWNED, "ITALY: A VEN, F ION, A GRE"),
    ("6.J.11@v2.4", "ITALY: A VEN, A ROM, A GRE, A SIL", ITALY_HOMES_OWNED, "ITALY: A VEN, A ROM, A GRE"),
    # Home centres, not owned ones: A TUS is next to ROM, A WAR far from Italy.
    ("6.J.11@pre2023", "ITALY: A WAR, A TUS", {"WAR": "ITALY"}, "ITALY: A TUS"),
]


@pytest.mark.parametrize(("case", "units", "owners", "expected"), CIVIL_DISORDER_2023)
def test_civil_disorder_2023_owned_centres_any_route(
    case: str, units: str, owners: dict[str, str], expected: str
) -> None:
    """DATC 4.D.8 v3.0 preference (2023 rulebook): farthest from an owned centre,
    land and sea for both kinds; fleets first, then by province name."""
    state = adj_state(units, owners)
    after, results = run(state, [], "2023")
    assert after == units_from(expected), case
    removed = state.units - after
    assert codes(results) == [
        (Disband(u.power, u.location, u.kind), ResultCode.DISBAND) for u in sorted(removed)
    ]
    assert all(r.reason is not None and r.reason.code == "CIVIL_DISORDER" for r in results)


@pytest.mark.parametrize(("case", "units", "owners", "expected"), CIVIL_DISORDER_2000)
def test_civil_disorder_2000_home_centres_by_kind(
    case: str, units: str, owners: dict[str, str], expected: str
) -> None:
    """DATC v2.4 / 2000 rulebook: farthest from a home centre; an army counts land and
    sea, a fleet only fleet moves; fleets first, then by province name."""
    after, _ = run(adj_state(units, owners), [], "2000")
    assert after == units_from(expected), case


def test_the_two_policies_disagree_where_the_datc_says_they_should() -> None:
    """6.J.6 under the 2000 rule: Russia's homes, fleets by sea: F BOT is 1 from
    STP/SC, F NTH 2 (via NWY), so NTH goes, not BOT as under 2023. And 6.J.11:
    2023 keeps A WAR (owned), 2000 keeps A TUS (next to Rome)."""
    state = adj_state("RUSSIA: F BOT, F NTH", {"MUN": "RUSSIA"})
    assert run(state, [], "2000")[0] == units_from("RUSSIA: F BOT")
    assert run(state, [], "2023")[0] == units_from("RUSSIA: F NTH")
    italy = adj_state("ITALY: A WAR, A TUS", {"WAR": "ITALY"})
    assert run(italy, [], "2000")[0] == units_from("ITALY: A TUS")
    assert run(italy, [], "2023")[0] == units_from("ITALY: A WAR")


def test_extra_home_centres_count_only_for_the_home_centre_policy() -> None:
    """1900: ALG counts as a French home centre for civil disorder (map rule
    civil_disorder_extra_home_centers, SCHEMA.md). France owns only PAR and must
    remove one of A ALG, A BUR. 2000: ALG is at distance 0, BUR 1 -> BUR goes.
    2023: owned centres only; BUR is next to PAR, ALG far away -> ALG goes."""
    game_map = load_map("1900")
    assert "ALG" in game_map.civil_disorder_extra_home_centers["FRANCE"]
    state = adj_state("FRANCE: A ALG, A BUR", {"PAR": "FRANCE"})
    assert run(state, [], "2000", game_map)[0] == units_from("FRANCE: A ALG")
    assert run(state, [], "2023", game_map)[0] == units_from("FRANCE: A BUR")


def test_civil_disorder_removes_several_and_all_when_nothing_is_owned() -> None:
    """Several removals are the top of the same ranking; a power with no centre left
    loses every unit."""
    game_map = load_map("classical")
    state = adj_state("RUSSIA: A MOS, A LVN, A SWE, F BAR", {"MOS": "RUSSIA", "EDI": "RUSSIA"})
    removed = civil_disorder_removals(state, game_map, "RUSSIA", 2, CivilDisorder.OWNED_CENTERS_ANY_ROUTE)
    # Distances to MOS/EDI: SWE 3 (FIN-STP-MOS, or SKA-NTH-EDI), BAR 2 (STP-MOS, or NWG-EDI),
    # LVN 1, MOS 0. So SWE, then BAR.
    assert [str(u) for u in removed] == ["A SWE", "F BAR"]
    gone = adj_state("TURKEY: A BUL, F AEG", {})
    units, results = run(gone, [], "2023")
    assert units == frozenset()
    assert {r.result for r in results} == {ResultCode.DISBAND}


def test_powers_resolve_independently_and_deterministically() -> None:
    state = adj_state(
        "FRANCE: A PAR, A PIC; GERMANY: A MUN",
        {"PAR": "FRANCE", "MUN": "GERMANY", "BER": "GERMANY"},
    )
    orders: list[Order] = [Build("GERMANY", L("BER"), F), Disband("FRANCE", L("PIC"), A)]
    units, results = run(state, orders)
    assert units == units_from("FRANCE: A PAR; GERMANY: A MUN, F BER")
    assert [r.order.power for r in results] == ["FRANCE", "GERMANY"]
    assert run(state, list(reversed(orders))) == (units, results)
