"""DAIDE game transcripts in MILA's format, and their replay against the bridge.

The format is that of ``diplomacy/daide/tests/*.csv`` in MILA's ``diplomacy`` package: one
line per message, ``client,request`` for what a bot sent and ``client,,reply[,reply...]``
for what it received; ``#`` starts a comment. A message is its tokens separated by single
spaces: three-letter token names, ``(`` and ``)``, ``#1901`` for an integer and single
characters for text (``( A l b e r t )`` is ``('Albert')``; an empty word is a space).

``read`` turns a transcript into what the replay checks:

- every ``SUB`` a bot sent, with the turn it was sent in (the turn of the last ``NOW`` that
  bot had received) and the replies the transcript shows (``THX`` per order, or ``REJ``);
- every other request the transcript answers with ``HUH`` (where the ``ERR`` went);
- the units of each turn's ``NOW``, which the bridge must show too (the game went the same
  way, or the later ``SUB`` would mean nothing);
- each bot's power (its ``HLO``).

``replay`` plays them against a running bridge and Convoy's REST API: the bots connect and
name themselves (``NME``), seats the transcript's bots do not hold are joined over REST
(they order nothing: they hold, as MILA's dummies do), each turn's requests are sent by the
bot of the same power and their replies collected, then the turn is processed over REST.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from daide_bridge import tokens
from daide_bridge.grammar import CONVOY_POWERS, TO_CONVOY_POWER, turn
from daide_bridge.messages import Message, Node, format_message, from_values
from tests.daide.bot import DaideBot
from tests.daide.trees import group, number

Turn = tuple[str, int]
_SEASON_ORDER = {"SPR": 0, "SUM": 1, "FAL": 2, "AUT": 3, "WIN": 4}
_TURN_STARTS = {(season,) for season in _SEASON_ORDER}


def message_of(words: str) -> Message:
    """A message written in the transcript format."""
    values = []
    for word in words.split(" "):
        if word == "(":
            values.append(tokens.VALUES["BRA"])
        elif word == ")":
            values.append(tokens.VALUES["KET"])
        elif word.startswith("#"):
            values.append(tokens.integer_token(int(word[1:])))
        elif len(word) <= 1:
            values.append(tokens.TEXT_CATEGORY << 8 | ord(word or " "))
        else:
            values.append(tokens.VALUES[word])
    return from_values(tuple(values))


@dataclass(frozen=True)
class Exchange:
    client: int
    turn: Turn | None  # the turn of the last NOW the client had received
    request: Message
    replies: tuple[Message, ...]  # THX..., REJ or HUH, as the transcript shows them


@dataclass
class Transcript:
    name: str
    powers: dict[int, str] = field(default_factory=dict)  # client -> DAIDE power (HLO)
    clients: list[int] = field(default_factory=list)  # in the order they named themselves
    exchanges: list[Exchange] = field(default_factory=list)
    positions: dict[Turn, frozenset[Node]] = field(default_factory=dict)  # turn -> NOW's units
    adjudicated: dict[Turn, set[Node]] = field(default_factory=dict)  # turn -> its ORD's orders

    def accepted(self, exchange: Exchange) -> list[bool]:
        """Per order of a SUB, whether the transcript's server took it: its THX says MBV, or
        the turn's results (ORD) hold the order. MILA answers NYU to some orders it then
        keeps and adjudicates (retreats, builds); its ORD is what it did."""
        kept = self.adjudicated.get(exchange.turn, set()) if exchange.turn else set()
        return [_note_of(r) == "MBV" or (r[0] == "THX" and r[1] in kept) for r in exchange.replies]

    @property
    def turns(self) -> list[Turn]:
        seen = {e.turn for e in self.exchanges if e.turn is not None} | set(self.positions)
        return sorted(seen, key=lambda t: (t[1], _SEASON_ORDER[t[0]]))


def _units(now: Message) -> frozenset[Node]:
    """A NOW's units without their retreat lists: (power type location). A dislodged unit
    with nowhere to go (``MRT ()``) is left out: it is disbanded at once, by MILA and (since
    issue 31 item 3) by Convoy, so it is no unit of the next position on either side."""
    return frozenset(u[:3] for u in now[2:] if isinstance(u, tuple) and u[3:] != ("MRT", ()))


def read(name: str, text: str) -> Transcript:
    found = Transcript(name)
    lines = [line.split(",") for line in text.split("\n") if line and not line.startswith("#")]
    seen_turn: dict[int, Turn] = {}
    requests: list[tuple[int, Turn | None, Message, list[Message]]] = []  # in the order sent
    last: dict[int, list[Message]] = {}  # client -> the replies to its latest request
    for fields in lines:
        client = int(fields[0])
        if fields[1]:
            request = message_of(fields[1])
            if request[0] == "NME" and client not in found.clients:
                found.clients.append(client)
            last[client] = []
            requests.append((client, seen_turn.get(client), request, last[client]))
        for reply in (message_of(f) for f in fields[2:] if f):
            _note(found, client, reply, seen_turn, last)
    found.exchanges = [
        Exchange(client, when, request, tuple(replies))
        for client, when, request, replies in requests
        if request[0] == "SUB" or any(r[0] == "HUH" for r in replies)
    ]
    return found


def _note(
    found: Transcript, client: int, reply: Message, seen_turn: dict[int, Turn], last: dict[int, list[Message]]
) -> None:
    head = reply[0]
    if head == "HLO" and isinstance(reply[1], tuple):
        found.powers[client] = str(reply[1][0])
    elif head == "NOW" and isinstance(reply[1], tuple):
        when = (str(reply[1][0]), number(reply[1][1]))
        seen_turn[client] = when
        found.positions.setdefault(when, _units(reply))
    elif head == "ORD" and isinstance(reply[1], tuple):
        when = (str(reply[1][0]), number(reply[1][1]))
        found.adjudicated.setdefault(when, set()).add(reply[2])
    elif head in ("THX", "REJ", "HUH") and client in last:
        last[client].append(reply)


# --- the replay ---------------------------------------------------------------------------


@dataclass
class Replayed:
    """What the bridge answered: per exchange, the transcript's replies and the bridge's."""

    answers: list[tuple[Exchange, tuple[Message, ...]]] = field(default_factory=list)
    positions: dict[Turn, frozenset[Node]] = field(default_factory=dict)
    processed: list[str] = field(default_factory=list)  # phases processed over REST
    skipped: list[str] = field(default_factory=list)  # phases the transcript's game never had

    def notes(self) -> list[tuple[str, str]]:
        """(the transcript's note, the bridge's) for every order of every SUB."""
        pairs = []
        for exchange, got in self.answers:
            if exchange.request[0] == "SUB":
                pairs += [(_note_of(a), _note_of(b)) for a, b in zip(exchange.replies, got, strict=False)]
        return pairs


def _note_of(reply: Message) -> str:
    if reply[0] == "THX" and isinstance(reply[2], tuple):
        return str(reply[2][0])
    return str(reply[0])


@dataclass
class Table:
    """A game of the local stack and the bridge serving it, as the replay drives them."""

    api: Any  # tests.system.client.Api
    operator_token: str
    game_id: str
    port: int
    bots: dict[str, DaideBot] = field(default_factory=dict)  # DAIDE power -> its bot

    def view(self) -> dict[str, Any]:
        return dict(self.api.call("GET", f"/games/{self.game_id}"))

    def process(self, phase: str) -> None:
        self.api.call(
            "POST", f"/games/{self.game_id}/process_turn", token=self.operator_token, body={"phase": phase}
        )


def seat_bots(table: Table, transcript: Transcript) -> None:
    """The transcript's bots connect and name themselves; the other seats are joined over
    REST; once the game is full every bot is greeted and known by its power."""
    bot_powers = {TO_CONVOY_POWER[p] for p in transcript.powers.values()}
    for power in CONVOY_POWERS:
        if power not in bot_powers:
            table.api.call("POST", f"/games/{table.game_id}/join", body={"power": power})
    waiting = []
    for _ in transcript.clients:
        bot = DaideBot("127.0.0.1", table.port, timeout=60)
        bot.hello()
        bot.send("NME ('replay') ('1')")
        bot.expect("MAP")
        bot.send("YES (MAP ('STANDARD'))")
        waiting.append(bot)
    for bot in waiting:
        hello = bot.expect("HLO")
        assert isinstance(hello[1], tuple)
        table.bots[str(hello[1][0])] = bot


def replay(table: Table, transcript: Transcript) -> Replayed:
    done = Replayed()
    seat_bots(table, transcript)
    for when in transcript.turns:
        _reach(table, when, done)
        done.positions[when] = _position(table)
        exchanges = [e for e in transcript.exchanges if e.turn == when]
        for exchange in exchanges:
            bot = table.bots[transcript.powers[exchange.client]]
            bot.send(format_message(exchange.request))
            done.answers.append((exchange, _replies(bot, exchange)))
        if table.view()["status"] == "ACTIVE" and when != transcript.turns[-1]:
            phase = str(table.view()["phase"])
            table.process(phase)
            done.processed.append(phase)
    return done


def _replies(bot: DaideBot, exchange: Exchange) -> tuple[Message, ...]:
    """The bridge's answer: one THX per order, or one REJ or HUH."""
    first = _next(bot, ("THX", "REJ", "HUH"))
    if first[0] != "THX":
        return (first,)
    orders = [n for n in exchange.request[1:] if isinstance(n, tuple) and n[:1] not in _TURN_STARTS]
    return (first, *(_next(bot, ("THX",)) for _ in orders[1:]))


def _next(bot: DaideBot, heads: tuple[str, ...]) -> Message:
    while True:
        message = bot.message()
        if message[0] in heads:
            return message


def _reach(table: Table, when: Turn, done: Replayed) -> None:
    """Process the phases the transcript's game did not have (nobody could order in them),
    until Convoy's game is at ``when``; then wait for every bot's NOW of it."""
    for _ in range(10):
        view = table.view()
        now = group(turn(view))
        if now == when or view["status"] != "ACTIVE":
            break
        assert (number(now[1]), _SEASON_ORDER[str(now[0])]) < (when[1], _SEASON_ORDER[when[0]]), (
            f"Convoy is at {now}, past {when}, which the transcript played"
        )
        table.process(str(view["phase"]))
        done.skipped.append(str(view["phase"]))
    for bot in table.bots.values():
        _await_now(bot, when)


def _await_now(bot: DaideBot, when: Turn) -> None:
    if any(m[0] == "NOW" and m[1] == when for m in bot.seen):
        return
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        message = bot.message()
        if message[0] == "NOW" and message[1] == when:
            return
    raise AssertionError(f"no NOW {when}")


def _position(table: Table) -> frozenset[Node]:
    bot = next(iter(table.bots.values()))
    now = next(m for m in reversed(bot.seen) if m[0] == "NOW")
    return _units(now)
