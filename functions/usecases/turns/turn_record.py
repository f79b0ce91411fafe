"""The third step of a turn (process_turn.py): what the one commit writes, numbered, and what the
caller is answered.

Per phase adjudicated: its PHASE item (the state before, every order, the resolution with its
explanations), its ``PHASE_PROCESSED`` event, the consequences' events (one per note of the
resolution, phase_notes.py; civil disorder; the end), and the notices:
``PHASE_PROCESSED`` first (``notify``), then the consequences'. Events and notices are numbered
here, in that order, after the game's last ones: the adjudicate step made them on copies.

The ``PHASE_PROCESSED`` event is ``{phase, next_phase, orders, nmr}`` (docs/api.md "Events"):
who ordered what and who missed the phase, which the event log's readers use (reliability,
fog of war, the DAIDE bridge). The results and their reasons are read from the PHASE item
(``history``, ``last_resolution``): a copy in the log would make a turn's write two units
larger and every poll of ``/events`` longer (issue 29).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from itertools import count

from functions.ports import EventRecord, GameRecord, OutboxRecord, PhaseRecord
from functions.usecases.game import iso, outbox_at
from functions.usecases.turns.outcomes import Plan, Processed, Record, Step, Turn

NOTICE_MAP_WIDTH = 800  # the width of the resolution picture a PHASE_PROCESSED notice links to


def record_turn(turn: Turn, plan: Plan, now: datetime) -> Record:
    """The next META, the PHASE items, the events and notices of ``plan``, numbered."""
    if plan.extension is not None:
        extended = plan.extension.game
        answer = Processed(extended.phase, extended.phase, extended.status, {"results": []}, extended=True)
        return Record(extended, [], plan.extension.events, plan.extension.outbox, answer)
    phases: list[PhaseRecord] = []
    events: list[EventRecord] = []
    outbox: list[OutboxRecord] = []
    for step in plan.steps:
        phases.append(_phase_item(step, now))
        events += [_processed_event(step, now), *step.events]
        outbox += [notify(step.after, step.done.state.phase_name), *step.outbox]
    read, first = turn.game, plan.steps[0].done
    event_seq, outbox_seq = count(read.event_seq + 1), count(read.outbox_seq + 1)
    events = [e._replace(seq=next(event_seq)) for e in events]
    outbox = [o._replace(seq=next(outbox_seq)) for o in outbox]
    game = replace(plan.steps[-1].after, event_seq=read.event_seq + len(events),
                   outbox_seq=read.outbox_seq + len(outbox))
    answer = Processed(game.phase, first.state.phase_name, game.status, first.resolution)
    return Record(game, phases, events, outbox, answer)


def _phase_item(step: Step, now: datetime) -> PhaseRecord:
    return PhaseRecord(n=step.before.phase_index, phase=step.done.state.phase_name,
                       state_before=step.before.state, orders=step.done.orders,
                       resolution=step.done.resolution, processed_at=iso(now))


def _processed_event(step: Step, now: datetime) -> EventRecord:
    processed = step.done.state.phase_name
    data = {"phase": processed, "next_phase": step.after.phase, "orders": step.done.orders,
            "nmr": list(step.done.resolution["nmr"])}
    return EventRecord(seq=0, type="PHASE_PROCESSED", phase=processed, data=data, at=iso(now))


def notify(game: GameRecord, processed: str) -> OutboxRecord:
    """PHASE_PROCESSED for the game's delivery targets, saying where the game stands once the
    phase's consequences (a game's end, say) are known."""
    return outbox_at(
        game, 0, "PHASE_PROCESSED",
        {"phase": processed, "next_phase": game.phase, "game_status": game.status, "deadline": game.deadline,
         # the phase's resolution map (issue 14); notices put the API's base URL before it. 800 px
         # wide (issue 29): what a chat or a mail shows, at 128 KB where the 1200 px default was
         # 354 KB, and every receiver of every notice fetches it (docs/scaling.md)
         "map": (f"/games/{game.game_id}/map/resolution?phase={processed}&format=png"
                 f"&width={NOTICE_MAP_WIDTH}")},
        f"{processed}:processed",
    )
