"""The standard order text: engine.notation.standard (parse_order / format_order).

Sources: the order grammar of shared/ARCHITECTURE.md §2, the DATC test-file
conventions of shared/datc/FORMAT.md (missing unit letters, ``via convoy``,
``Build``/``Remove``), and the brief's accepted spellings (names, aliases, coasts).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import initial_state, load_map
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
    PhaseType,
    Retreat,
    Season,
    SupportHold,
    SupportMove,
    Unit,
    UnitKind,
    Waive,
)
from tests.engine.strategies import orders

A, F = UnitKind.ARMY, UnitKind.FLEET
FR = "FRANCE"
L = Location
CLASSICAL = load_map("classical")
DATC_DIR = Path(__file__).parent / "datc"

# text -> the order it means (power FRANCE), ARCHITECTURE §2 grammar and its spellings
GRAMMAR_EXAMPLES: list[tuple[str, Order]] = [
    ("A PAR H", Hold(FR, L("PAR"), A)),
    ("A PAR HOLD", Hold(FR, L("PAR"), A)),
    ("A PAR - BUR", Move(FR, L("PAR"), L("BUR"), False, A)),
    ("a par -> bur", Move(FR, L("PAR"), L("BUR"), False, A)),
    ("A PAR TO BUR", Move(FR, L("PAR"), L("BUR"), False, A)),
    ("A PAR-BUR", Move(FR, L("PAR"), L("BUR"), False, A)),
    ("A LON - BEL VIA", Move(FR, L("LON"), L("BEL"), True, A)),
    ("A lon - bel via convoy", Move(FR, L("LON"), L("BEL"), True, A)),
    ("F BRE S A PAR", SupportHold(FR, L("BRE"), L("PAR"), F, A)),
    ("F BRE S A PAR H", SupportHold(FR, L("BRE"), L("PAR"), F, A)),
    ("F BRE SUPPORTS A PAR HOLD", SupportHold(FR, L("BRE"), L("PAR"), F, A)),
    ("F BRE S A PIC - BEL", SupportMove(FR, L("BRE"), L("PIC"), L("BEL"), F, A)),
    ("F BRE SUPPORT A PIC TO BEL", SupportMove(FR, L("BRE"), L("PIC"), L("BEL"), F, A)),
    ("F NTH C A LON - BEL", Convoy(FR, L("NTH"), L("LON"), L("BEL"), F, A)),
    ("F NTH CONVOYS A LON -> BEL", Convoy(FR, L("NTH"), L("LON"), L("BEL"), F, A)),
    ("A PAR R BUR", Retreat(FR, L("PAR"), L("BUR"), A)),
    ("A PAR D", Disband(FR, L("PAR"), A)),
    ("DISBAND A PAR", Disband(FR, L("PAR"), A)),
    ("Remove A PAR", Disband(FR, L("PAR"), A)),
    ("BUILD A PAR", Build(FR, L("PAR"), A)),
    ("A PAR B", Build(FR, L("PAR"), A)),
    ("build f stp/nc", Build(FR, L("STP", "NC"), F)),
    ("WAIVE", Waive(FR)),
    ("waive", Waive(FR)),
    # DATC 6.D.34 and 6.F.25: the supported / convoyed unit has no letter
    ("A pru S lvn - pru", SupportMove(FR, L("PRU"), L("LVN"), L("PRU"), A, None)),
    ("F ska C den - nwy", Convoy(FR, L("SKA"), L("DEN"), L("NWY"), F, None)),
    # the ordered unit without a letter
    ("PAR - BUR", Move(FR, L("PAR"), L("BUR"), False, None)),
    ("BRE S PAR", SupportHold(FR, L("BRE"), L("PAR"), None, None)),
    # after S/C only exactly A or F is a unit letter: ANK is a province
    ("F BLA S ANK", SupportHold(FR, L("BLA"), L("ANK"), F, None)),
    ("F BLA S A ANK", SupportHold(FR, L("BLA"), L("ANK"), F, A)),
    # DATC 4.B.6 (6.B.12): a coast written for an army is kept for validation to judge
    ("A gas - spa/nc", Move(FR, L("GAS"), L("SPA", "NC"), False, A)),
]


@pytest.mark.parametrize(("text", "expected"), GRAMMAR_EXAMPLES)
def test_grammar_examples(text: str, expected: Order) -> None:
    """ARCHITECTURE §2 grammar and its accepted spellings parse to the expected order."""
    assert parse_order(text, power="france") == expected


CANONICAL = [
    "A PAR H", "A PAR - BUR", "F MAO - SPA/NC", "A LON - BEL VIA", "F BRE S A PAR",
    "F BRE S A PIC - BEL", "F NTH C A LON - BEL", "A PAR R BUR", "A PAR D", "BUILD A PAR", "WAIVE",
    "PAR - BUR", "F BRE S PAR", "A PRU S LVN - PRU", "BUILD F STP/SC",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_is_a_fixed_point(text: str) -> None:
    """ARCHITECTURE §2: format_order writes the canonical form the grammar lists."""
    assert format_order(parse_order(text, power=FR)) == text


@pytest.mark.parametrize(
    "name",
    ["MAO", "mao", "MID", "Mid-Atlantic Ocean", "mid-atlantic ocean", "MID-ATLANTIC OCEAN", "midatlantic"],
)
def test_names_and_aliases_resolve(name: str) -> None:
    """Brief: full names and aliases (Mid-Atlantic Ocean, MID, MAO) all mean MAO."""
    assert parse_order(f"F {name} - Spain/nc", power=FR) == Move(FR, L("MAO"), L("SPA", "NC"), False, F)
    support = parse_order(f"F POR S F {name} H", power=FR)
    assert isinstance(support, SupportHold) and support.target == L("MAO")


@pytest.mark.parametrize(
    "text", ["St Petersburg", "st. petersburg", "STP", "St.Petersburg", "stpete"]
)
def test_multi_word_names(text: str) -> None:
    """Brief: names may contain spaces and dots; the longest run of words that resolves wins."""
    assert parse_order(f"A Moscow - {text}", power="russia") == Move("RUSSIA", L("MOS"), L("STP"), False, A)
    assert parse_order(f"F {text} (sc) H", power="russia") == Hold("RUSSIA", L("STP", "SC"), F)


@pytest.mark.parametrize(
    "coast",
    ["SPA/SC", "SPA(SC)", "SPA (SC)", "SPA SC", "spa/sc", "spa (sc)", "Spain south coast", "SPA / SC"],
)
def test_coast_spellings(coast: str) -> None:
    """Brief: coasts as SPA/SC, SPA(SC), SPA SC, spa/sc, (sc)."""
    into, out_of = parse_order(f"F MAO - {coast}", power=FR), parse_order(f"F {coast} - MAO", power=FR)
    assert isinstance(into, Move) and into.dest == L("SPA", "SC")
    assert isinstance(out_of, Move) and out_of.unit == L("SPA", "SC")


def test_power_from_state() -> None:
    """Brief: without a power, the owner of the ordered unit in the state gives the order."""
    state = initial_state(CLASSICAL)
    assert parse_order("A PAR - BUR", state=state).power == FR
    assert parse_order("F ank - bla", state=state).power == "TURKEY"
    assert parse_order("BUILD A PAR", state=state).power == FR  # builds: the centre's owner
    with pytest.raises(OrderSyntaxError) as err:
        parse_order("A BUR - PAR", state=state)
    assert err.value.position == 2
    with pytest.raises(OrderSyntaxError):
        parse_order("A PAR - BUR")
    with pytest.raises(OrderSyntaxError):
        parse_order("WAIVE", state=state)


def _retreat_state() -> GameState:
    return GameState(
        1901, Season.SPRING, PhaseType.RETREAT,
        units=frozenset({Unit(A, "GERMANY", L("BUR"))}),
        dislodged=(DislodgedUnit(Unit(A, FR, L("BUR")), "MUN", (L("PAR"), L("GAS"))),),
    )


def test_retreat_phase_reads_dash_as_retreat() -> None:
    """DATC FORMAT.md: the retreat cases write retreats with '-'; the dislodged unit's owner orders."""
    state = _retreat_state()
    assert parse_order("A BUR - PAR", state=state) == Retreat(FR, L("BUR"), L("PAR"), A)
    assert parse_order("A BUR R GAS", state=state) == Retreat(FR, L("BUR"), L("GAS"), A)
    assert parse_order("A BUR D", state=state) == Disband(FR, L("BUR"), A)
    with pytest.raises(OrderSyntaxError):
        parse_order("A BUR - PAR VIA", state=state)


def test_default_map_and_other_maps() -> None:
    """Brief: map=None means Classical; other maps resolve their own provinces."""
    with pytest.raises(OrderSyntaxError):
        parse_order("A ALS - BUR", power=FR)
    m1900 = load_map("1900")
    assert parse_order("A Alsace - BUR", power=FR, map=m1900) == Move(FR, L("ALS"), L("BUR"), False, A)
    west = parse_order("F MAO - SPA/WC", power=FR, map=m1900)
    assert isinstance(west, Move) and west.dest == L("SPA", "WC")


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("", 0, "empty"),
        ("   ", 0, "empty"),
        ("A PARS - BUR", 2, "unknown province 'PARS'"),
        ("A PAR - BURG X", 13, "'X'"),
        ("A PAR - BUR VIA CONVOY NOW", 23, "'NOW'"),
        ("F SPA/XC H", 6, "unknown coast"),
        ("F SPA/EC H", 6, "unknown coast 'SPA/EC'"),
        ("F PAR(NC) H", 6, "PAR has no coasts"),
        ("F SPA(NC H", 9, "')'"),
        ("A PAR", 5, "expected an order"),
        ("A PAR Q", 6, "expected an order"),
        ("BUILD PAR", 6, "unit type"),
        ("PAR B", 0, "unit type"),
        ("F BRE S A PAR X", 14, "'-' or H"),
        ("F NTH C A LON H", 14, "'-'"),
        ("A PAR - ", 8, "destination"),
        ("A PAR ; H", 6, "unexpected character ';'"),
    ],
)
def test_errors_name_the_position(text: str, position: int, fragment: str) -> None:
    """Brief: unknown provinces/coasts, trailing junk, empty text raise OrderSyntaxError with a position."""
    with pytest.raises(OrderSyntaxError) as err:
        parse_order(text, power=FR)
    assert err.value.position == position
    assert fragment in err.value.message
    assert str(err.value) == err.value.message
    assert isinstance(err.value, ValueError)


def _datc_orders() -> list[tuple[str, str]]:
    found = []
    for path in sorted(DATC_DIR.glob("datc_*.txt")):
        block = ""
        for line in path.read_text(encoding="utf-8").splitlines():
            text = line.split("#")[0].strip()
            if not text:
                continue
            if re.fullmatch(r"[A-Z_]+", text) or text.startswith(("CASE", "END")):
                block = text
            elif block in ("ORDERS", "PRESTATE_RESULTS"):
                power, _, order = re.sub(r"^(SUCCESS|FAILURE):\s*", "", text).partition(":")
                found.append((power, order.strip()))
    return found


@pytest.mark.skipif(not DATC_DIR.is_dir(), reason="DATC data files not present")
def test_every_datc_order_parses_and_round_trips() -> None:
    """shared/datc/FORMAT.md: every order line of the DATC files parses, and format→parse is exact."""
    lines = _datc_orders()
    assert len(lines) > 500
    for power, text in lines:
        order = parse_order(text, power=power)
        assert parse_order(format_order(order), power=order.power) == order, text


# --- properties ------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(orders)
def test_format_then_parse_is_exact(order: Order) -> None:
    """Brief: parse(format(o)) == o exactly, for every order class, kinds present or missing."""
    text = format_order(order)
    assert parse_order(text, power=order.power) == order
    assert text == text.upper()


GRAMMAR_TOKENS = [
    "A", "F", "a", "f", "PAR", "BUR", "SPA", "stp", "Mid-Atlantic", "Ocean", "St", "Petersburg", "North",
    "Africa", "-", "->", "TO", "H", "HOLD", "S", "SUPPORT", "C", "CONVOY", "VIA", "R", "D", "B", "BUILD",
    "DISBAND", "REMOVE", "WAIVE", "/", "(", ")", "SC", "NC", "EC", "sc", "south", "coast", "*", ":", ".",
    "", " ", "\t", "é", "0",
]
token_soup = st.lists(st.sampled_from(GRAMMAR_TOKENS), max_size=9)
garbage = st.one_of(
    st.text(max_size=40),
    token_soup.map(" ".join),
    token_soup.map("".join),
    st.lists(st.sampled_from(["F", "MAO", "-", "SPA", "/", "SC", "(", ")", " "]), max_size=10).map("".join),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(garbage, st.sampled_from([None, "FRANCE"]), st.sampled_from(["none", "initial", "retreat"]))
def test_parse_never_raises_anything_but_order_syntax_error(text: str, power: str | None, which: str) -> None:
    """Brief: for any str input, parse_order yields an order or raises OrderSyntaxError, nothing else."""
    state = {"none": None, "initial": initial_state(CLASSICAL), "retreat": _retreat_state()}[which]
    try:
        order = parse_order(text, power=power, state=state)
    except OrderSyntaxError as exc:
        assert 0 <= exc.position <= len(text)
        assert exc.message
    else:
        assert parse_order(format_order(order), power=order.power, state=state) == order


plain_text = st.one_of(
    token_soup.map(" ".join),
    st.text(alphabet="AFPRBUS-. \t'_0", max_size=30),
)


@settings(max_examples=300, deadline=None)
@given(plain_text)
def test_a_plain_order_reads_as_the_tokenizer_cuts_it(text: str) -> None:
    """The parser reads a plain order (words and spaced hyphens) from its upper-case chunks and
    makes the token offsets only when asked: the two readings must give the same tokens, or
    an error would point at the wrong place (this issue 17 speed-up keeps one tokenizer)."""
    from engine.notation.standard import KIND, UPPER, _Parser, _tokenize

    try:
        tokens = _tokenize(text)
    except OrderSyntaxError:
        return  # not a text any reading accepts
    parser = _Parser(text, CLASSICAL)
    assert parser.kinds == [t[KIND] for t in tokens]
    assert parser.words[:parser.n] == [t[UPPER] if t[KIND] == "word" else None for t in tokens]
    assert parser.tokens == tokens
