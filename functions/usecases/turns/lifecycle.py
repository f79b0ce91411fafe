"""How a running game moves towards its end: NMRs, civil disorder, votes, year limit, results.

These are the hooks ``process_turn`` calls (kept here so process_turn stays about
adjudication), plus ``end_game``, which every way of ending a game goes through so
that each ended game carries one ``result`` and writes one ``GAME_ENDED``.

Decisions (docs/rules.md "How a game ends", "Missed orders"):
- An NMR is a power that had orders to give (engine) and gave none when the phase was
  processed, however it was processed (deadline, creator, auto-process); dummies
  are never NMRs. NMRs are recorded per phase in the history (``resolution.nmr``).
- ``civil_disorder_after`` (default 2, 0 = never) counts *consecutive* missed
  movement phases of a seated power; an ordered movement phase resets the count.
  Only a phase closed by its deadline (the scheduler: deadline firing or sweeper)
  counts as missed: a creator who processes by hand before everyone ordered chose to
  move on (and may open an absent player's seat instead), so a manual processing
  leaves the count of a missing power as it was. Retreat and adjustment NMRs are
  recorded but do not count. A power in civil
  disorder loses its seat (its token stops working, the seat shows open); the
  engine plays it as a power without orders (units hold, dislodged units disband,
  builds are waived, removals follow the civil-disorder rule).
- ``nmr_extensions`` (default 0): when a deadline fires while a seated, active power
  has not ordered and that power has extensions left, the deadline moves one phase
  length later instead of processing, and each such power uses one extension. The
  count is per power for the whole game, as webDiplomacy's "excused missed turns";
  a newcomer taking the seat starts afresh. Only the deadline (scheduler) extends:
  the creator's "process now" always processes.
- Votes (``game.votes``) stand until withdrawn or until the phase is processed, as in
  DAIDE, where draw proposals are cleared at the end of every turn. They are counted
  when cast and again after each processed phase (whose civil disorders or
  eliminations may have shrunk the quorum), then cleared. Public-ballot votes of a
  phase go into its history (``resolution.votes``); secret ones never leave META.
- Endings are checked after a processed phase in this order: solo (engine), year
  limit, draw, concession, abandoned (the game had started and no active power is left).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import engine
from functions.ports import EventRecord, GameRecord, OutboxRecord
from functions.usecases.game import (
    add_event,
    add_outbox,
    deadline_for,
    describe,
    game_map,
    iso,
    make_result,
    state_of,
    survivors,
)
from functions.usecases.players import (
    CIVIL_DISORDER,
    active_powers,
    dummy_powers,
    excused,
    has_started,
)

DEFAULT_CIVIL_DISORDER_AFTER = 2
Changes = tuple[list[EventRecord], list[OutboxRecord]]


def civil_disorder_after(game: GameRecord) -> int:
    value = game.settings.get("civil_disorder_after")
    return DEFAULT_CIVIL_DISORDER_AFTER if value is None else int(value)


def owing_powers(game: GameRecord, state: engine.GameState) -> list[str]:
    """Powers with orders to give this phase and none given, dummies left out."""
    dummies = set(dummy_powers(game))
    owing = engine.powers_with_orders_to_give(state, game_map(game.variant))
    return sorted(p for p in owing if p not in game.pending_orders and p not in dummies)


def dummy_orders(game: GameRecord, state: engine.GameState) -> dict[str, list[str]]:
    """A demo game's dummies play ``engine.simple_orders``, seeded by game id and phase
    (canonical text, so they are stored and replayed like any accepted order). Dummies
    of other games have no orders: they are played as in civil disorder."""
    if not game.settings.get("demo"):
        return {}
    the_map = game_map(game.variant)
    seed = f"{game.game_id}:{state.phase_name}"
    return {
        power: [engine.format_order(o) for o in engine.simple_orders(state, the_map, power, seed)]
        for power in dummy_powers(game) if power not in game.pending_orders
    }


# --- ending --------------------------------------------------------------------------------


def end_game(game: GameRecord, kind: str, winners: list[str], state: engine.GameState,
             final_phase: str | None, now: datetime) -> Changes:
    """Mark ``game`` COMPLETED with its result (working copy) and write GAME_ENDED."""
    result = make_result(kind, winners, state, game_map(game.variant), final_phase, iso(now))
    if game.settings.get("scoring"):  # issue 34: the system the game was played for
        result["scoring"] = str(game.settings["scoring"])
    game.status = "COMPLETED"
    game.result = result
    game.deadline = None
    game.votes = {}
    game.wait_flags = {}
    winner = winners[0] if kind in ("solo", "concession") else None
    data = {"winner": winner, "result": result}
    events = [add_event(game, "GAME_ENDED", data, now)]
    outbox = [add_outbox(game, "GAME_ENDED", {**data, "summary": describe(result)}, "ended")]
    return events, outbox


def vote_outcome(game: GameRecord, state: engine.GameState) -> tuple[str, list[str]] | None:
    """("draw", survivors) or ("concession", [winner]) if the votes now end the game."""
    active = active_powers(game, state)
    if not active:
        return None
    if all(game.votes.get(p, {}).get("draw") for p in active):
        return "draw", survivors(state, game_map(game.variant))
    standing = [p for p in active if not game.votes.get(p, {}).get("concede")]
    if len(active) >= 2 and len(standing) == 1:
        return "concession", standing
    return None


# --- after a processed phase ---------------------------------------------------------------


def _civil_disorder(game: GameRecord, processed: str, nmr: list[str], by_deadline: bool,
                    now: datetime) -> Changes:
    """Count missed movement phases of seated powers; seat out those over the limit."""
    limit = civil_disorder_after(game)
    events: list[EventRecord] = []
    outbox: list[OutboxRecord] = []
    for power in sorted(game.players):
        seat = dict(game.seats.get(power) or {})
        missed = int(seat.get("missed", 0))
        seat["missed"] = (missed + 1 if by_deadline else missed) if power in nmr else 0
        game.seats[power] = seat
        if limit and seat["missed"] >= limit:
            del game.players[power]
            game.pending_orders.pop(power, None)
            game.votes.pop(power, None)
            game.wait_flags.pop(power, None)
            game.seats[power] = {"status": CIVIL_DISORDER, "since": processed, "missed": seat["missed"]}
            data = {"power": power, "missed": seat["missed"]}
            events.append(add_event(game, "CIVIL_DISORDER", data, now, phase=processed))
            outbox.append(add_outbox(game, "CIVIL_DISORDER", {**data, "phase": processed},
                                     f"{processed}:cd:{power}"))
    return events, outbox


def after_phase(game: GameRecord, *, processed: str, processed_type: str, nmr: list[str],
                new_state: engine.GameState, by_deadline: bool, now: datetime) -> Changes:
    """Everything a processed phase changes besides the board (``game`` is the working copy,
    already at the new phase): civil disorder, the end of the game, cleared votes."""
    events: list[EventRecord] = []
    outbox: list[OutboxRecord] = []
    if processed_type == "MOVEMENT":
        events, outbox = _civil_disorder(game, processed, nmr, by_deadline, now)
    ending = _ending(game, new_state)
    if ending is not None:
        kind, winners = ending
        more = end_game(game, kind, winners, new_state, processed, now)
        events += more[0]
        outbox += more[1]
    game.votes = {}
    return events, outbox


def _ending(game: GameRecord, state: engine.GameState) -> tuple[str, list[str]] | None:
    if state.status is engine.GameStatus.COMPLETED and state.winner:
        return "solo", [state.winner]
    max_year = game.settings.get("max_year")
    if max_year and state.year > int(max_year):
        return "year_limit", survivors(state, game_map(game.variant))
    outcome = vote_outcome(game, state)
    if outcome is not None:
        return outcome
    if has_started(game) and not active_powers(game, state):
        return "abandoned", []
    return None


def public_votes(game: GameRecord) -> dict[str, dict[str, bool]] | None:
    """The votes of the phase for its history, public ballots only."""
    if game.settings.get("draw_votes") != "public" or not game.votes:
        return None
    return {p: dict(sorted(v.items())) for p, v in sorted(game.votes.items())}


# --- deadline extensions -------------------------------------------------------------------


def extend_for_missing(game: GameRecord, now: datetime) -> Changes | None:
    """If a seated, active power owes orders and has an extension left, move the deadline
    one phase length on (working copy) instead of processing; None otherwise."""
    allowed = int(game.settings.get("nmr_extensions") or 0)
    if not allowed or not game.deadline:
        return None
    state = state_of(game)
    skip = excused(game)
    late = [p for p in owing_powers(game, state)
            if p in game.players and p not in skip and p in active_powers(game, state)
            and int((game.seats.get(p) or {}).get("extended", 0)) < allowed]
    deadline = deadline_for(game, str(state.phase_type), now)
    if not late or deadline is None:
        return None
    for power in late:
        seat = dict(game.seats.get(power) or {})
        seat["extended"] = int(seat.get("extended", 0)) + 1
        game.seats[power] = seat
    game.deadline = deadline
    data: dict[str, Any] = {"powers": late, "deadline": deadline}
    events = [add_event(game, "NMR_EXTENSION", data, now)]
    outbox = [add_outbox(game, "DEADLINE_EXTENDED", {"phase": game.phase, **data},
                         f"{game.phase}:nmr-extension:{game.event_seq}")]
    return events, outbox
