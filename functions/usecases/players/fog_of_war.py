"""Fog of war (issue 35 item 3): the one redaction every route, socket and notice of a fog game
passes its position, orders and results through. The rule itself is engine/fog.py's.

A game is fogged while it is ACTIVE and was created with ``fog: true``; once it has ended
everything is public (its history, maps, export, archive and replay). While it is fogged:

* a player sees what engine/fog.py says its power sees *of the position the thing belongs to*:
  the current view and live board from the current position; a phase of the history, the last
  resolution and a map of an adjudicated phase from that phase's position before it was played;
* an observer (no token, the creator's or the operator's token, an account with no seat) sees
  nothing of the position: no unit, no centre's owner, no order, no result. Seats, deadlines,
  who submitted, votes as their ballot rule says and press stay as in any game;
* an order or a result is kept only when every province it names is seen (its own power's
  orders always are), and a result's explanation or reason only when every province it names is
  seen; the event log, which has no position at hand, keeps the caller's own orders and results
  only, without reasons (``GET /games/{id}/history`` has the rest).
* each power's centre count is public (``fog.centres`` in the view): builds, victory and draws
  turn on it. Unit counts are not: another power's ``count`` of submitted orders is left out.

What "names" means: every upper-case word of the order's text, its stored form, its reason,
explanation and retreat options that is a province of the map ("A MUN - BUR" names MUN and BUR,
"STP/SC" names STP). Over-hiding is the only mistake this can make.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import engine
from engine.fog import seen_position, visible_provinces
from functions.ports import GameRecord
from functions.usecases.game import game_map
from functions.usecases.players.identity import Actor

SETTING = "fog"
_WORD = re.compile(r"[A-Z][A-Z0-9]*")
# events of the log whose data holds a power's order count (a hint of its unit count)
_COUNTED = frozenset({"ORDERS_SUBMITTED", "ORDERS_RETRACTED"})


def is_fog_game(game: GameRecord) -> bool:
    return bool(game.settings.get(SETTING))


def fogged(game: GameRecord) -> bool:
    """Whether ``game`` hides anything now: a fog game until it ends."""
    return is_fog_game(game) and game.status == "ACTIVE"


def seer(actor: Actor) -> str | None:
    """The power whose eyes ``actor`` has (None: an observer, who sees nothing)."""
    return actor.power if actor.kind == "player" else None


def sight(game: GameRecord, actor: Actor, state: engine.GameState) -> frozenset[str] | None:
    """The provinces ``actor`` sees of ``state`` in ``game``; None when nothing is hidden."""
    if not fogged(game):
        return None
    return visible_provinces(state, game_map(game.variant), seer(actor))


def seen_by(game: GameRecord, actor: Actor, state: engine.GameState) -> engine.GameState:
    """``state`` as ``actor`` sees it: the position its view, menu, order checks and what-if use."""
    seen = sight(game, actor, state)
    return state if seen is None else seen_position(state, seen)


def fog_block(game: GameRecord, actor: Actor, state: engine.GameState) -> dict[str, Any] | None:
    """The view's ``fog``: which provinces the caller sees and every power's centre count
    (None in a game without fog, or once it has ended)."""
    seen = sight(game, actor, state)
    if seen is None:
        return None
    board = game_map(game.variant)
    counts = {p: 0 for p in sorted(board.power_ids)}
    for owner in state.ownership.values():
        counts[owner] = counts.get(owner, 0) + 1
    return {"visible": sorted(seen), "centres": counts}


# --- the record of a phase -------------------------------------------------------------------


def phase_entry(game: GameRecord, actor: Actor, entry: dict[str, Any]) -> dict[str, Any]:
    """A history entry (``state``: the position before the phase, ``orders``, ``resolution``)
    as ``actor`` sees it."""
    if not fogged(game):
        return entry
    state = engine.state_from_dict(entry["state"])
    seen = sight(game, actor, state) or frozenset()
    power = seer(actor)
    return {
        **entry,
        "state": engine.state_to_dict(seen_position(state, seen)),
        "orders": orders_seen(game, entry.get("orders") or {}, seen, power),
        "resolution": resolution_seen(game, entry.get("resolution") or {}, seen, power),
    }


def orders_seen(game: GameRecord, orders: Mapping[str, Iterable[str]], seen: frozenset[str],
                power: str | None) -> dict[str, list[str]]:
    """Each power's orders that name only seen provinces (``power``'s own: all of them)."""
    provinces = _provinces(game)
    kept = {p: [o for o in texts if p == power or _names(o, provinces) <= seen]
            for p, texts in orders.items()}
    return {p: texts for p, texts in kept.items() if texts}


def resolution_seen(game: GameRecord, resolution: Mapping[str, Any], seen: frozenset[str],
                    power: str | None) -> dict[str, Any]:
    """A stored resolution (``results``, ``notes``, ``nmr``, ``votes``...) cut to ``seen``."""
    provinces = _provinces(game)
    results = []
    for result in resolution.get("results") or []:
        if result.get("power") == power or _names(_order_part(result), provinces) <= seen:
            results.append(_explained_if_seen(result, seen, provinces))
    notes = [n for n in resolution.get("notes") or [] if _names(n, provinces) <= seen]
    return {**resolution, "results": results, "notes": notes}


def own_resolution(resolution: Mapping[str, Any], power: str | None) -> dict[str, Any]:
    """Where no position is at hand (the event log, the process_turn answer): the caller's own
    results only, without reasons or explanations (they may name a unit in the fog)."""
    results = [{**r, "reason": None, "explanation": None}
               for r in resolution.get("results") or [] if power is not None and r.get("power") == power]
    notes = [n for n in resolution.get("notes") or [] if _own_note(n, power)]
    return {**resolution, "results": results, "notes": notes}


def _own_note(note: Mapping[str, Any], power: str | None) -> bool:
    """A note about the caller's power alone, or about no power and no unit (the engine's
    notes name the powers of every unit they name: engine/game.py)."""
    powers = set(note.get("powers") or [])
    return (not powers and not note.get("units")) or (power is not None and powers == {power})


def last_resolution(game: GameRecord, actor: Actor, answer: dict[str, Any],
                    state_before: dict[str, Any] | None) -> dict[str, Any]:
    """``GET /games/{id}/last_resolution`` (``{"phase", "results"}``) as ``actor`` sees it."""
    if not fogged(game) or state_before is None:
        return answer
    state = engine.state_from_dict(state_before)
    seen = sight(game, actor, state) or frozenset()
    return resolution_seen(game, answer, seen, seer(actor))


def event_seen(game: GameRecord, actor: Actor, event: dict[str, Any]) -> dict[str, Any]:
    """One event of the log as ``actor`` sees it."""
    if not fogged(game):
        return event
    power, data = seer(actor), dict(event.get("data") or {})
    if event.get("type") == "PHASE_PROCESSED":
        data["orders"] = {p: list(o) for p, o in (data.get("orders") or {}).items() if p == power}
        if "resolution" in data:  # an event written before issue 29 carried the results
            data["resolution"] = own_resolution(data["resolution"], power)
    elif event.get("type") in ("UNIT_DISBANDED", "PHASE_SKIPPED"):
        if not _own_note(data, power):
            data = {"phase": data.get("phase"), "powers": [], "units": [], "text": ""}
    elif event.get("type") in _COUNTED and data.get("power") != power:
        data.pop("count", None)
    return {**event, "data": data}


# --- helpers ---------------------------------------------------------------------------------


def names_in(game: GameRecord, value: Any) -> frozenset[str]:
    """The provinces of ``game``'s map that ``value`` names (module docstring)."""
    return _names(value, _provinces(game))


def _provinces(game: GameRecord) -> frozenset[str]:
    return frozenset(game_map(game.variant).provinces)


def _order_part(result: Mapping[str, Any]) -> dict[str, Any]:
    return {"order": result.get("order"), "order_str": result.get("order_str"),
            "retreat_options": result.get("retreat_options")}


def _explained_if_seen(result: dict[str, Any], seen: frozenset[str],
                       provinces: frozenset[str]) -> dict[str, Any]:
    out = dict(result)
    if _names(out.get("explanation"), provinces) - seen:
        out["explanation"] = None
    if _names(out.get("reason"), provinces) - seen:
        out["reason"] = None
    if out.get("retreat_options"):
        out["retreat_options"] = [r for r in out["retreat_options"] if _names(r, provinces) <= seen]
    return out


def _names(value: Any, provinces: frozenset[str]) -> frozenset[str]:
    """Every province ``value`` (text, or lists and dicts of them, keys too) names."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.update(w for w in _WORD.findall(item) if w in provinces)
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return frozenset(found)
