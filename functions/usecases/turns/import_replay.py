"""An export document checked and replayed: what an import takes from it, and what it recomputes.

An import must never take the document's word for anything a game's rules decide (issue 28
item 1: ``resolution: {}`` was stored, and broke ``/history`` and the resolution map for
good; a fake ``winner`` and any ``result`` were accepted). So:

Taken from the document, each checked within bounds (``BAD_IMPORT`` 422 otherwise):
- the variant and the rulebook (known ones);
- the settings of the export's allow-list, each within the bounds ``POST /games`` has
  (``import_checks.SETTING_BOUNDS``; ``dummy_powers`` and ``deadline_at`` by the create checks);
- the *first* position (the first phase's, or ``current`` for a bare position): a movement
  or adjustment phase (so no dislodged unit and no retreat option comes from the document)
  of a year from the variant's start to ``MAX_YEAR``, units standing where the map allows,
  centres owned only by the map's powers, status ACTIVE and no winner;
- each phase's orders, read and validated like a player's submission
  (functions/usecases/turns/order_entry.py: legal, one per unit, within the build allowance),
  stored in canonical text; at most ``MAX_ORDERS_PER_POWER`` texts of at most
  ``MAX_ORDER_CHARS`` characters per power;
- each phase's ``processed_at`` (an ISO time, stored in canonical form; absent or "" where the
  source format has no phase times, stored as "") and, for a game
  with public ballots, the votes of its history (``resolution.votes``: the map's powers,
  ``draw``/``concede`` booleans).

Recomputed by replaying, never read: every later position (each phase's orders adjudicated
from its position must give the next phase's position, and the last gives ``current``),
every resolution (the results, with the engine's reasons), the NMRs of each phase, the
game's status and its result. A game ends in an import only where the replay proves it: a
solo (the engine) or the year limit (``max_year``), checked in the order of
functions/usecases/turns/lifecycle.py. ``current.status`` and ``result`` are ignored. A game
that ended by a vote (a draw, a concession: votes end a game when they are cast, and the
deciding votes are in no phase's history) or was abandoned comes back ACTIVE at its last
position: that is all its history proves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import engine
from functions.errors import BadImport
from functions.ports import GameRecord, PhaseRecord
from functions.usecases.game import (
    game_map,
    make_result,
    survivors,
)
from functions.usecases.turns.export import FORMAT
from functions.usecases.turns.import_checks import (
    MAX_YEAR,
    as_mapping,
    as_text,
    checked_settings,
    phase_time,
    source_id,
)
from functions.usecases.turns.order_entry import read_orders
from functions.usecases.turns.resolutions import resolution_view
from functions.usecases.turns.turn_adjudicate import owing_powers

MAX_PHASES = 400  # a 30-year game has at most 150 phases; a long export of 400 is about 4 MB
MAX_ORDERS_PER_POWER = 64
MAX_ORDER_CHARS = 120


@dataclass(frozen=True)
class Replayed:
    """A checked document: the game as it stands after its history, and that history."""

    variant: str
    rules: str
    settings: dict[str, Any]
    state: engine.GameState  # the position after the last phase (``current``)
    phases: list[PhaseRecord]
    status: str  # ACTIVE or COMPLETED, as the replay proves
    result: dict[str, Any] | None
    source_game_id: str | None


def replay_document(document: Mapping[str, Any]) -> Replayed:
    """The document checked and replayed, or ``BAD_IMPORT`` (never another error)."""
    try:
        return _replayed(document)
    except BadImport:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError, engine.OrderSyntaxError) as exc:
        raise BadImport(f"not a {FORMAT} document: {type(exc).__name__}: {str(exc)[:200]}") from None


def _replayed(document: Mapping[str, Any]) -> Replayed:
    if not isinstance(document, Mapping) or document.get("format") != FORMAT:
        raise BadImport(f'"format" must be "{FORMAT}"')
    variant, rules = as_text(document["variant"], "variant", 40), as_text(document["rules"], "rules", 10)
    the_map = game_map(variant)
    try:
        engine.get_rulebook(rules)
    except KeyError:
        raise BadImport(f"unknown rulebook {rules!r}") from None
    settings = checked_settings(as_mapping(document.get("settings") or {}, "settings"), the_map)
    entries = document.get("phases") or []
    if not isinstance(entries, Sequence) or len(entries) > MAX_PHASES:
        raise BadImport(f"phases: a list of at most {MAX_PHASES}")
    current = as_mapping(document["current"], "current")
    first = as_mapping(entries[0], "phases[0]")["state"] if entries else current["state"]
    position = first_position(first, the_map)
    phases, state = _replay(entries, position, the_map, rules, settings)
    if engine.state_from_dict(as_mapping(current["state"], "current.state")) != state or \
            current.get("phase") != state.phase_name:
        raise BadImport("current is not where the history leads: the history does not replay")
    status, result = ending(state, phases, settings, the_map)
    return Replayed(variant, rules, settings, state, phases, status, result, source_id(document))


# --- the first position ----------------------------------------------------------------------


def first_position(raw: Any, the_map: engine.MapData) -> engine.GameState:
    """The one position taken from the document: bounded and plain (see the module's list)."""
    state = engine.state_from_dict(as_mapping(raw, "state"))
    if not the_map.start_year <= state.year <= MAX_YEAR:
        raise BadImport(f"a position's year is from {the_map.start_year} to {MAX_YEAR}, not {state.year}")
    if state.phase_type is engine.PhaseType.RETREAT or state.dislodged or state.contested:
        raise BadImport("a history (or a bare position) starts at a movement or adjustment phase")
    if (state.season is engine.Season.WINTER) != (state.phase_type is engine.PhaseType.ADJUSTMENT):
        raise BadImport(f"{state.phase_name} is no phase: adjustments are in winter, movement is not")
    if state.status is not engine.GameStatus.ACTIVE or state.winner is not None:
        raise BadImport("a history starts with a game in progress: status ACTIVE, no winner")
    strangers = sorted({str(owner) for owner in state.ownership.values()} - set(the_map.power_ids))
    if strangers:
        raise BadImport(f"centres owned by {', '.join(strangers)}: not powers of {the_map.map_id}")
    engine.Game(map=the_map, state=state)  # units where their kind may stand, centres that exist
    return state


# --- the replay ------------------------------------------------------------------------------


def _replay(entries: Sequence[Any], state: engine.GameState, the_map: engine.MapData, rules: str,
            settings: Mapping[str, Any]) -> tuple[list[PhaseRecord], engine.GameState]:
    """Each phase's orders adjudicated from the position the previous one left."""
    working = _working(the_map, settings)
    phases: list[PhaseRecord] = []
    for n, raw in enumerate(entries):
        entry = as_mapping(raw, f"phases[{n}]")
        if entry.get("n") != n or entry.get("phase") != state.phase_name:
            raise BadImport(f"phases[{n}] must be number {n}, phase {state.phase_name}: the history "
                            "does not replay")
        if n and engine.state_from_dict(as_mapping(entry["state"], "state")) != state:
            raise BadImport(f"the orders of {phases[-1].phase} do not lead to {state.phase_name}'s "
                            "position: the history does not replay")
        if state.status is not engine.GameStatus.ACTIVE or ending(state, phases, settings, the_map)[1]:
            raise BadImport(f"the game was over before {state.phase_name}: no phase follows its end")
        orders = _orders(entry.get("orders"), state, the_map, n)
        working.pending_orders = {p: [engine.format_order(o) for o in given] for p, given in orders.items()}
        after, resolution = engine.Game(map=the_map, state=state, rules=rules).adjudicate(orders)
        assert after.state is not None
        resolved = resolution_view(resolution)
        resolved["nmr"] = owing_powers(working, state, the_map)
        votes = _votes(entry.get("resolution"), settings, the_map, n)
        if votes:
            resolved["votes"] = votes
        phases.append(PhaseRecord(
            n=n, phase=state.phase_name, state_before=engine.state_to_dict(state),
            orders=dict(sorted(working.pending_orders.items())), resolution=resolved,
            processed_at=phase_time(entry.get("processed_at"), n),
        ))
        state = engine.concluded(after.state)  # a finished game ends on W<year>A, as process_turn stores it
    return phases, state


def _orders(raw: Any, state: engine.GameState, the_map: engine.MapData, n: int
            ) -> dict[str, list[engine.Order]]:
    given = as_mapping(raw, f"phases[{n}].orders")
    out: dict[str, list[engine.Order]] = {}
    for power, texts in sorted(given.items()):
        if power not in the_map.power_ids:
            raise BadImport(f"phases[{n}].orders: {str(power)[:40]!r} is not a power of {the_map.map_id}")
        if not isinstance(texts, list) or len(texts) > MAX_ORDERS_PER_POWER or \
                not all(isinstance(t, str) and len(t) <= MAX_ORDER_CHARS for t in texts):
            raise BadImport(f"phases[{n}].orders.{power}: at most {MAX_ORDERS_PER_POWER} orders of at most "
                            f"{MAX_ORDER_CHARS} characters")
        entry = read_orders(texts, power, state, the_map)
        if entry.rejected:
            first = entry.rejected[0]
            raise BadImport(f"phases[{n}] ({state.phase_name}): {power}'s order {first.order[:60]!r} is "
                            f"refused ({first.code}: {first.message})")
        out[power] = list(entry.orders.values())
    return out


def _votes(raw: Any, settings: Mapping[str, Any], the_map: engine.MapData, n: int
           ) -> dict[str, dict[str, bool]] | None:
    """A phase's public-ballot votes (the only part of a resolution the replay cannot know)."""
    votes = as_mapping(raw or {}, f"phases[{n}].resolution").get("votes")
    if not votes:
        return None
    if settings.get("draw_votes") != "public":
        raise BadImport(f"phases[{n}] records votes, but the game's ballots are secret")
    out: dict[str, dict[str, bool]] = {}
    for power, vote in sorted(as_mapping(votes, "votes").items()):
        vote = as_mapping(vote, "vote")
        if power not in the_map.power_ids or not vote or set(vote) - {"draw", "concede"} or \
                not all(isinstance(v, bool) for v in vote.values()):
            raise BadImport(f"phases[{n}].resolution.votes: a power of the map -> draw/concede booleans")
        out[power] = dict(sorted(vote.items()))
    return out


# --- the end -----------------------------------------------------------------------------------


def ending(state: engine.GameState, phases: Sequence[PhaseRecord], settings: Mapping[str, Any],
           the_map: engine.MapData) -> tuple[str, dict[str, Any] | None]:
    """(status, result) the history proves: a solo, else the year limit (lifecycle.py's order)."""
    if not phases:
        return "ACTIVE", None
    last = phases[-1]
    if state.status is engine.GameStatus.COMPLETED and state.winner:
        kind, winners = "solo", [state.winner]
    elif settings.get("max_year") and state.year > int(settings["max_year"]):
        kind, winners = "year_limit", survivors(state, the_map)
    else:
        return "ACTIVE", None
    return "COMPLETED", make_result(kind, winners, state, the_map, last.phase, last.processed_at)


def _working(the_map: engine.MapData, settings: Mapping[str, Any]) -> GameRecord:
    """A scratch game record, for the lifecycle rule that reads one (the NMRs)."""
    return GameRecord(game_id="import", variant=the_map.map_id, rules="", created_at="",
                      creator_token_hash="", state={}, phase="", phase_started_at="",
                      settings=dict(settings))
