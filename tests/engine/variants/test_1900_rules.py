"""Adjudicator-level tests of the generic rule features, played on 1900.

Each test names the rule it checks and the paragraph of the seed
(shared/seeds/variant-1900.txt, "Definition of done") that asks for it. Positions
are built directly and played through the public API (``engine.Game``,
``engine.validate``, ``engine.parse_order``), so these check the adjudicator,
not the map file alone. Where a rule is generic (edge strength, convoy node) a
test also switches it on in a modified Classical map to show nothing is keyed
to 1900. docs/variants.md describes each switch.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

import engine
from engine import (
    DislodgedUnit,
    GameState,
    GameStatus,
    Location,
    PhaseType,
    Resolution,
    ResultCode,
    Season,
    Unit,
    UnitKind,
)

M = engine.load_map("1900")
CLASSICAL = engine.load_map("classical")
RUSSIAN_HOMES = ("MOS", "SEV", "STP", "WAR")


# --- helpers ------------------------------------------------------------------------------------


def unit(text: str) -> Unit:
    """``"BRITAIN F SPA/EC"`` -> a Unit."""
    power, kind, where = text.split()
    return Unit(UnitKind(kind), power, Location.parse(where))


def position(
    *units: str,
    ownership: dict[str, str] | None = None,
    season: Season = Season.SPRING,
    phase: PhaseType = PhaseType.MOVEMENT,
    dislodged: tuple[DislodgedUnit, ...] = (),
) -> GameState:
    owners = dict(M.starting_ownership) if ownership is None else ownership
    return GameState(1901, season, phase, frozenset(unit(u) for u in units),
                     engine.Ownership(owners), dislodged)


def play(
    state: GameState, *orders: str, rules: str = "2023", game_map: engine.MapData = M
) -> tuple[GameState, Resolution]:
    """Adjudicate ``"POWER: order text"`` lines; returns the next state and the results."""
    given: dict[str, list[engine.Order]] = {}
    for line in orders:
        power, text = line.split(":", 1)
        order = engine.parse_order(text.strip(), power=power, state=state, map=game_map)
        given.setdefault(power, []).append(order)
    game, resolution = engine.Game(map=game_map, state=state, rules=rules).adjudicate(given)
    return game.current, resolution


def result_at(resolution: Resolution, province: str) -> ResultCode:
    for r in resolution.results:
        where = getattr(r.order, "unit", None) or getattr(r.order, "location", None)
        if isinstance(where, Location) and where.province == province:
            return r.result
    raise AssertionError(f"no result for {province}")


def check(state: GameState, line: str, game_map: engine.MapData = M) -> engine.ValidationResult:
    power, text = line.split(":", 1)
    order = engine.parse_order(text.strip(), power=power, state=state, map=game_map)
    return engine.validate(order, state, game_map)


def dislodged_provinces(state: GameState) -> set[str]:
    return {d.unit.province for d in state.dislodged}


def modified(game_map: engine.MapData, change: Any) -> engine.MapData:
    """A copy of a map's data with ``change(data)`` applied, built by the public loader."""
    data = copy.deepcopy(game_map.raw)
    change(data)
    data["map_id"] = f"{data['map_id']}-modified"
    return engine.build_map(data)


# --- the map and starting position -----------------------------------------------------------


def test_map_data_matches_the_seed() -> None:
    """Seed, first bullet: 39 centres, split/added provinces, Spain's three coasts,
    Macedonia's two, passable Switzerland (a centre), Siberia not a centre, the
    seven-power start, and exactly the two cape edges carrying rule features."""
    assert len(M.supply_centers) == 39
    assert len(M.power_ids) == 7 and len(M.starting_units) == 25
    assert M.start_year == 1900
    assert M.provinces["SPA"].coasts == ("EC", "NC", "WC")
    assert M.provinces["MAC"].coasts == ("EC", "WC")
    assert "SWI" in M.supply_centers and "SIB" not in M.supply_centers
    assert "GIB" not in M.supply_centers and M.is_convoy_node("GIB")
    assert {tuple(sorted(k)) for k in M.edge_rules} == {("EGY", "MAO"), ("HEJ", "MAO")}
    assert unit("BRITAIN F GIB") in M.starting_units and unit("BRITAIN F EGY") in M.starting_units
    assert M.starting_ownership["EGY"] == "BRITAIN" and M.starting_ownership["ALG"] == "FRANCE"
    assert "1900" in engine.available_maps()


# --- Suez: half strength across the cape, both directions -------------------------------------


def test_edge_strength_is_doubled_integers_on_the_edge_not_the_province() -> None:
    """Rule: edge-level strength (seed: 'reduced-strength crossings are an edge-level
    attribute on adjacencies (defaulting to full)'); integers 2 full, 1 half."""
    assert M.edge("MAO", "EGY").strength == M.edge("EGY", "MAO").strength == 1
    assert M.edge("MAO", "HEJ").strength == M.edge("HEJ", "MAO").strength == 1
    assert M.edge("EGY", "HEJ").strength == 2 and M.edge("PAL", "EGY").strength == 2
    assert not CLASSICAL.edge_rules


@pytest.mark.parametrize(("dest", "rival"), [("EGY", "PAL"), ("HEJ", "ARA")])
def test_half_strength_into_egypt_hejaz_loses_to_a_normal_move(dest: str, rival: str) -> None:
    """Rule: Suez half strength, MAO -> EGY/HEJ (seed: 'movement between the
    Mid-Atlantic and Egypt/Hejaz is at half strength in both directions')."""
    state = position("ITALY F MAO", f"TURKEY A {rival}")
    after, res = play(state, f"ITALY: F MAO - {dest}", f"TURKEY: A {rival} - {dest}")
    assert result_at(res, "MAO") is ResultCode.BOUNCE
    assert after.unit_at(dest) == unit(f"TURKEY A {dest}")


@pytest.mark.parametrize("origin", ["EGY", "HEJ"])
def test_half_strength_out_of_egypt_hejaz_loses_to_a_normal_move(origin: str) -> None:
    """Rule: Suez half strength, EGY/HEJ -> MAO (the other direction, same paragraph)."""
    state = position(f"BRITAIN F {origin}", "FRANCE F POR")
    after, res = play(state, f"BRITAIN: F {origin} - MAO", "FRANCE: F POR - MAO")
    assert result_at(res, origin) is ResultCode.BOUNCE
    assert after.unit_at("MAO") == unit("FRANCE F MAO")


def test_half_strength_plus_a_support_beats_a_lone_unit() -> None:
    """Rule: supports add normally to a half-strength move (1 + 2 = 3 > 2); a lone
    half-strength move cannot dislodge a holding unit (1 < 2)."""
    lone, res = play(position("ITALY F MAO", "TURKEY A EGY"), "ITALY: F MAO - EGY")
    assert result_at(res, "MAO") is ResultCode.BOUNCE and lone.unit_at("EGY") == unit("TURKEY A EGY")
    state = position("ITALY F MAO", "ITALY A HEJ", "TURKEY A EGY")
    after, _ = play(state, "ITALY: F MAO - EGY", "ITALY: A HEJ S F MAO - EGY")
    assert after.unit_at("EGY") == unit("ITALY F EGY") and dislodged_provinces(after) == {"EGY"}


def test_two_half_strength_moves_bounce() -> None:
    """Rule: Suez half strength; two cape crossings into MAO are equal (1 vs 1)."""
    after, res = play(position("BRITAIN F EGY", "TURKEY F HEJ"), "BRITAIN: F EGY - MAO",
                      "TURKEY: F HEJ - MAO")
    assert result_at(res, "EGY") is result_at(res, "HEJ") is ResultCode.BOUNCE
    assert after.unit_at("MAO") is None


def test_edge_strength_is_generic() -> None:
    """Rule: edge strength is generic data: marking Classical's BUR-MUN edge half
    makes a lone A BUR - MUN lose to A RUH - MUN, with no code naming a map."""

    def halve(data: dict[str, Any]) -> None:
        for e in data["edges"]:
            if {e["from"], e["to"]} == {"BUR", "MUN"} and e["army"]:
                e["strength"] = "half"

    half = modified(CLASSICAL, halve)
    state = GameState(1901, Season.SPRING, PhaseType.MOVEMENT,
                      frozenset({unit("FRANCE A BUR"), unit("GERMANY A RUH")}))
    after, _ = play(state, "FRANCE: A BUR - MUN", "GERMANY: A RUH - MUN", game_map=half)
    assert after.unit_at("MUN") == unit("GERMANY A MUN")
    normal, _ = play(state, "FRANCE: A BUR - MUN", "GERMANY: A RUH - MUN", game_map=CLASSICAL)
    assert normal.unit_at("MUN") is None


# --- Suez: no support across the cape ---------------------------------------------------------


@pytest.mark.parametrize(
    ("units", "order"),
    [
        (("BRITAIN F MAO", "BRITAIN A HEJ", "TURKEY A EGY"), "BRITAIN: F MAO S A HEJ - EGY"),
        (("BRITAIN F MAO", "BRITAIN F EGY"), "BRITAIN: F MAO S F EGY"),
        (("BRITAIN F MAO", "BRITAIN A HEJ"), "BRITAIN: F MAO S A HEJ"),
        (("BRITAIN F EGY", "BRITAIN F POR"), "BRITAIN: F EGY S F POR - MAO"),
        (("BRITAIN F HEJ", "BRITAIN F MAO"), "BRITAIN: F HEJ S F MAO"),
    ],
)
def test_no_support_across_the_cape(units: tuple[str, ...], order: str) -> None:
    """Rule: edge no_support_across (seed: 'the Mid cannot support to or from
    Egypt/Hejaz and vice versa'): refused by validate, though the move is legal."""
    state = position(*units)
    result = check(state, order)
    assert not result.ok and result.code is engine.ErrorCode.CANNOT_SUPPORT
    mover = order.split()[1:3]
    target = "EGY" if mover[1] == "MAO" else "MAO"
    assert check(state, f"BRITAIN: {mover[0]} {mover[1]} - {target}").ok


def test_support_across_the_cape_is_void_in_adjudication() -> None:
    """Rule: no support across (vDiplomacy X.E1): the illegal support to hold is VOID,
    so a supported A HEJ - EGY dislodges the Turkish army."""
    state = position("BRITAIN A HEJ", "BRITAIN A PAL", "TURKEY A EGY", "TURKEY F MAO")
    after, res = play(state, "BRITAIN: A HEJ - EGY", "BRITAIN: A PAL S A HEJ - EGY",
                      "TURKEY: F MAO S A EGY")
    assert result_at(res, "MAO") is ResultCode.VOID
    assert dislodged_provinces(after) == {"EGY"}


# --- Suez: the cut exception -------------------------------------------------------------------


def test_cape_crossing_does_not_cut_support_unless_it_dislodges() -> None:
    """Rule: edge move_does_not_cut_support (seed: 'a unit crossing the cape does not
    cut support in the destination unless it dislodges the supporter'; vDiplomacy
    X.A0). An ordinary attack on the supporter from CYR cuts it (the control)."""
    units = ("ITALY F EAS", "TURKEY F EGY", "TURKEY F ION")
    orders = ("TURKEY: F EGY S F ION - EAS", "TURKEY: F ION - EAS")
    across, res = play(position("ITALY F MAO", *units), "ITALY: F MAO - EGY", *orders)
    assert result_at(res, "EGY") is ResultCode.OK and dislodged_provinces(across) == {"EAS"}
    overland, res = play(position("ITALY A CYR", *units), "ITALY: A CYR - EGY", *orders)
    assert result_at(res, "EGY") is ResultCode.CUT and dislodged_provinces(overland) == set()


def test_cape_crossing_that_dislodges_the_supporter_cuts_it() -> None:
    """Rule: the exception ends when the crossing dislodges (vDiplomacy X.B)."""
    state = position("ITALY F MAO", "ITALY A HEJ", "BRITAIN A EGY", "BRITAIN A ARA", "TURKEY A PAL")
    after, res = play(state, "ITALY: F MAO - EGY", "ITALY: A HEJ S F MAO - EGY",
                      "BRITAIN: A EGY S A ARA - PAL", "BRITAIN: A ARA - PAL")
    assert result_at(res, "EGY") is ResultCode.CUT
    assert after.unit_at("PAL") == unit("TURKEY A PAL") and dislodged_provinces(after) == {"EGY"}


def test_convoyed_attack_round_the_cape_cuts_support() -> None:
    """Rule: the cut exception is for a move directly across the edge only (vDiplomacy
    X.N, title only: 'using convoy instead of half-strength border cuts support'):
    A POR convoyed by F MAO into EGY cuts F EGY's support, though it fails."""
    state = position("BRITAIN A POR", "BRITAIN F MAO", "ITALY F EAS", "TURKEY F EGY", "TURKEY F ION")
    after, res = play(state, "BRITAIN: A POR - EGY", "BRITAIN: F MAO C A POR - EGY",
                      "TURKEY: F EGY S F ION - EAS", "TURKEY: F ION - EAS")
    assert result_at(res, "POR") is ResultCode.BOUNCE
    assert result_at(res, "EGY") is ResultCode.CUT and dislodged_provinces(after) == set()


def test_cut_exception_holds_in_the_other_direction() -> None:
    """Rule: move_does_not_cut_support is on the edge, both ways: F EGY - MAO does not
    cut F MAO's support of A SPA - POR."""
    state = position("TURKEY F EGY", "FRANCE F MAO", "FRANCE A SPA", "ITALY A POR")
    after, res = play(state, "TURKEY: F EGY - MAO", "FRANCE: F MAO S A SPA - POR", "FRANCE: A SPA - POR")
    assert result_at(res, "MAO") is ResultCode.OK
    assert after.unit_at("POR") == unit("FRANCE A POR")


# --- Suez: convoy strength -----------------------------------------------------------------------


def test_army_convoyed_from_egypt_attacks_at_full_strength() -> None:
    """Rule: convoy strength from the last step (seed: 'an army convoyed from
    Egypt/Hejaz attacks at full strength'; vDiplomacy X.R): 2 vs 2, both bounce."""
    state = position("BRITAIN F MAO", "BRITAIN A EGY", "FRANCE A SPA")
    after, res = play(state, "BRITAIN: F MAO C A EGY - POR", "BRITAIN: A EGY - POR",
                      "FRANCE: A SPA - POR")
    assert result_at(res, "EGY") is result_at(res, "SPA") is ResultCode.BOUNCE
    assert after.unit_at("POR") is None


def test_army_convoyed_to_egypt_attacks_at_half_strength() -> None:
    """Rule: convoy strength (seed: 'one convoyed to Egypt/Hejaz attacks at half';
    vDiplomacy X.Q): the last step MAO -> EGY crosses the cape, 1 < 2."""
    state = position("BRITAIN F MAO", "BRITAIN A IRE", "TURKEY A PAL")
    after, res = play(state, "BRITAIN: F MAO C A IRE - EGY", "BRITAIN: A IRE - EGY",
                      "TURKEY: A PAL - EGY")
    assert result_at(res, "IRE") is ResultCode.BOUNCE
    assert after.unit_at("EGY") == unit("TURKEY A EGY")


def test_convoy_to_egypt_through_the_mediterranean_is_full_strength() -> None:
    """Rule: only a last step across the half edge halves a convoy: A TRP convoyed by
    F ION, F EAS into EGY is full strength and bounces A PAL (2 vs 2)."""
    state = position("ITALY A TRP", "ITALY F ION", "ITALY F EAS", "TURKEY A PAL")
    after, _ = play(state, "ITALY: A TRP - EGY", "ITALY: F ION C A TRP - EGY",
                    "ITALY: F EAS C A TRP - EGY", "TURKEY: A PAL - EGY")
    assert after.unit_at("EGY") is None


def test_convoy_strength_is_the_best_surviving_route() -> None:
    """Rule: convoy strength with two routes (vDiplomacy X.S0/X.S1, see docs/variants.md):
    full while the Mediterranean route survives, half once only the cape route is left."""
    fleets = ("ITALY F MAO", "ITALY F WES", "ITALY F TYS", "ITALY F ION", "ITALY F EAS")
    convoys = tuple(f"ITALY: F {f.split()[2]} C A SPA - EGY" for f in fleets)
    base = ("BRITAIN A SPA", "TURKEY A PAL", *fleets)
    both, _ = play(position(*base), "BRITAIN: A SPA - EGY", "TURKEY: A PAL - EGY", *convoys)
    assert both.unit_at("EGY") is None  # full: 2 vs 2
    attackers = ("AUSTRIA F AEG", "AUSTRIA F ADR")
    cut, res = play(position(*base, *attackers), "BRITAIN: A SPA - EGY", "TURKEY: A PAL - EGY",
                    *convoys, "AUSTRIA: F AEG - ION", "AUSTRIA: F ADR S F AEG - ION")
    assert dislodged_provinces(cut) == {"ION"}
    assert cut.unit_at("EGY") == unit("TURKEY A EGY")  # half: 1 vs 2
    assert result_at(res, "SPA") is ResultCode.BOUNCE


# --- Suez: cape-bound retreats disband --------------------------------------------------------


def retreat_position(*dislodged: tuple[str, str]) -> GameState:
    """A retreat phase whose dislodged units may each retreat to the given province."""
    return position(
        season=Season.SPRING,
        phase=PhaseType.RETREAT,
        dislodged=tuple(DislodgedUnit(unit(u), None, (Location(dest),)) for u, dest in dislodged),
    )


def test_cape_bound_retreat_disbands_and_the_other_retreats() -> None:
    """Rule: edge retreat_disbanded_if_contested (seed: 'when two units contend for the
    same destination and one must travel around the cape, the cape-bound unit
    disbands while the other retreats')."""
    state = retreat_position(("FRANCE F MAO", "EGY"), ("ITALY F EAS", "EGY"))
    after, res = play(state, "FRANCE: F MAO - EGY", "ITALY: F EAS - EGY")
    assert after.units == {unit("ITALY F EGY")}
    assert result_at(res, "MAO") is ResultCode.BOUNCE and result_at(res, "EAS") is ResultCode.OK


def test_cape_bound_retreat_into_mao_disbands() -> None:
    """Rule: retreat_disbanded_if_contested, the other direction: EGY -> MAO gives way
    to POR -> MAO."""
    state = retreat_position(("BRITAIN F EGY", "MAO"), ("FRANCE F POR", "MAO"))
    after, _ = play(state, "BRITAIN: F EGY - MAO", "FRANCE: F POR - MAO")
    assert after.units == {unit("FRANCE F MAO")}


def test_two_cape_bound_retreats_both_disband() -> None:
    """Rule: two retreats across such edges bounce as usual (SCHEMA.md)."""
    state = retreat_position(("BRITAIN F EGY", "MAO"), ("TURKEY F HEJ", "MAO"))
    after, _ = play(state, "BRITAIN: F EGY - MAO", "TURKEY: F HEJ - MAO")
    assert after.units == frozenset()


def test_cape_bound_retreat_with_two_others_all_disband() -> None:
    """Rule: the cape-bound unit gives way, but two ordinary retreats still bounce."""
    state = retreat_position(("BRITAIN F EGY", "MAO"), ("FRANCE F POR", "MAO"), ("ITALY F IRE", "MAO"))
    after, _ = play(state, "BRITAIN: F EGY - MAO", "FRANCE: F POR - MAO", "ITALY: F IRE - MAO")
    assert after.units == frozenset()


def test_uncontested_cape_retreat_succeeds() -> None:
    """Rule: the disband applies only when contested; alone, a cape retreat arrives."""
    after, _ = play(retreat_position(("FRANCE F MAO", "EGY")), "FRANCE: F MAO - EGY")
    assert after.units == {unit("FRANCE F EGY")}


# --- Gibraltar: convoy node, army may occupy ---------------------------------------------------


def test_army_may_occupy_gibraltar_and_blocks_a_fleet() -> None:
    """Rule: province convoy_node on a coastal province (seed: 'an army may occupy it
    (and block a fleet)'): A SPA - GIB arrives; a lone fleet cannot enter past it."""
    after, res = play(position("RUSSIA A SPA"), "RUSSIA: A SPA - GIB")
    assert after.unit_at("GIB") == unit("RUSSIA A GIB")
    state = position("RUSSIA A GIB", "FRANCE F MAO", "ITALY F WES")
    after, res = play(state, "FRANCE: F MAO - GIB")
    assert result_at(res, "MAO") is ResultCode.BOUNCE and after.unit_at("GIB") == unit("RUSSIA A GIB")
    assert not check(state, "FRANCE: F MAO - WES").ok  # MAO and WES meet only through GIB/MOR


def test_fleet_in_gibraltar_is_a_convoy_link() -> None:
    """Rule: convoy_node (seed: 'a fleet in Gibraltar may serve as a link in a convoy
    chain'): A ALG reaches POR by F WES, F GIB, F MAO; without F GIB there is no route."""
    fleets = ("GERMANY F WES", "GERMANY F GIB", "GERMANY F MAO")
    state = position("GERMANY A ALG", *fleets)
    after, _ = play(state, "GERMANY: A ALG - POR", "GERMANY: F WES C A ALG - POR",
                    "GERMANY: F GIB C A ALG - POR", "GERMANY: F MAO C A ALG - POR")
    assert after.unit_at("POR") == unit("GERMANY A POR")
    no_gib = position("GERMANY A ALG", "GERMANY F WES", "GERMANY F MAO")
    assert check(no_gib, "GERMANY: A ALG - POR").code is engine.ErrorCode.NO_CONVOY_ROUTE


def test_only_convoy_nodes_convoy() -> None:
    """Rule: convoy_node is a province flag; a fleet on an ordinary coast (MOR) cannot
    convoy even where GIB could."""
    state = position("GERMANY A ALG", "GERMANY F WES", "GERMANY F MOR", "GERMANY F MAO")
    assert check(state, "GERMANY: F MOR C A ALG - POR").code is engine.ErrorCode.CANNOT_CONVOY


def test_army_convoyed_into_and_out_of_gibraltar() -> None:
    """Rule: an army may start or end a convoy in GIB like any coastal province."""
    after, _ = play(position("RUSSIA A GIB", "RUSSIA F WES"), "RUSSIA: A GIB - ALG",
                    "RUSSIA: F WES C A GIB - ALG")
    assert after.unit_at("ALG") == unit("RUSSIA A ALG")
    after, _ = play(position("RUSSIA A ALG", "RUSSIA F WES"), "RUSSIA: A ALG - GIB",
                    "RUSSIA: F WES C A ALG - GIB")
    assert after.unit_at("GIB") == unit("RUSSIA A GIB")


def test_convoy_node_is_generic() -> None:
    """Rule: convoy_node is generic: on Classical F DEN cannot convoy; on a copy whose
    data flags Denmark a convoy node, F HEL and F DEN carry A HOL to SWE."""
    def flag_den(data: dict[str, Any]) -> None:
        for p in data["provinces"]:
            if p["id"] == "DEN":
                p["convoy_node"] = True

    state = GameState(1901, Season.SPRING, PhaseType.MOVEMENT,
                      frozenset({unit("GERMANY A HOL"), unit("GERMANY F DEN"), unit("GERMANY F HEL")}))
    assert check(state, "GERMANY: F DEN C A HOL - SWE", game_map=CLASSICAL).code is (
        engine.ErrorCode.CANNOT_CONVOY
    )
    flagged = modified(CLASSICAL, flag_den)
    after, _ = play(state, "GERMANY: A HOL - SWE", "GERMANY: F HEL C A HOL - SWE",
                    "GERMANY: F DEN C A HOL - SWE", game_map=flagged)
    assert after.unit_at("SWE") == unit("GERMANY A SWE")


# --- Russian emergency measures -----------------------------------------------------------------


def russian_winter(homes: tuple[str, ...], others: tuple[str, ...], *units: str) -> GameState:
    """A winter adjustment phase where Russia owns ``homes`` and ``others``."""
    owners = {c: "RUSSIA" for c in (*homes, *others)}
    return position(*units, ownership=owners, season=Season.WINTER, phase=PhaseType.ADJUSTMENT)


@pytest.mark.parametrize(("held", "active"), [(0, False), (1, True), (2, True), (3, True), (4, False)])
def test_emergency_measures_active_only_with_some_but_not_all_homes(held: int, active: bool) -> None:
    """Rule: emergency measures condition (seed: 'while Russia holds at least one but not
    all four of its home supply centers ... the allowance is lost when Russia holds
    zero or all four home centers'). Two non-home centres keep the count comparable."""
    state = russian_winter(RUSSIAN_HOMES[:held], ("RUM", "SWE"))
    centres = held + 2
    assert engine.unit_allowance(state, M, "RUSSIA") == centres + (1 if active else 0)
    assert ("SIB" in engine.build_sites(state, M, "RUSSIA")) is active


def test_emergency_measures_build_in_unoccupied_siberia() -> None:
    """Rule: emergency measures build site (seed: 'may build in an unoccupied Siberia'):
    an army may be built there; a fleet may not (inland); the build uses the extra unit."""
    state = russian_winter(("MOS", "SEV"), (), "RUSSIA A MOS", "RUSSIA F SEV")
    assert engine.adjustment_balance(state, M, "RUSSIA") == 1
    assert check(state, "RUSSIA: Build F SIB").code is engine.ErrorCode.CANNOT_BUILD_HERE
    after, res = play(state, "RUSSIA: Build A SIB")
    assert result_at(res, "SIB") is ResultCode.BUILD
    assert after.unit_at("SIB") == unit("RUSSIA A SIB")
    assert len(after.units_of("RUSSIA")) == len(after.centers_of("RUSSIA")) + 1
    assert "SIB" not in after.ownership and after.ownership == state.ownership


def test_emergency_measures_no_build_in_occupied_siberia() -> None:
    """Rule: 'build_requires_unoccupied': an occupied Siberia is no build site."""
    state = russian_winter(("STP",), ("RUM", "SWE"), "TURKEY A SIB")
    assert "SIB" not in engine.build_sites(state, M, "RUSSIA")
    assert check(state, "RUSSIA: Build A SIB").code is engine.ErrorCode.OCCUPIED


@pytest.mark.parametrize("homes", [(), RUSSIAN_HOMES])
def test_emergency_measures_lost_with_zero_or_all_homes(homes: tuple[str, ...]) -> None:
    """Rule: the allowance is lost at zero or all four homes: no Siberian build."""
    state = russian_winter(homes, ("RUM", "SWE"))
    assert check(state, "RUSSIA: Build A SIB").code is engine.ErrorCode.NOT_A_HOME_CENTRE


def test_emergency_measures_keep_one_extra_unit_and_no_more() -> None:
    """Rule: 'one unit beyond its centre count': 3 centres (2 homes) keep 4 units, so
    no adjustment phase is played; with 5 units exactly one is removed."""
    owners = {"MOS": "RUSSIA", "WAR": "RUSSIA", "RUM": "RUSSIA"}
    four = ("RUSSIA A MOS", "RUSSIA A WAR", "RUSSIA A RUM", "RUSSIA A UKR")
    fall = position(*four, ownership=owners, season=Season.FALL)
    after, _ = play(fall)
    assert (after.season, after.phase_type) == (Season.SPRING, PhaseType.MOVEMENT)
    assert len(after.units_of("RUSSIA")) == 4
    fall5 = position(*four, "RUSSIA A SIB", ownership=owners, season=Season.FALL)
    winter, _ = play(fall5)
    assert winter.phase_type is PhaseType.ADJUSTMENT
    assert engine.adjustment_balance(winter, M, "RUSSIA") == -1
    spring, res = play(winter)  # civil disorder removes exactly one
    assert len(spring.units_of("RUSSIA")) == 4
    assert sum(r.result is ResultCode.DISBAND for r in res.results) == 1


def test_emergency_measures_lost_units_are_disbanded() -> None:
    """Rule: when Russia regains all four homes the extra unit goes at the next
    adjustment (4 centres, 5 units: one removal)."""
    state = russian_winter(RUSSIAN_HOMES, (), "RUSSIA A MOS", "RUSSIA A SEV", "RUSSIA A STP",
                           "RUSSIA A WAR", "RUSSIA A SIB")
    assert engine.adjustment_balance(state, M, "RUSSIA") == -1


def test_siberia_never_becomes_a_supply_centre() -> None:
    """Rule: 'Siberia never becomes a supply center': a Russian army ending Fall in
    SIB adds no ownership, and stored state has no phantom SIB centre."""
    fall = position("RUSSIA A MOS", ownership={"SEV": "RUSSIA", "RUM": "RUSSIA"}, season=Season.FALL)
    after, _ = play(fall, "RUSSIA: A MOS - SIB")
    assert after.unit_at("SIB") == unit("RUSSIA A SIB")
    assert "SIB" not in after.ownership
    stored = engine.state_to_dict(after)
    assert set(stored["ownership"]) <= M.supply_centers
    assert engine.state_from_dict(stored) == after


def test_emergency_measures_leak_nothing_into_stored_state() -> None:
    """Rule: EMR is evaluated, never stored (seed: 'must not leak the phantom center into
    stored ownership'): a full Fall -> Winter -> Spring cycle with an EMR build keeps
    ownership exactly as the Fall update left it, and victory counts are unchanged."""
    owners = {"MOS": "RUSSIA", "SEV": "RUSSIA", "RUM": "RUSSIA"}
    fall = position("RUSSIA A RUM", "RUSSIA F SEV", ownership=owners, season=Season.FALL)
    winter, _ = play(fall)
    assert winter.phase_type is PhaseType.ADJUSTMENT
    assert engine.adjustment_balance(winter, M, "RUSSIA") == 2
    spring, res = play(winter, "RUSSIA: Build A SIB", "RUSSIA: Build A MOS")
    assert {r.result for r in res.results} == {ResultCode.BUILD}
    assert spring.ownership == winter.ownership == owners
    assert len(spring.centers_of("RUSSIA")) == 3 and len(spring.units_of("RUSSIA")) == 4
    assert "SIB" not in engine.state_to_dict(spring)["ownership"]


def test_emergency_measures_are_generic() -> None:
    """Rule: emergency_measures is data: the same rule given to France on Classical
    makes Picardy (not a centre) a French build site while France holds some homes."""

    def french_emr(data: dict[str, Any]) -> None:
        data["rules"] = {"emergency_measures": [{
            "power": "FRANCE", "home_centers": ["BRE", "MAR", "PAR"],
            "active_when": "owns_some_but_not_all_home_centers", "extra_units": 1,
            "build_provinces": ["PIC"], "build_requires_unoccupied": True}]}

    emr = modified(CLASSICAL, french_emr)
    state = GameState(1901, Season.WINTER, PhaseType.ADJUSTMENT, frozenset(),
                      engine.Ownership({"PAR": "FRANCE"}))
    assert engine.build_sites(state, emr, "FRANCE") == ("PAR", "PIC")
    assert engine.unit_allowance(state, emr, "FRANCE") == 2
    assert engine.build_sites(state, CLASSICAL, "FRANCE") == ("PAR",)


# --- build restrictions -------------------------------------------------------------------------


@pytest.mark.parametrize(("power", "site", "kind"), [("BRITAIN", "EGY", "F"), ("FRANCE", "ALG", "A")])
def test_no_build_in_egypt_or_algeria(power: str, site: str, kind: str) -> None:
    """Rule: build restrictions (seed: 'Britain cannot build in Egypt and France cannot
    build in Algeria'): owned, vacant, with builds due, and still refused."""
    owners = dict(M.starting_ownership)
    owners["SWE"] = owners["NWY"] = power
    state = position(ownership=owners, season=Season.WINTER, phase=PhaseType.ADJUSTMENT)
    assert engine.adjustment_balance(state, M, power) > 0
    assert site not in engine.build_sites(state, M, power)
    assert check(state, f"{power}: Build {kind} {site}").code is engine.ErrorCode.NOT_A_HOME_CENTRE
    menu = engine.legal_orders(state, M, power)
    assert not any(isinstance(o, engine.Build) and o.location.province == site for o in menu)
    after, res = play(state, f"{power}: Build {kind} {site}")
    assert result_at(res, site) is ResultCode.VOID and after.unit_at(site) is None


# --- civil disorder: EGY/ALG count as home ------------------------------------------------------


BRITISH_SURPLUS = ("BRITAIN F LON", "BRITAIN F EDI", "BRITAIN A LVP", "BRITAIN F EAS", "BRITAIN F BAR")
BRITISH_CENTRES = {"LON": "BRITAIN", "EDI": "BRITAIN", "LVP": "BRITAIN", "NWY": "BRITAIN",
                   "EGY": "TURKEY"}


def test_civil_disorder_counts_egypt_as_home_under_the_2000_rulebook() -> None:
    """Rule: civil_disorder_extra_home_centers (seed: 'both are treated as home centers
    when selecting default disbands under civil disorder'). Under the 2000 rulebook
    (distance to home centres) F EAS is 1 from Egypt, so F BAR (2 from Edinburgh)
    goes, even though Britain has lost Egypt; without the extra home F EAS would go."""
    state = position(*BRITISH_SURPLUS, ownership=BRITISH_CENTRES, season=Season.WINTER,
                     phase=PhaseType.ADJUSTMENT)
    after, _ = play(state, rules="2000")
    assert after.unit_at("BAR") is None and after.unit_at("EAS") is not None

    def no_extra(data: dict[str, Any]) -> None:
        data["rules"]["civil_disorder_extra_home_centers"] = {}

    after, _ = play(state, rules="2000", game_map=modified(M, no_extra))
    assert after.unit_at("EAS") is None and after.unit_at("BAR") is not None


def test_civil_disorder_under_the_2023_rulebook_counts_owned_centres() -> None:
    """Rule: under the 2023 rulebook distance is to centres the power OWNS (DATC v3.0
    4.D.8), home or not, so Egypt counts exactly when Britain owns it and the extra
    home list has no effect (docs/variants.md). Lost Egypt: F EAS is farthest."""
    state = position(*BRITISH_SURPLUS, ownership=BRITISH_CENTRES, season=Season.WINTER,
                     phase=PhaseType.ADJUSTMENT)
    after, _ = play(state, rules="2023")
    assert after.unit_at("EAS") is None and after.unit_at("BAR") is not None
    owned = {**BRITISH_CENTRES, "EGY": "BRITAIN", "NWY": "RUSSIA"}
    kept = position(*BRITISH_SURPLUS, ownership=owned, season=Season.WINTER, phase=PhaseType.ADJUSTMENT)
    after, _ = play(kept, rules="2023")
    assert after.unit_at("BAR") is None and after.unit_at("EAS") is not None


# --- victory ------------------------------------------------------------------------------------


def fall_with_counts(**counts: int) -> GameState:
    """A Fall movement phase, no units, where each named power owns that many centres."""
    centres = iter(sorted(M.supply_centers))
    owners = {next(centres): power for power, n in counts.items() for _ in range(n)}
    return position(ownership=owners, season=Season.FALL)


@pytest.mark.parametrize(
    ("counts", "winner"),
    [
        ({"ITALY": 18, "TURKEY": 17}, "ITALY"),
        ({"ITALY": 19, "TURKEY": 18}, "ITALY"),
        ({"ITALY": 17, "TURKEY": 16}, None),
        ({"ITALY": 18, "TURKEY": 18}, None),
    ],
)
def test_victory_needs_18_and_strictly_more_than_anyone(counts: dict[str, int], winner: str | None) -> None:
    """Rule: victory (seed: 'Solo victory requires 18 supply centers and strictly more
    than any other power; a tie at 18+ continues play')."""
    after, _ = play(fall_with_counts(**counts))
    assert after.winner == winner
    assert after.status is (GameStatus.COMPLETED if winner else GameStatus.ACTIVE)


def test_tie_at_18_continues_until_one_power_leads() -> None:
    """Rule: victory tie continues: after an 18-18 Fall the game goes on, and the next
    Fall in which Italy takes a Turkish centre ends it."""
    tied, _ = play(fall_with_counts(ITALY=18, TURKEY=18))
    assert tied.status is GameStatus.ACTIVE and tied.winner is None
    turkish = next(c for c, p in tied.ownership.items() if p == "TURKEY")
    later = GameState(1902, Season.FALL, PhaseType.MOVEMENT, frozenset({Unit(UnitKind.ARMY, "ITALY",
                      Location(turkish))}), tied.ownership)
    won, _ = play(later)
    assert won.winner == "ITALY" and won.status is GameStatus.COMPLETED
