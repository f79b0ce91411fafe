"""The second step of a turn (process_turn.py): what the phase comes to, as values; nothing is
written here (the record step numbers it, one commit writes it).

- **Extension instead** (docs/rules.md "Missed orders"): when the scheduler closes a phase while
  a seated, active power owes orders and has an NMR extension left (``nmr_extensions``, default
  0, counted per power for the whole game), the deadline moves one phase length on instead and
  each such power uses one extension (``Plan.extension``). Only the scheduler extends: the
  creator's "process now" always processes.
- **Adjudication**: the engine on the phase's orders (a demo game's dummies play
  ``engine.simple_orders``, seeded by game and phase, stored like any accepted order); the game
  advances to the next phase (a new record: the one read stays as read) and takes the phase's
  consequences (lifecycle.after_phase: civil disorder, the end, cleared votes). An NMR is a
  power with orders to give that gave none; dummies never are.
- **Phases nobody can order**: a following phase in which no seated power has a decision (only
  dummies retreat or build, say, in a demo game) is adjudicated at once, as the scheduler,
  instead of waiting for a deadline that an untimed game never has: nobody is waited on, so
  nothing is gained by waiting. At most ``MAX_FOLLOWING`` follow one call; a raised wait flag,
  a pause or the game's end stops them. They are committed with the phase that led to them.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

import engine
from functions.errors import StoredOrderUnreadable
from functions.ports import GameRecord
from functions.usecases.game import add_event, add_outbox, deadline_for, iso
from functions.usecases.players import active_powers, dummy_powers, excused
from functions.usecases.turns.lifecycle import after_phase
from functions.usecases.turns.outcomes import Adjudicated, Extension, Plan, Step, Turn
from functions.usecases.turns.resolutions import resolution_view

MAX_FOLLOWING = 4  # a retreat and an adjustment phase, with room to spare


def plan_turn(turn: Turn, now: datetime, *, by_deadline: bool, follow: bool) -> Plan:
    """Extend the deadline, or adjudicate the phase and those nobody can order after it."""
    if by_deadline:
        extension = _extension(turn, now)
        if extension is not None:
            return Plan([], extension)
    steps: list[Step] = []
    game, state = turn.game, turn.state
    while True:
        step = _phase_step(game, state, turn.the_map, now, by_deadline or bool(steps))
        steps.append(step)
        if not (follow and step.nobody_decides and len(steps) <= MAX_FOLLOWING):
            return Plan(steps)
        game, state = step.after, step.done.next_state  # a phase nobody can order: at once


def owing_powers(game: GameRecord, state: engine.GameState, the_map: engine.MapData) -> list[str]:
    """Powers with orders to give this phase and none given, dummies left out."""
    dummies = set(dummy_powers(game))
    owing = engine.powers_with_orders_to_give(state, the_map)
    return sorted(p for p in owing if p not in game.pending_orders and p not in dummies)


# --- an extension instead --------------------------------------------------------------------


def _extension(turn: Turn, now: datetime) -> Extension | None:
    """If a seated, active power owes orders and has an extension left, the game with its
    deadline one phase length on (a copy); None otherwise."""
    game, state = turn.game, turn.state
    allowed = int(game.settings.get("nmr_extensions") or 0)
    if not allowed or not game.deadline:
        return None
    skip = excused(game)
    late = [p for p in owing_powers(game, state, turn.the_map)
            if p in game.players and p not in skip and p in active_powers(game, state)
            and int((game.seats.get(p) or {}).get("extended", 0)) < allowed]
    deadline = deadline_for(game, str(state.phase_type), now)
    if not late or deadline is None:
        return None
    seats = {p: dict(s) for p, s in game.seats.items()}
    for power in late:
        seats[power] = {**seats.get(power, {}), "extended": int(seats.get(power, {}).get("extended", 0)) + 1}
    extended = replace(game, seats=seats, deadline=deadline)
    data: dict[str, Any] = {"powers": late, "deadline": deadline}
    events = [add_event(extended, "NMR_EXTENSION", data, now)]
    outbox = [add_outbox(extended, "DEADLINE_EXTENDED", {"phase": game.phase, **data},
                         f"{game.phase}:nmr-extension:{extended.event_seq}")]
    return Extension(extended, events, outbox)


# --- one phase -------------------------------------------------------------------------------


def _phase_step(game: GameRecord, state: engine.GameState, the_map: engine.MapData, now: datetime,
                by_deadline: bool) -> Step:
    """The phase adjudicated, the game advanced past it, and the phase's consequences."""
    done = _adjudicated(game, state, the_map)
    advanced = _advanced(game, done, now)
    consequences = after_phase(advanced, done, the_map, by_deadline=by_deadline, now=now)
    return Step(game, done, *consequences)


def _adjudicated(game: GameRecord, state: engine.GameState, the_map: engine.MapData) -> Adjudicated:
    """The engine on the phase's orders (a demo game's dummies' included): pure."""
    given = {**game.pending_orders, **dummy_orders(game, state, the_map)}
    orders = {power: [_parsed(text, power, state, the_map) for text in texts]
              for power, texts in sorted(given.items())}
    after, resolution = engine.Game(map=the_map, state=state, rules=game.rules).adjudicate(orders)
    assert after.state is not None
    resolved = resolution_view(resolution)
    resolved["nmr"] = owing_powers(game, state, the_map)
    votes = _public_votes(game)
    if votes:
        resolved["votes"] = votes
    canonical = {p: list(t) for p, t in sorted(given.items())}
    # a finished game ends on W<year>A, not F<year>R
    return Adjudicated(state, engine.concluded(after.state), canonical, resolved)


def dummy_orders(game: GameRecord, state: engine.GameState, the_map: engine.MapData) -> dict[str, list[str]]:
    """A demo game's dummies' orders (canonical text); other games' dummies have none: they
    are played as in civil disorder."""
    if not game.settings.get("demo"):
        return {}
    seed = f"{game.game_id}:{state.phase_name}"
    return {
        power: [engine.format_order(o) for o in engine.simple_orders(state, the_map, power, seed)]
        for power in dummy_powers(game) if power not in game.pending_orders
    }


def _public_votes(game: GameRecord) -> dict[str, dict[str, bool]] | None:
    """The votes of the phase for its history, public ballots only (secret ones never leave META)."""
    if game.settings.get("draw_votes") != "public" or not game.votes:
        return None
    return {p: dict(sorted(v.items())) for p, v in sorted(game.votes.items())}


def _parsed(text: str, power: str, state: engine.GameState, the_map: engine.MapData) -> engine.Order:
    try:
        return engine.parse_order(text, power=power, state=state, map=the_map)
    except engine.OrderSyntaxError as exc:
        # Accepted orders are stored in canonical text, which always parses;
        # if a parser change ever broke that, stop rather than drop the order.
        raise StoredOrderUnreadable(
            f"{power}'s accepted order {text!r} no longer parses ({exc.message}); the turn was not processed"
        ) from exc


def _advanced(game: GameRecord, done: Adjudicated, now: datetime) -> GameRecord:
    """The game at the next phase, as a new record (the one read stays as it was read)."""
    new_state = done.next_state
    status = str(new_state.status)
    running = status == "ACTIVE" and not game.paused
    return replace(
        game, state=engine.state_to_dict(new_state), phase=new_state.phase_name,
        phase_index=game.phase_index + 1, phase_started_at=iso(now), status=status,
        pending_orders={},  # the new phase's decisions start empty: the powers' items are of the old one
        wait_flags={},  # wait flags hold one phase only
        paused_remaining=None,  # a resumed phase gets its full length
        deadline=deadline_for(game, str(new_state.phase_type), now) if running else None,
    )

