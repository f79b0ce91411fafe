"""The ports the use cases talk through (Protocols), and their vocabulary.

Use cases take these, never boto3: ``functions/wiring.py`` builds the real
adapters (``infra``), tests pass in-memory fakes. The stored shapes are the
``infra.records`` dataclasses, re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Protocol

from infra.errors import ItemNotFound, StaleVersion
from infra.records import EventRecord, GameRecord, OutboxRecord, PhaseRecord

__all__ = [
    "Clock", "EventRecord", "GameRecord", "GameStore", "ItemNotFound", "OutboxRecord",
    "PhaseRecord", "StaleVersion", "SystemClock",
]


class GameStore(Protocol):
    """The single game table. Every write is conditional on the version read."""

    def load(self, game_id: str) -> GameRecord:
        """The META item; raises ``ItemNotFound``."""
        ...

    def create(
        self, game: GameRecord, events: Sequence[EventRecord] = (), outbox: Sequence[OutboxRecord] = ()
    ) -> GameRecord: ...

    def save(
        self,
        game: GameRecord,
        *,
        expected_version: int,
        events: Sequence[EventRecord] = (),
        outbox: Sequence[OutboxRecord] = (),
    ) -> GameRecord:
        """Write META (version becomes expected+1) and append items; ``StaleVersion`` if raced."""
        ...

    def commit_turn(
        self,
        game: GameRecord,
        *,
        expected_version: int,
        phase: PhaseRecord,
        events: Sequence[EventRecord] = (),
        outbox: Sequence[OutboxRecord] = (),
    ) -> GameRecord:
        """META + PHASE + EVENTs + OUTBOX, all or nothing; ``StaleVersion`` if raced."""
        ...

    def list_games(self, limit: int = 50) -> list[GameRecord]: ...

    def phases(self, game_id: str) -> list[PhaseRecord]: ...

    def last_phase(self, game_id: str) -> PhaseRecord | None: ...

    def events_after(self, game_id: str, after: int, limit: int = 100) -> list[EventRecord]: ...


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)
