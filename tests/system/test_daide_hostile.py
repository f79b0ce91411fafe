"""Hostile input to the DAIDE bridge, against the local stack (issue 28: the DAIDE row of the
reliability figures): random and mutated DAIDE messages, garbage frames, NME floods and IAM
guesses from several hosts, while a bot plays. Counted: inputs tried, REST requests
the bridge sent and their 5xx, errors the bridge logged, leaks (a seat token in anything sent
to a hostile connection, an HLO with another seat's passcode, a seat taken with IAM) and
orders lost (an order answered MBV that is not what the turn then adjudicated).

``.venv/bin/pytest tests/system/test_daide_hostile.py -s`` prints the figures;
``DAIDE_FUZZ_INPUTS=20000`` makes it longer (default 1500 in ``make test``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import socket
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

import engine
from daide_bridge import tokens, wire
from daide_bridge.grammar import CONVOY_POWERS, TO_CONVOY_POWER, GrammarError, order_text
from daide_bridge.messages import Message, Node, Text, decode, encode, format_message, parse_message
from daide_bridge.rest import ApiError, Convoy
from daide_bridge.server import Bridge
from local_stack.stack import LocalStack
from tests.daide.bot import DaideBot
from tests.daide.trees import group, number
from tests.system.client import Api
from tests.system.conftest import OPERATOR_TOKEN

pytestmark = pytest.mark.system
INPUTS = int(os.environ.get("DAIDE_FUZZ_INPUTS", "1500"))
HOSTILE_HOSTS = ["127.0.0.2", "127.0.0.3", "127.0.0.4"]  # each takes a seat; a fourth has none
OPENINGS = {  # the playing bot's orders, whichever of the four free powers it is given
    "FRA": "SUB ((FRA AMY PAR) MTO BUR) ((FRA FLT BRE) MTO MAO) ((FRA AMY MAR) HLD)",
    "GER": "SUB ((GER AMY MUN) MTO RUH) ((GER FLT KIE) MTO DEN) ((GER AMY BER) HLD)",
    "RUS": "SUB ((RUS AMY WAR) MTO GAL) ((RUS AMY MOS) MTO UKR) ((RUS FLT SEV) MTO BLA)",
    "TUR": "SUB ((TUR AMY CON) MTO BUL) ((TUR FLT ANK) MTO BLA) ((TUR AMY SMY) HLD)",
}
NAMES = sorted(n for n in tokens.VALUES if n not in ("BRA", "KET"))
CORPUS = [
    "NME ('x') ('1')", "IAM (FRA) (1234)", "OBS", "MAP", "MDF", "YES (MAP ('STANDARD'))", "REJ (MAP ('x'))",
    "HLO", "NOW", "SCO", "MIS", "GOF", "NOT (GOF)", "DRW", "NOT (DRW)", "TME", "TME (60)", "HST (SPR 1901)",
    "SUB ((GER AMY MUN) MTO BUR) ((GER FLT KIE) MTO DEN)", "SUB (SPR 1901) ((ITA AMY VEN) HLD)",
    "SUB ((TUR AMY CON) MTO BUL) ((TUR FLT ANK) MTO BLA) ((TUR AMY SMY) SUP (TUR AMY CON) MTO BUL)",
    "SUB ((FRA AMY PAR) MTO GAS)", "SUB ((ENG AMY LVP) CTO NWY VIA (NTH NWG))", "NOT (SUB)",
    "SND (ENG) (PRP (PCE (FRA ENG)))", "ADM ('x') ('y')", "ORD", "SMR",
    "SUB ((RUS AMY WAR) MTO UKR) ((RUS FLT (STP SCS)) MTO GOB) ((RUS AMY MOS) SUP (RUS AMY WAR) MTO UKR)",
    "SUB ((GER AMY BER) MTO SIL) ((GER AMY MUN) SUP (GER AMY BER) MTO SIL)", "SUB ((RUS FLT SEV) MTO RUM)",
    "SUB ((TUR FLT ANK) MTO ARM) ((TUR AMY SMY) MTO SYR)",
    "SUB ((FRA FLT BRE) MTO PIC) ((FRA AMY MAR) MTO PIE)",
    "SUB ((AUS AMY VIE) MTO GAL) ((AUS FLT TRI) MTO ALB)",
    "SUB ((ITA FLT NAP) MTO ION) ((ITA AMY ROM) MTO APU)",
]


@dataclass(frozen=True)
class CountingConvoy(Convoy):
    """Convoy's REST client, counting the bridge's requests by answer status."""

    statuses: Counter[int] = field(default_factory=Counter)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        try:
            answer = super().call(method, path, body, token)
        except ApiError as error:
            self.statuses[error.status] += 1
            raise
        self.statuses[200] += 1
        return answer


def _node(rng: random.Random, depth: int = 0) -> Node:
    roll = rng.random()
    if roll < 0.6 or depth > 3:
        return rng.choice(NAMES)
    if roll < 0.7:
        return rng.randint(-8192, 8191)
    if roll < 0.75:
        return Text(rng.choice(["x", "STANDARD", "a b"]))
    return tuple(_node(rng, depth + 1) for _ in range(rng.randint(0, 4)))


def _mutated(rng: random.Random) -> Message:
    """A corpus message with a node replaced, dropped, added or wrapped, or a random one."""
    if rng.random() < 0.2:
        return (rng.choice(NAMES), *(_node(rng) for _ in range(rng.randint(0, 4))))
    message = list(parse_message(rng.choice(CORPUS)))
    at = rng.randrange(len(message))
    change = rng.choice(["replace", "drop", "add", "wrap", "none"])
    if change == "replace":
        message[at] = _node(rng)
    elif change == "drop" and len(message) > 1:
        del message[at]
    elif change == "add":
        message.insert(at + 1, _node(rng))
    elif change == "wrap":
        message[at] = (message[at],)
    return tuple(_flatten_texts(message))


def _flatten_texts(nodes: list[Node]) -> list[Node]:
    """Two texts may not touch in a DAIDE message: join them."""
    out: list[Node] = []
    for node in nodes:
        if out and isinstance(node, Text) and isinstance(out[-1], Text):
            out[-1] = Text(out[-1].value + node.value)
        else:
            out.append(node)
    return out


class Listener:
    """A hostile connection, its received messages read on a thread of their own."""

    def __init__(self, port: int, source: str) -> None:
        self.source = source
        self.bot = DaideBot("127.0.0.1", port, timeout=30, source=source)
        self.bot.hello()
        self.received: list[Message] = []
        self.errors: list[bytes] = []
        self.closed = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while True:
                kind, payload = self.bot.frame()
                if kind == wire.Kind.EM:
                    self.errors.append(payload)
                    break
                self.received.append(decode(payload))
        except (ConnectionError, OSError):
            pass
        self.closed.set()

    def send(self, data: bytes) -> bool:
        if self.closed.is_set():
            return False
        try:
            self.bot.sock.sendall(data)
        except OSError:
            return False
        return True

    def answered(self) -> bool:
        """Send HST (always refused) and wait for its REJ: every input is read before the next
        (False if none came in 10 s and the connection is still open)."""
        pings = sum(1 for m in self.received if m == ("REJ", ("HST",))) + 1
        if not self.send(_frame(("HST",))):
            return True
        for _ in range(1000):
            if self.closed.is_set() or sum(1 for m in self.received if m == ("REJ", ("HST",))) >= pings:
                return True
            threading.Event().wait(0.01)
        return False

    def hello(self) -> Message | None:
        """The HLO this connection got (its seat's power and passcode), if any."""
        return next((m for m in self.received if m[0] == "HLO"), None)

    def wait_for(self, head: str, count: int = 1) -> list[Message]:
        """The first ``count`` messages starting with ``head`` (fewer if the connection closes)."""
        for _ in range(500):
            found = [m for m in self.received if m[0] == head]
            if len(found) >= count or self.closed.is_set():
                return found
            threading.Event().wait(0.01)
        return [m for m in self.received if m[0] == head]

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.bot.sock.shutdown(socket.SHUT_RDWR)
        self.bot.sock.close()
        self.thread.join(timeout=10)


@dataclass
class Figures:
    inputs: Counter[str] = field(default_factory=Counter)
    listeners: list[Listener] = field(default_factory=list)  # every hostile connection made
    stalls: list[str] = field(default_factory=list)  # inputs after which the bridge fell silent
    accepted: int = 0  # units whose last MBV order was checked against the adjudication
    leaks: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)


def _frame(message: Message) -> bytes:
    return wire.encode_frame(wire.Frame(wire.Kind.DM, encode(message)))


def _garbage(rng: random.Random) -> bytes:
    kind = rng.choice([0, 1, 2, 2, 2, 3, 4, 9, 255])
    payload = bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 2, 3, 6, 20])))
    return wire.encode_frame(wire.Frame(kind, payload))


class Stage:
    """The game, the bridge, the bot playing France and the hostile connections."""

    def __init__(self, stack: LocalStack) -> None:
        self.api = Api(stack.url)
        self.game_id = self.api.call("POST", "/games", body={"variant": "classical"}, expect=201)["game_id"]
        self.rest_tokens = [
            self.api.call("POST", f"/games/{self.game_id}/join", body={"power": p})["token"]
            for p in ("AUSTRIA", "ENGLAND", "ITALY")
        ]
        self.convoy = CountingConvoy(stack.url)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.bridge = Bridge(self.convoy, [self.game_id], poll_seconds=0.2)
        self.port = asyncio.run_coroutine_threadsafe(self.bridge.start("127.0.0.1", 0), self.loop).result(30)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.bridge.stop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=30)
        self.loop.close()


def _seat(stage: Stage, source: str) -> Listener:
    hostile = Listener(stage.port, source)
    hostile.send(_frame(parse_message("NME ('x') ('1')")))
    hostile.send(_frame(parse_message("YES (MAP ('STANDARD'))")))
    return hostile


def test_hostile_input_gets_no_seat_no_secret_and_loses_no_order(
    stack: LocalStack, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    stage = Stage(stack)
    rng = random.Random(28)
    figures = Figures()
    player = DaideBot("127.0.0.1", stage.port, timeout=30)
    hostiles: list[Listener] = []
    try:
        # Given a bot playing, three hostile seats (one per host), the game full and started
        player.hello()
        player.send("NME ('player') ('1')")
        player.expect("MAP")
        player.send("YES (MAP ('STANDARD'))")
        hostiles = [_seat(stage, host) for host in HOSTILE_HOSTS]
        hello = player.expect("HLO")
        power, passcode = group(hello[1])[0], number(group(hello[2])[0])
        player.expect("NOW")
        player.send(OPENINGS[str(power)])
        assert [player.expect("THX")[2] for _ in range(3)] == [("MBV",)] * 3
        # When the hostile connections (and one more from a fourth host) send their inputs
        hostiles.append(Listener(stage.port, "127.0.0.5"))
        figures.listeners += hostiles
        _attack(stage, hostiles, rng, figures, passcode)
        # Then the bot still plays, and nothing was taken, told or lost
        assert player.answer("MIS")[0] == "MIS"
        _check_leaks(stage, figures, TO_CONVOY_POWER[str(power)])
        _check_orders(stage, [h.received for h in figures.listeners] + [player.seen], figures)
    finally:
        player.close()
        for hostile in figures.listeners:
            hostile.close()
        stage.stop()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    server_errors = sum(n for status, n in stage.convoy.statuses.items() if status >= 500)
    print(
        f"\nDAIDE hostile input: {sum(n for k, n in figures.inputs.items() if k != 'reconnects')} inputs "
        f"({dict(figures.inputs)}), "
        f"{sum(stage.convoy.statuses.values())} REST requests by the bridge "
        f"({dict(sorted(stage.convoy.statuses.items()))}), 5xx {server_errors}, "
        f"bridge errors logged {len(errors)}, stalls {len(figures.stalls)}, leaks {len(figures.leaks)}, "
        f"orders lost {len(figures.lost)} of {figures.accepted} accepted"
    )
    assert server_errors == 0 and not errors and not figures.stalls
    assert figures.leaks == [] and figures.lost == []


def _attack(
    stage: Stage, hostiles: list[Listener], rng: random.Random, figures: Figures, passcode: int
) -> None:
    for index in range(INPUTS):
        slot = index % len(hostiles)
        if hostiles[slot].closed.is_set():  # the bridge closed it (EM, OFF): come back
            hostiles[slot] = _come_back(stage, hostiles[slot])
            figures.listeners.append(hostiles[slot])
            figures.inputs["reconnects"] += 1
        roll = rng.random()
        if roll < 0.03:
            data, kind = _garbage(rng), "garbage frames"
        elif roll < 0.2:
            guess = passcode if rng.random() < 0.05 else rng.randint(-8192, 8191)
            power = rng.choice(list(TO_CONVOY_POWER))
            data, kind = _frame(("IAM", (power,), (guess,))), "IAM guesses"
        else:
            data, kind = _frame(_mutated(rng)), "mutated/random messages"
        if hostiles[slot].send(data):
            figures.inputs[kind] += 1
            if not hostiles[slot].answered():
                figures.stalls.append(format_message(decode(data[4:])) if data[:1] == b"\x02" else "frame")


def _come_back(stage: Stage, gone: Listener) -> Listener:
    """A new connection from the same host; it takes its seat back with IAM when the old one
    had been told a passcode (the bridge may take a moment to see the old connection gone)."""
    again = Listener(stage.port, gone.source)
    hello = gone.hello()
    if hello is not None:
        for tries in range(1, 20):
            again.send(_frame(("IAM", hello[1], hello[2])))
            answers = again.wait_for("YES", 1) + [m for m in again.received if m[:1] == ("REJ",)]
            if any(m[0] == "YES" for m in answers) or again.closed.is_set():
                break
            threading.Event().wait(0.05 * tries)
        again.received.append(hello)  # what this host was told, for the leak check
    return again


def _check_leaks(stage: Stage, figures: Figures, playing: str) -> None:
    """No seat token in anything a hostile connection got; no HLO or YES (IAM) but with its
    own seat's passcode; the playing bot's seat still its own."""
    tokens_ = [s.token for s in stage.bridge.seats.all] + stage.rest_tokens
    for hostile in figures.listeners:
        own = {s.passcode for s in stage.bridge.seats.all if s.host == hostile.source}
        for message in hostile.received:
            said = format_message(message)
            figures.leaks += [f"a token in {said[:60]}" for t in tokens_ if t in said]
            taken = message[:1] == ("YES",) and said.startswith("YES (IAM")
            if (taken or message[0] == "HLO") and (
                _passcode(group(message[1]) if taken else message) not in own
            ):
                figures.leaks.append(said)
    seat = next(s for s in stage.bridge.seats.all if s.power == playing)
    if seat.holder is None or seat.host != "127.0.0.1":
        figures.leaks.append(f"{playing}'s seat changed hands")


def _passcode(hello: Message) -> Node | None:
    told = hello[2]
    return told[0] if isinstance(told, tuple) and told else None


def _check_orders(stage: Stage, streams: list[list[Message]], figures: Figures) -> None:
    """Every order answered MBV (the last per unit) is what the turn adjudicated."""
    the_map = engine.load_map("classical")
    state = engine.initial_state(the_map)
    accepted: dict[tuple[str, str], str] = {}
    for received in streams:
        for message in received:
            if message[0] == "THX" and message[2] == ("MBV",):
                try:
                    power, text = order_text(message[1])
                except GrammarError:
                    continue
                order = engine.parse_order(text, power=power, state=state, map=the_map)
                checked = engine.validate(order, state, the_map)
                canonical = engine.format_order(checked.order or order)
                accepted[(power, canonical.split(" - ")[0].split(" ")[1].split("/")[0])] = canonical
    game = f"/games/{stage.game_id}"
    stage.api.call("POST", f"{game}/process_turn", token=OPERATOR_TOKEN, body={"phase": "S1901M"})
    phase = stage.api.call("GET", f"{game}/history")["phases"][0]
    done = {
        (r["power"], r["order_str"].split(" ")[1].split("/")[0]): r["order_str"]
        for r in phase["resolution"]["results"]
        if r.get("power") in CONVOY_POWERS and not r["order_str"].startswith(("BUILD", "WAIVE"))
    }
    figures.accepted = len(accepted)
    figures.lost += [f"{key}: {text} answered MBV, {done.get(key)} adjudicated"
                     for key, text in accepted.items() if done.get(key) != text]
