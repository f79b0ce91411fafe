"""DAIDE language messages in three forms, each round-tripping exactly:

- *values*: the two-octet tokens as integers (``0x480C`` is ``NME``);
- *bytes*: those values in network byte order, the payload of a Diplomacy Message (DM);
- *trees*: a message as nested tuples, the form the grammar (daide_bridge/grammar.py)
  reads — a token name (``"NME"``), an ``int``, a ``Text`` (a run of text tokens), or a
  bracketed group (a tuple of the same);
- *text*: the notation of the DAIDE documents, ``NME ('bot') ('1.0')``.

Malformed input raises ``DaideSyntaxError`` naming the position; an unknown token value
is an error (the Client-Server Protocol's EM 0x0E "invalid token in DM"). Standard
library only; no I/O.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import TypeAlias

from daide_bridge import tokens

BRA, KET = tokens.VALUES["BRA"], tokens.VALUES["KET"]


class DaideSyntaxError(ValueError):
    """A message that cannot be read; ``at`` is the token (or character) index."""

    def __init__(self, message: str, at: int) -> None:
        super().__init__(f"{message} at {at}")
        self.at = at


@dataclass(frozen=True)
class Text:
    """A string: consecutive text tokens (never empty; two strings never touch)."""

    value: str

    def __post_init__(self) -> None:
        if not self.value or any(not 0x20 <= ord(c) < 0x7F or c == "'" for c in self.value):
            raise ValueError(f"DAIDE text is printable ASCII without quotes, not {self.value!r}")


Node: TypeAlias = str | int | Text | tuple["Node", ...]
Message: TypeAlias = tuple[Node, ...]


# --- values <-> bytes ---------------------------------------------------------------------------


def encode_values(values: tuple[int, ...]) -> bytes:
    return struct.pack(f">{len(values)}H", *values)


def decode_values(data: bytes) -> tuple[int, ...]:
    if len(data) % 2:
        raise DaideSyntaxError("a DM holds whole two-octet tokens", len(data) - 1)
    values = struct.unpack(f">{len(data) // 2}H", data)
    for at, value in enumerate(values):
        if not (tokens.is_integer(value) or tokens.is_text(value) or value in tokens.NAMES):
            raise DaideSyntaxError(f"unknown token 0x{value:04X}", at)
    return tuple(values)


# --- trees <-> values ---------------------------------------------------------------------------


def _flatten(node: Node, out: list[int]) -> None:
    if isinstance(node, tuple):
        out.append(BRA)
        for child in node:
            _flatten(child, out)
        out.append(KET)
    elif isinstance(node, Text):
        out.extend(tokens.TEXT_CATEGORY << 8 | ord(c) for c in node.value)
    elif isinstance(node, bool):
        raise TypeError("a DAIDE node is a name, an int, a Text or a group, not a bool")
    elif isinstance(node, int):
        out.append(tokens.integer_token(node))
    elif node in tokens.VALUES and node not in ("BRA", "KET"):
        out.append(tokens.VALUES[node])
    else:
        raise ValueError(f"unknown token name {node!r}")


def to_values(message: Message) -> tuple[int, ...]:
    out: list[int] = []
    for node in message:
        _flatten(node, out)
    return tuple(out)


def from_values(values: tuple[int, ...]) -> Message:
    stack: list[list[Node]] = [[]]
    text: list[str] = []

    def close_text() -> None:
        if text:
            stack[-1].append(Text("".join(text)))
            text.clear()

    for at, value in enumerate(values):
        if tokens.is_text(value):
            char = chr(value & 0xFF)
            if not 0x20 <= ord(char) < 0x7F or char == "'":
                raise DaideSyntaxError(f"text token 0x{value:04X} is not printable ASCII", at)
            text.append(char)
            continue
        close_text()
        if value == BRA:
            stack.append([])
        elif value == KET:
            if len(stack) == 1:
                raise DaideSyntaxError("a closing bracket without an opening one", at)
            group = tuple(stack.pop())
            stack[-1].append(group)
        elif tokens.is_integer(value):
            stack[-1].append(tokens.integer_value(value))
        elif value in tokens.NAMES:
            stack[-1].append(tokens.NAMES[value])
        else:
            raise DaideSyntaxError(f"unknown token 0x{value:04X}", at)
    close_text()
    if len(stack) != 1:
        raise DaideSyntaxError("an opening bracket is never closed", len(values))
    return tuple(stack[0])


def encode(message: Message) -> bytes:
    return encode_values(to_values(message))


def decode(data: bytes) -> Message:
    return from_values(decode_values(data))


# --- trees <-> text -----------------------------------------------------------------------------

_LEXEME = re.compile(r"\s*(?:(\()|(\))|'([^']*)'|(-?\d+)|([A-Za-z0-9]{3}))")


def _format(node: Node) -> str:
    if isinstance(node, tuple):
        return "(" + " ".join(_format(child) for child in node) + ")"
    if isinstance(node, Text):
        return f"'{node.value}'"
    return str(node)


def format_message(message: Message) -> str:
    """``NME ('bot') ('1.0')``: tokens separated by spaces, groups in brackets."""
    return " ".join(_format(node) for node in message)


def parse_message(text: str) -> Message:
    """Read the text notation (token names in any case); the inverse of ``format_message``."""
    stack: list[list[Node]] = [[]]
    at = 0
    text = text.rstrip()
    while at < len(text):
        found = _LEXEME.match(text, at)
        if found is None:
            raise DaideSyntaxError(f"cannot read {text[at : at + 10]!r}", at)
        opening, closing, string, number, name = found.groups()
        if opening:
            stack.append([])
        elif closing:
            if len(stack) == 1:
                raise DaideSyntaxError("a closing bracket without an opening one", found.start(2))
            group = tuple(stack.pop())
            stack[-1].append(group)
        elif string is not None:
            try:
                stack[-1].append(Text(string))
            except ValueError as exc:
                raise DaideSyntaxError(str(exc), found.start()) from exc
        elif number is not None:
            if not -tokens.INTEGER_LIMIT <= int(number) < tokens.INTEGER_LIMIT:
                raise DaideSyntaxError(f"{number} is outside DAIDE's integers", found.start(4))
            stack[-1].append(int(number))
        else:
            word = name.upper()
            if word not in tokens.VALUES or word in ("BRA", "KET"):
                raise DaideSyntaxError(f"unknown token {name!r}", found.start(5))
            stack[-1].append(word)
        at = found.end()
    if len(stack) != 1:
        raise DaideSyntaxError("an opening bracket is never closed", len(text))
    return tuple(stack[0])
