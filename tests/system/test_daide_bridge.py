"""The DAIDE bridge end to end (issue 19, "Done when"): a minimal DAIDE bot (tests/daide/bot.py)
connects over a real TCP socket on loopback to ``daide_bridge`` serving a game of the local
stack, is assigned a power, receives the map (MAP, MDF) and the position (HLO, SCO, NOW),
submits orders (SUB -> THX), the test processes the turn through the REST API, and the bot
gets the results (ORD) and the next position."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest

from daide_bridge.messages import Node, Text, format_message
from daide_bridge.rest import Convoy
from daide_bridge.server import Bridge
from local_stack.stack import LocalStack
from tests.daide.bot import DaideBot
from tests.daide.trees import group
from tests.system.client import Api
from tests.system.conftest import OPERATOR_TOKEN

pytestmark = pytest.mark.system
OTHERS = ["AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


class RunningBridge:
    """The bridge's asyncio server on its own event loop thread, as ``python -m daide_bridge`` runs it."""

    def __init__(self, url: str, game_id: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="daide-bridge", daemon=True)
        self.thread.start()
        self.bridge = Bridge(Convoy(url), [game_id], poll_seconds=0.2)
        self.port = asyncio.run_coroutine_threadsafe(self.bridge.start("127.0.0.1", 0), self.loop).result(30)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.bridge.stop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=30)
        self.loop.close()


@pytest.fixture
def game_and_bridge(stack: LocalStack) -> Iterator[tuple[Api, str, RunningBridge]]:
    api = Api(stack.url)
    game_id = api.call("POST", "/games", body={"variant": "classical"}, expect=201)["game_id"]
    for power in OTHERS:  # six seats taken over REST; the bot gets the seventh, FRANCE
        api.call("POST", f"/games/{game_id}/join", body={"power": power})
    running = RunningBridge(stack.url, game_id)
    yield api, game_id, running
    running.stop()


def test_a_bot_plays_a_turn_through_the_bridge(game_and_bridge: tuple[Api, str, RunningBridge]) -> None:
    api, game_id, running = game_and_bridge
    bot = DaideBot("127.0.0.1", running.port)
    try:
        # Given a bot that connects and names itself
        _names_itself_and_reads_the_map(bot)
        # When it accepts the map, it is told its power and the position
        passcode = _accepts_the_map_and_is_seated(bot)
        # and its orders are checked one by one
        _submits_orders_checked_one_by_one(bot)
        # Then the turn is processed over REST and the bot gets every result and the new position
        api.call("POST", f"/games/{game_id}/process_turn", token=OPERATOR_TOKEN, body={"phase": "S1901M"})
        _gets_every_result_and_the_new_position(bot)
        view = api.call("GET", f"/games/{game_id}")
        assert view["phase"] == "F1901M"
    finally:
        bot.close()
    # A bot that lost its connection takes its seat back with IAM and its passcode
    again = DaideBot("127.0.0.1", running.port)
    try:
        again.hello()
        again.send(f"IAM (FRA) ({passcode})")
        assert group(again.expect("YES")[1])[0] == "IAM"
        again.send("IAM (FRA) (1)")
        assert group(again.expect("REJ")[1])[0] == "IAM"
    finally:
        again.close()


def _names_itself_and_reads_the_map(bot: DaideBot) -> None:
    """NME is accepted and answered with the map's name; MDF gives the powers, the centres
    and the adjacencies."""
    bot.hello()
    bot.send("NME ('testbot') ('1.0')")
    assert bot.expect("YES") == ("YES", ("NME", (Text("testbot"),), (Text("1.0"),)))
    assert bot.expect("MAP") == ("MAP", (Text("STANDARD"),))
    bot.send("MDF")
    mdf = bot.expect("MDF")
    assert mdf[1] == ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR")
    assert ("FRA", "BRE", "MAR", "PAR") in group(group(mdf[2])[0])
    adjacency = {entry[0]: entry[1:] for entry in map(group, group(mdf[3]))}
    assert adjacency["PAR"][0] == ("AMY", "BRE", "BUR", "GAS", "PIC")


def _accepts_the_map_and_is_seated(bot: DaideBot) -> Node:
    """HLO seats the bot as FRANCE (the one free seat), then SCO and NOW give the position;
    the passcode HLO carries, for the reconnection."""
    bot.send("YES (MAP ('STANDARD'))")
    hello = bot.expect("HLO")
    assert hello[1] == ("FRA",) and hello[3] == (("LVL", 0),)
    passcode = group(hello[2])[0]
    assert ("FRA", "BRE", "MAR", "PAR") in bot.expect("SCO")[1:]
    now = bot.expect("NOW")
    assert now[1] == ("SPR", 1901) and ("FRA", "AMY", "PAR") in now[2:] and len(now[2:]) == 22
    return passcode


def _submits_orders_checked_one_by_one(bot: DaideBot) -> None:
    """Each order gets its own THX (MBV, FAR, NYU), MIS names none missing, and press is
    refused at press level 0."""
    bot.send("SUB ((FRA AMY PAR) MTO BUR) ((FRA FLT BRE) MTO MAO) ((FRA AMY MAR) HLD)")
    thanks = [bot.expect("THX") for _ in range(3)]
    assert [t[2] for t in thanks] == [("MBV",)] * 3, [format_message(t) for t in thanks]
    bot.send("SUB ((FRA AMY MAR) MTO MUN)")
    assert bot.expect("THX")[2] == ("FAR",)  # not adjacent: refused, the hold stays
    bot.send("SUB ((GER AMY MUN) HLD)")
    assert bot.expect("THX")[2] == ("NYU",)  # another power's unit: never sent to Convoy
    bot.send("MIS")
    assert bot.expect("MIS") == ("MIS",)
    bot.send("SND (ENG) (PRP (PCE (FRA ENG)))")
    assert group(bot.expect("HUH")[1])[:2] == ("ERR", "SND")  # press level 0


def _gets_every_result_and_the_new_position(bot: DaideBot) -> None:
    """One ORD per unit on the board (FRANCE's three succeeded), then NOW for Fall 1901."""
    orders = [bot.expect("ORD") for _ in range(22)]
    assert all(o[1] == ("SPR", 1901) for o in orders)
    mine = {format_message((o[2],)): o[3] for o in orders if group(group(o[2])[0])[0] == "FRA"}
    assert mine == {
        "((FRA AMY PAR) MTO BUR)": ("SUC",),
        "((FRA FLT BRE) MTO MAO)": ("SUC",),
        "((FRA AMY MAR) HLD)": ("SUC",),
    }
    after = bot.expect("NOW")
    assert (
        after[1] == ("FAL", 1901)
        and ("FRA", "AMY", "BUR") in after[2:]
        and ("FRA", "FLT", "MAO") in after[2:]
    )


def _seated_bot(port: int) -> DaideBot:
    bot = DaideBot("127.0.0.1", port)
    bot.hello()
    bot.send("NME ('testbot') ('1.0')")
    bot.expect("MAP")
    bot.send("YES (MAP ('STANDARD'))")
    bot.expect("NOW")
    return bot


def test_the_bot_is_told_when_the_game_ends(stack: LocalStack) -> None:
    # Given a game that ends as a draw after 1901 (max_year), the bot seated as its seventh power
    api = Api(stack.url)
    game_id = api.call("POST", "/games", body={"variant": "classical", "max_year": 1901}, expect=201)[
        "game_id"
    ]
    for power in OTHERS:
        api.call("POST", f"/games/{game_id}/join", body={"power": power})
    running = RunningBridge(stack.url, game_id)
    bot = _seated_bot(running.port)
    try:
        # When both 1901 movement phases are processed with every unit holding
        for phase in ("S1901M", "F1901M"):
            api.call("POST", f"/games/{game_id}/process_turn", token=OPERATOR_TOKEN, body={"phase": phase})
        # Then the bot gets the results, then DRW, the summary and OFF
        assert bot.expect("DRW") == ("DRW",)
        summary = bot.expect("SMR")
        assert summary[1] == ("SPR", 1902)
        france = next(entry for entry in summary[2:] if group(entry)[0] == "FRA")
        assert france == ("FRA", (Text("testbot"),), (Text("1.0"),), 3)
        assert bot.expect("OFF") == ("OFF",)
        fall = [m for m in bot.seen if m[0] == "ORD" and m[1] == ("FAL", 1901)]
        assert len(fall) == 22
    finally:
        bot.close()
        running.stop()


def test_protocol_errors_get_em_and_bad_messages_huh(game_and_bridge: tuple[Api, str, RunningBridge]) -> None:
    _, _, running = game_and_bridge
    wrong_magic = DaideBot("127.0.0.1", running.port)
    try:
        wrong_magic.sock.sendall(bytes([0, 0, 0, 4, 0, 1, 0xBE, 0xEF]))
        assert wrong_magic.frame() == (4, bytes([0, 0x04]))  # EM: IM had an incorrect magic number
    finally:
        wrong_magic.sock.close()
    bot = DaideBot("127.0.0.1", running.port)
    try:
        bot.hello()
        bot.send("HLD")
        assert bot.expect("HUH") == ("HUH", ("ERR", "HLD"))
        bot.send("NOW")
        assert bot.expect("REJ") == ("REJ", ("NOW",))  # not seated yet
        bot.sock.sendall(bytes([2, 0, 0, 2, 0x77, 0x77]))  # a DM with a token that does not exist
        assert bot.frame() == (4, bytes([0, 0x0E]))
    finally:
        bot.sock.close()
