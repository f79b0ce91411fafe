"""The rule switches the new variants use, each with the source that states the rule.

* ``rules.build_sites = any_owned_center`` (build on any owned, vacant supply centre): Chaos
  (godip variants/chaos, "Units may be built at any owned SC"; webDiplomacy
  variants/ClassicChaos/rules.html), Modern (MILA maps/modern.map, ``RULES BUILD_ANY``),
  Hundred (godip variants/hundred, "Units may be built on any owned SC").
* A victory count other than Classical's 18: Pure 4 of 7 and Youngstown Redux 28 (godip
  variants/pure and youngstownredux: "If two nations have 28 SCs, the one with most wins. If
  drawn, the game continues"), Hundred 9, World 44 (webDiplomacy variants/World).
* A game that starts with an adjustment phase: Chaos begins in Winter 1900 with one centre
  and no unit per power (godip variants/chaos; webDiplomacy ClassicChaos rules.html).
* Starting units that differ from the classical set on the classical board: Fleet Rome
  (MILA maps/standard_fleet_rome.map, godip variants/fleetrome).

Positions are built directly and played through the public API (``engine.Game``,
``engine.validate``, ``engine.build_sites``); nothing here is keyed to a map's id.
"""

from __future__ import annotations

import copy

import pytest

import engine
from engine import Build, GameState, GameStatus, Location, PhaseType, ResultCode, Season, Unit, UnitKind
from engine.maps import build_map

CLASSICAL = engine.load_map("classical")
CHAOS = engine.load_map("chaos")
MODERN = engine.load_map("modern")
A, F = UnitKind.ARMY, UnitKind.FLEET


def _winter(
    board: engine.MapData, units: list[Unit], ownership: dict[str, str], year: int = 1901
) -> GameState:
    return GameState(year, Season.WINTER, PhaseType.ADJUSTMENT, frozenset(units), engine.Ownership(ownership))


def _build_anywhere(board: engine.MapData) -> engine.MapData:
    """``board`` with nothing changed but the build-site switch."""
    data = copy.deepcopy(board.raw)
    data["rules"] = {**data.get("rules", {}), "build_sites": "any_owned_center"}
    return build_map(data)


# --- build on any owned centre ------------------------------------------------------------------


def test_any_owned_centre_is_a_build_site_only_under_the_switch() -> None:
    """France owns Belgium and Spain (vacant) and Munich (occupied): on Classical it builds
    only at home; with ``any_owned_center`` also in Belgium and Spain, never where a unit
    stands, never in a centre it does not own, never off a centre."""
    ownership = {**CLASSICAL.starting_ownership, "BEL": "FRANCE", "SPA": "FRANCE", "MUN": "FRANCE"}
    units = [Unit(A, "FRANCE", Location("MUN")), Unit(A, "GERMANY", Location("RUH"))]
    state = _winter(CLASSICAL, units, ownership)
    assert engine.build_sites(state, CLASSICAL, "FRANCE") == ("BRE", "MAR", "PAR")
    anywhere = _build_anywhere(CLASSICAL)
    assert engine.build_sites(state, anywhere, "FRANCE") == ("BEL", "BRE", "MAR", "PAR", "SPA")
    refused = {
        "A MUN": "OCCUPIED",
        "A BER": "NOT_OWNED",
        "A BUR": "NOT_A_HOME_CENTRE",
    }
    for text, code in refused.items():
        order = engine.parse_order(f"BUILD {text}", "FRANCE", map=anywhere)
        refusal = engine.validate(order, state, anywhere).code
        assert refusal is not None and refusal.value == code, text
    built = Build("FRANCE", Location("SPA", "NC"), F)
    after, resolution = engine.Game(map=anywhere, state=state).adjudicate({"FRANCE": [built]})
    assert Unit(F, "FRANCE", Location("SPA", "NC")) in after.current.units
    assert [r.result for r in resolution.results if r.order.power == "FRANCE"][0] is ResultCode.BUILD


def test_legal_menus_and_the_waiting_list_follow_the_switch() -> None:
    """A power whose home centres are all occupied but who owns a vacant foreign centre has
    somewhere to build only under the switch: it is then waited on and offered the builds."""
    ownership = {**MODERN.starting_ownership, "BEL": "FRANCE"}
    state = _winter(MODERN, list(MODERN.starting_units), ownership)
    assert engine.build_sites(state, MODERN, "FRANCE") == ("BEL",)
    assert "FRANCE" in engine.powers_with_orders_to_give(state, MODERN)
    menu = {engine.format_order(o) for o in engine.legal_orders(state, MODERN, "FRANCE")}
    assert {"BUILD A BEL", "BUILD F BEL", "WAIVE"} <= menu
    home_only = build_map({**copy.deepcopy(MODERN.raw), "rules": {}})
    assert engine.build_sites(state, home_only, "FRANCE") == ()
    assert "FRANCE" not in engine.powers_with_orders_to_give(state, home_only)


# --- Chaos: a game that starts with its builds ----------------------------------------------------


def test_chaos_starts_in_winter_1900_with_one_build_per_power() -> None:
    start = engine.initial_state(CHAOS)
    assert start.phase_name == "W1900A" and not start.units
    assert len(CHAOS.power_ids) == 34
    for power in CHAOS.power_ids:
        (home,) = CHAOS.home_centers(power)
        assert engine.build_sites(start, CHAOS, power) == (home,)
        assert engine.adjustment_balance(start, CHAOS, power) == 1
    assert engine.powers_with_orders_to_give(start, CHAOS) == CHAOS.power_ids


def test_chaos_builds_then_waives_what_was_not_ordered() -> None:
    """Orders for two powers: their units appear; every other build is waived (Convoy's one
    default for an unordered build, docs/variants.md); Spring 1901 follows."""
    start = engine.initial_state(CHAOS)
    orders = {
        "PARIS": [engine.parse_order("BUILD A PAR", "PARIS", map=CHAOS)],
        "ST_PETERSBURG": [engine.parse_order("BUILD F STP/NC", "ST_PETERSBURG", map=CHAOS)],
    }
    after, resolution = engine.Game(map=CHAOS, state=start).adjudicate(orders)
    assert after.current.phase_name == "S1901M"
    assert after.current.units == {
        Unit(A, "PARIS", Location("PAR")),
        Unit(F, "ST_PETERSBURG", Location("STP", "NC")),
    }
    waived = [r for r in resolution.results if r.result is ResultCode.WAIVE]
    assert len(waived) == 32


def test_chaos_a_power_builds_in_a_centre_it_took() -> None:
    """Paris took Brest: the next winter it may build in Brest as well as Paris."""
    ownership = {**CHAOS.starting_ownership, "BRE": "PARIS"}
    state = _winter(CHAOS, [Unit(A, "PARIS", Location("PIC"))], ownership)
    assert engine.build_sites(state, CHAOS, "PARIS") == ("BRE", "PAR")
    assert engine.adjustment_balance(state, CHAOS, "PARIS") == 1


# --- victory counts ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "count"),
    [("pure", 4), ("hundred", 9), ("world", 44), ("youngstown_redux", 28), ("ancmed", 18), ("modern", 33)],
)
def test_each_map_states_its_victory_count(name: str, count: int) -> None:
    assert engine.load_map(name).victory.solo_supply_centers == count


def test_pure_is_won_with_four_of_seven_centres() -> None:
    """Pure: Austria, with 3 centres and armies next to Berlin, takes it in the Fall."""
    pure = engine.load_map("pure")
    ownership = {
        "VIE": "AUSTRIA",
        "ROM": "AUSTRIA",
        "PAR": "AUSTRIA",
        "BER": "GERMANY",
        "LON": "ENGLAND",
        "MOS": "RUSSIA",
        "CON": "TURKEY",
    }
    units = [Unit(A, "AUSTRIA", Location("VIE")), Unit(A, "AUSTRIA", Location("ROM"))]
    state = GameState(1905, Season.FALL, PhaseType.MOVEMENT, frozenset(units),
                      engine.Ownership(ownership))
    orders = {"AUSTRIA": [engine.parse_order("A VIE - BER", "AUSTRIA", map=pure)]}
    after, _ = engine.Game(map=pure, state=state).adjudicate(orders)
    assert after.current.status is GameStatus.COMPLETED and after.current.winner == "AUSTRIA"


def test_a_tie_at_the_victory_count_plays_on() -> None:
    """Youngstown Redux: two powers reaching 28 centres together do not win; one with more does."""
    board = engine.load_map("youngstown_redux")
    centres = sorted(board.supply_centers)
    first, second = centres[:28], centres[28:56]
    tie = {**{c: "CHINA" for c in first}, **{c: "JAPAN" for c in second}}
    state = GameState(1910, Season.FALL, PhaseType.MOVEMENT, frozenset(), engine.Ownership(tie))
    assert engine.Game(map=board, state=state).adjudicate({})[0].current.status is GameStatus.ACTIVE
    ahead = {**tie, centres[56]: "CHINA"}
    state = GameState(1910, Season.FALL, PhaseType.MOVEMENT, frozenset(), engine.Ownership(ahead))
    after = engine.Game(map=board, state=state).adjudicate({})[0].current
    assert after.status is GameStatus.COMPLETED and after.winner == "CHINA"


# --- Fleet Rome ----------------------------------------------------------------------------------------


def test_fleet_rome_differs_from_classical_only_in_romes_unit() -> None:
    fleet_rome = engine.load_map("fleet_rome")
    assert fleet_rome.starting_units - CLASSICAL.starting_units == {Unit(F, "ITALY", Location("ROM"))}
    assert CLASSICAL.starting_units - fleet_rome.starting_units == {Unit(A, "ITALY", Location("ROM"))}
    assert engine.export_variant(fleet_rome)["edges"] == engine.export_variant(CLASSICAL)["edges"]
