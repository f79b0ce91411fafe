"""Legal-order menus (engine.legal): counts at the start, convoys, other phases.

Every menu order must pass ``validate`` unchanged (the one legality check), and
menus are sorted and free of duplicates.
"""

from __future__ import annotations

import pytest

from engine.game import initial_state
from engine.legal import legal_menus, legal_orders, powers_with_orders_to_give
from engine.maps.loader import load_map
from engine.types import (
    Build,
    Convoy,
    Disband,
    DislodgedUnit,
    GameState,
    GameStatus,
    Hold,
    Location,
    Move,
    Order,
    Ownership,
    PhaseType,
    Retreat,
    Season,
    SupportHold,
    SupportMove,
    Unit,
    UnitKind,
    Waive,
)
from engine.validation import validate

A, F = UnitKind.ARMY, UnitKind.FLEET
CLASSICAL = load_map("classical")


def L(text: str) -> Location:
    return Location.parse(text)


def movement(units: list[Unit]) -> GameState:
    return GameState(1901, Season.SPRING, PhaseType.MOVEMENT, frozenset(units))


def assert_menu_is_clean(state: GameState, power: str) -> list[Order]:
    menu = legal_orders(state, CLASSICAL, power)
    assert len(menu) == len(set(menu)), "duplicates in the menu"
    for order in menu:
        check = validate(order, state, CLASSICAL)
        assert check.ok, (order, check)
        assert check.order == order, "menus carry orders in their normalised form"
    assert menu == legal_orders(state, CLASSICAL, power), "menus are deterministic"
    return menu


# --- the 1901 start ------------------------------------------------------------------------------
#
# Hand count from the classical adjacency (army moves for armies, fleet moves
# for fleets; a move into a province held by one's own unit is legal). For each
# unit: 1 hold + its moves + one support-hold per unit standing where it can
# move + one support-move per (other unit, that unit's move) whose destination
# it can move to (its own province excluded). No fleet is at sea, so no convoy
# orders and no VIA moves.
#
# AUSTRIA 34
#   A BUD: H, moves GAL RUM SER TRI VIE (6); S-hold F TRI, A VIE (2); S-move
#          A VIE-GAL, A VIE-TRI, A WAR-GAL, F SEV-RUM, A VEN-TRI (5)          = 13
#   F TRI: H, moves ADR ALB VEN (4); S-hold A VEN (1); S-move A ROM-VEN (1)    = 6
#   A VIE: H, moves BOH BUD GAL TRI TYR (6); S-hold A BUD, F TRI (2); S-move
#          A MUN-BOH, A BUD-GAL, A WAR-GAL, A BUD-TRI, A VEN-TRI, A MUN-TYR,
#          A VEN-TYR (7)                                                        = 15
# ENGLAND 29
#   F EDI: H, moves CLY NTH NWG YOR (5); S-move A LVP-CLY, F LON-NTH,
#          F LON-YOR, A LVP-YOR (4)                                             = 9
#   F LON: H, moves ENG NTH WAL YOR (5); S-move F BRE-ENG, F EDI-NTH,
#          A LVP-WAL, F EDI-YOR, A LVP-YOR (5)                                  = 10
#   A LVP: H, moves CLY EDI WAL YOR (5); S-hold F EDI (1); S-move F EDI-CLY,
#          F LON-WAL, F EDI-YOR, F LON-YOR (4)                                  = 10
# FRANCE 30
#   F BRE: H, moves ENG GAS MAO PIC (5); S-move F LON-ENG, A PAR-GAS,
#          A MAR-GAS, A PAR-PIC (4)                                             = 9
#   A MAR: H, moves BUR GAS PIE SPA (5); S-move A PAR-BUR, A MUN-BUR,
#          A PAR-GAS, F BRE-GAS, A VEN-PIE (5)                                  = 10
#   A PAR: H, moves BRE BUR GAS PIC (5); S-hold F BRE (1); S-move A MAR-BUR,
#          A MUN-BUR, A MAR-GAS, F BRE-GAS, F BRE-PIC (5)                       = 11
# GERMANY 38
#   A BER: H, moves KIE MUN PRU SIL (5); S-hold F KIE, A MUN (2); S-move
#          A MUN-KIE, A WAR-PRU, A MUN-SIL, A WAR-SIL (4)                       = 11
#   F KIE: H, moves BAL BER DEN HEL HOL (6); S-hold A BER (1); S-move
#          A MUN-BER (1)                                                        = 8
#   A MUN: H, moves BER BOH BUR KIE RUH SIL TYR (8); S-hold A BER, F KIE (2);
#          S-move F KIE-BER, A VIE-BOH, A PAR-BUR, A MAR-BUR, A BER-KIE,
#          A BER-SIL, A WAR-SIL, A VIE-TYR, A VEN-TYR (9)                       = 19
# ITALY 38
#   F NAP: H, moves APU ION ROM TYS (5); S-hold A ROM (1); S-move A ROM-APU,
#          A VEN-APU, A VEN-ROM (3)                                             = 9
#   A ROM: H, moves APU NAP TUS VEN (5); S-hold F NAP, A VEN (2); S-move
#          F NAP-APU, A VEN-APU, A VEN-TUS, F TRI-VEN (4)                       = 11
#   A VEN: H, moves APU PIE ROM TRI TUS TYR (7); S-hold A ROM, F TRI (2);
#          S-move F NAP-APU, A ROM-APU, A MAR-PIE, F NAP-ROM, A BUD-TRI,
#          A VIE-TRI, A ROM-TUS, A VIE-TYR, A MUN-TYR (9)                       = 18
# RUSSIA 42
#   A MOS: H, moves LVN SEV STP UKR WAR (6); S-hold F SEV, F STP, A WAR (3);
#          S-move F STP-LVN, A WAR-LVN, A WAR-UKR (3)                           = 12
#   F SEV: H, moves ARM BLA RUM (4); S-move F ANK-ARM, A SMY-ARM, F ANK-BLA,
#          A BUD-RUM (4)                                                        = 8
#   F STP/SC: H, moves BOT FIN LVN (4); S-move A MOS-LVN, A WAR-LVN (2)         = 6
#   A WAR: H, moves GAL LVN MOS PRU SIL UKR (7); S-hold A MOS (1); S-move
#          A BUD-GAL, A VIE-GAL, A MOS-LVN, F STP-LVN, A BER-PRU, A BER-SIL,
#          A MUN-SIL, A MOS-UKR (8)                                             = 16
# TURKEY 27
#   F ANK: H, moves ARM BLA CON (4); S-hold A CON (1); S-move F SEV-ARM,
#          A SMY-ARM, F SEV-BLA, A SMY-CON (4)                                  = 9
#   A CON: H, moves ANK BUL SMY (4); S-hold F ANK, A SMY (2); S-move
#          A SMY-ANK (1)                                                        = 7
#   A SMY: H, moves ANK ARM CON SYR (5); S-hold F ANK, A CON (2); S-move
#          A CON-ANK, F SEV-ARM, F ANK-ARM, F ANK-CON (4)                       = 11

START_COUNTS = {
    "AUSTRIA": {"BUD": 13, "TRI": 6, "VIE": 15},
    "ENGLAND": {"EDI": 9, "LON": 10, "LVP": 10},
    "FRANCE": {"BRE": 9, "MAR": 10, "PAR": 11},
    "GERMANY": {"BER": 11, "KIE": 8, "MUN": 19},
    "ITALY": {"NAP": 9, "ROM": 11, "VEN": 18},
    "RUSSIA": {"MOS": 12, "SEV": 8, "STP": 6, "WAR": 16},
    "TURKEY": {"ANK": 9, "CON": 7, "SMY": 11},
}


@pytest.mark.parametrize("power", sorted(START_COUNTS))
def test_start_of_game_counts_per_power_and_unit(power: str) -> None:
    state = initial_state(CLASSICAL)
    menu = assert_menu_is_clean(state, power)
    per_unit: dict[str, int] = {}
    for order in menu:
        assert not isinstance(order, Build | Waive)
        per_unit[order.unit.province] = per_unit.get(order.unit.province, 0) + 1
    assert per_unit == START_COUNTS[power]
    assert len(menu) == sum(START_COUNTS[power].values())
    assert not any(isinstance(o, Convoy) or (isinstance(o, Move) and o.via_convoy) for o in menu)


def test_start_of_game_totals() -> None:
    state = initial_state(CLASSICAL)
    totals = {p: len(legal_orders(state, CLASSICAL, p)) for p in CLASSICAL.power_ids}
    assert totals == {
        "AUSTRIA": 34, "ENGLAND": 29, "FRANCE": 30, "GERMANY": 38, "ITALY": 38, "RUSSIA": 42, "TURKEY": 27,
    }


def test_start_of_game_details() -> None:
    state = initial_state(CLASSICAL)
    austria = legal_orders(state, CLASSICAL, "AUSTRIA")
    # A move into one's own unit's province is a legal order.
    assert Move("AUSTRIA", L("VIE"), L("BUD"), kind=A) in austria
    # Support of a foreign unit's move is offered.
    assert SupportMove("AUSTRIA", L("BUD"), L("SEV"), L("RUM"), A, F) in austria
    russia = legal_orders(state, CLASSICAL, "RUSSIA")
    assert Move("RUSSIA", L("STP/SC"), L("BOT"), kind=F) in russia
    # Menus belong to a power: no orders for other powers' units.
    assert {o.power for o in russia} == {"RUSSIA"}
    assert legal_orders(state, CLASSICAL, "NOBODY") == []


# --- convoys -------------------------------------------------------------------------------------


def test_army_convoy_moves_and_convoy_orders() -> None:
    """A LON with F NTH: VIA moves to every coast of the North Sea; YOR is also
    adjacent, so both the plain and the VIA move are offered."""
    state = movement([Unit(A, "ENGLAND", L("LON")), Unit(F, "ENGLAND", L("NTH"))])
    menu = assert_menu_is_clean(state, "ENGLAND")
    via = {o.dest.province for o in menu if isinstance(o, Move) and o.via_convoy}
    assert via == {"BEL", "DEN", "EDI", "HOL", "NWY", "YOR"}
    plain = {o.dest.province for o in menu if isinstance(o, Move) and not o.via_convoy
             and o.unit.province == "LON"}
    assert plain == {"WAL", "YOR"}
    convoys = {o.dest.province for o in menu if isinstance(o, Convoy)}
    assert convoys == via
    assert Convoy("ENGLAND", L("NTH"), L("LON"), L("BEL"), F, A) in menu
    # F NTH can support the convoyed army into the coasts it reaches itself.
    assert SupportMove("ENGLAND", L("NTH"), L("LON"), L("BEL"), F, A) in menu


def test_convoy_needs_a_chain_through_the_fleet() -> None:
    """F SKA, behind F NTH, can take part only in convoys whose route needs it.
    LON to BEL never passes SKA; LON to NWY or DEN could detour NTH-SKA-NWY, but
    NTH touches NWY and DEN itself, so SKA would be a detour and validate refuses
    it (DATC 6.G.19: a convoying fleet must be a necessary link of some route).
    Only LON to SWE needs SKA."""
    state = movement(
        [Unit(A, "ENGLAND", L("LON")), Unit(F, "ENGLAND", L("NTH")), Unit(F, "RUSSIA", L("SKA"))]
    )
    russia = assert_menu_is_clean(state, "RUSSIA")
    ska = {(o.origin.province, o.dest.province) for o in russia if isinstance(o, Convoy)}
    assert ska == {("LON", "SWE")}
    england = assert_menu_is_clean(state, "ENGLAND")
    nth = {o.dest.province for o in england if isinstance(o, Convoy)}
    assert nth == {"BEL", "DEN", "EDI", "HOL", "NWY", "SWE", "YOR"}
    # A fleet on a coast (not a convoy node) never convoys.
    coast = movement([Unit(A, "ENGLAND", L("LON")), Unit(F, "ENGLAND", L("YOR"))])
    assert not any(isinstance(o, Convoy) for o in legal_orders(coast, CLASSICAL, "ENGLAND"))


def test_support_of_a_convoyed_move() -> None:
    """F ENG may support A LON - BEL, a move only possible by convoy via F NTH."""
    state = movement(
        [Unit(A, "ENGLAND", L("LON")), Unit(F, "ENGLAND", L("NTH")), Unit(F, "FRANCE", L("ENG"))]
    )
    france = assert_menu_is_clean(state, "FRANCE")
    assert SupportMove("FRANCE", L("ENG"), L("LON"), L("BEL"), F, A) in france
    assert SupportHold("FRANCE", L("ENG"), L("LON"), F, A) in france


def test_fleet_moves_name_each_reachable_coast() -> None:
    state = movement([Unit(F, "FRANCE", L("MAO")), Unit(F, "FRANCE", L("GAS"))])
    menu = assert_menu_is_clean(state, "FRANCE")
    mao = {str(o.dest) for o in menu if isinstance(o, Move) and o.unit.province == "MAO"}
    assert {"SPA/NC", "SPA/SC"} <= mao
    gas = {str(o.dest) for o in menu if isinstance(o, Move) and o.unit.province == "GAS"}
    assert gas == {"BRE", "MAO", "SPA/NC"}
    # Support for a fleet's move keeps the coast it would reach.
    assert SupportMove("FRANCE", L("MAO"), L("GAS"), L("SPA/NC"), F, F) in menu


# --- retreat and adjustment phases ----------------------------------------------------------------


def test_retreat_menu() -> None:
    state = GameState(
        1901, Season.FALL, PhaseType.RETREAT,
        frozenset({Unit(A, "GERMANY", L("HOL"))}),
        dislodged=(DislodgedUnit(Unit(A, "ENGLAND", L("HOL")), "RUH", (L("BEL"), L("KIE"))),),
    )
    # HOL is occupied by the German winner; the English army is the dislodged one.
    assert assert_menu_is_clean(state, "ENGLAND") == [
        Retreat("ENGLAND", L("HOL"), L("BEL"), A),
        Retreat("ENGLAND", L("HOL"), L("KIE"), A),
        Disband("ENGLAND", L("HOL"), A),
    ]
    assert legal_orders(state, CLASSICAL, "GERMANY") == []
    assert powers_with_orders_to_give(state, CLASSICAL) == ("ENGLAND",)


def adjustment(units: list[Unit], owners: dict[str, str]) -> GameState:
    return GameState(1901, Season.WINTER, PhaseType.ADJUSTMENT, frozenset(units), Ownership(owners))


def test_build_menu() -> None:
    """Russia owns MOS, STP, WAR, SEV and has one unit (A WAR): builds at MOS (army
    only: inland), STP (army, or a fleet on either coast), SEV (army or fleet), plus WAIVE."""
    state = adjustment(
        [Unit(A, "RUSSIA", L("WAR"))], {"MOS": "RUSSIA", "STP": "RUSSIA", "WAR": "RUSSIA", "SEV": "RUSSIA"}
    )
    menu = assert_menu_is_clean(state, "RUSSIA")
    assert menu == [
        Build("RUSSIA", L("MOS"), A),
        Build("RUSSIA", L("SEV"), A),
        Build("RUSSIA", L("SEV"), F),
        Build("RUSSIA", L("STP"), A),
        Build("RUSSIA", L("STP/NC"), F),
        Build("RUSSIA", L("STP/SC"), F),
        Waive("RUSSIA"),
    ]


def test_removal_menu_and_nothing_to_do() -> None:
    state = adjustment(
        [Unit(A, "FRANCE", L("PAR")), Unit(F, "FRANCE", L("BRE")), Unit(A, "GERMANY", L("MUN"))],
        {"PAR": "FRANCE", "MUN": "GERMANY"},
    )
    assert assert_menu_is_clean(state, "FRANCE") == [
        Disband("FRANCE", L("BRE"), F), Disband("FRANCE", L("PAR"), A)
    ]
    assert legal_orders(state, CLASSICAL, "GERMANY") == []  # balance 0
    assert legal_orders(state, CLASSICAL, "ITALY") == []  # no units, no centres


# --- powers_with_orders_to_give ----------------------------------------------------------------


def test_powers_with_orders_to_give_movement() -> None:
    state = initial_state(CLASSICAL)
    assert powers_with_orders_to_give(state, CLASSICAL) == CLASSICAL.power_ids
    only_two = movement([Unit(A, "ITALY", L("ROM")), Unit(F, "ENGLAND", L("NTH"))])
    assert powers_with_orders_to_give(only_two, CLASSICAL) == ("ENGLAND", "ITALY")


def test_powers_with_orders_to_give_adjustment() -> None:
    """FRANCE must remove (waited on). GERMANY is owed a build but every home centre
    is occupied (not waited on: it could only waive). RUSSIA is owed a build and
    has a vacant home centre (waited on). ITALY is even (not waited on)."""
    state = adjustment(
        [
            Unit(A, "FRANCE", L("PAR")), Unit(A, "FRANCE", L("PIC")),
            Unit(A, "GERMANY", L("BER")), Unit(A, "GERMANY", L("MUN")), Unit(F, "GERMANY", L("KIE")),
            Unit(A, "RUSSIA", L("WAR")),
            Unit(A, "ITALY", L("ROM")),
        ],
        {"PAR": "FRANCE", "BER": "GERMANY", "MUN": "GERMANY", "KIE": "GERMANY", "DEN": "GERMANY",
         "WAR": "RUSSIA", "MOS": "RUSSIA", "ROM": "ITALY"},
    )
    assert powers_with_orders_to_give(state, CLASSICAL) == ("FRANCE", "RUSSIA")
    assert legal_orders(state, CLASSICAL, "GERMANY") == [Waive("GERMANY")]


def test_finished_game_has_no_menus() -> None:
    state = GameState(
        1910, Season.SPRING, PhaseType.MOVEMENT, initial_state(CLASSICAL).units,
        status=GameStatus.COMPLETED,
    )
    assert powers_with_orders_to_give(state, CLASSICAL) == ()
    assert legal_orders(state, CLASSICAL, "FRANCE") == []


def test_hold_is_first_for_each_unit() -> None:
    menu = legal_orders(initial_state(CLASSICAL), CLASSICAL, "ENGLAND")
    assert menu[0] == Hold("ENGLAND", L("EDI"), F)


# --- several menus from one request ----------------------------------------------------------------


def test_menus_asked_together_are_the_menus_asked_one_by_one() -> None:
    """``legal_menus`` shares the position's work between the powers asked (the sandbox asks
    for several): sharing must not change a menu. Random-game positions of every phase."""
    from bench.random_play import play_game

    seen = set()
    for phase in play_game(CLASSICAL, 7, max_phases=24):
        state = phase.state
        seen.add(state.phase_type)
        together = legal_menus(state, CLASSICAL, [*CLASSICAL.power_ids, "NOBODY"])
        assert list(together) == sorted(CLASSICAL.power_ids), "one menu per power of the map"
        for power, menu in together.items():
            assert menu == legal_orders(state, CLASSICAL, power), (state.phase_name, power)
        pair = ["TURKEY", "AUSTRIA"]
        assert legal_menus(state, CLASSICAL, pair) == {p: together[p] for p in sorted(pair)}
    assert seen == set(PhaseType), "movement, retreat and adjustment positions were compared"


def test_menus_of_a_finished_game_are_empty() -> None:
    state = GameState(1910, Season.SPRING, PhaseType.MOVEMENT, initial_state(CLASSICAL).units,
                      status=GameStatus.COMPLETED)
    assert legal_menus(state, CLASSICAL, ["FRANCE", "NOBODY"]) == {"FRANCE": []}
