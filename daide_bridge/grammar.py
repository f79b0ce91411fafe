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
Not an order, or not one of these shapes: ``GrammarError`` (the server answers HUH).
Standard library only; no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from daide_bridge.messages import Message, Node
from daide_bridge.tokens import POWERS

CONVOY_POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
TO_CONVOY_POWER = dict(zip(POWERS, CONVOY_POWERS, strict=True))
TO_DAIDE_POWER = {v: k for k, v in TO_CONVOY_POWER.items()}
_SEAS = {"ECH": "ENG", "GOB": "BOT", "GOL": "LYO"}
_SEAS_BACK = {v: k for k, v in _SEAS.items()}
TO_CONVOY_COAST = {"NCS": "NC", "SCS": "SC", "ECS": "EC", "WCS": "WC"}
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


class GrammarError(ValueError):
    """Not a message of the shapes this module knows."""


def convoy_province(name: Node) -> str:
    if not isinstance(name, str):
        raise GrammarError(f"a province, not {name!r}")
    return _SEAS.get(name, name)


def daide_province(province: str) -> str:
    return _SEAS_BACK.get(province, province)


def _location(node: Node) -> str:
    """``PAR`` or ``(STP SCS)`` as Convoy's ``PAR`` / ``STP/SC``."""
    if isinstance(node, tuple):
        if len(node) != 2 or node[1] not in TO_CONVOY_COAST:
            raise GrammarError(f"a province with a coast, not {node!r}")
        return f"{convoy_province(node[0])}/{TO_CONVOY_COAST[str(node[1])]}"
    return convoy_province(node)


def daide_location(location: str) -> Node:
    province, _, coast = location.partition("/")
    return (daide_province(province), TO_DAIDE_COAST[coast]) if coast else daide_province(province)


def read_unit(node: Node) -> tuple[str, str, str]:
    """``(FRA FLT (SPA SCS))`` as (``FRANCE``, ``F``, ``SPA/SC``)."""
    if (
        not isinstance(node, tuple)
        or len(node) != 3
        or node[0] not in TO_CONVOY_POWER
        or node[1] not in _KIND
    ):
        raise GrammarError(f"a unit (power type province), not {node!r}")
    return TO_CONVOY_POWER[str(node[0])], _KIND[str(node[1])], _location(node[2])


def unit_node(power: str, kind: str, location: str) -> Node:
    return (TO_DAIDE_POWER[power], _KIND_BACK[kind], daide_location(location))


def _unit_text(node: Node) -> str:
    _, kind, where = read_unit(node)
    return f"{kind} {where}"


def order_text(order: Node) -> tuple[str, str]:
    """A DAIDE order as (its power, Convoy's order text)."""
    if not isinstance(order, tuple) or len(order) < 2:
        raise GrammarError(f"an order, not {order!r}")
    if order[1:] == ("WVE",) and order[0] in TO_CONVOY_POWER:
        return TO_CONVOY_POWER[str(order[0])], "WAIVE"
    power, _, _ = read_unit(order[0])
    unit, verb, rest = _unit_text(order[0]), order[1], order[2:]
    match (verb, rest):
        case ("HLD", ()):
            return power, f"{unit} H"
        case ("MTO", (dest,)):
            return power, f"{unit} - {_location(dest)}"
        case ("SUP", (other,)):
            return power, f"{unit} S {_unit_text(other)}"
        case ("SUP", (other, "MTO", dest)):
            return power, f"{unit} S {_unit_text(other)} - {convoy_province(dest)}"
        case ("CVY", (other, "CTO", dest)):
            return power, f"{unit} C {_unit_text(other)} - {convoy_province(dest)}"
        case ("CTO", (dest, "VIA", tuple())):
            return power, f"{unit} - {convoy_province(dest)} VIA"
        case ("RTO", (dest,)):
            return power, f"{unit} R {_location(dest)}"
        case ("DSB", ()) | ("REM", ()):
            return power, f"{unit} D"
        case ("BLD", ()):
            return power, f"BUILD {unit}"
    raise GrammarError(f"not an order: {order!r}")


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
    one (retreats, with MRT), or in adjustments MIS (n): builds still owed (removals negative).
    A bare MIS means nothing is missing."""
    if str(view["phase_type"]) == "ADJUSTMENT":
        owed = view.get("owed") or {}
        done = len([o for o in ordered if o.startswith(("BUILD", "WAIVE")) or o.endswith(" D")])
        builds, removals = int(owed.get("builds", 0)), int(owed.get("disbands", 0))
        left = (builds - done) if builds else -(removals - done)
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
