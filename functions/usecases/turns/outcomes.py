"""What a turn's steps hand each other and answer (functions/usecases/turns/process_turn.py):
the request (``TurnRequest``), the game as loaded (``Turn``), the engine's verdict on one phase
and what it led to (``Adjudicated``, ``Step``), the adjudicate step's decision (``Plan``), what
one commit writes (``Record``), what was done (``Processed``), and the two ways a turn is not
taken (``LostRace``, ``NotDue``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

import engine
from functions.errors import StalePhase
from functions.ports import EventRecord, GameRecord, OutboxRecord, PhaseRecord
from functions.usecases.players import Actor


@dataclass(frozen=True)
class Processed:
    phase: str  # the new current phase
    processed_phase: str
    game_status: str
    resolution: dict[str, Any]
    extended: bool = False  # the deadline moved on for a missing power (nmr_extensions)


class LostRace(StalePhase):
    """The phase was processed by someone else between this call's read and its commit
    (the same answer as ``STALE_PHASE``; the deadline function reports it as LOST_RACE)."""


class NotDue(Exception):
    """A deadline firing (``due_by``) for a phase whose deadline has not passed: ``deadline``
    is when it falls (reschedule for then), None if the phase has no running deadline."""

    def __init__(self, deadline: datetime | None) -> None:
        super().__init__(f"the deadline is {deadline}")
        self.deadline = deadline


class TurnRequest(NamedTuple):
    """What the caller asked: close ``phase`` of ``game_id`` as ``actor``."""

    game_id: str
    actor: Actor
    phase: str
    require_all: bool = False
    due_by: datetime | None = None  # a deadline firing's time: process only if due


class Turn(NamedTuple):
    """The game as read (never changed: later steps work on copies), with its phase's state
    decoded once and its map, for every later step."""

    game: GameRecord
    state: engine.GameState
    the_map: engine.MapData


class Adjudicated(NamedTuple):
    """What the engine made of the phase: the next state and the public resolution."""

    state: engine.GameState  # the phase adjudicated
    next_state: engine.GameState
    orders: dict[str, list[str]]  # every power's orders, as adjudicated (canonical text)
    resolution: dict[str, Any]


class Step(NamedTuple):
    """One phase adjudicated: the game before it, the verdict, the game at the next phase with
    the phase's consequences taken (lifecycle.after_phase: notes, civil disorder, the end), their
    events and notices (numbered by the record step), and whether nobody decides next."""

    before: GameRecord
    done: Adjudicated
    after: GameRecord
    events: list[EventRecord]
    outbox: list[OutboxRecord]
    nobody_decides: bool


class Extension(NamedTuple):
    """The deadline moved on for late powers instead (nmr_extensions): the game and its notices."""

    game: GameRecord
    events: list[EventRecord]
    outbox: list[OutboxRecord]


class Plan(NamedTuple):
    """The adjudicate step's decision: the phases adjudicated, in order, or an extension."""

    steps: list[Step]
    extension: Extension | None = None


class Record(NamedTuple):
    """What one commit writes (the next META, the PHASE items, events and notices, numbered)
    and what the caller is answered once it has."""

    game: GameRecord
    phases: list[PhaseRecord]
    events: list[EventRecord]
    outbox: list[OutboxRecord]
    answer: Processed
