"""The ports the use cases talk through (Protocols), and their vocabulary.

Use cases take these, never boto3: ``functions/wiring.py`` builds the real
adapters (``infra``), tests pass in-memory fakes. The stored shapes are the
``infra.records`` dataclasses, re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

from infra.errors import ItemNotFound, StaleVersion
from infra.press_records import ChannelRecord, InboxEntry, MessageRecord, PowerPress, PressNotice
from infra.records import EventRecord, GameRecord, OutboxRecord, PhaseRecord

__all__ = [
    "Clock", "EventRecord", "GameRecord", "GameStore", "ItemNotFound", "OutboxRecord",
    "PhaseRecord", "StaleVersion", "SystemClock",
    "ChannelRecord", "InboxEntry", "MessageRecord", "PowerPress", "PressNotice", "PressStore", "PowerChats",
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


class PressStore(Protocol):
    """Press under the game's partition (infra/dynamodb/press_store.py says how it is keyed)."""

    def ledger(self, game_id: str, power: str) -> PowerPress:
        """The power's ledger; a fresh one (version 0) before its first message."""
        ...

    def ledgers(self, game_id: str, powers: Sequence[str]) -> dict[str, PowerPress]: ...

    def channel(self, game_id: str, channel: str) -> ChannelRecord | None: ...

    def channels(self, game_id: str, names: Sequence[str]) -> list[ChannelRecord]: ...

    def applied(self, game_id: str, dedupe_key: str) -> dict[str, Any] | None:
        """The answer of a send already applied under ``dedupe_key``, if any."""
        ...

    def inbox(self, game_id: str, power: str, after: int, limit: int) -> list[InboxEntry]:
        """The power's inbox after position ``after``, oldest first: one range read."""
        ...

    def channel_messages(self, game_id: str, channel: str, after: int, limit: int) -> list[MessageRecord]: ...

    def commit_message(
        self,
        game_id: str,
        *,
        message: MessageRecord,
        channel: ChannelRecord,
        expected_last_seq: int,
        ledgers: Sequence[tuple[PowerPress, int]],
        notices: Sequence[PressNotice] = (),
        dedupe_key: str | None = None,
        result: dict[str, Any] | None = None,
    ) -> None:
        """Channel + message + members' inboxes and ledgers + notices, all or nothing;
        ``StaleVersion`` when the channel's seq or any ledger's version moved."""
        ...

    def save_ledger(self, game_id: str, ledger: PowerPress, *, expected_version: int) -> PowerPress: ...


class PowerChats(Protocol):
    """Where a power's own notices go: the chats its player linked (Telegram ``/link``)."""

    def chats_of(self, game_id: str, power: str, linked_since: float = 0.0) -> list[int | str]:
        """Chats linked since ``linked_since`` (epoch seconds: when the seat's player joined)."""
        ...


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)
