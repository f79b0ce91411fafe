"""Client messages as "DAIDE Message Syntax" writes them (issue 31, item 6): ``SUB (turn)
(order) ...`` is accepted for the current turn and refused (REJ) for another; a message that
does not read gets ``HUH`` with ``ERR`` "inserted into the message immediately before the first
offending token" (the syntax document, HUH), not at its front."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from daide_bridge import tokens
from daide_bridge.grammar import CONVOY_POWERS, GrammarError
from daide_bridge.messages import Message, Node, Text, format_message, parse_message
from daide_bridge.syntax import huh, read_iam, read_name, read_submission
from tests.daide.bot import DaideBot
from tests.daide.fakes import FakeConvoy, RunningBridge


def _huh(text: str, reader: Callable[[Message], object]) -> str:
    message = parse_message(text)
    with pytest.raises(GrammarError) as error:
        reader(message)
    return format_message(huh(message, error.value.at))


@pytest.mark.parametrize(
    ("sent", "answer"),
    [
        # the examples of the syntax document's HUH section, in this bridge's messages
        ("NME ('bot')", "HUH (NME ('bot') ERR)"),
        ("NME ('bot') (-3)", "HUH (NME ('bot') (ERR -3))"),
        ("IAM (UNO) (12)", "HUH (IAM (ERR UNO) (12))"),
        ("IAM (FRA) ('12')", "HUH (IAM (FRA) (ERR '12'))"),
        ("SUB", "HUH (SUB ERR)"),
        ("SUB (SPR 1901)", "HUH (SUB (SPR 1901) ERR)"),
        ("SUB (SPR) ((FRA AMY PAR) HLD)", "HUH (SUB (SPR ERR) ((FRA AMY PAR) HLD))"),
        ("SUB ((FRA AMY PAR) MTO)", "HUH (SUB ((FRA AMY PAR) MTO ERR))"),
        ("SUB ((FRA AMY PAR) SCO BUR)", "HUH (SUB ((FRA AMY PAR) ERR SCO BUR))"),
        (
            "SUB ((FRA AMY PAR) MTO BUR) ((FRA AMY MAR) MTO GER)",
            "HUH (SUB ((FRA AMY PAR) MTO BUR) ((FRA AMY MAR) MTO ERR GER))",
        ),
        ("SUB ((FRA CVY PAR) HLD)", "HUH (SUB ((FRA ERR CVY PAR) HLD))"),
        ("SUB ((FRA FLT (STP SCS SCS)) HLD)", "HUH (SUB ((FRA FLT (STP SCS ERR SCS)) HLD))"),
        ("SUB (SPR 1901) (FRA WVE WVE)", "HUH (SUB (SPR 1901) (FRA WVE ERR WVE))"),
    ],
)
def test_huh_puts_err_before_the_first_offending_token(sent: str, answer: str) -> None:
    reader = read_name if sent.startswith("NME") else read_iam if sent.startswith("IAM") else read_submission
    assert _huh(sent, reader) == answer


def test_sub_reads_with_or_without_the_turn() -> None:
    with_turn = read_submission(parse_message("SUB (SPR 1901) ((FRA AMY PAR) MTO BUR) (FRA WVE)"))
    without = read_submission(parse_message("SUB ((FRA AMY PAR) MTO BUR) (FRA WVE)"))
    assert with_turn.turn == ("SPR", 1901) and without.turn is None
    assert [o.text for o in with_turn.orders] == [o.text for o in without.orders] == ["A PAR - BUR", "WAIVE"]


NAMES = sorted(n for n in tokens.VALUES if n not in ("BRA", "KET"))
ATOMS: st.SearchStrategy[Node] = st.sampled_from(NAMES) | st.integers(-8192, 8191) | st.just(Text("x"))
NODES = st.recursive(ATOMS, lambda kids: st.lists(kids, max_size=4).map(tuple), max_leaves=15)


@settings(max_examples=400)
@given(st.lists(NODES, max_size=6).map(lambda rest: ("SUB", *rest)))
def test_every_sub_reads_or_gets_huh_with_one_err_in_it(message: Message) -> None:
    try:
        read_submission(message)
    except GrammarError as error:
        answer = huh(message, error.at)
        assert format_message(answer).count("ERR") == format_message(message).count("ERR") + 1
        assert _take(answer[1], error.at) == ("ERR", message)  # ERR stands exactly at the path


def _take(group: Node, at: tuple[int, ...]) -> tuple[Node, Node]:
    """The node at path ``at`` and the group without it."""
    assert isinstance(group, tuple)
    index = min(at[0], len(group) - 1)
    if len(at) > 1 and group[index] != "ERR":
        taken, inner = _take(group[index], at[1:])
        return taken, (*group[:index], inner, *group[index + 1 :])
    return group[index], (*group[:index], *group[index + 1 :])


# --- over the wire --------------------------------------------------------------------------


@pytest.fixture
def playing() -> Iterator[DaideBot]:
    """France's bot, greeted, in the faked game at Spring 1901."""
    convoy = FakeConvoy()
    convoy.players.update({p: f"rest-token-{p}" for p in CONVOY_POWERS if p != "FRANCE"})
    running = RunningBridge(convoy)
    bot = DaideBot("127.0.0.1", running.port, timeout=10)
    bot.hello()
    bot.send("NME ('bot') ('1')")
    bot.expect("MAP")
    bot.send("YES (MAP ('STANDARD'))")
    bot.expect("NOW")
    yield bot
    bot.close()
    running.stop()


def test_sub_with_the_current_turn_is_accepted_order_by_order(playing: DaideBot) -> None:
    playing.send("SUB (SPR 1901) ((FRA AMY PAR) MTO BUR) ((FRA AMY MAR) MTO MUN) ((GER AMY MUN) HLD)")
    notes = [format_message(playing.expect("THX")) for _ in range(3)]
    assert notes == [
        "THX ((FRA AMY PAR) MTO BUR) (MBV)",
        "THX ((FRA AMY MAR) MTO MUN) (MBV)",
        "THX ((GER AMY MUN) HLD) (NYU)",
    ]


def test_sub_with_another_turn_is_refused_whole(playing: DaideBot) -> None:
    sent = "SUB (FAL 1901) ((FRA AMY PAR) MTO BUR)"
    assert format_message(playing.answer(sent)) == f"REJ ({sent})"


def test_a_bad_message_gets_huh_with_err_where_it_goes_wrong(playing: DaideBot) -> None:
    assert format_message(playing.answer("SUB ((FRA AMY PAR) MTO BUR) ((FRA AMY MAR) MTO FRA)")) == (
        "HUH (SUB ((FRA AMY PAR) MTO BUR) ((FRA AMY MAR) MTO ERR FRA))"
    )
    assert format_message(playing.answer("NOW NOW")) == "HUH (NOW ERR NOW)"
    assert format_message(playing.answer("HLD")) == "HUH (ERR HLD)"  # no such client message
    press = format_message(playing.answer("SND (ENG) (PRP (PCE (FRA ENG)))"))
    assert press == "HUH (ERR SND (ENG) (PRP (PCE (FRA ENG))))"  # level 0: SND itself is too high
    # nothing of a message that got HUH was submitted: the first, good, order of it neither
    assert format_message(playing.answer("MIS")) == "MIS (FRA AMY PAR) (FRA AMY MAR) (FRA FLT BRE)"
