"""The client messages of press level 0, read as "DAIDE Message Syntax" writes them, and
``HUH`` for those that do not read.

Each reader checks one message's whole shape before anything is done with it and returns
its parts; a message that does not read raises ``GrammarError`` whose ``at`` is the path
to the first offending token, so that ``huh`` can answer as the syntax document asks:
"the token ERR is inserted into the message immediately before the first offending token"
(``HUH (NME ('bot') ERR)`` for a missing version, ``HUH (SUB ((FRA AMY PAR) ERR SCO BUR))``
for a word that is no order). Shapes read here:

- ``NME ('name') ('version')``, ``OBS``, ``IAM (power) (passcode)``;
- ``YES (MAP ('name'))``, ``REJ (MAP ('name'))`` (and ``SVE`` in place of ``MAP``);
- ``SUB [(turn)] (order) (order) ...`` (grammar.order_text reads each order);
- ``NOT (GOF)``, ``NOT (DRW)``, ``NOT (SUB [(order)])``, ``NOT (TME [(number)])``;
- ``TME [(number)]``, ``DRW [(power power ...)]`` and the messages without parameters.

Standard library only; no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

from daide_bridge.grammar import TO_CONVOY_POWER, GrammarError, Path, order_text
from daide_bridge.messages import Message, Node, Text
from daide_bridge.tokens import POWERS

SEASONS = ("SPR", "SUM", "FAL", "AUT", "WIN")


@dataclass(frozen=True)
class Order:
    node: Node  # the order as the bot wrote it (THX echoes it)
    power: str  # Convoy's power name of the ordered unit: FRANCE
    text: str  # Convoy's order text: A PAR - BUR


@dataclass(frozen=True)
class Submission:
    turn: tuple[str, int] | None  # SUB (turn) ...: the turn the bot thinks it is
    orders: tuple[Order, ...]


def huh(message: Message, at: Path) -> Message:
    """``HUH (message)`` with ``ERR`` inserted at ``at``."""
    return ("HUH", _insert(message, at))


def _insert(group: tuple[Node, ...], at: Path) -> tuple[Node, ...]:
    index = max(0, min(at[0], len(group)))
    child = group[index] if index < len(group) else None
    if len(at) > 1 and isinstance(child, tuple):
        return (*group[:index], _insert(child, at[1:]), *group[index + 1 :])
    return (*group[:index], "ERR", *group[index:])


def _group(message: tuple[Node, ...], index: int, what: str, at: Path = ()) -> tuple[Node, ...]:
    """The bracketed parameter at ``index`` (of the group at ``at``), or an error before what
    stands there."""
    if index >= len(message):
        raise GrammarError(f"({what}) missing", (*at, len(message)))
    node = message[index]
    if not isinstance(node, tuple):
        raise GrammarError(f"({what}), not {node!r}", (*at, index))
    return node


def _single(message: tuple[Node, ...], index: int, kind: type, what: str, at: Path = ()) -> Node:
    """``(x)``: one node of ``kind`` in brackets."""
    group = _group(message, index, what, at)
    if not group or not isinstance(group[0], kind) or isinstance(group[0], bool):
        raise GrammarError(f"{what} in brackets", (*at, index, 0))
    _end(group, 1, (*at, index))
    return group[0]


def _end(message: tuple[Node, ...], length: int, at: Path = ()) -> None:
    if len(message) > length:
        raise GrammarError(f"nothing after {message[:length]!r}", (*at, length))


def read_bare(message: Message) -> None:
    """A message without parameters (``MAP``, ``NOW``, ``MIS`` ...)."""
    _end(message, 1)


def read_name(message: Message) -> tuple[str, str]:
    """``NME ('name') ('version')``."""
    name = _single(message, 1, Text, "'name'")
    version = _single(message, 2, Text, "'version'")
    _end(message, 3)
    assert isinstance(name, Text) and isinstance(version, Text)
    return name.value, version.value


def read_observer(message: Message) -> None:
    """``OBS``, or ``OBS ('name') ('version')`` as some clients send it."""
    if len(message) > 1:
        read_name(message)


def read_iam(message: Message) -> tuple[str, int]:
    """``IAM (power) (passcode)``: the DAIDE power and the number."""
    power = _single(message, 1, str, "a power")
    if power not in POWERS:
        raise GrammarError(f"a power, not {power!r}", (1, 0))
    passcode = _single(message, 2, int, "the passcode")
    _end(message, 3)
    assert isinstance(power, str) and isinstance(passcode, int)
    return power, passcode


def read_answer(message: Message) -> str:
    """``YES (MAP ('name'))`` / ``REJ (MAP ('name'))`` (or ``SVE``): the command answered."""
    inner = _group(message, 1, "MAP ('name')")
    if not inner or inner[0] not in ("MAP", "SVE"):
        raise GrammarError("MAP or SVE", (1, 0))
    _single(inner, 1, Text, "'name'", (1,))
    _end(inner, 2, (1,))
    _end(message, 2)
    return str(inner[0])


def read_turn(node: Node, at: Path) -> tuple[str, int]:
    """``(SPR 1901)``."""
    if not isinstance(node, tuple):
        raise GrammarError(f"(season year), not {node!r}", at)
    if not node or node[0] not in SEASONS:
        raise GrammarError("a season", (*at, 0))
    if len(node) < 2 or not isinstance(node[1], int) or isinstance(node[1], bool):
        raise GrammarError("a year", (*at, 1))
    if len(node) > 2:
        raise GrammarError("only (season year)", (*at, 2))
    return str(node[0]), node[1]


def _is_turn(node: Node) -> bool:
    return isinstance(node, tuple) and bool(node) and node[0] in SEASONS


def read_submission(message: Message) -> Submission:
    """``SUB [(turn)] (order) (order) ...``: every order read before any is used, so that a
    message with one bad order submits nothing (it gets HUH)."""
    first = 1
    turn = None
    if len(message) > 1 and _is_turn(message[1]):
        turn, first = read_turn(message[1], (1,)), 2
    if len(message) <= first:
        raise GrammarError("(order) missing", (len(message),))
    orders = []
    for index in range(first, len(message)):
        power, text = order_text(message[index], (index,))
        orders.append(Order(message[index], power, text))
    return Submission(turn, tuple(orders))


def read_not(message: Message) -> str:
    """``NOT (GOF)``, ``NOT (DRW)``, ``NOT (SUB [(order)])``, ``NOT (TME [(number)])``: the
    command negated."""
    inner = _group(message, 1, "command")
    if not inner or inner[0] not in ("GOF", "DRW", "SUB", "TME"):
        raise GrammarError("GOF, DRW, SUB or TME", (1, 0))
    command = str(inner[0])
    if command == "SUB" and len(inner) > 1:
        order_text(inner[1], (1, 1))
        _end(inner, 2, (1,))
    elif command == "TME" and len(inner) > 1:
        _single(inner, 1, int, "seconds", (1,))
        _end(inner, 2, (1,))
    else:
        _end(inner, 1, (1,))
    _end(message, 2)
    return command


def read_time(message: Message) -> int | None:
    """``TME`` (how long to the deadline?) or ``TME (seconds)`` (tell me then): the seconds."""
    if len(message) == 1:
        return None
    seconds = _single(message, 1, int, "seconds")
    _end(message, 2)
    assert isinstance(seconds, int)
    return seconds


def read_draw(message: Message) -> tuple[str, ...]:
    """``DRW``, or ``DRW (power power ...)`` (a partial draw): the powers named."""
    if len(message) == 1:
        return ()
    powers = _group(message, 1, "power power ...")
    if len(powers) < 2:
        raise GrammarError("two powers or more", (1, len(powers)))
    for index, power in enumerate(powers):
        if power not in TO_CONVOY_POWER:
            raise GrammarError(f"a power, not {power!r}", (1, index))
    _end(message, 2)
    return tuple(str(p) for p in powers)
