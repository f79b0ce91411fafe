"""The bridge's pure protocol code (issue 19): token tables, the three message forms, framing,
and the order grammar, with hypothesis round trips and "no input crashes it".

Sources: "The Diplomacy AIJudge Client-Server Protocol" v1 r13 (chapter 3 framing, chapter 4
token values) and "DAIDE Message Syntax" (orders, units, turns), cited in daide_bridge/README.md.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from daide_bridge import grammar, tokens, wire
from daide_bridge.board import map_definition
from daide_bridge.messages import (
    DaideSyntaxError,
    Message,
    Node,
    Text,
    decode,
    decode_values,
    encode,
    format_message,
    from_values,
    parse_message,
    to_values,
)
from tests.daide.trees import group

NAMES = sorted(n for n in tokens.VALUES if n not in ("BRA", "KET"))
TEXTS = st.text(
    alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E, exclude_characters="'"),
    min_size=1,
    max_size=8,
).map(Text)
ATOMS = st.sampled_from(NAMES) | st.integers(-8192, 8191) | TEXTS


def _no_touching_texts(nodes: list[Node]) -> bool:
    return not any(
        isinstance(a, Text) and isinstance(b, Text) for a, b in zip(nodes, nodes[1:], strict=False)
    )


def _groups(children: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
    return st.lists(children, max_size=5).filter(_no_touching_texts).map(tuple)


NODES = st.recursive(ATOMS, _groups, max_leaves=25)
MESSAGES = st.lists(NODES, min_size=1, max_size=6).filter(_no_touching_texts).map(tuple)


# --- tokens (Client-Server Protocol ch. 4) ------------------------------------------------------


def test_token_values_are_those_of_the_protocol_document() -> None:
    assert tokens.VALUES["BRA"] == 0x4000 and tokens.VALUES["KET"] == 0x4001
    assert tokens.VALUES["FRA"] == 0x4102 and tokens.VALUES["FLT"] == 0x4201
    assert tokens.VALUES["MTO"] == 0x4323 and tokens.VALUES["WVE"] == 0x4382
    assert (
        tokens.VALUES["NME"] == 0x480C and tokens.VALUES["YES"] == 0x481C and tokens.VALUES["ADM"] == 0x481D
    )
    assert tokens.VALUES["SMR"] == 0x481E  # added after revision 13 (DAIDE Message Syntax)
    assert tokens.VALUES["UNO"] == 0x490B and tokens.VALUES["DSD"] == 0x490D
    assert tokens.VALUES["SCS"] == 0x4608 and tokens.VALUES["NWC"] == 0x460E
    assert tokens.VALUES["BOH"] == 0x5000 and tokens.VALUES["STP"] == 0x574A  # 4.16: 0..74
    assert len(set(tokens.VALUES.values())) == len(tokens.VALUES)


def test_press_tokens_are_those_of_the_message_syntax_document() -> None:
    # "DAIDE Message Syntax" (David Norman, dpp_syntax) as DAIDE software sends it (Norman's AI
    # Client, MILA's diplomacy 1.1.2): FCT FOR FWD in that order, 0x4A22 is CHO, then BCC, UNT;
    # revision 13 of the protocol had FWD FCT FOR, IOU, PPT, UOM and WRT at 0x4A22
    assert (tokens.VALUES["FCT"], tokens.VALUES["FOR"], tokens.VALUES["FWD"]) == (0x4A06, 0x4A07, 0x4A08)
    assert (tokens.VALUES["CHO"], tokens.VALUES["BCC"], tokens.VALUES["UNT"]) == (0x4A22, 0x4A23, 0x4A24)
    assert tokens.NAMES[0x4A22] == "CHO" and tokens.VALUES["YDO"] == 0x4A21 and tokens.VALUES["VSS"] == 0x4A1C
    assert not {"IOU", "PPT", "UOM", "WRT"} & set(tokens.VALUES)
    assert from_values((0x4A22, 0x4000, 0x0001, 0x0001, 0x4001)) == ("CHO", (1, 1))


def test_provinces_number_0_to_74_and_say_whether_they_are_centres() -> None:
    assert [tokens.VALUES[p] & 0xFF for p in tokens.PROVINCES] == list(range(75))
    assert (
        tokens.is_supply_centre("PAR")
        and tokens.is_supply_centre("STP")
        and not tokens.is_supply_centre("BUR")
    )
    classical = engine.load_map("classical")
    assert {grammar.daide_province(c) for c in classical.supply_centers} == {
        p for p in tokens.PROVINCES if tokens.is_supply_centre(p)
    }
    assert {grammar.daide_province(p) for p in classical.provinces} == set(tokens.PROVINCES)


@given(st.integers(-8192, 8191))
def test_integers_are_14_bit_twos_complement(number: int) -> None:
    value = tokens.integer_token(number)
    assert tokens.is_integer(value) and tokens.integer_value(value) == number


def test_integers_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError):
        tokens.integer_token(8192)


# --- messages: trees <-> values <-> bytes <-> text ----------------------------------------------


@given(MESSAGES)
def test_messages_round_trip_through_tokens_bytes_and_text(message: Message) -> None:
    assert from_values(to_values(message)) == message
    assert decode(encode(message)) == message
    assert parse_message(format_message(message)) == message


def test_the_documents_example_reads_as_written() -> None:
    message = parse_message("NME ('Convoy bot') ('1.0')")
    assert message == ("NME", (Text("Convoy bot"),), (Text("1.0"),))
    assert encode(message)[:4] == bytes([0x48, 0x0C, 0x40, 0x00])
    assert parse_message("sub ((fra amy par) mto bur)") == (
        "SUB",
        ((("FRA", "AMY", "PAR"), "MTO", "BUR")),
    )


@settings(max_examples=300)
@given(st.binary(max_size=64))
def test_no_bytes_crash_the_decoder(data: bytes) -> None:
    try:
        message = decode(data)
    except DaideSyntaxError:
        return
    assert decode(encode(message)) == message


@settings(max_examples=300)
@given(st.text(alphabet="()' ABCFMNORTUXYZ0123456789-\n", max_size=40))
def test_no_text_crashes_the_reader(text: str) -> None:
    try:
        message = parse_message(text)
    except DaideSyntaxError:
        return
    assert parse_message(format_message(message)) == message


@pytest.mark.parametrize("values", [(0x4000,), (0x4001,), (0x4000, 0x4000, 0x4001), (0x7777,), (0x4B00,)])
def test_bad_token_sequences_are_refused(values: tuple[int, ...]) -> None:
    with pytest.raises(DaideSyntaxError):
        from_values(decode_values(bytes(b for v in values for b in v.to_bytes(2, "big"))))


# --- framing (Client-Server Protocol ch. 3) -----------------------------------------------------

FRAMES = st.builds(wire.Frame, st.integers(0, 255), st.binary(max_size=300))


@given(st.lists(FRAMES, max_size=6), st.integers(0, 40))
def test_frames_round_trip_however_the_stream_is_cut(frames: list[wire.Frame], cut: int) -> None:
    stream = b"".join(wire.encode_frame(f) for f in frames)
    first, rest = wire.decode_frames(stream[:cut])
    second, left = wire.decode_frames(rest + stream[cut:])
    assert first + second == frames and left == b""


def test_the_initial_message_is_checked() -> None:
    assert wire.encode_frame(wire.initial_message()) == bytes([0, 0, 0, 4, 0, 1, 0xDA, 0x10])
    assert wire.check_initial(wire.initial_message()) is None
    assert (
        wire.check_initial(wire.Frame(wire.Kind.IM, bytes([0, 1, 0x10, 0xDA])))
        is wire.ErrorCode.IM_WRONG_ENDIAN
    )
    assert wire.check_initial(wire.Frame(wire.Kind.IM, bytes([0, 1, 0, 0]))) is wire.ErrorCode.IM_WRONG_MAGIC
    assert wire.check_initial(wire.initial_message(2)) is wire.ErrorCode.VERSION_INCOMPATIBLE
    assert wire.check_initial(wire.Frame(wire.Kind.DM, b"")) is wire.ErrorCode.IM_NOT_FIRST


# --- the order grammar and Convoy's orders ------------------------------------------------------

CLASSICAL = engine.load_map("classical")


def _orders_of(state: engine.GameState) -> list[str]:
    return sorted(
        engine.format_order(o) for p in CLASSICAL.power_ids for o in engine.legal_orders(state, CLASSICAL, p)
    )


START = engine.initial_state(CLASSICAL)
WINTER = engine.GameState(
    1901, engine.Season.WINTER, engine.PhaseType.ADJUSTMENT, frozenset(), CLASSICAL.starting_ownership
)


@pytest.mark.parametrize("state", [START, WINTER], ids=["S1901M", "W1901A"])
def test_every_legal_convoy_order_round_trips_through_daide(state: engine.GameState) -> None:
    owners = {u.province: (u.power, str(u.kind)) for u in state.units}
    for text in _orders_of(state):
        power = next(
            p
            for p in CLASSICAL.power_ids
            if text in {engine.format_order(o) for o in engine.legal_orders(state, CLASSICAL, p)}
        )
        order = engine.parse_order(text, power=power, state=state, map=CLASSICAL)
        node = grammar.order_node(engine.order_to_dict(order), owners)
        assert decode(encode((node,))) == (node,)
        back_power, back = grammar.order_text(node)
        assert back_power == power
        assert engine.format_order(engine.parse_order(back, power=power, state=state, map=CLASSICAL)) == text


@pytest.mark.parametrize(
    ("daide", "convoy"),
    [
        ("((FRA AMY PAR) MTO BUR)", "A PAR - BUR"),
        ("((RUS FLT (STP SCS)) MTO GOB)", "F STP/SC - BOT"),
        ("((ENG FLT ECH) CVY (ENG AMY LON) CTO BRE)", "F ENG C A LON - BRE"),
        ("((ENG AMY LON) CTO BRE VIA (ECH))", "A LON - BRE VIA"),
        ("((FRA FLT MAO) MTO (SPA NCS))", "F MAO - SPA/NC"),
        ("((GER AMY MUN) SUP (GER AMY BER) MTO KIE)", "A MUN S A BER - KIE"),
        ("((GER AMY MUN) SUP (FRA AMY BUR))", "A MUN S A BUR"),
        ("((FRA AMY PAR) RTO GAS)", "A PAR R GAS"),
        ("((FRA AMY PAR) DSB)", "A PAR D"),
        ("((FRA FLT (STP NCS)) BLD)", "BUILD F STP/NC"),
        ("((FRA AMY PAR) REM)", "A PAR D"),
        ("(FRA WVE)", "WAIVE"),
    ],
)
def test_daide_orders_read_as_convoy_text(daide: str, convoy: str) -> None:
    assert grammar.order_text(parse_message(daide)[0])[1] == convoy


@pytest.mark.parametrize(
    ("daide", "at"),
    [
        ("((FRA AMY PAR))", (0, 1)),  # the verb is missing: ERR at the end of the order
        ("((FRA AMY PAR) SUB BUR)", (0, 1)),
        ("((UNO AMY PAR) HLD)", (0, 0, 0)),
        ("(FRA)", (0, 1)),
        ("((FRA AMY (PAR AMY)) HLD)", (0, 0, 2, 1)),
        ("((FRA AMY PAR) MTO FRA)", (0, 2)),  # FRA is a power, not a province
        ("((FRA AMY PAR) HLD HLD)", (0, 2)),
        ("((FRA FLT BRE) SUP (FRA AMY PAR) MTO (GAS NCS))", (0, 4)),  # support names no coast
        ("((ENG AMY LON) CTO BRE VIA (ECH PAR 3))", (0, 4, 2)),
        ("HLD", (0,)),
    ],
)
def test_what_is_not_an_order_is_a_grammar_error_at_its_first_offending_token(
    daide: str, at: tuple[int, ...]
) -> None:
    with pytest.raises(grammar.GrammarError) as error:
        grammar.order_text(parse_message(daide)[0])
    assert error.value.at == at


def test_coasts_the_syntax_admits_in_great_need_are_orders_convoy_refuses_not_syntax_errors() -> None:
    order = parse_message("((FRA FLT MAO) MTO (SPA NEC))")[0]
    assert grammar.order_text(order) == ("FRANCE", "F MAO - SPA/NE")


def test_the_map_definition_is_the_engines_map() -> None:
    mdf = map_definition()
    assert mdf[0] == "MDF" and len(group(mdf[3])) == 75
    adjacency = {entry[0]: entry[1:] for entry in map(group, group(mdf[3]))}
    assert adjacency["STP"] == (
        ("AMY", "FIN", "LVN", "MOS", "NWY"),
        (("FLT", "NCS"), "BAR", "NWY"),
        (("FLT", "SCS"), "FIN", "GOB", "LVN"),
    )
    assert decode(encode(mdf)) == mdf


def test_now_sco_and_mis_from_a_view() -> None:
    view = {
        "year": 1901,
        "season": "SPRING",
        "phase_type": "MOVEMENT",
        "dislodged": [],
        "units": [
            {"kind": "A", "power": "FRANCE", "location": "PAR"},
            {"kind": "F", "power": "RUSSIA", "location": "STP/SC"},
        ],
    }
    assert format_message(grammar.now_message(view)) == "NOW (SPR 1901) (FRA AMY PAR) (RUS FLT (STP SCS))"
    assert format_message(grammar.sco_message({"PAR": "FRANCE"}, ["PAR", "BEL"])) == "SCO (FRA PAR) (UNO BEL)"
    assert grammar.missing_message(view, "FRANCE", []) == ("MIS", ("FRA", "AMY", "PAR"))
    assert grammar.missing_message(view, "FRANCE", ["A PAR H"]) == ("MIS",)
    winter = {**view, "season": "WINTER", "phase_type": "ADJUSTMENT", "owed": {"builds": 2, "disbands": 0}}
    # MIS (n): negative for builds still owed, positive for removals (DAIDE Message Syntax)
    assert grammar.missing_message(winter, "FRANCE", ["BUILD A PAR"]) == ("MIS", (-1,))
    removals = {**winter, "owed": {"builds": 0, "disbands": 2}}
    assert grammar.missing_message(removals, "FRANCE", ["A PAR D"]) == ("MIS", (1,))


@pytest.mark.parametrize("module", ["tokens", "messages", "wire", "grammar", "syntax", "seats"])
def test_the_protocol_modules_import_only_the_standard_library(module: str) -> None:
    import ast
    import sys
    from pathlib import Path

    source = Path(__file__).resolve().parents[2] / "daide_bridge" / f"{module}.py"
    names: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    assert names - set(sys.stdlib_module_names) <= {"daide_bridge"}


@pytest.mark.parametrize(
    ("daide", "note"),
    [
        ("((GER AMY MUN) HLD)", None),
        ("((GER FLT MUN) HLD)", "NSU"),  # the unit in Munich is an army: no such unit
        ("((FRA AMY MUN) HLD)", "NYU"),  # an army stands there, but not France's
        ("((GER AMY BER) HLD)", "NSU"),  # nothing stands there
        ("((FRA AMY PAR) SUP (GER FLT MUN))", "NSU"),
        ("((FRA AMY PAR) SUP (GER AMY BUR) MTO PIC)", None),  # no unit in BUR: Convoy says why
        ("((RUS FLT STP) HLD)", None),  # the coast left out: the fleet in St Petersburg
        ("((RUS FLT (STP NCS)) HLD)", "NSU"),  # it stands on the south coast
        ("((FRA FLT BRE) BLD)", None),
    ],
)
def test_units_are_checked_against_the_position_as_daide_names_them(daide: str, note: str | None) -> None:
    view = {
        "units": [
            {"kind": "A", "power": "GERMANY", "location": "MUN"},
            {"kind": "A", "power": "FRANCE", "location": "PAR"},
            {"kind": "F", "power": "RUSSIA", "location": "STP/SC"},
        ]
    }
    assert grammar.unit_note(parse_message(daide)[0], view) == note
