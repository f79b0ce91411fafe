"""JSON-ready dicts for states, orders and resolutions (data-model seed §2).

The one place engine values cross into JSON. Every function here round-trips
exactly (``state_from_dict(state_to_dict(s)) == s``) and writes deterministic
output: sets become sorted lists, ``to_json`` sorts keys. Locations are their
canonical strings (``PAR``, ``SPA/SC``), enums their ``.value``, unit letters
``"A"``/``"F"`` or null. Malformed input raises ValueError.

Shapes::

    unit        {"kind": "A", "power": "FRANCE", "location": "PAR"}
    dislodged   {"unit": unit, "attacker_origin": "BUR" | null, "retreats": ["GAS", ...]}
    state       {"year", "season", "phase_type", "units": [unit...], "ownership": {prov: power},
                 "dislodged": [...], "contested": [prov...], "status", "winner"}
    order       {"type": "MOVE", "power": "FRANCE", "unit": "PAR", "dest": "BUR",
                 "via_convoy": false, "kind": "A"}   (each class writes exactly its own fields)
    resolution  {"results": [{"order": order, "result": "BOUNCE", "dislodged": false,
                  "retreat_options": [...], "reason": {"code", "units", "detail"} | null,
                  "explanation": explanation | null}],
                 "notes": [{"kind", "phase", "powers", "units", "text"}]}
    explanation {"decision": "MOVE", "strengths": [{"kind": "ATTACK", "unit": "PAR", "value": 2,
                  "supporters": ["MAR"], "cut": [{"unit": "BUR", "by": ["MUN"]}], "excluded": []}],
                 "units": {"opponents": ["MUN"], ...}, "text": "A PAR moved to BUR: ..."}

It does not read or write files, and knows nothing of persistence.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any, TypeVar

from engine.reasons import Decision, Explanation, Role, Strength, StrengthKind, reason_code
from engine.types import (
    ORDER_CLASSES,
    DislodgedUnit,
    GameState,
    GameStatus,
    Location,
    NoteKind,
    Order,
    OrderResult,
    OrderType,
    Ownership,
    PhaseNote,
    PhaseType,
    Reason,
    Resolution,
    ResultCode,
    Season,
    Unit,
    UnitKind,
    unit_order,
)

_T = TypeVar("_T")
_E = TypeVar("_E", bound=Enum)

_ORDER_CLASS_BY_TYPE: dict[OrderType, type] = {
    OrderType(getattr(cls, "order_type")): cls for cls in ORDER_CLASSES  # noqa: B009 (class attribute)
}
_LOCATION_FIELDS = frozenset({"unit", "dest", "target", "origin", "location"})
_KIND_FIELDS = frozenset({"kind", "target_kind"})
_BOOL_FIELDS = frozenset({"via_convoy"})


def _guard(what: str, read: Callable[[], _T]) -> _T:
    """Run a decoder, turning any malformed-input failure into a ValueError naming ``what``."""
    try:
        return read()
    except ValueError:
        raise
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        raise ValueError(f"malformed {what}: {exc!r}") from exc


# --- locations and units ---------------------------------------------------------------------


def location_to_str(location: Location) -> str:
    """``PAR`` or ``SPA/SC``."""
    return str(location)


def location_from_str(text: str) -> Location:
    if not isinstance(text, str):
        raise ValueError(f"a location is a string, not {text!r}")
    return Location.parse(text)


def _kind_to_str(kind: UnitKind | None) -> str | None:
    return None if kind is None else str(kind)


def _kind_from_str(value: Any) -> UnitKind | None:
    return None if value is None else UnitKind(value)


def _unit_to_dict(unit: Unit) -> dict[str, Any]:
    kind, power, location = unit.row
    return {"kind": kind, "power": power, "location": location}


def _unit_from_dict(d: Mapping[str, Any]) -> Unit:
    return Unit(_word(UnitKind, d["kind"]), d["power"], location_from_str(d["location"]))


_WORDS: dict[tuple[type, Any], Any] = {
    (enum, member.value): member for enum in (UnitKind, Season, PhaseType, GameStatus) for member in enum
}


def _word(enum: type[_E], value: Any) -> _E:
    """``enum(value)`` by table (an Enum call is slow); unknown values raise as it does."""
    member = _WORDS.get((enum, value)) if isinstance(value, str) else None
    return member if member is not None else enum(value)


def _dislodged_to_dict(d: DislodgedUnit) -> dict[str, Any]:
    return {
        "unit": _unit_to_dict(d.unit),
        "attacker_origin": d.attacker_origin,
        "retreats": [location_to_str(loc) for loc in d.retreats],
    }


def _dislodged_from_dict(d: Mapping[str, Any]) -> DislodgedUnit:
    return DislodgedUnit(
        _unit_from_dict(d["unit"]),
        d.get("attacker_origin"),
        tuple(location_from_str(s) for s in d.get("retreats", ())),
    )


# --- states ----------------------------------------------------------------------------------


def state_to_dict(state: GameState) -> dict[str, Any]:
    return {
        "year": state.year,
        "season": str(state.season),
        "phase_type": str(state.phase_type),
        "units": [_unit_to_dict(u) for u in sorted(state.units, key=unit_order)],
        "ownership": dict(state.ownership),
        "dislodged": [_dislodged_to_dict(d) for d in state.dislodged],
        "contested": sorted(state.contested),
        "status": str(state.status),
        "winner": state.winner,
    }


def state_from_dict(d: Mapping[str, Any]) -> GameState:
    def read() -> GameState:
        year = d["year"]
        if not isinstance(year, int) or isinstance(year, bool):
            raise ValueError(f"year must be an integer, not {year!r}")
        return GameState(
            year=year,
            season=_word(Season, d["season"]),
            phase_type=_word(PhaseType, d["phase_type"]),
            units=frozenset([_unit_from_dict(u) for u in d.get("units", ())]),
            ownership=Ownership(d.get("ownership", {})),  # copied in there
            dislodged=tuple(_dislodged_from_dict(x) for x in d.get("dislodged", ())),
            contested=frozenset(d.get("contested", ())),
            status=_word(GameStatus, d.get("status", "ACTIVE")),
            winner=d.get("winner"),
        )

    return _guard("state", read)


# --- orders ----------------------------------------------------------------------------------


def order_to_dict(order: Order) -> dict[str, Any]:
    """``{"type", "power", ...}`` plus exactly the fields of the order's class."""
    out: dict[str, Any] = {"type": order.order_type.value, "power": order.power}
    for f in dataclasses.fields(order):
        if f.name == "power":
            continue
        value = getattr(order, f.name)
        if f.name in _LOCATION_FIELDS:
            out[f.name] = location_to_str(value)
        elif f.name in _KIND_FIELDS:
            out[f.name] = _kind_to_str(value)
        else:
            out[f.name] = value
    return out


def order_from_dict(d: Mapping[str, Any]) -> Order:
    def read() -> Order:
        order_type = OrderType(d["type"])
        cls = _ORDER_CLASS_BY_TYPE[order_type]
        power = d["power"]
        if not isinstance(power, str):
            raise ValueError(f"power must be a string, not {power!r}")
        kwargs: dict[str, Any] = {"power": power}
        for f in dataclasses.fields(cls):
            if f.name == "power":
                continue
            if f.name in _LOCATION_FIELDS:
                kwargs[f.name] = location_from_str(d[f.name])
            elif f.name in _KIND_FIELDS:
                kwargs[f.name] = _kind_from_str(d.get(f.name))
            elif f.name in _BOOL_FIELDS:
                value = d.get(f.name, False)
                if not isinstance(value, bool):
                    raise ValueError(f"{f.name} must be true or false, not {value!r}")
                kwargs[f.name] = value
        if order_type is OrderType.BUILD and kwargs["kind"] is None:
            raise ValueError("a build needs a unit kind")
        order: Order = cls(**kwargs)
        return order

    return _guard("order", read)


# --- resolutions -----------------------------------------------------------------------------


def _reason_to_dict(reason: Reason | None) -> dict[str, Any] | None:
    if reason is None:
        return None
    return {"code": str(reason.code), "units": list(reason.units), "detail": reason.detail}


def _reason_from_dict(d: Mapping[str, Any] | None) -> Reason | None:
    if d is None:
        return None
    return Reason(reason_code(d["code"]), tuple(d.get("units", ())), d.get("detail", ""))


def _strength_to_dict(s: Strength) -> dict[str, Any]:
    return {
        "kind": s.kind.value,
        "unit": s.unit,
        "value": s.value,
        "supporters": list(s.supporters),
        "cut": [{"unit": unit, "by": list(by)} for unit, by in s.cut],
        "excluded": list(s.excluded),
    }


def _strength_from_dict(d: Mapping[str, Any]) -> Strength:
    value = d["value"]
    if type(value) not in (int, float):
        raise ValueError(f"a strength is a number, not {value!r}")
    return Strength(
        _word(StrengthKind, d["kind"]),
        str(d["unit"]),
        value,
        tuple(d.get("supporters", ())),
        tuple((str(c["unit"]), tuple(c.get("by", ()))) for c in d.get("cut", ())),
        tuple(d.get("excluded", ())),
    )


def _explanation_to_dict(e: Explanation | None) -> dict[str, Any] | None:
    if e is None:
        return None
    return {
        "decision": e.decision.value,
        "strengths": [_strength_to_dict(s) for s in e.strengths],
        "units": {role.value: list(provinces) for role, provinces in e.units},
        "text": e.text,
    }


def _explanation_from_dict(d: Mapping[str, Any] | None) -> Explanation | None:
    if d is None:
        return None
    units = tuple((_word(Role, role), tuple(provinces)) for role, provinces in d.get("units", {}).items())
    strengths = tuple(_strength_from_dict(s) for s in d.get("strengths", ()))
    return Explanation(_word(Decision, d["decision"]), strengths, units, str(d.get("text", "")))


def _result_to_dict(r: OrderResult) -> dict[str, Any]:
    return {
        "order": order_to_dict(r.order),
        "result": r.result.value,
        "dislodged": r.dislodged,
        "retreat_options": [location_to_str(loc) for loc in r.retreat_options],
        "reason": _reason_to_dict(r.reason),
        "explanation": _explanation_to_dict(r.explanation),
    }


def _result_from_dict(d: Mapping[str, Any]) -> OrderResult:
    return OrderResult(
        order=order_from_dict(d["order"]),
        result=ResultCode(d["result"]),
        dislodged=bool(d.get("dislodged", False)),
        retreat_options=tuple(location_from_str(s) for s in d.get("retreat_options", ())),
        reason=_reason_from_dict(d.get("reason")),
        explanation=_explanation_from_dict(d.get("explanation")),
    )


def _note_to_dict(n: PhaseNote) -> dict[str, Any]:
    return {"kind": n.kind.value, "phase": n.phase, "powers": list(n.powers), "units": list(n.units),
            "text": n.text}


def _note_from_dict(d: Mapping[str, Any]) -> PhaseNote:
    return PhaseNote(_word(NoteKind, d["kind"]), str(d["phase"]), tuple(d.get("powers", ())),
                     tuple(d.get("units", ())), str(d.get("text", "")))


def resolution_to_dict(resolution: Resolution) -> dict[str, Any]:
    return {
        "results": [_result_to_dict(r) for r in resolution.results],
        "notes": [_note_to_dict(n) for n in resolution.notes],
    }


def resolution_from_dict(d: Mapping[str, Any]) -> Resolution:
    def read() -> Resolution:
        results = tuple(_result_from_dict(r) for r in d["results"])
        return Resolution(results, tuple(_note_from_dict(n) for n in d.get("notes", ())))

    return _guard("resolution", read)


# --- JSON ------------------------------------------------------------------------------------


def to_json(obj: GameState | Order | Resolution) -> str:
    """Deterministic JSON (sorted keys) for a GameState, any Order, or a Resolution."""
    if isinstance(obj, GameState):
        data = state_to_dict(obj)
    elif isinstance(obj, Resolution):
        data = resolution_to_dict(obj)
    elif isinstance(obj, ORDER_CLASSES):
        data = order_to_dict(obj)
    else:
        raise TypeError(f"to_json takes a GameState, an Order or a Resolution, not {type(obj).__name__}")
    return json.dumps(data, sort_keys=True)


def _loads(text: str | bytes) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc}") from exc


def state_from_json(text: str | bytes) -> GameState:
    return state_from_dict(_loads(text))


def order_from_json(text: str | bytes) -> Order:
    return order_from_dict(_loads(text))


def resolution_from_json(text: str | bytes) -> Resolution:
    return resolution_from_dict(_loads(text))
