"""The stored shapes of a game, shared by the storage port and its adapters.

Plain dataclasses with JSON-compatible fields (no boto3, no pydantic, no engine
types): the engine state is kept as ``engine.state_to_dict`` output. They live in
``infra`` because imports point ``functions -> infra``; ``functions.ports``
re-exports them as the port's vocabulary.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

JSON = Any


@dataclass
class GameRecord:
    """The META item: the live game. Bounded in size: history lives in PhaseRecords."""

    game_id: str
    variant: str
    rules: str
    created_at: str
    creator_token_hash: str
    state: dict[str, JSON]
    phase: str
    phase_started_at: str
    status: str = "ACTIVE"
    version: int = 0
    phase_index: int = 0  # how many phases were adjudicated
    event_seq: int = 0  # seq of the last event written
    outbox_seq: int = 0
    pending_orders: dict[str, list[str]] = field(default_factory=dict)
    players: dict[str, dict[str, JSON]] = field(default_factory=dict)
    settings: dict[str, JSON] = field(default_factory=dict)
    deadline: str | None = None
    wait_flags: dict[str, bool] = field(default_factory=dict)  # power -> raised; cleared each phase
    paused: bool = False  # the deadline clock is stopped (no schedule)
    paused_remaining: int | None = None  # whole seconds that were left when paused
    reminded_phase: str | None = None  # the last phase whose DEADLINE_APPROACHING was written
    # lifecycle (functions/usecases/lifecycle.py): votes of this phase, per-seat NMR state,
    # when the game first had every seat filled, and how it ended
    votes: dict[str, dict[str, bool]] = field(default_factory=dict)  # power -> {"draw", "concede"}
    seats: dict[str, dict[str, JSON]] = field(default_factory=dict)  # power -> missed/extended/status
    started_at: str | None = None
    result: dict[str, JSON] | None = None

    def copy(self) -> GameRecord:
        return copy.deepcopy(self)


@dataclass(frozen=True)
class PhaseRecord:
    """One adjudicated phase, immutable: the state before, every order, the resolution."""

    n: int
    phase: str
    state_before: dict[str, JSON]
    orders: dict[str, list[str]]
    resolution: dict[str, JSON]
    processed_at: str


@dataclass(frozen=True)
class EventRecord:
    """One entry of the game's ordered event log (``seq`` monotonic, no gaps)."""

    seq: int
    type: str
    phase: str
    data: dict[str, JSON]
    at: str


@dataclass(frozen=True)
class OutboxRecord:
    """A notification to deliver, committed with the state change that caused it."""

    seq: int
    kind: str
    game_id: str
    dedupe_key: str
    payload: dict[str, JSON]
