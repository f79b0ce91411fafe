"""Read-side use cases: the player's view (the one place it is built), orders status,
last resolution, phase history, the event log, game listings and variants.

Redaction: a player sees its own pending orders only; of the others only whether
they submitted. Observers (no token), the creator and the scheduler see no pending
orders at all. Nothing here returns a secret (token or password hashes).
"""

from __future__ import annotations

from typing import Any

import engine
from functions.ports import GameRecord, GameStore
from functions.usecases.game import game_map, load, state_of, with_scores
from functions.usecases.players import (
    ANONYMOUS,
    Actor,
    dummy_powers,
    event_seen,
    fog_block,
    in_civil_disorder,
    open_seats,
    phase_entry,
    seat_status,
    seen_by,
    votes_seen_by,
    waited_on,
)
from functions.usecases.players import (
    last_resolution as resolution_seen,
)
from functions.usecases.turns.order_entry import owed


def powers_to_wait_on(game: GameRecord) -> list[str]:
    """Powers with a decision to make this phase (engine's ``powers_with_orders_to_give``),
    less those nobody waits on: dummies, and open seats or civil disorder once started."""
    if game.status != "ACTIVE":
        return []
    return waited_on(game, state_of(game), game_map(game.variant))


def missing_powers(game: GameRecord) -> list[str]:
    return [p for p in powers_to_wait_on(game) if p not in game.pending_orders]


def _unit(unit: engine.Unit) -> dict[str, str]:
    return {"kind": str(unit.kind), "power": unit.power, "location": str(unit.location)}


def _board(state: engine.GameState, the_map: engine.MapData) -> dict[str, Any]:
    """The board's part of a view: units (also by power), ownership, dislodged units, contested provinces."""
    units = sorted(state.units, key=lambda u: (u.power, str(u.location)))
    by_power: dict[str, list[dict[str, str]]] = {p: [] for p in sorted(the_map.power_ids)}
    for unit in units:
        by_power.setdefault(unit.power, []).append(_unit(unit))
    ownership = dict(sorted(state.ownership.items()))
    dislodged = [{"unit": _unit(d.unit), "attacker_origin": d.attacker_origin,
                  "retreats": [str(r) for r in d.retreats]} for d in state.dislodged]
    return {"units": [_unit(u) for u in units], "units_by_power": by_power, "ownership": ownership,
            "supply_centers": ownership, "dislodged": dislodged, "contested": sorted(state.contested)}


def game_view(game: GameRecord, actor: Actor = ANONYMOUS, unread: int = 0) -> dict[str, Any]:
    """The seed §4 view of ``game`` as seen by ``actor``, redacted; ``unread``: the caller's
    unread press (functions/usecases/press/press.py). In an anonymous game no seat detail shows; in a
    fog game the view is built from the position the caller sees (seen_by)."""
    full = state_of(game)
    state = seen_by(game, actor, full)
    the_map = game_map(game.variant)
    waiting = powers_to_wait_on(game)
    power = actor.power if actor.kind == "player" else None
    anonymous = bool(game.settings.get("anonymous"))
    orders: dict[str, list[str]] = {}
    legal: list[str] = []
    if power is not None:
        orders = {power: list(game.pending_orders.get(power, []))}
        if game.status == "ACTIVE":
            legal = sorted(engine.format_order(o) for o in engine.legal_orders(state, the_map, power))
    return {
        "game_id": game.game_id,
        "map_name": game.variant,
        "variant": game.variant,
        "rules": game.rules,
        "phase": state.phase_name,
        "year": state.year,
        "season": str(state.season),
        "phase_type": str(state.phase_type),
        "status": game.status,
        "winner": _winner(game, state),
        **_board(state, the_map),
        "players": {
            p: {"joined_at": None if anonymous else info.get("joined_at"), "is_active": True,
                "display_name": None if anonymous else info.get("display_name")}
            for p, info in sorted(game.players.items())
        },
        "dummy_powers": dummy_powers(game),
        **lifecycle_view(game, power),
        "auto_process": bool(game.settings.get("auto_process")),
        "wait_flags": sorted(p for p, up in game.wait_flags.items() if up),
        "paused": game.paused,
        "private": bool(game.settings.get("private")),
        "phase_seconds": dict(game.settings.get("phase_seconds") or {}),
        "deadline": game.deadline,
        "phase_started_at": game.phase_started_at,
        "event_seq": game.event_seq,
        "power": power,
        "orders": orders,
        "submitted": {p: p in game.pending_orders for p in waiting},
        "legal_orders": legal,
        "owed": owed(state, the_map, power) if game.status == "ACTIVE" else owed(state, the_map, None),
        "press": str(game.settings.get("press") or "full"),
        "anonymous": anonymous,
        "unread": unread,
        "fog": fog_block(game, actor, full),
    }


def _winner(game: GameRecord, state: engine.GameState) -> str | None:
    result = game.result or {}
    if result.get("kind") in ("solo", "concession"):
        return str(result["winners"][0])
    return getattr(state, "winner", None)


LIFECYCLE_SETTINGS = ("draw_votes", "max_year", "nmr_extensions", "civil_disorder_after", "deadline_at",
                      "scoring", "min_reliability", "min_rating")  # the last three: issue 34


def lifecycle_view(game: GameRecord, power: str | None) -> dict[str, Any]:
    """Seats, votes (redacted by ballot), the result and the lifecycle settings (issue 12)."""
    settings = {k: game.settings[k] for k in LIFECYCLE_SETTINGS if game.settings.get(k) is not None}
    return {
        "seats": {
            p: {"status": seat_status(game, p), "missed": int((game.seats.get(p) or {}).get("missed", 0))}
            for p in sorted(game_map(game.variant).power_ids)
        },
        "open_seats": open_seats(game),
        "civil_disorder": in_civil_disorder(game),
        "votes": votes_seen_by(game, power),
        "result": with_scores(game.result),
        "demo": bool(game.settings.get("demo")),
        "settings": {"draw_votes": "secret", **settings},
    }


def orders_status(game: GameRecord) -> dict[str, Any]:
    waiting = powers_to_wait_on(game)
    return {
        "phase": game.phase,
        "powers_with_orders": waiting,
        "submitted": {p: p in game.pending_orders for p in waiting},
        "waiting_on": [p for p in waiting if p not in game.pending_orders],
        "deadline": game.deadline,
    }


def last_resolution(store: GameStore, game_id: str, actor: Actor = ANONYMOUS) -> dict[str, Any]:
    """The last adjudicated phase's results (in a fog game: what ``actor`` saw of it)."""
    game = load(store, game_id)
    last = store.last_phase(game_id)
    if last is None:
        return {"results": []}
    answer = {"phase": last.phase, "results": list(last.resolution.get("results", []))}
    return resolution_seen(game, actor, answer, last.state_before)


HISTORY_PAGE = 50  # phases per page by default (~7 KB each: a page stays far below 6 MB)
HISTORY_PAGE_MAX = 200


def history_page(
    store: GameStore, game_id: str, *, after: int = -1, limit: int = HISTORY_PAGE, actor: Actor = ANONYMOUS
) -> tuple[list[dict[str, Any]], int | None]:
    """(phases with ``n > after``, oldest first, at most ``limit``; the ``n`` to continue after,
    or None when this page reached the last phase). Issue 11: a 1,100-phase game's whole
    history passed Lambda's 6 MB response limit. In a fog game each phase is what ``actor``
    saw of it (phase_entry)."""
    game = load(store, game_id)
    found = store.phases(game_id, after=after, limit=limit + 1)
    page = found[:limit]
    more = len(found) > limit
    entries = [phase_entry(game, actor, _history_entry(p)) for p in page]
    return entries, (page[-1].n if more and page else None)


def _history_entry(p: Any) -> dict[str, Any]:
    return {
        "n": p.n,
        "phase": p.phase,
        "state": p.state_before,
        "orders": p.orders,
        # the stored resolution holds "results" and "notes" (older phases: "results" only);
        # name its phase as the process_turn answer and last_resolution do
        "resolution": {**p.resolution, "phase": p.phase},
        "processed_at": p.processed_at,
    }


def history(store: GameStore, game_id: str) -> list[dict[str, Any]]:
    """Every adjudicated phase at once, unredacted (for callers inside the service; the API
    pages, through ``history_page``)."""
    load(store, game_id)
    return [_history_entry(p) for p in store.phases(game_id)]


def events_after(
    store: GameStore, game_id: str, after: int, limit: int = 100, actor: Actor = ANONYMOUS
) -> dict[str, Any]:
    """The log after ``after`` (in a fog game: as ``actor`` sees it, event_seen)."""
    game = load(store, game_id)
    found = store.events_after(game_id, after, limit)
    return {
        "events": [
            event_seen(
                game, actor, {"seq": e.seq, "type": e.type, "phase": e.phase, "data": e.data, "at": e.at})
            for e in found
        ],
        "last_seq": game.event_seq,
    }


def list_variants() -> list[dict[str, Any]]:
    out = []
    for name in sorted(engine.available_maps()):
        the_map = game_map(name)
        # the provinces' names: a client says "Paris", not "PAR", to people and screen readers
        provinces = {pid: the_map.provinces[pid].name for pid in sorted(the_map.provinces)}
        out.append({"name": name, "powers": sorted(the_map.power_ids), "rules": sorted(engine.RULEBOOKS),
                    "provinces": provinces})
    return out
