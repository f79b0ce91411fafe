"""Press use cases (issue 13): channels, cursors, unread, rules, limits, notices."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any, TypedDict, Unpack

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from functions.errors import (
    BadRecipients,
    ChannelNotFound,
    DomainError,
    Forbidden,
    MessageEmpty,
    MessageNotPrintable,
    MessageTooLong,
    PowerCannotTalk,
    PressClosed,
    PressDisabled,
    PrivatePressDisabled,
    RateLimited,
    TooManyChannels,
)
from functions.ports.services import PowerChats
from functions.usecases.players import ANONYMOUS, CIVIL_DISORDER, Actor, seat_status
from functions.usecases.press import press, reading
from functions.usecases.press.press_rules import clean_text
from tests.press.conftest import Press, player


class SendOptions(TypedDict, total=False):
    """``send_message``'s keyword options."""

    client_timestamp: str | None
    dedupe_key: str | None
    chats: PowerChats | None


class ReadOptions(TypedDict, total=False):
    """``read_messages``' keyword options."""

    after: int
    channel: str | None
    limit: int


def send(
    t: Press, sender: str, to: str | Sequence[str], text: str, game_id: str | None = None,
    **kw: Unpack[SendOptions],
) -> press.Sent:
    gid = game_id or t.game_id
    return press.send_message(t.store, t.press, t.clock, gid, player(sender), to, text, **kw)


def read(t: Press, power: str | None, **kw: Unpack[ReadOptions]) -> dict[str, Any]:
    actor = player(power) if power else ANONYMOUS
    return reading.read_messages(t.store, t.press, t.game_id, actor, **kw)


def test_a_channel_is_the_sender_and_the_recipients_with_its_own_seq(table: Press) -> None:
    first = send(table, "FRANCE", ["england"], "Channel?")
    second = send(table, "ENGLAND", ["FRANCE"], "Channel.")
    group = send(table, "FRANCE", ["ENGLAND", "GERMANY"], "All three?")
    public = send(table, "ITALY", "ALL", "Lepanto!")
    assert (first.channel, first.seq) == ("ENGLAND,FRANCE", 1)
    assert (second.channel, second.seq) == ("ENGLAND,FRANCE", 2)
    assert (group.channel, group.seq, public.channel, public.seq) == ("ENGLAND,FRANCE,GERMANY", 1, "ALL", 1)
    # naming every power is the public channel too
    everyone = send(table, "TURKEY", ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"], "Hi")
    assert (everyone.channel, everyone.seq) == ("ALL", 2)


def test_each_power_reads_only_its_channels_with_a_cursor(table: Press) -> None:
    send(table, "FRANCE", ["ENGLAND"], "secret-EF")
    send(table, "AUSTRIA", ["ITALY", "TURKEY"], "secret-AIT")
    send(table, "RUSSIA", "ALL", "public-R")
    texts = {p: [m["text"] for m in read(table, p)["messages"]] for p in ("FRANCE", "ITALY", "GERMANY")}
    assert texts == {"FRANCE": ["secret-EF", "public-R"], "ITALY": ["secret-AIT", "public-R"],
                     "GERMANY": ["public-R"]}
    assert [m["text"] for m in read(table, None)["messages"]] == ["public-R"]  # observers: public only
    page = read(table, "FRANCE", limit=1)
    assert page["more"] and [m["text"] for m in page["messages"]] == ["secret-EF"]
    rest = read(table, "FRANCE", after=page["next_after"])
    assert not rest["more"] and [m["text"] for m in rest["messages"]] == ["public-R"]
    assert read(table, "FRANCE", after=rest["next_after"])["messages"] == []


def test_a_channel_filter_reads_by_channel_seq_and_refuses_non_members(table: Press) -> None:
    for n in range(3):
        send(table, "FRANCE", ["ENGLAND"], f"m{n}")
    found = read(table, "ENGLAND", channel="france,england", after=1)
    assert [(m["seq"], m["text"]) for m in found["messages"]] == [(2, "m1"), (3, "m2")]
    with pytest.raises(ChannelNotFound):
        read(table, "GERMANY", channel="ENGLAND,FRANCE")
    with pytest.raises(ChannelNotFound):
        read(table, None, channel="ENGLAND,FRANCE")


def test_unread_goes_up_with_others_messages_and_down_when_read(table: Press) -> None:
    send(table, "FRANCE", ["ENGLAND"], "one")
    send(table, "FRANCE", ["ENGLAND"], "two")
    game = table.store.load(table.game_id)
    assert reading.unread_total(table.press, game, player("ENGLAND")) == 2
    assert reading.unread_total(table.press, game, player("FRANCE")) == 0  # own messages are read
    done = reading.mark_read(table.store, table.press, table.game_id, player("ENGLAND"), "ENGLAND,FRANCE", 1)
    assert (done["unread"], done["unread_total"]) == (1, 1)
    # marks never move back and never past the last message
    back = reading.mark_read(table.store, table.press, table.game_id, player("ENGLAND"), "ENGLAND,FRANCE", 0)
    assert back["read_upto"] == 1
    past = reading.mark_read(table.store, table.press, table.game_id, player("ENGLAND"), "ENGLAND,FRANCE", 99)
    assert (past["read_upto"], past["unread_total"]) == (2, 0)
    # replying marks the channel read for the one who replies
    send(table, "FRANCE", ["ENGLAND"], "three")
    send(table, "ENGLAND", ["FRANCE"], "reply")
    channels = reading.list_channels(table.store, table.press, table.game_id, player("ENGLAND"))
    assert channels["unread_total"] == 0
    [channel] = channels["channels"]
    assert channel["members"] == ["ENGLAND", "FRANCE"] and channel["last_message"]["text"] == "reply"
    with pytest.raises(ChannelNotFound):
        reading.mark_read(table.store, table.press, table.game_id, player("GERMANY"), "ENGLAND,FRANCE", 1)


def test_bad_recipients_and_bad_text_are_refused_and_nothing_is_written(table: Press) -> None:
    for to in (["FRANCE"], [], ["ATLANTIS"], "EVERYONE", ["ALL"]):
        with pytest.raises(BadRecipients):
            send(table, "FRANCE", to, "hello")
    bad = (("   \n ", MessageEmpty), ("x" * 4001, MessageTooLong), ("a\x07b", MessageNotPrintable),
           ("evil\u202eoops", MessageNotPrintable))
    for text, error in bad:
        with pytest.raises(error):
            send(table, "FRANCE", ["ENGLAND"], text)
    assert read(table, "ENGLAND")["messages"] == []
    with pytest.raises(Forbidden):  # the creator token is no power
        creator = Actor("creator")
        press.send_message(table.store, table.press, table.clock, table.game_id, creator, "ALL", "hi")


def test_text_is_trimmed_and_4000_characters_fit(table: Press) -> None:
    send(table, "FRANCE", ["ENGLAND"], "  " + "é" * 4000 + "\n")
    assert read(table, "ENGLAND")["messages"][0]["text"] == "é" * 4000
    assert clean_text(" line one\n\tline two 👨‍👩‍👧 ") == "line one\n\tline two 👨‍👩‍👧"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_no_text_crashes_the_cleaner(text: str) -> None:
    try:
        cleaned = clean_text(text)
    except DomainError as exc:
        assert exc.code in ("MESSAGE_EMPTY", "MESSAGE_TOO_LONG", "MESSAGE_NOT_PRINTABLE")
    else:
        assert cleaned == cleaned.strip() and 0 < len(cleaned) <= 4000


def test_press_rules_per_game(table: Press) -> None:
    public_only = table.new_game(press="public_only")
    with pytest.raises(PrivatePressDisabled):
        send(table, "FRANCE", ["ENGLAND"], "psst", game_id=public_only)
    assert send(table, "FRANCE", "ALL", "hello all", game_id=public_only).channel == "ALL"
    none = table.new_game(press="none")
    for to in ("ALL", ["ENGLAND"]):
        with pytest.raises(PressDisabled):
            send(table, "FRANCE", to, "hello", game_id=none)
    rulebook = table.new_game(press="rulebook")
    assert send(table, "FRANCE", ["ENGLAND"], "S1901M is a movement phase", game_id=rulebook).seq == 1
    game = table.store.load(rulebook)
    game.state = {**game.state, "phase_type": "RETREAT"}
    table.store.save(game, expected_version=game.version)
    with pytest.raises(PressClosed):
        send(table, "FRANCE", ["ENGLAND"], "too late", game_id=rulebook)


def test_only_seated_active_powers_talk(table: Press) -> None:
    # Issue 13 §4, with the fields lifecycle (issue 12) really writes: a dummy is listed in
    # settings.dummy_powers; civil disorder removes the player and marks the seat
    # (functions/usecases/turns/lifecycle.py); an eliminated power has no unit and no centre.
    game = table.store.load(table.game_id)
    game.settings["dummy_powers"] = ["ITALY"]
    del game.players["RUSSIA"]
    game.seats["RUSSIA"] = {"status": CIVIL_DISORDER, "since": "S1901M", "missed": 2}
    state = dict(game.state)
    state["units"] = [u for u in state["units"] if u["power"] != "TURKEY"]
    state["ownership"] = {c: p for c, p in state["ownership"].items() if p != "TURKEY"}
    game.state = state
    table.store.save(game, expected_version=game.version)
    assert seat_status(table.store.load(table.game_id), "RUSSIA") == CIVIL_DISORDER
    for power in ("ITALY", "RUSSIA", "TURKEY"):
        with pytest.raises(PowerCannotTalk):
            send(table, power, "ALL", "hello")
    assert send(table, "FRANCE", ["ITALY"], "a dummy may still be written to").seq == 1


def test_rate_limit_is_per_power_per_minute(table: Press) -> None:
    for n in range(press.RATE_LIMIT):
        send(table, "FRANCE", ["ENGLAND"], f"spam {n}")
    with pytest.raises(RateLimited) as refused:
        send(table, "FRANCE", ["GERMANY"], "one more")
    assert 1 <= refused.value.extra["retry_after"] <= 60
    assert send(table, "GERMANY", ["FRANCE"], "others are not limited").seq == 1
    table.clock.at += timedelta(seconds=61)
    assert send(table, "FRANCE", ["ENGLAND"], "a new minute").seq == press.RATE_LIMIT + 1


def test_a_power_opens_a_bounded_number_of_channels(table: Press, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(press, "MAX_OPENED_CHANNELS", 2)
    send(table, "FRANCE", ["ENGLAND"], "1")
    send(table, "FRANCE", ["GERMANY"], "2")
    with pytest.raises(TooManyChannels):
        send(table, "FRANCE", ["ITALY"], "3")
    assert send(table, "FRANCE", ["ENGLAND"], "old channels stay open").seq == 2
    assert send(table, "ITALY", ["FRANCE"], "others may still open one with France").seq == 1


def test_a_dedupe_key_sends_once(table: Press) -> None:
    first = send(table, "FRANCE", ["ENGLAND"], "once", dedupe_key="tg:1")
    again = send(table, "FRANCE", ["ENGLAND"], "once", dedupe_key="tg:1")
    assert first == again
    assert [m["text"] for m in read(table, "ENGLAND")["messages"]] == ["once"]


class Chats:
    def chats_of(self, game_id: str, power: str, linked_since: float = 0.0) -> list[int | str]:
        linked: dict[str, list[int | str]] = {"ENGLAND": [101], "GERMANY": [102, 103]}
        return linked.get(power, [])


def test_notices_carry_private_text_only_to_recipients_chats(table: Press) -> None:
    # Given England and Germany linked chats (Germany two)
    # When France sends private press to England, then public press
    send(table, "FRANCE", ["ENGLAND"], "private words", chats=Chats())
    send(table, "FRANCE", "ALL", "public words", chats=Chats())

    # Then the game's own targets learn only that private press was sent (public: the text too)
    outbox = [o for o in table.store.outbox(table.game_id) if o.kind == "MESSAGE"]
    game_wide = sorted((o.payload for o in outbox if o.dedupe_key.count(":") == 3), key=str)
    assert game_wide == [
        {"channel": "ALL", "seq": 1, "phase": "S1901M", "from": "FRANCE", "text": "public words"},
        {"channel": "ENGLAND,FRANCE", "seq": 1, "phase": "S1901M"},
    ]
    # and the private text goes to England's chat only; the public one to every linked chat
    chats = {o.dedupe_key: o.payload["text"] for o in outbox if o.dedupe_key.count(":") == 5}
    key = f"{table.game_id}:press:"
    assert chats == {
        f"{key}ENGLAND,FRANCE:1:ENGLAND:101": "private words",
        f"{key}ALL:1:ENGLAND:101": "public words",
        f"{key}ALL:1:GERMANY:102": "public words",
        f"{key}ALL:1:GERMANY:103": "public words",
    }
