"""How a running game moves towards its end: NMRs, civil disorder, votes, year limit, results.

``after_phase`` is the hook a turn's adjudicate step calls for each phase it adjudicates
(functions/usecases/turns/turn_adjudicate.py, which also holds the NMRs, the dummies' orders and
the NMR extensions below), plus ``end_game``, which every way of ending a game goes through so
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

from dataclasses import replace
from datetime import datetime
from typing import NamedTuple

import engine
from functions.ports import EventRecord, GameRecord, OutboxRecord
from functions.usecases.game import add_event, add_outbox, describe, game_map, iso, make_result, survivors
from functions.usecases.players import CIVIL_DISORDER, active_powers, has_started, waited_on
from functions.usecases.turns.outcomes import Adjudicated
from functions.usecases.turns.phase_notes import note_events

DEFAULT_CIVIL_DISORDER_AFTER = 2
Changes = tuple[list[EventRecord], list[OutboxRecord]]


def civil_disorder_after(game: GameRecord) -> int:
    value = game.settings.get("civil_disorder_after")
    return DEFAULT_CIVIL_DISORDER_AFTER if value is None else int(value)


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


class Consequences(NamedTuple):
    """What a processed phase changed besides the board: the game, its events (the resolution's
    notes first, phase_notes.py) and notices (numbered by the turn's record step), and whether
    nobody has a decision in the next phase (it can be processed at once)."""

    game: GameRecord
    events: list[EventRecord]
    outbox: list[OutboxRecord]
    nobody_decides: bool


def after_phase(game: GameRecord, done: Adjudicated, the_map: engine.MapData, *, by_deadline: bool,
                now: datetime) -> Consequences:
    """Everything the phase ``done`` changes besides the board, for ``game`` already at the next
    phase: civil disorder, the end of the game, cleared votes. ``game`` stays as it was given;
    the changes are made to a copy, which is returned."""
    processed, new_state = done.state.phase_name, done.next_state
    after = replace(game, seats={p: dict(s) for p, s in game.seats.items()},
                    players={p: dict(v) for p, v in game.players.items()},
                    pending_orders=dict(game.pending_orders), votes=dict(game.votes),
                    wait_flags=dict(game.wait_flags))
    events: list[EventRecord] = []
    outbox: list[OutboxRecord] = []
    if done.state.phase_type is engine.PhaseType.MOVEMENT:
        events, outbox = _civil_disorder(after, processed, done.resolution["nmr"], by_deadline, now)
    ending = _ending(after, new_state)
    if ending is not None:
        kind, winners = ending
        more = end_game(after, kind, winners, new_state, processed, now)
        events += more[0]
        outbox += more[1]
    after.votes = {}
    nobody_decides = (after.status == "ACTIVE" and not after.paused and not any(after.wait_flags.values())
                      and not waited_on(after, new_state, the_map))
    notes = note_events(done.resolution["notes"], now, processed)
    return Consequences(after, [*notes, *events], outbox, nobody_decides)


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
