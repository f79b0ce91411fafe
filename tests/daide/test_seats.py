"""Who may hold a DAIDE seat (issue 28, item 6: "DAIDE seats can be hijacked"): a seat is
taken back with IAM only after its bot is gone, wrong passcodes lock the seat, one seat per
connection and per host unless the operator allows more, and a seat whose passcode was never
sent goes back to Convoy. Real TCP on loopback, the bridge's own server, Convoy's REST API
faked (tests/daide/fakes.py). The rules and their figures: daide_bridge/seats.py."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from daide_bridge.grammar import CONVOY_POWERS
from daide_bridge.messages import format_message
from daide_bridge.seats import FREE_TRIES, LOCK_SECONDS, PASSCODES, Seats
from tests.daide.bot import DaideBot
from tests.daide.fakes import Clock, FakeConvoy, RunningBridge


@pytest.fixture
def convoy() -> FakeConvoy:
    """A game whose seats but FRANCE's are taken over REST: the first bot to NME plays France."""
    fake = FakeConvoy()
    fake.players.update({p: f"rest-token-{p}" for p in CONVOY_POWERS if p != "FRANCE"})
    return fake


@pytest.fixture
def running(convoy: FakeConvoy) -> Iterator[RunningBridge]:
    bridge = RunningBridge(convoy)
    yield bridge
    bridge.stop()


def _bot(running: RunningBridge, source: str = "127.0.0.1") -> DaideBot:
    bot = DaideBot("127.0.0.1", running.port, timeout=10, source=source)
    bot.hello()
    return bot


def _seated(running: RunningBridge) -> tuple[DaideBot, int]:
    """A bot that took France with NME and was greeted: it and its passcode."""
    bot = _bot(running)
    assert bot.answer("NME ('bot') ('1')")[0] == "YES"
    bot.expect("MAP")
    bot.send("YES (MAP ('STANDARD'))")
    hello = bot.expect("HLO")
    bot.expect("NOW")
    assert isinstance(hello[2], tuple)
    passcode = hello[2][0]
    assert isinstance(passcode, int)
    return bot, passcode


def _gone(bot: DaideBot, running: RunningBridge) -> None:
    """Close the bot's connection and wait until the bridge has let go of its seat."""
    bot.close()
    for _ in range(500):
        if all(s.holder is None for s in running.bridge.seats.all):
            return
        time.sleep(0.01)
    raise AssertionError("the bridge kept the seat of a closed connection")


def test_iam_is_refused_while_the_seats_bot_is_still_connected(running: RunningBridge) -> None:
    # Given France's bot, playing
    bot, passcode = _seated(running)
    try:
        # When another connection (another host) comes with the right passcode
        thief = _bot(running, source="127.0.0.2")
        # Then it is refused: a seat is taken over only after its bot is gone
        assert thief.answer(f"IAM (FRA) ({passcode})") == ("REJ", ("IAM", ("FRA",), (passcode,)))
        assert bot.answer("NOW")[0] == "NOW"  # and the bot plays on
        thief.close()
    finally:
        bot.close()


def test_a_bot_that_came_back_plays_on_without_map_or_hlo(running: RunningBridge) -> None:
    bot, passcode = _seated(running)
    _gone(bot, running)
    again = _bot(running)
    try:
        assert again.answer(f"IAM (FRA) ({passcode})") == ("YES", ("IAM", ("FRA",), (passcode,)))
        # straight into the game (DAIDE Message Syntax, IAM: "a MAP and HLO message are NOT sent")
        thanks = again.answer("SUB ((FRA AMY PAR) MTO BUR)")
        assert thanks == ("THX", (("FRA", "AMY", "PAR"), "MTO", "BUR"), ("MBV",))
    finally:
        again.close()


def test_wrong_passcodes_lock_the_seat_even_against_the_right_one(running: RunningBridge) -> None:
    # Given France's bot gone, and someone guessing its passcode
    bot, passcode = _seated(running)
    _gone(bot, running)
    guesser = _bot(running, source="127.0.0.3")
    wrong = [p for p in (1, 2, 3, 4, 5) if p != passcode]
    try:
        for guess in wrong[:FREE_TRIES]:
            assert guesser.answer(f"IAM (FRA) ({guess})")[0] == "REJ"
        # When the right passcode follows the free tries: the seat is locked, the answer the same
        assert guesser.answer(f"IAM (FRA) ({passcode})") == ("REJ", ("IAM", ("FRA",), (passcode,)))
        # Then only after the lock it is the seat's again (for the bot that knows the passcode)
        running.clock.now += LOCK_SECONDS + 1
        assert guesser.answer(f"IAM (FRA) ({passcode})")[0] == "YES"
    finally:
        guesser.close()


def test_guesses_are_counted_per_seat_whatever_the_connection() -> None:
    # A guesser who reconnects for every try (or uses many hosts) gets no more tries
    clock = Clock()
    seats = Seats(clock, per_host=100)
    seat = seats.seat("G", "FRANCE", "token", holder=None, host="a")
    seat.greeted = True
    guesses = 0
    for guess in range(1, 50):
        if seat.locked_until > clock.now:
            break
        if guess != seat.passcode:
            assert seats.take_back("FRANCE", guess, holder=object(), host=f"10.0.0.{guess}") is None
            guesses += 1
    assert guesses == FREE_TRIES


def test_an_attacker_gets_at_most_14_guesses_a_day_and_23_a_year() -> None:
    """The figures of daide_bridge/seats.py: a guesser trying as soon as the seat unlocks."""
    clock = Clock()
    seats = Seats(clock, per_host=100)
    seat = seats.seat("G", "FRANCE", "token", holder=None, host="a")
    seat.greeted = True
    start, tries, per_day = clock.now, 0, 0
    wrong = next(p for p in PASSCODES if p != seat.passcode)
    while clock.now - start < 365 * 86400:
        assert seats.take_back("FRANCE", wrong, holder=object(), host="b") is None
        tries += 1
        per_day = tries if clock.now - start < 86400 else per_day
        clock.now = max(clock.now, seat.locked_until)
    assert (per_day, tries) == (14, 23)  # the 24th would come after the year
    assert seat.locked_until - start > 365 * 86400


def test_passcodes_are_random_distinct_and_fit_one_daide_integer() -> None:
    seats = Seats(Clock())
    drawn = [seats.seat("G", "FRANCE", "t", holder=None, host=str(i)).passcode for i in range(2000)]
    assert len(set(drawn)) == len(drawn) and min(drawn) >= 1 and max(drawn) <= 8191
    assert max(drawn) > 8000  # beyond the old 1..8000


def test_one_host_holds_one_seat_unless_the_operator_allows_more(convoy: FakeConvoy) -> None:
    convoy.players.clear()
    strict, lenient = RunningBridge(convoy), RunningBridge(FakeConvoy(), seats_per_host=2)
    bots: list[DaideBot] = []
    try:
        for running, allowed in ((strict, 1), (lenient, 2)):
            answers = []
            for _ in range(3):  # three connections from one host
                bots.append(_bot(running))
                answers.append(bots[-1].answer("NME ('bot') ('1')")[0])
            assert answers == ["YES"] * allowed + ["REJ"] * (3 - allowed)
        another_host = _bot(strict, source="127.0.0.2")
        bots.append(another_host)
        assert another_host.answer("NME ('bot') ('1')")[0] == "YES"
    finally:
        for bot in bots:
            bot.close()
        strict.stop()
        lenient.stop()


def test_one_connection_holds_one_seat(running: RunningBridge) -> None:
    running.bridge.seats.per_host = 7
    bot, passcode = _seated(running)
    try:
        assert bot.answer("NME ('bot') ('1')")[0] == "REJ"
        assert bot.answer(f"IAM (FRA) ({passcode})")[0] == "REJ"
    finally:
        bot.close()


def test_a_seat_whose_passcode_was_never_sent_goes_back_to_convoy(convoy: FakeConvoy) -> None:
    # Given a game still forming: a bot takes a seat, and leaves before the game starts
    convoy.players.pop("ENGLAND")
    running = RunningBridge(convoy)
    try:
        bot = _bot(running)
        assert bot.answer("NME ('bot') ('1')")[0] == "YES"
        taken = set(convoy.players)
        _gone(bot, running)
        # Then its seat is given back (POST /leave): nobody could ever come back to it. The
        # bridge lets go of the seat first and calls Convoy after, so wait for the call.
        for _ in range(500):
            if ("leave", "G") in convoy.calls:
                break
            time.sleep(0.01)
        assert ("leave", "G") in convoy.calls and set(convoy.players) == taken - {"ENGLAND"}
        assert running.bridge.seats.all == []
    finally:
        running.stop()


def test_refusals_do_not_say_why(running: RunningBridge) -> None:
    """A held seat, a wrong passcode and a locked seat are answered alike."""
    bot, passcode = _seated(running)
    other = _bot(running, source="127.0.0.2")
    try:
        held = other.answer(f"IAM (FRA) ({passcode})")
        wrong = other.answer(f"IAM (FRA) ({passcode % 8191 + 1})")
        assert held[0] == wrong[0] == "REJ"
        assert [m for m in other.seen if m[0] not in ("REJ",)] == []
    finally:
        other.close()
        bot.close()


def test_hlo_is_the_only_message_that_carries_the_passcode_and_no_token_is_sent(
    running: RunningBridge, convoy: FakeConvoy
) -> None:
    bot, passcode = _seated(running)
    try:
        bot.send("NOW")
        bot.expect("NOW")
        assert [m[0] for m in bot.seen if (passcode,) in m] == ["HLO"]
        said = " ".join(format_message(m) for m in bot.seen)
        assert convoy.players["FRANCE"] not in said and "rest-token" not in said
    finally:
        bot.close()
