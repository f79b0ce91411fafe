"""DAIDE message grammar for the standard map, and its translation to and from Convoy's words.

Follows "DAIDE Message Syntax" (the AI Language Syntax the Client-Server Protocol refers
to; David Norman / Andrew Rose, daide.org.uk, press level 0 part) for:

- units ``(FRA AMY PAR)``, ``(RUS FLT (STP SCS))``; turns ``(SPR 1901)``: SPR/FAL are
  movement, SUM/AUT their retreats, WIN the adjustments;
- orders ``((FRA AMY PAR) MTO BUR)``, ``HLD``, ``SUP (unit)``, ``SUP (unit) MTO prov``,
  ``CVY (unit) CTO prov``, ``CTO prov VIA (seas...)``, ``RTO``, ``DSB``, ``BLD``, ``REM``,
  ``(FRA WVE)``; and their Convoy text (``A PAR - BUR``; ARCHITECTURE §2 grammar);
- NOW, SCO, ORD and MIS built from plain dicts shaped like Convoy's REST answers.

Province ids are Convoy's except three seas (DAIDE ECH, GOB, GOL are Convoy ENG, BOT, LYO);
coasts NCS/SCS/ECS/WCS are NC/SC/EC/WC. Convoy's ``VIA`` names no route, so the sea
provinces of a DAIDE ``VIA (...)`` are not passed on: the engine finds the route.
Not an order, or not one of these shapes: ``GrammarError``, which says where the first
offending token is (the server answers ``HUH`` with ``ERR`` placed there).
Standard library only; no I/O.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from daide_bridge.messages import Message, Node
from daide_bridge.tokens import POWERS, PROVINCES

CONVOY_POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
TO_CONVOY_POWER = dict(zip(POWERS, CONVOY_POWERS, strict=True))
TO_DAIDE_POWER = {v: k for k, v in TO_CONVOY_POWER.items()}
_SEAS = {"ECH": "ENG", "GOB": "BOT", "GOL": "LYO"}
_SEAS_BACK = {v: k for k, v in _SEAS.items()}
# the four coasts of the standard map, and the four the syntax admits "in great need" (no
# Convoy map has them: an order naming one is refused by Convoy, never a syntax error)
TO_CONVOY_COAST = {
    "NCS": "NC", "SCS": "SC", "ECS": "EC", "WCS": "WC", "NEC": "NE", "SEC": "SE", "SWC": "SW", "NWC": "NW",
}
TO_DAIDE_COAST = {v: k for k, v in TO_CONVOY_COAST.items()}
SEASON = {
    ("SPRING", "MOVEMENT"): "SPR",
    ("SPRING", "RETREAT"): "SUM",
    ("FALL", "MOVEMENT"): "FAL",
    ("FALL", "RETREAT"): "AUT",
    ("WINTER", "ADJUSTMENT"): "WIN",
    ("FALL", "ADJUSTMENT"): "WIN",
}
_KIND = {"AMY": "A", "FLT": "F"}
_KIND_BACK = {"A": "AMY", "F": "FLT"}
# Convoy's result codes (engine ResultCode) as DAIDE results; RET is added for a dislodged unit
RESULTS = {
    "OK": "SUC",
    "BOUNCE": "BNC",
    "CUT": "CUT",
    "VOID": "NSO",
    "NO_CONVOY": "DSR",
    "DISBAND": "SUC",
    "BUILD": "SUC",
    "WAIVE": "SUC",
    "DISLODGED": None,
}


Path = tuple[int, ...]


class GrammarError(ValueError):
    """Not a message of the shapes this module knows. ``at`` is where DAIDE's ``HUH`` puts
    ``ERR``, "immediately before the first offending token" (DAIDE Message Syntax, HUH): the
    indices into the nested groups of the message, the last one the offending token's place
    within its group (the group's length when a token is missing at its end)."""

    def __init__(self, reason: str, at: Path = (0,)) -> None:
        super().__init__(reason)
        self.at = at


def _item(group: tuple[Node, ...], index: int, at: Path, what: str) -> Node:
    """The group's ``index``-th node, or an error where it is missing."""
    if index >= len(group):
        raise GrammarError(f"{what} missing", (*at, len(group)))
    return group[index]


def _word(group: tuple[Node, ...], index: int, words: Collection[str], at: Path) -> str:
    node = _item(group, index, at, "/".join(words))
    if not isinstance(node, str) or node not in words:
        raise GrammarError(f"{'/'.join(words)}, not {node!r}", (*at, index))
    return node


def _end(group: tuple[Node, ...], length: int, at: Path) -> None:
    if len(group) > length:
        raise GrammarError(f"nothing after {group[:length]!r}", (*at, length))


def _province(node: Node, at: Path) -> str:
    """A province token (the syntax's ``province`` category) as Convoy's province id."""
    if not isinstance(node, str) or node not in PROVINCES:
        raise GrammarError(f"a province, not {node!r}", at)
    return _SEAS.get(node, node)


def convoy_province(name: Node) -> str:
    return _province(name, (0,))


def daide_province(province: str) -> str:
    return _SEAS_BACK.get(province, province)


def _location(node: Node, at: Path) -> str:
    """``PAR`` or ``(STP SCS)`` as Convoy's ``PAR`` / ``STP/SC``."""
    if not isinstance(node, tuple):
        return _province(node, at)
    province = _province(_item(node, 0, at, "a province"), (*at, 0))
    coast = _word(node, 1, TO_CONVOY_COAST, at)
    _end(node, 2, at)
    return f"{province}/{TO_CONVOY_COAST[coast]}"


def daide_location(location: str) -> Node:
    province, _, coast = location.partition("/")
    return (daide_province(province), TO_DAIDE_COAST[coast]) if coast else daide_province(province)


def read_unit(node: Node, at: Path = (0,)) -> tuple[str, str, str]:
    """``(FRA FLT (SPA SCS))`` as (``FRANCE``, ``F``, ``SPA/SC``)."""
    if not isinstance(node, tuple):
        raise GrammarError(f"a unit (power type province), not {node!r}", at)
    power = _word(node, 0, TO_CONVOY_POWER, at)
    kind = _word(node, 1, _KIND, at)
    where = _location(_item(node, 2, at, "a province"), (*at, 2))
    _end(node, 3, at)
    return TO_CONVOY_POWER[power], _KIND[kind], where


def unit_node(power: str, kind: str, location: str) -> Node:
    return (TO_DAIDE_POWER[power], _KIND_BACK[kind], daide_location(location))


def _unit_text(node: Node, at: Path) -> str:
    _, kind, where = read_unit(node, at)
    return f"{kind} {where}"


_VERBS = ("HLD", "MTO", "SUP", "CVY", "CTO", "RTO", "DSB", "BLD", "REM")


def order_text(order: Node, at: Path = (0,)) -> tuple[str, str]:
    """A DAIDE order (``order`` of the syntax's SUB) as (its power, Convoy's order text).
    ``at``: the order's place in its message, for the error's path."""
    if not isinstance(order, tuple):
        raise GrammarError(f"an order in brackets, not {order!r}", at)
    head = _item(order, 0, at, "a unit")
    if isinstance(head, str) and head in TO_CONVOY_POWER:  # (power WVE)
        _word(order, 1, ("WVE",), at)
        _end(order, 2, at)
        return TO_CONVOY_POWER[head], "WAIVE"
    power, kind, where = read_unit(head, (*at, 0))
    unit = f"{kind} {where}"
    verb = _word(order, 1, _VERBS, at)
    return power, _ORDER_READERS[verb](order, unit, at)


def _hold(order: tuple[Node, ...], unit: str, at: Path) -> str:
    _end(order, 2, at)
    return f"{unit} H"


def _move(order: tuple[Node, ...], unit: str, at: Path) -> str:
    dest = _location(_item(order, 2, at, "a province"), (*at, 2))
    _end(order, 3, at)
    return f"{unit} {'R' if order[1] == 'RTO' else '-'} {dest}"


def _support(order: tuple[Node, ...], unit: str, at: Path) -> str:
    other = _unit_text(_item(order, 2, at, "a unit"), (*at, 2))
    if len(order) == 3:
        return f"{unit} S {other}"
    _word(order, 3, ("MTO",), at)
    dest = _province(_item(order, 4, at, "a province"), (*at, 4))
    _end(order, 5, at)
    return f"{unit} S {other} - {dest}"


def _convoy(order: tuple[Node, ...], unit: str, at: Path) -> str:
    other = _unit_text(_item(order, 2, at, "a unit"), (*at, 2))
    _word(order, 3, ("CTO",), at)
    dest = _province(_item(order, 4, at, "a province"), (*at, 4))
    _end(order, 5, at)
    return f"{unit} C {other} - {dest}"


def _by_convoy(order: tuple[Node, ...], unit: str, at: Path) -> str:
    """``CTO province VIA (sea ...)``; the seas are read but not passed on (Convoy's ``VIA``
    names no route). A bare ``CTO province`` (no VIA) is accepted as well."""
    dest = _province(_item(order, 2, at, "a province"), (*at, 2))
    if len(order) > 3:
        _word(order, 3, ("VIA",), at)
        seas = _item(order, 4, at, "(sea ...)")
        if not isinstance(seas, tuple):
            raise GrammarError(f"(sea province ...), not {seas!r}", (*at, 4))
        _item(seas, 0, (*at, 4), "a sea province")
        for index, sea in enumerate(seas):
            _province(sea, (*at, 4, index))
        _end(order, 5, at)
    return f"{unit} - {dest} VIA"


def _unit_only(order: tuple[Node, ...], unit: str, at: Path) -> str:
    _end(order, 2, at)
    return f"BUILD {unit}" if order[1] == "BLD" else f"{unit} D"


_ORDER_READERS = {
    "HLD": _hold,
    "MTO": _move,
    "RTO": _move,
    "SUP": _support,
    "CVY": _convoy,
    "CTO": _by_convoy,
    "DSB": _unit_only,
    "REM": _unit_only,
    "BLD": _unit_only,
}


def order_node(order: Mapping[str, Any], owners: Mapping[str, tuple[str, str]]) -> Node:
    """A Convoy order dict (engine ``order_to_dict``) as a DAIDE order. ``owners``: province ->
    (power, kind) of the units standing before the phase (whose units a support names)."""
    kind = order.get("type")
    power = str(order["power"])
    if kind == "WAIVE":
        return (TO_DAIDE_POWER[power], "WVE")
    where = str(order.get("unit") or order.get("location"))
    unit = unit_node(power, str(order.get("kind") or owners.get(where.split("/")[0], (power, "A"))[1]), where)

    def other(field: str) -> Node:
        at = str(order[field])
        owner, other_kind = owners.get(at.split("/")[0], (power, str(order.get("target_kind") or "A")))
        return unit_node(owner, str(order.get("target_kind") or other_kind), at)

    match kind:
        case "HOLD":
            return (unit, "HLD")
        case "MOVE" if order.get("via_convoy"):
            return (unit, "CTO", daide_province(str(order["dest"]).split("/")[0]), "VIA", ())
        case "MOVE":
            return (unit, "MTO", daide_location(str(order["dest"])))
        case "SUPPORT_HOLD":
            return (unit, "SUP", other("target"))
        case "SUPPORT_MOVE":
            return (unit, "SUP", other("origin"), "MTO", daide_province(str(order["dest"]).split("/")[0]))
        case "CONVOY":
            return (unit, "CVY", other("origin"), "CTO", daide_province(str(order["dest"]).split("/")[0]))
        case "RETREAT":
            return (unit, "RTO", daide_location(str(order["dest"])))
        case "DISBAND":
            return (unit, "DSB")
        case "BUILD":
            return (unit, "BLD")
    raise GrammarError(f"no DAIDE form for {order!r}")


def result_node(result: Mapping[str, Any]) -> Node:
    """``(SUC)``, ``(BNC RET)``...: the order's outcome, RET when its unit was dislodged."""
    base = RESULTS.get(str(result.get("result")), "NSO")
    words: list[Node] = [base] if base else []
    if result.get("dislodged"):
        words.append("RET")
    return tuple(words) if words else ("SUC",)


def unit_note(order: Node, view: Mapping[str, Any]) -> str | None:
    """``NSU`` (or ``NYU``) for an order whose units do not stand on the board as it names them
    (``(GER FLT MUN)`` for the army in Munich), else None. DAIDE names every unit by power,
    type and place; Convoy's order entry reads ``F MUN H`` as the unit in Munich, whatever
    its type, so the bridge checks the names against the position (``view``: units, and the
    dislodged ones in a retreat phase). Builds are not on the board yet: not checked."""
    if not isinstance(order, tuple) or len(order) < 2 or order[1] in ("BLD", "WVE"):
        return None
    board: dict[str, list[tuple[str, str, str]]] = {}
    for unit in [*view.get("units", ()), *(d["unit"] for d in view.get("dislodged") or ())]:
        where = str(unit["location"])
        board.setdefault(where.split("/")[0], []).append((str(unit["power"]), str(unit["kind"]), where))
    for index, node in enumerate(order[:3]):
        if index == 1 or not (isinstance(node, tuple) and len(node) == 3 and node[0] in TO_CONVOY_POWER):
            continue
        power, kind, where = read_unit(node)
        there = board.get(where.split("/")[0], [])
        if index and not there:
            continue  # a support or convoy of no unit: Convoy's own refusal says which
        mine = [(k, w) for p, k, w in there if p == power]
        if not any(k == kind and (w == where or "/" not in where) for k, w in mine):
            return "NYU" if index == 0 and there and not mine else "NSU"
    return None


def turn(view: Mapping[str, Any]) -> Node:
    return (SEASON[(str(view["season"]), str(view["phase_type"]))], int(view["year"]))


def _is_retreat_phase(view: Mapping[str, Any]) -> bool:
    return str(view["phase_type"]) == "RETREAT"


def now_message(view: Mapping[str, Any]) -> Message:
    """NOW (turn) (unit) ...: every unit; in a retreat phase the dislodged ones with MRT."""
    units: list[Node] = [unit_node(u["power"], u["kind"], u["location"]) for u in view["units"]]
    for d in view.get("dislodged") or ():
        unit = d["unit"]
        retreats = tuple(daide_location(r) for r in d["retreats"])
        units.append((*unit_node(unit["power"], unit["kind"], unit["location"]), "MRT", retreats))  # type: ignore[misc]
    return ("NOW", turn(view), *units)


def sco_message(ownership: Mapping[str, str], centres: Iterable[str]) -> Message:
    """SCO (power centre ...) ... (UNO centre ...): who owns every supply centre."""
    by_power: dict[str, list[str]] = {}
    for centre in sorted(centres):
        owner = ownership.get(centre)
        by_power.setdefault(TO_DAIDE_POWER[owner] if owner else "UNO", []).append(daide_province(centre))
    order = [p for p in POWERS if p in by_power] + (["UNO"] if "UNO" in by_power else [])
    return ("SCO", *((p, *sorted(by_power[p])) for p in order))


def missing_message(view: Mapping[str, Any], power: str, ordered: Sequence[str]) -> Message:
    """MIS: the caller's units still without an order (movement), its dislodged units without
    one (retreats, with MRT), or in adjustments MIS (n): "if number is positive, ... that many
    more disbands; if number is negative, ... that many more builds" (DAIDE Message Syntax,
    MIS; MILA's transcripts agree: ``MIS (#-1)`` for one build owed). A bare MIS means nothing
    is missing."""
    if str(view["phase_type"]) == "ADJUSTMENT":
        owed = view.get("owed") or {}
        done = len([o for o in ordered if o.startswith(("BUILD", "WAIVE")) or o.endswith(" D")])
        builds, removals = int(owed.get("builds", 0)), int(owed.get("disbands", 0))
        left = -(builds - done) if builds else removals - done
        return ("MIS", (left,)) if left else ("MIS",)
    have = {o.split()[1].split("/")[0] for o in ordered if len(o.split()) > 1}
    if _is_retreat_phase(view):
        out: list[Node] = []
        for d in view.get("dislodged") or ():
            unit = d["unit"]
            if unit["power"] == power and unit["location"].split("/")[0] not in have:
                retreats = tuple(daide_location(r) for r in d["retreats"])
                out.append((*unit_node(power, unit["kind"], unit["location"]), "MRT", retreats))  # type: ignore[misc]
        return ("MIS", *out)
    mine = [u for u in view["units"] if u["power"] == power and u["location"].split("/")[0] not in have]
    return ("MIS", *(unit_node(power, u["kind"], u["location"]) for u in mine))
