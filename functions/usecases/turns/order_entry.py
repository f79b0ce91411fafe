"""Order entry rules: what a submission may change, and what it must refuse (issue 10).

A player must be able to trust order entry, so this module answers three questions
before anything is stored:

1. *Is each order readable and legal?* The engine parses (``UNPARSEABLE_ORDER``) and
   validates (``ILLEGAL_ORDER`` with the engine's code). A wrong-phase order always gets
   the phase answer: in a retreat phase the engine reads ``A GRE - ALB`` as a retreat,
   so for a unit that was not dislodged the move reading is checked too and its
   ``WRONG_PHASE`` answer is given instead of ``NOT_DISLODGED``.
2. *Would adjudication void it anyway?* Entry refuses it now, with a stable code:
   a second order for a unit or province already ordered in the same request
   (``DUPLICATE_ORDER``; ``BUILD A MAR`` + ``BUILD F MAR``), builds or waives beyond the
   power's allowance (``TOO_MANY_BUILDS``), removals beyond what it owes
   (``TOO_MANY_DISBANDS``). The allowance is the engine's ``adjustment_balance``, the
   same number adjudication uses.
3. *What does the stored set become?* (``merge``) A submission never removes a valid
   order because another order in it was rejected:
   - ``replace`` with every order accepted: the accepted orders are the whole set;
   - otherwise (``add``, or ``replace`` with any rejection): each accepted order replaces
     the previous order for its unit; every other previous order stays.
   A power counts as submitted once it has at least one accepted order, or sent an
   explicit empty set (``replace`` with ``orders: []``: "my units hold").
Nothing here does I/O; ``submit_orders`` stores what ``merge`` returns.
"""

from __future__ import annotations

from typing import NamedTuple

import engine
from functions.usecases.game import order_key

WAIVE_PREFIX = "WAIVE#"


class Rejection(NamedTuple):
    """One order refused, with its stable code and a message for the player."""

    order: str
    code: str
    message: str
    engine_code: str | None = None


class Entry(NamedTuple):
    """One request read: accepted orders by unit key (request order) and the rejections."""

    orders: dict[str, engine.Order]  # no defaults: each entry gets its own dict and list
    rejected: list[Rejection]

    @property
    def keyed(self) -> dict[str, str]:
        return {key: engine.format_order(order) for key, order in self.orders.items()}

    @property
    def accepted(self) -> list[str]:
        return list(self.keyed.values())


def read_orders(
    texts: list[str], power: str, state: engine.GameState, the_map: engine.MapData
) -> Entry:
    """Parse and validate each text; refuse a second order for one unit or province."""
    entry = Entry({}, [])
    for text in texts:
        checked = check_order(text, power, state, the_map)
        if isinstance(checked, Rejection):
            entry.rejected.append(checked)
            continue
        key = order_key(checked)
        if key == "WAIVE":
            key = f"{WAIVE_PREFIX}{len(entry.orders)}"
        if key in entry.orders:
            entry.rejected.append(Rejection(
                text, "DUPLICATE_ORDER",
                f"{key} already has an order in this request ({engine.format_order(entry.orders[key])}); "
                "send one order per unit or province",
            ))
            continue
        entry.orders[key] = checked
    return entry


def check_order(
    text: str, power: str, state: engine.GameState, the_map: engine.MapData
) -> engine.Order | Rejection:
    """The order-entry answer for one text: the canonical order, or why it is refused
    (also the sandbox's per-order answer, functions/usecases/sandbox/sandbox.py)."""
    try:
        order = engine.parse_order(text, power=power, state=state, map=the_map)
    except engine.OrderSyntaxError as exc:
        return Rejection(text, "UNPARSEABLE_ORDER", str(exc) or "cannot read this order")
    result = engine.validate(order, state, the_map)
    if result.ok:
        return result.order or order
    code = str(result.code) if result.code is not None else None
    reason = result.reason or "illegal order"
    if code == "NOT_DISLODGED":
        as_move = _move_reading(text, power, state, the_map)
        if as_move is not None:
            code, reason = as_move
    return Rejection(text, "ILLEGAL_ORDER", reason, code)


def _move_reading(
    text: str, power: str, state: engine.GameState, the_map: engine.MapData
) -> tuple[str, str] | None:
    """The engine's answer to ``text`` read without the phase (a move, say), if that
    reading is a wrong-phase order: the answer a player typing a move needs."""
    try:
        order = engine.parse_order(text, power=power, state=None, map=the_map)
    except engine.OrderSyntaxError:
        return None
    result = engine.validate(order, state, the_map)
    if result.code is not None and str(result.code) == "WRONG_PHASE":
        return str(result.code), result.reason
    return None


def stored_orders(
    texts: list[str], power: str, state: engine.GameState, the_map: engine.MapData
) -> dict[str, engine.Order]:
    """The stored (already accepted, canonical) orders of ``power`` by unit key."""
    return read_orders(texts, power, state, the_map).orders


def merge(previous: dict[str, engine.Order], entry: Entry, mode: str) -> dict[str, engine.Order]:
    """The power's order set after this request (module docstring, point 3)."""
    if mode == "replace" and not entry.rejected:
        return dict(entry.orders)
    merged = dict(previous)
    merged.update(entry.orders)  # a replaced unit keeps its place in the list
    return merged


def enforce_allowance(
    merged: dict[str, engine.Order],
    entry: Entry,
    power: str,
    state: engine.GameState,
    the_map: engine.MapData,
) -> tuple[dict[str, engine.Order], Entry]:
    """Refuse this request's builds/waives beyond the allowance and removals beyond what
    is owed (later ones first); earlier stored orders were within it already."""
    if str(state.phase_type) != "ADJUSTMENT":
        return merged, entry
    balance = engine.adjustment_balance(state, the_map, power)
    limit, code, what = (
        (balance, "TOO_MANY_BUILDS", "build(s) or waive(s)")
        if balance > 0
        else (-balance, "TOO_MANY_DISBANDS", "removal(s)")
    )
    counted = [k for k, order in merged.items() if _counts(order, balance)]
    excess = len(counted) - limit
    if excess <= 0:
        return merged, entry
    fresh = [k for k in reversed(counted) if k in entry.keyed][:excess]
    kept = {k: v for k, v in merged.items() if k not in fresh}
    rejected = list(entry.rejected) + [
        Rejection(engine.format_order(entry.orders[k]), code,
                  f"{power} owes {limit} {what} this phase; this one is one too many")
        for k in reversed(fresh)
    ]
    accepted = {k: v for k, v in entry.orders.items() if k not in fresh}
    return kept, Entry(accepted, rejected)


def _counts(order: engine.Order, balance: int) -> bool:
    """Does ``order`` use up the allowance: a build or waive when builds are due, a
    removal when removals are due."""
    if balance > 0:
        return isinstance(order, (engine.Build, engine.Waive))
    return isinstance(order, engine.Disband)


def owed(state: engine.GameState, the_map: engine.MapData, power: str | None) -> dict[str, int]:
    """What the view tells a power about this phase: ``{"builds": n, "disbands": n}``
    (both 0 outside adjustment phases)."""
    if power is None or str(state.phase_type) != "ADJUSTMENT":
        return {"builds": 0, "disbands": 0}
    balance = engine.adjustment_balance(state, the_map, power)
    return {"builds": max(balance, 0), "disbands": max(-balance, 0)}
