"""The stateless adjudication sandbox (issue 19): "what happens if..." without a game.

A caller sends a position (the engine's JSON state, or the compact notation of
shared/seeds/compact-notation.txt plus a phase name) and orders; it gets every order's
validation answer, the resolution with reasons and the next state. Nothing is stored.
Every step is the engine's one path: ``state_from_dict`` / ``parse_compact_state``
read the position (functions/usecases/sandbox/positions.py), ``check_state`` (inside
``engine.Game``) refuses impossible ones,
``parse_order`` / ``parse_compact_order`` read orders, ``order_entry.check_order`` (the
order-entry answer: ``engine.validate``) judges each, ``Game.adjudicate`` resolves, and
``state_to_dict`` / ``format_compact_state`` write the result.

What reaches the adjudicator is every order that *parses*, legal or not, exactly as the
DATC runner gives them (tests/engine/test_datc.py): the engine voids an illegal order and
explains why (DATC 4.E.1), so the sandbox answers the same as a game would. An order that
does not parse is answered ``UNPARSEABLE_ORDER`` and not given, as a game's order entry
refuses it.

Bad input never raises anything but a ``DomainError`` with a stable code:
``BAD_POSITION`` (422: unreadable state, compact text or phase name, a unit where its kind
cannot stand, an owner that is not a power of the variant, dislodged units outside a
retreat phase), ``UNKNOWN_VARIANT`` (400, variant or rulebook), ``UNKNOWN_POWER`` (400, an
orders key). The rate limit is ``take_sandbox_slot`` (per caller, fixed window; docs/api.md
"Sandbox" says why this design).

What the compact notation cannot carry (retreat options, standoff provinces, a move via
convoy): a compact retreat-phase position has dislodged units with no retreat options, so
only their disbands are legal; send the JSON state (``retreats``) to play retreats.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from typing import Any

import engine
from functions.errors import BadPosition, RateLimited, UnknownPower
from functions.ports import RateCounter
from functions.usecases.sandbox.positions import Position, PositionRequest, read_position
from functions.usecases.turns import Rejection, check_order, resolution_view

RATE_LIMIT = 60  # sandbox requests per caller per window (adjudicate and legal_orders together)
RATE_WINDOW_SECONDS = 60
MAX_ORDERS = 200  # orders in one request, all powers together (a full board has 34 units)


# --- orders ----------------------------------------------------------------------------------


def _powers(orders: Mapping[str, Sequence[str]], the_map: engine.MapData) -> dict[str, Sequence[str]]:
    given = {power.strip().upper(): texts for power, texts in orders.items()}
    unknown = sorted(set(given) - set(the_map.power_ids))
    if unknown:
        raise UnknownPower(f"no power {', '.join(unknown)} in {the_map.map_id}")
    if sum(len(texts) for texts in given.values()) > MAX_ORDERS:
        raise BadPosition(f"at most {MAX_ORDERS} orders in one request")
    return given


def _read_order(text: str, power: str, position: Position, notation: str) -> engine.Order | Rejection:
    """Parse (either notation) and judge one order; compact text is parsed at the edge and
    judged as its standard text, so both notations get the one order-entry answer."""
    if notation == "compact":
        try:
            order = engine.parse_compact_order(text, power, position.map)
        except engine.OrderSyntaxError as exc:
            return Rejection(text, "UNPARSEABLE_ORDER", str(exc) or "cannot read this order")
        text = engine.format_order(order)
    return check_order(text, power, position.state, position.map)


def _parsed(text: str, power: str, position: Position, notation: str) -> engine.Order | None:
    """The order as the adjudicator receives it: parsed as written (legal or not), or None."""
    try:
        if notation == "compact":
            return engine.parse_compact_order(text, power, position.map)
        return engine.parse_order(text, power=power, state=position.state, map=position.map)
    except engine.OrderSyntaxError:
        return None


def _answer(power: str, text: str, checked: engine.Order | Rejection) -> dict[str, Any]:
    if isinstance(checked, Rejection):
        return {
            "power": power,
            "order": text,
            "ok": False,
            "canonical": None,
            "code": checked.code,
            "engine_code": checked.engine_code,
            "message": checked.message,
        }
    return {
        "power": power,
        "order": text,
        "ok": True,
        "canonical": engine.format_order(checked),
        "code": None,
        "engine_code": None,
        "message": None,
    }


def _compact(state: engine.GameState, the_map: engine.MapData) -> str:
    return engine.format_compact_state(state, the_map)


def adjudicate(
    request: PositionRequest,
    orders: Mapping[str, Sequence[str]],
    *,
    notation: str = "standard",
    include_compact: bool = False,
) -> dict[str, Any]:
    """Resolve one phase of a position with ``orders`` (power -> texts); store nothing."""
    position = read_position(request)
    given = _powers(orders, position.map)
    answers: list[dict[str, Any]] = []
    by_power: dict[str, list[engine.Order]] = {}
    for power, texts in sorted(given.items()):
        for text in texts:
            answers.append(_answer(power, text, _read_order(text, power, position, notation)))
            parsed = _parsed(text, power, position, notation)
            if parsed is not None:
                by_power.setdefault(power, []).append(parsed)
    game = engine.Game(map=position.map, state=position.state, rules=position.rules)
    following, resolution = game.adjudicate(by_power)
    after = following.current
    return {
        "variant": position.map.map_id,
        "rules": position.rules.name,
        "phase": position.state.phase_name,
        "orders": answers,
        "resolution": {"phase": position.state.phase_name, **resolution_view(resolution)},
        "next": {
            "phase": after.phase_name,
            "status": str(after.status),
            "winner": after.winner,
            "state": engine.state_to_dict(after),
            "compact": _compact(after, position.map) if include_compact else None,
        },
        "compact": _compact(position.state, position.map) if include_compact else None,
    }


def _compact_menu(orders: list[engine.Order]) -> list[str]:
    out = []
    for order in orders:
        try:
            out.append(engine.format_compact_order(order))
        except ValueError:  # a move via convoy, a waive: the notation has no form for them
            continue
    return out


def legal_order_menus(
    request: PositionRequest, powers: Sequence[str] | None = None, *, include_compact: bool = False
) -> dict[str, Any]:
    """Every legal order of each power (default: those with a decision to make), sorted."""
    position = read_position(request)
    known = set(position.map.power_ids)
    wanted = (
        sorted({p.strip().upper() for p in powers})
        if powers is not None
        else list(engine.powers_with_orders_to_give(position.state, position.map))
    )
    unknown = sorted(set(wanted) - known)
    if unknown:
        raise UnknownPower(f"no power {', '.join(unknown)} in {position.map.map_id}")
    menus = engine.legal_menus(position.state, position.map, wanted)
    return {
        "variant": position.map.map_id,
        "rules": position.rules.name,
        "phase": position.state.phase_name,
        "legal_orders": {p: sorted(engine.format_order(o) for o in menu) for p, menu in menus.items()},
        "legal_orders_compact": (
            {p: sorted(_compact_menu(menu)) for p, menu in menus.items()} if include_compact else None
        ),
    }


# --- the rate limit --------------------------------------------------------------------------


def caller_key(source_ip: str | None) -> str:
    """Who a caller is for the rate limit: its source address as API Gateway saw it (never a
    header the client writes), hashed so no address is stored."""
    return "sandbox#" + hashlib.sha256((source_ip or "unknown").encode()).hexdigest()[:32]


def take_sandbox_slot(
    counter: RateCounter | None,
    source_ip: str | None,
    now: float,
    limit: int = RATE_LIMIT,
    window_seconds: int = RATE_WINDOW_SECONDS,
) -> None:
    """Count this request against its caller's window; ``RATE_LIMITED`` (429, Retry-After)
    once the window's ``limit`` is used. ``counter`` None: not limited (in-process tests)."""
    if counter is None:
        return
    window = int(now) // window_seconds * window_seconds
    if not counter.take(caller_key(source_ip), window, limit, window + 2 * window_seconds):
        wait = max(1, math.ceil(window + window_seconds - now))
        raise RateLimited(
            f"at most {limit} sandbox requests per {window_seconds} s from one caller; retry in {wait} s",
            retry_after=wait,
        )
