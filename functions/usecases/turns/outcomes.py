"""What a turn's steps hand each other and answer (functions/usecases/turns/process_turn.py):
the engine's verdict (``Adjudicated``), what one commit writes (``Record``), what was done
(``Processed``), and the two ways a turn is not taken (``LostRace``, ``NotDue``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

import engine
from functions.errors import StalePhase
from functions.ports import EventRecord, GameRecord, OutboxRecord, PhaseRecord


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


class Adjudicated(NamedTuple):
    """What the engine made of the phase: the next state and the public resolution."""

    state: engine.GameState  # the phase adjudicated
    next_state: engine.GameState
    orders: dict[str, list[str]]  # every power's orders, as adjudicated (canonical text)
    resolution: dict[str, Any]


class Record(NamedTuple):
    """What one commit writes: the next META (``game``), the PHASE item, its events and its notices."""

    game: GameRecord
    phase: PhaseRecord
    events: list[EventRecord]
    outbox: list[OutboxRecord]
