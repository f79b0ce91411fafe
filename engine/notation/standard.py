"""The standard order text: ``parse_order`` reads it, ``format_order`` writes it.

Grammar (ARCHITECTURE §2; case-insensitive on input, canonical upper case on output)::

    A PAR H                 hold             (also HOLD)
    A PAR - BUR             move             (also ->, TO; ``VIA`` / ``VIA CONVOY`` asks for a convoy)
    F BRE S A PAR           support to hold  (also ``S A PAR H``, SUPPORT, SUPPORTS)
    F BRE S A PIC - BEL     support to move
    F NTH C A LON - BEL     convoy           (also CONVOY, CONVOYS)
    A PAR R BUR             retreat          (also RETREAT; ``A PAR - BUR`` in a retreat phase)
    A PAR D                 disband          (also DISBAND A PAR, REMOVE A PAR)
    BUILD A PAR             build            (also A PAR B)
    WAIVE                   waive a build

Provinces may be written as ids, full names or aliases (``Mid-Atlantic Ocean``,
``St Petersburg``): the longest run of words the map knows is taken. Coasts may be
written ``SPA/SC``, ``SPA(SC)``, ``SPA (sc)``, ``SPA SC`` or ``SPA SOUTH COAST``.
Unit letters are optional (then the order's ``kind`` is None); after ``S`` or ``C``
a token is a unit letter only if it is exactly ``A`` or ``F``.

The parser checks grammar, provinces and coasts against the map; it does not
check legality (``engine.validation``) and keeps what the player wrote, so a
coast written for an army stays in the order (DATC 4.B.6). Any problem raises
``OrderSyntaxError`` with the character offset of the offending text.
"""

from __future__ import annotations

import re
from typing import Final

from engine.maps.loader import MapData, load_map, normalize_name
from engine.types import (
    ARMY,
    FLEET,
    RETREAT,
    Build,
    Convoy,
    Disband,
    GameState,
    Hold,
    Location,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitKind,
    Waive,
)
from engine.values import shared


class OrderSyntaxError(ValueError):
    """Order text that cannot be read; ``position`` is the 0-based offset of the problem."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


# --- tokens ----------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"(?P<word>[A-Za-z0-9_.']+)|(?P<dash>->|-|\u2013|\u2192)|(?P<punct>[/()])|(?P<bad>.)", re.S
)

_KINDS = {"A": ARMY, "F": FLEET, "ARMY": ARMY, "FLEET": FLEET}
_COASTS = {"NC", "SC", "EC", "WC"}


def _dotted(coast: str) -> set[str]:
    """``coast`` written with up to two dots, in at most four characters (``N.C.``)."""
    first, second = coast[0], coast[1]
    dots = ("", ".", "..")
    return {f"{a}{first}{b}{second}{c}" for a in dots for b in dots for c in dots if len(a + b + c) <= 2}


# Each one-word spelling of a coast -> the coast (``SC``, ``S.C.``, ``SC.``).
_COAST_WORDS = {spelled: coast for coast in _COASTS for spelled in _dotted(coast)}
_LONG_COASTS = {"NORTH": "NC", "SOUTH": "SC", "EAST": "EC", "WEST": "WC"}
_LETTERS = frozenset({"A", "F"})
_HOLD = frozenset({"H", "HOLD", "HOLDS"})
_MOVE_WORDS = frozenset({"TO"})
_SUPPORT = frozenset({"S", "SUPPORT", "SUPPORTS"})
_CONVOY = frozenset({"C", "CONVOY", "CONVOYS"})
_RETREAT = frozenset({"R", "RETREAT", "RETREATS"})
_DISBAND = frozenset({"D", "DISBAND", "DISBANDS", "REMOVE"})
_BUILD = frozenset({"B", "BUILD"})
_LEADING = frozenset({"BUILD", "DISBAND", "REMOVE"})
# The word after the ordered unit -> the order it begins ("dash": a dash token;
# SupportHold stands for both supports).
_VERBS: dict[str, type] = {
    **dict.fromkeys(_HOLD, Hold), **dict.fromkeys((*_MOVE_WORDS, "dash"), Move),
    **dict.fromkeys(_RETREAT, Retreat), **dict.fromkeys(_DISBAND, Disband), **dict.fromkeys(_BUILD, Build),
    **dict.fromkeys(_SUPPORT, SupportHold), **dict.fromkeys(_CONVOY, Convoy),
}
_VIA = frozenset({"VIA"})
_CONVOY_WORD = frozenset({"CONVOY"})


# A token is a plain tuple (cheap to make): kind ("word" | "dash" | "punct"), text as
# written, start and end offsets, text in upper case.
_Token = tuple[str, str, int, int, str]
KIND: Final = 0
TEXT: Final = 1
START: Final = 2
END: Final = 3
UPPER: Final = 4


_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.'")
_DASHES = frozenset({"->", "-", "\u2013", "\u2192"})
# An order of plain words and spaced hyphens (``A PAR - BUR``: how orders are stored, and
# most typed ones) has one token per space-separated chunk.
_PLAIN_CHARS = _WORD_CHARS | frozenset("- \t\n\r\x0b\x0c")


def _tokenize(text: str) -> list[_Token]:
    """Words, dashes and the punctuation ``/()``; whitespace separates. A chunk between
    spaces that is one whole token (most are) is taken as it is; the others are cut by
    the token pattern."""
    tokens: list[_Token] = []
    pos = 0
    for chunk in text.split():
        start = text.index(chunk, pos)
        pos = start + len(chunk)
        if (chunk.isalnum() and chunk.isascii()) or _WORD_CHARS.issuperset(chunk):
            tokens.append(("word", chunk, start, pos, chunk.upper()))
        elif chunk in _DASHES:
            tokens.append(("dash", chunk, start, pos, chunk))
        else:
            tokens += _cut(chunk, start)
    return tokens


def _cut(chunk: str, offset: int) -> list[_Token]:
    out = []
    for m in _TOKEN.finditer(chunk):
        kind, word, start = m.lastgroup, m.group(), m.start() + offset
        if kind == "bad":
            raise OrderSyntaxError(f"unexpected character {word!r} at {start}", start)
        out.append((kind or "", word, start, m.end() + offset, word.upper()))
    return out


# --- parser ----------------------------------------------------------------------------------


class _Parser:
    """A cursor over the tokens. ``words[i]`` is token i's upper-case text when it is a
    word, else None, and ``kinds[i]`` its kind; two None sentinels end ``words``, so
    looking one ahead never fails.

    Where each token starts (``tokens``, from ``_tokenize``) is needed only to say where a
    problem is, and to read a multi-word name or a coast in brackets as written. A plain
    order (every chunk between spaces a word or a hyphen, as stored orders are) is read
    from its upper-case chunks, and its tokens are made only if one of those is asked."""

    __slots__ = ("text", "map", "_tokens", "words", "kinds", "n", "i")

    def __init__(self, text: str, map: MapData) -> None:
        self.text = text
        self.map = map
        chunks = text.upper().split()
        if _PLAIN_CHARS.issuperset(text) and text.count("-") == chunks.count("-"):
            self._tokens: list[_Token] | None = None
            self.words: list[str | None] = [None if c == "-" else c for c in chunks]
            self.kinds = ["dash" if c == "-" else "word" for c in chunks]
        else:
            tokens = self._tokens = _tokenize(text)
            self.words = [t[UPPER] if t[KIND] == "word" else None for t in tokens]
            self.kinds = [t[KIND] for t in tokens]
        self.n = len(self.kinds)
        self.words += (None, None)
        self.i = 0

    @property
    def tokens(self) -> list[_Token]:
        """Every token with its offsets (made on first use for a plain order)."""
        if self._tokens is None:
            self._tokens = _tokenize(self.text)
        return self._tokens

    def offset(self, i: int) -> int:
        """Where token ``i`` starts in the text (its end when there is no such token)."""
        return self.tokens[i][START] if i < self.n else len(self.text)

    def at_end(self) -> bool:
        return self.i >= self.n

    def fail(self, what: str) -> OrderSyntaxError:
        if self.at_end():
            return OrderSyntaxError(f"{what}, but the order ends at {len(self.text)}", len(self.text))
        tok = self.tokens[self.i]
        return OrderSyntaxError(f"{what}, found {tok[TEXT]!r} at {tok[START]}", tok[START])

    def expect_end(self) -> None:
        if self.i < self.n:
            tok = self.tokens[self.i]
            raise OrderSyntaxError(f"unexpected {tok[TEXT]!r} at {tok[START]}: the order should end here",
                                   tok[START])

    def take(self, words: frozenset[str]) -> bool:
        if self.words[self.i] in words:
            self.i += 1
            return True
        return False

    def take_dash(self) -> bool:
        i = self.i
        if i < self.n and (self.kinds[i] == "dash" or self.words[i] in _MOVE_WORDS):
            self.i += 1
            return True
        return False

    # grammar pieces
    def kind(self, *, strict: bool = False) -> UnitKind | None:
        """An optional unit letter (``strict``: only exactly A or F, as after S and C):
        a letter alone, or before something that is not a word, is not one."""
        w = self.words[self.i]
        if w is None or w not in (_LETTERS if strict else _KINDS) or self.words[self.i + 1] is None:
            return None
        self.i += 1
        return _KINDS[w]

    def location(self, what: str = "a province") -> Location:
        i = self.i
        word = self.words[i]
        if word is None:
            raise self.fail(f"expected {what}")
        province = self.map.one_word_names.get(word)  # one plain word naming a province
        if province is not None:
            after = i + 1
        else:
            province, after = self._province_at(i)
        if province is None:
            tok = self.tokens[i]
            raise OrderSyntaxError(f"unknown province {tok[TEXT]!r} at {tok[START]}", tok[START])
        self.i = after
        places = self.map.locations_by_text
        nxt = self.words[after]
        if nxt is None and (after >= self.n or self.kinds[after] != "punct"
                            or self.tokens[after][TEXT] not in "/("):
            return places[province]  # nothing after it can be a coast
        if nxt is not None and nxt not in _COAST_WORDS and nxt not in _LONG_COASTS:
            return places[province]  # the next word cannot begin a coast (see _coast_word)
        coast = self._coast()
        if coast is None:
            return places[province]
        name, coast_at = coast
        known = self.map.provinces[province].coasts
        if name not in known:
            coast_pos = self.offset(coast_at)
            has = f"has coasts {', '.join(known)}" if known else "has no coasts"
            raise OrderSyntaxError(
                f"unknown coast '{province}/{name}' at {coast_pos}: {province} {has}", coast_pos
            )
        return places[f"{province}/{name}"]

    def _province_at(self, i: int) -> tuple[str | None, int]:
        """The longest run of words from token ``i`` that names a province (hyphens
        inside a word, as in ``Mid-Atlantic``, count as part of it). The run grows only
        while it begins some multi-word name of the map."""
        tokens, names, prefixes = self.tokens, self.map.names, self.map.name_prefixes
        found: tuple[str | None, int] = (None, i)
        end = i
        while end < len(tokens):
            tok = tokens[end]
            if tok[KIND] == "word":
                raw = self.text[tokens[i][START]:tok[END]]
                text = raw.lower() if raw.isalnum() else normalize_name(raw)
                province = names.get(text)
                if province is not None:
                    found = (province, end + 1)
                if text not in prefixes:
                    break
            elif not (tok[KIND] == "dash" and tok[TEXT] == "-" and i < end < len(tokens) - 1
                      and tokens[end - 1][END] == tok[START] and tokens[end + 1][START] == tok[END]
                      and tokens[end + 1][KIND] == "word"):
                break
            end += 1
        return found

    def _coast(self) -> tuple[str, int] | None:
        """An optional coast after a province: ``/SC``, ``(SC)``, ``SC``, ``SOUTH COAST``;
        with the index of the token it begins at."""
        if self.at_end():
            return None
        kind = self.kinds[self.i]
        if kind == "punct" and self.tokens[self.i][TEXT] in "/(":
            tok = self.tokens[self.i]
            self.i += 1
            coast_at = self.i
            coast = self._coast_word()
            if coast is None:
                if self.at_end():
                    raise self.fail("expected a coast (NC, SC, EC or WC)")
                bad = self.tokens[self.i]
                raise OrderSyntaxError(f"unknown coast {bad[TEXT]!r} at {bad[START]}", bad[START])
            if tok[TEXT] == "(":
                if self.at_end() or self.tokens[self.i][TEXT] != ")":
                    raise self.fail("expected ')' after the coast")
                self.i += 1
            return coast, coast_at
        if kind == "word":
            at = self.i
            coast = self._coast_word()
            if coast is not None:
                return coast, at
        return None

    def _coast_word(self) -> str | None:
        w = self.words[self.i]
        if w is None:
            return None
        coast = _COAST_WORDS.get(w)
        if coast is not None:
            self.i += 1
            return coast
        if w in _LONG_COASTS and self.words[self.i + 1] == "COAST":
            self.i += 2
            return _LONG_COASTS[w]
        return None


class _Parsed:
    """What the grammar read, before the power is known (a plain record: cheap).
    ``unit_at`` is the index of the unit's first token (``_Parser.offset`` says where)."""

    __slots__ = ("order_class", "kind", "unit", "unit_at", "dest", "origin", "target_kind", "via_convoy")

    def __init__(
        self, order_class: type, kind: UnitKind | None = None, unit: Location | None = None,
        unit_at: int = 0, *, dest: Location | None = None, origin: Location | None = None,
        target_kind: UnitKind | None = None, via_convoy: bool = False,
    ) -> None:
        self.order_class, self.kind, self.unit, self.unit_at = order_class, kind, unit, unit_at
        self.dest, self.origin, self.target_kind, self.via_convoy = dest, origin, target_kind, via_convoy


def _parse_grammar(p: _Parser) -> _Parsed:
    if p.at_end():
        raise OrderSyntaxError("empty order at 0", 0)
    first = p.words[0]
    if first == "WAIVE":
        p.i += 1
        p.expect_end()
        return _Parsed(Waive)
    if first in _LEADING:
        p.i += 1
        kind = p.kind()
        if first == "BUILD" and kind is None:
            raise p.fail("expected the unit type (A or F) to build")
        pos = p.i
        unit = p.location()
        p.expect_end()
        return _Parsed(Build if first == "BUILD" else Disband, kind, unit, pos)
    kind = p.kind()
    pos = p.i  # the unit's first token
    unit = p.location("a province (or A/F and a province)")
    if p.at_end():
        raise p.fail("expected an order (H, -, S, C, R, D or B)")
    # The order word, looked up once (the word sets are disjoint).
    verb = _VERBS.get(p.words[p.i] or p.kinds[p.i])
    if verb is None:
        raise p.fail("expected an order (H, -, S, C, R, D or B)")
    p.i += 1
    if verb is Hold:
        p.expect_end()
        return _Parsed(Hold, kind, unit, pos)
    if verb is Move:
        return _move(p, kind, unit, pos)
    if verb is SupportHold:
        return _support(p, kind, unit, pos)
    if verb is Retreat:
        p.take_dash()
        dest = p.location("a province to retreat to")
        p.expect_end()
        return _Parsed(Retreat, kind, unit, pos, dest=dest)
    if verb is Disband:
        p.expect_end()
        return _Parsed(Disband, kind, unit, pos)
    if verb is Build:
        if kind is None:
            raise OrderSyntaxError(f"a build needs the unit type (A or F) at {p.offset(pos)}", p.offset(pos))
        p.expect_end()
        return _Parsed(Build, kind, unit, pos)
    if verb is Convoy:
        target_kind = p.kind(strict=True)
        origin = p.location("the convoyed army's province")
        if not p.take_dash():
            raise p.fail("expected '-' after the convoyed army")
        dest = p.location("the convoy's destination")
        p.expect_end()
        return _Parsed(Convoy, kind, unit, pos, dest=dest, origin=origin, target_kind=target_kind)
    raise AssertionError(verb)  # every value of _VERBS is handled above


def _move(p: _Parser, kind: UnitKind | None, unit: Location, pos: int) -> _Parsed:
    dest = p.location("a destination")
    via = False
    if p.take(_VIA):
        via = True
        p.take(_CONVOY_WORD)
    elif p.words[p.i] == "BY" and p.words[p.i + 1] == "CONVOY":
        via = True
        p.i += 2
    p.expect_end()
    return _Parsed(Move, kind, unit, pos, dest=dest, via_convoy=via)


def _support(p: _Parser, kind: UnitKind | None, unit: Location, pos: int) -> _Parsed:
    target_kind = p.kind(strict=True)
    origin = p.location("the supported unit's province")
    if p.at_end() or p.take(_HOLD):
        p.expect_end()
        return _Parsed(SupportHold, kind, unit, pos, origin=origin, target_kind=target_kind)
    if not p.take_dash():
        raise p.fail("expected '-' or H after the supported unit")
    dest = p.location("the supported move's destination")
    p.expect_end()
    return _Parsed(SupportMove, kind, unit, pos, dest=dest, origin=origin, target_kind=target_kind)


def _power_of(parsed: _Parsed, power: str | None, state: GameState | None, p: _Parser) -> str:
    if power:
        return power.upper()
    loc = parsed.unit
    if state is not None and loc is not None:
        province = loc.province
        if parsed.order_class is Build:
            owner = state.ownership.get(province)
            if owner is not None:
                return owner
        else:
            dislodged = state.dislodged_at(province)
            on_board = state.unit_at(province)
            if state.phase_type is RETREAT and dislodged is not None:
                return dislodged.unit.power
            if on_board is not None:
                return on_board.power
            if dislodged is not None:
                return dislodged.unit.power
        at = p.offset(parsed.unit_at)
        raise OrderSyntaxError(f"no unit in {province} at {at}: say which power gives this order", at)
    raise OrderSyntaxError("say which power gives this order at 0", 0)


def _build_order(parsed: _Parsed, power: str, state: GameState | None, p: _Parser) -> Order:
    cls = parsed.order_class
    if cls is Waive:
        return Waive(power)
    unit = parsed.unit
    assert unit is not None
    if cls is Build:
        assert parsed.kind is not None
        return Build(power, unit, parsed.kind)
    if cls is Hold:
        return Hold(power, unit, parsed.kind)
    if cls is Disband:
        return Disband(power, unit, parsed.kind)
    if cls is SupportHold:
        assert parsed.origin is not None
        return SupportHold(power, unit, parsed.origin, parsed.kind, parsed.target_kind)
    dest = parsed.dest
    assert dest is not None
    if cls is Retreat or (cls is Move and state is not None and state.phase_type is RETREAT):
        if parsed.via_convoy:
            at = p.offset(parsed.unit_at)
            raise OrderSyntaxError(f"a retreat cannot go by convoy at {at}", at)
        return Retreat(power, unit, dest, parsed.kind)
    if cls is Move:
        return Move(power, unit, dest, parsed.via_convoy, parsed.kind)
    assert parsed.origin is not None
    if cls is SupportMove:
        return SupportMove(power, unit, parsed.origin, dest, parsed.kind, parsed.target_kind)
    return Convoy(power, unit, parsed.origin, dest, parsed.kind, parsed.target_kind)


def parse_order(
    text: str,
    power: str | None = None,
    state: GameState | None = None,
    map: MapData | None = None,
) -> Order:
    """Read one order in the standard grammar.

    ``power`` fills ``order.power``; without it, the owner of the ordered unit in
    ``state`` is used. In a retreat phase ``A PAR - BUR`` is a Retreat. Raises
    ``OrderSyntaxError`` (and nothing else) for text that is not an order.
    """
    if not isinstance(text, str):
        raise OrderSyntaxError("an order must be text at 0", 0)
    game_map = map if map is not None else load_map("classical")
    if power:  # the answer then depends on the map, the text, the power and the phase alone
        key = (game_map, text, power, state is not None and state.phase_type is RETREAT)
        return shared(_PARSED, key, PARSED_MEMO_SIZE, _read, text, power, state, game_map)
    return _read(text, power, state, game_map)


# ``parse_order``'s answers: an order is a frozen value and the same text always reads the
# same, so each text is read by the grammar once and its value shared, as ``Location.parse``
# shares locations. It saves over a tenth of a movement phase (docs/performance.md).
PARSED_MEMO_SIZE = 50_000
_PARSED: dict[tuple[MapData, str, str, bool], Order] = {}


def _read(text: str, power: str | None, state: GameState | None, game_map: MapData) -> Order:
    """The grammar's reading of ``text`` (``parse_order`` shares its answers)."""
    try:
        parser = _Parser(text, game_map)
        parsed = _parse_grammar(parser)
        return _build_order(parsed, _power_of(parsed, power, state, parser), state, parser)
    except OrderSyntaxError:
        raise
    except ValueError as exc:  # a value constructor refused something we let through
        raise OrderSyntaxError(f"{exc} at 0", 0) from exc


# --- formatting ------------------------------------------------------------------------------


def _unit(kind: UnitKind | None, location: Location) -> str:
    return f"{kind.value} {location}" if kind is not None else str(location)


def format_order(order: Order) -> str:
    """The canonical standard text (``A PAR - BUR``, ``F BRE S A PIC - BEL``, ``BUILD A PAR``).

    A unit letter that is None is left out (``PAR - BUR``), so that
    ``parse_order(format_order(o), power=o.power) == o`` for every order.
    """
    match order:
        case Waive():
            return "WAIVE"
        case Build(location=loc, kind=kind):
            return f"BUILD {_unit(kind, loc)}"
        case Hold(unit=loc, kind=kind):
            return f"{_unit(kind, loc)} H"
        case Move(unit=loc, dest=dest, via_convoy=via, kind=kind):
            return f"{_unit(kind, loc)} - {dest}" + (" VIA" if via else "")
        case SupportHold(unit=loc, target=target, kind=kind, target_kind=tk):
            return f"{_unit(kind, loc)} S {_unit(tk, target)}"
        case SupportMove(unit=loc, origin=origin, dest=dest, kind=kind, target_kind=tk):
            return f"{_unit(kind, loc)} S {_unit(tk, origin)} - {dest}"
        case Convoy(unit=loc, origin=origin, dest=dest, kind=kind, target_kind=tk):
            return f"{_unit(kind, loc)} C {_unit(tk, origin)} - {dest}"
        case Retreat(unit=loc, dest=dest, kind=kind):
            return f"{_unit(kind, loc)} R {dest}"
        case Disband(unit=loc, kind=kind):
            return f"{_unit(kind, loc)} D"
    raise TypeError(f"not an order: {order!r}")
