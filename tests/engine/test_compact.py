"""The compact notation: engine.notation.compact.

Source: shared/seeds/compact-notation.txt (the "Ruby Adjudicator" file format);
its examples are used verbatim below. Round trips follow ARCHITECTURE §2
("both parse and format round-trip").
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import initial_state, load_map
from engine.notation.compact import (
    format_compact_order,
    format_compact_state,
    parse_compact_order,
    parse_compact_state,
)
from engine.notation.standard import OrderSyntaxError, format_order, parse_order
from engine.types import (
    Build,
    Convoy,
    Disband,
    DislodgedUnit,
    GameState,
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
from tests.engine.strategies import compact_orders, states

A, F = UnitKind.ARMY, UnitKind.FLEET
L = Location
P = "ENGLAND"

# compact-notation seed, "Diplomacy orders": every example, with the order it means
SEED_ORDERS: list[tuple[str, Order, str]] = [
    ("ASwe-Nor", Move(P, L("SWE"), L("NWY"), False, A), "A SWE - NWY"),
    ("FSpa(sc)-Mar", Move(P, L("SPA", "SC"), L("MAR"), False, F), "F SPA/SC - MAR"),
    ("ALon-Bel", Move(P, L("LON"), L("BEL"), False, A), "A LON - BEL"),
    ("FSkaSASwe-Nor", SupportMove(P, L("SKA"), L("SWE"), L("NWY"), F, A), "F SKA S A SWE - NWY"),
    ("APorSFMAO-Spa(sc)", SupportMove(P, L("POR"), L("MAO"), L("SPA", "SC"), A, F), "A POR S F MAO - SPA/SC"),
    ("FHolSALon-Bel", SupportMove(P, L("HOL"), L("LON"), L("BEL"), F, A), "F HOL S A LON - BEL"),
    ("FDenH", Hold(P, L("DEN"), F), "F DEN H"),
    ("ANAfH", Hold(P, L("NAF"), A), "A NAF H"),
    ("FConH", Hold(P, L("CON"), F), "F CON H"),
    ("AKieSFDenH", SupportHold(P, L("KIE"), L("DEN"), A, F), "A KIE S F DEN"),
    ("FTunSANAfH", SupportHold(P, L("TUN"), L("NAF"), F, A), "F TUN S A NAF"),
    ("FGreSFConH", SupportHold(P, L("GRE"), L("CON"), F, F), "F GRE S F CON"),
    ("FEngCALon-Bel", Convoy(P, L("ENG"), L("LON"), L("BEL"), F, A), "F ENG C A LON - BEL"),
    ("FMAOCASyr-StP", Convoy(P, L("MAO"), L("SYR"), L("STP"), F, A), "F MAO C A SYR - STP"),
    ("ABudB", Build(P, L("BUD"), A), "BUILD A BUD"),
    ("FTriB", Build(P, L("TRI"), F), "BUILD F TRI"),
    ("ANAfD", Disband(P, L("NAF"), A), "A NAF D"),
    ("ASwe*Nor", Retreat(P, L("SWE"), L("NWY"), A), "A SWE R NWY"),
    ("FSpa(sc)*Mar", Retreat(P, L("SPA", "SC"), L("MAR"), F), "F SPA/SC R MAR"),
    ("ALon*Bel", Retreat(P, L("LON"), L("BEL"), A), "A LON R BEL"),
]


@pytest.mark.parametrize(("text", "order", "standard"), SEED_ORDERS)
def test_seed_order_examples(text: str, order: Order, standard: str) -> None:
    """compact-notation seed: each example order parses to its meaning (and its standard text)."""
    assert parse_compact_order(text, "england") == order
    assert format_order(order) == standard


@pytest.mark.parametrize(("text", "order", "standard"), SEED_ORDERS)
def test_seed_orders_round_trip_through_standard(text: str, order: Order, standard: str) -> None:
    """ARCHITECTURE §2 / compact seed: compact -> order -> standard -> order -> compact."""
    first = parse_compact_order(text, P)
    compact = format_compact_order(first)
    again = parse_order(format_order(first), power=P)
    assert again == first
    assert format_compact_order(again) == compact
    assert parse_compact_order(compact, P) == first


def test_compact_order_format_is_title_case_ids() -> None:
    """Brief: compact provinces are written id.title(); coasts as (sc); input in any case."""
    assert format_compact_order(parse_compact_order("FSKASASWE-NWY", P)) == "FSkaSASwe-Nwy"
    assert format_compact_order(parse_compact_order("fspa(SC)-mar", P)) == "FSpa(sc)-Mar"
    assert parse_compact_order("FStp/nc-Bar", P) == Move(P, L("STP", "NC"), L("BAR"), False, F)


@pytest.mark.parametrize(
    "order",
    [
        Move(P, L("LON"), L("BEL"), True, A),
        Waive(P),
        Hold(P, L("PAR"), None),
        SupportHold(P, L("BRE"), L("PAR"), F, None),
    ],
)
def test_orders_without_a_compact_form_raise_value_error(order: Order) -> None:
    """Module contract: via-convoy, Waive and letter-less orders have no compact form."""
    with pytest.raises(ValueError):
        format_compact_order(order)


@pytest.mark.parametrize(
    ("text", "position"),
    [("", 0), ("XPar-Bur", 0), ("APar-", 0), ("FSpa(ec)-Mar", 1), ("APar-Bur-Mar", 0), ("APar H", 0)],
)
def test_bad_compact_orders(text: str, position: int) -> None:
    """compact seed grammar: anything else raises OrderSyntaxError with a position."""
    with pytest.raises(OrderSyntaxError) as err:
        parse_compact_order(text, P)
    assert err.value.position == position


# --- states ----------------------------------------------------------------------------------


def test_seed_france_starting_position() -> None:
    """compact-notation seed, "France's starting position"."""
    state = parse_compact_state("France:APar,FBre,AMar|Par,Bre,Mar,Gas,Pic,Bur")
    assert state.units == frozenset(
        {Unit(A, "FRANCE", L("PAR")), Unit(F, "FRANCE", L("BRE")), Unit(A, "FRANCE", L("MAR"))}
    )
    assert state.ownership == Ownership({p: "FRANCE" for p in ("PAR", "BRE", "MAR", "GAS", "PIC", "BUR")})
    assert state.phase_name == "S1901M"
    assert format_compact_state(state) == "France:AMar,APar,FBre|Bre,Bur,Gas,Mar,Par,Pic"


def test_seed_italy_and_austria() -> None:
    """compact-notation seed, "I'm sorry Austria": Tyrolia is Italian-occupied, Austrian-owned."""
    state = parse_compact_state(
        "Italy:ATyr,AVen,FIon|Ven,Apu,Tus,Pie,Rom,Nap Austria:FAlb,ASer,ABud|Bud,Boh,Gal,Vie,Tri,Tyr"
    )
    assert state.unit_at("TYR") == Unit(A, "ITALY", L("TYR"))
    assert state.ownership["TYR"] == "AUSTRIA"
    assert len(state.units) == 6
    assert state.centers_of("ITALY") == ("APU", "NAP", "PIE", "ROM", "TUS", "VEN")


def test_seed_russia_has_no_units() -> None:
    """compact-notation seed, "Russia has no units"."""
    state = parse_compact_state("Russia:|War,Mos,Sev")
    assert state.units == frozenset()
    assert state.centers_of("RUSSIA") == ("MOS", "SEV", "WAR")
    assert format_compact_state(state) == "Russia:|Mos,Sev,War"


def test_seed_dislodgement() -> None:
    """compact-notation seed, "England dislodged France in Belgium": ``*Lon`` is the attacker's origin."""
    state = parse_compact_state("England:ABel,FNth,FEng|Bel France:ABel*Lon")
    assert state.dislodged == (DislodgedUnit(Unit(A, "FRANCE", L("BEL")), "LON", ()),)
    assert state.unit_at("BEL") == Unit(A, "ENGLAND", L("BEL"))
    assert state.phase_type is PhaseType.RETREAT
    assert format_compact_state(state) == "England:ABel,FEng,FNth|Bel France:ABel*Lon"


def test_convoyed_dislodgement_and_phase_arguments() -> None:
    """Module extension: a bare ``*`` is a dislodgement by convoy (no origin); the phase is given."""
    state = parse_compact_state("France:ABel*", year=1905, season="FALL", phase_type="RETREAT")
    assert state.phase_name == "F1905R"
    assert state.dislodged == (DislodgedUnit(Unit(A, "FRANCE", L("BEL"))),)
    assert format_compact_state(state) == "France:ABel*"


def test_initial_state_formats_every_power() -> None:
    """compact seed: the Classical start, power names title case, fleets with coasts as (sc)."""
    text = format_compact_state(initial_state(load_map("classical")))
    assert "France:AMar,APar,FBre|Bre,Mar,Par" in text.split()
    assert "Russia:AMos,AWar,FSev,FStp(sc)|Mos,Sev,Stp,War" in text.split()
    assert parse_compact_state(text) == initial_state(load_map("classical"))


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("France APar", 0),
        ("Narnia:APar", 0),
        ("France:APar,Xyz", 12),
        ("France:ASpa(sc)", 7),
        ("France:APar|Par,Nowhere", 16),
        ("France:APar England:APar", 0),
    ],
)
def test_bad_compact_states(text: str, position: int) -> None:
    """compact seed: text that breaks its rules is "scoffed and ignored": OrderSyntaxError with a position."""
    with pytest.raises(OrderSyntaxError) as err:
        parse_compact_state(text)
    assert err.value.position == position


def test_power_names_any_case() -> None:
    """Brief: powers are read in any case (and by their full map name)."""
    assert parse_compact_state("FRANCE:APar").units == parse_compact_state("france:APar").units
    assert parse_compact_state("Austria-Hungary:AVie").unit_at("VIE") == Unit(A, "AUSTRIA", L("VIE"))


# --- properties ------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(compact_orders)
def test_compact_order_round_trip(order: Order) -> None:
    """ARCHITECTURE §2: compact format -> parse is exact, and passes through the standard text unchanged."""
    text = format_compact_order(order)
    assert parse_compact_order(text, order.power) == order
    assert format_compact_order(parse_order(format_order(order), power=order.power)) == text


@settings(max_examples=200, deadline=None)
@given(states(compact=True))
def test_compact_state_round_trip(state: GameState) -> None:
    """ARCHITECTURE §2: format_compact_state -> parse_compact_state gives the same state back."""
    text = format_compact_state(state)
    again = parse_compact_state(text, year=state.year, season=state.season, phase_type=state.phase_type)
    assert again == state


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30) | st.text(alphabet="AFSCHBD*-()/|:,ParBurSpascNor ", max_size=30))
def test_compact_parsers_only_raise_order_syntax_error(text: str) -> None:
    """Brief: parse errors raise OrderSyntaxError, never anything else."""
    for parse in (lambda: parse_compact_order(text, P), lambda: parse_compact_state(text)):
        try:
            parse()
        except OrderSyntaxError as exc:
            assert 0 <= exc.position <= len(text)


def test_season_argument_accepts_enum() -> None:
    """Brief: year, season and phase type are given to parse_compact_state, not read from the text."""
    state = parse_compact_state("", year=1910, season=Season.WINTER, phase_type=PhaseType.ADJUSTMENT)
    assert state == GameState(1910, Season.WINTER, PhaseType.ADJUSTMENT)
