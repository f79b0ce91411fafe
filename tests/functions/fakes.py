"""In-memory fakes of the ports: the same conditional-write contract as DynamoDB."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from functions.ports import EventRecord, GameRecord, ItemNotFound, OutboxRecord, PhaseRecord, StaleVersion


class FakeClock:
    def __init__(self, start: datetime | None = None) -> None:
        self.at = start or datetime(2024, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        self.at += timedelta(milliseconds=1)
        return self.at


class InMemoryGameStore:
    """A GameStore in a dict. ``before_write`` lets a test run another writer in between."""

    def __init__(self) -> None:
        self.games: dict[str, GameRecord] = {}
        self.phase_items: dict[str, list[PhaseRecord]] = {}
        self.events: dict[str, list[EventRecord]] = {}
        self.outbox: dict[str, list[OutboxRecord]] = {}
        self.lock = threading.Lock()
        self.before_write: Callable[[], None] | None = None
        self.commits = 0

    def load(self, game_id: str) -> GameRecord:
        with self.lock:
            if game_id not in self.games:
                raise ItemNotFound(game_id)
            return self.games[game_id].copy()

    def create(
        self, game: GameRecord, events: Sequence[EventRecord] = (), outbox: Sequence[OutboxRecord] = ()
    ) -> GameRecord:
        with self.lock:
            stored = replace(game.copy(), version=1)
            self.games[game.game_id] = stored
            self.events[game.game_id] = list(events)
            self.outbox[game.game_id] = list(outbox)
            self.phase_items[game.game_id] = []
            return stored.copy()

    def _write(
        self,
        game: GameRecord,
        expected_version: int,
        events: Sequence[EventRecord],
        outbox: Sequence[OutboxRecord],
        phase: PhaseRecord | None = None,
    ) -> GameRecord:
        hook, self.before_write = self.before_write, None
        if hook is not None:
            hook()
        with self.lock:
            current = self.games.get(game.game_id)
            if current is None or current.version != expected_version:
                raise StaleVersion(game.game_id, expected_version)
            stored = replace(game.copy(), version=expected_version + 1)
            self.games[game.game_id] = stored
            self.events[game.game_id].extend(events)
            self.outbox[game.game_id].extend(outbox)
            if phase is not None:
                self.phase_items[game.game_id].append(phase)
                self.commits += 1
            return stored.copy()

    def save(
        self,
        game: GameRecord,
        *,
        expected_version: int,
        events: Sequence[EventRecord] = (),
        outbox: Sequence[OutboxRecord] = (),
    ) -> GameRecord:
        return self._write(game, expected_version, events, outbox)

    def commit_turn(
        self,
        game: GameRecord,
        *,
        expected_version: int,
        phase: PhaseRecord,
        events: Sequence[EventRecord] = (),
        outbox: Sequence[OutboxRecord] = (),
    ) -> GameRecord:
        return self._write(game, expected_version, events, outbox, phase)

    def list_games(self, limit: int = 50) -> list[GameRecord]:
        with self.lock:
            found = sorted(self.games.values(), key=lambda g: g.created_at, reverse=True)
            return [g.copy() for g in found[:limit]]

    def due_games(self, now_iso: str, limit: int = 1000) -> list[tuple[str, str, str]]:
        """What the sparse deadline index holds (infra/dynamodb/items.py ``game_item``)."""
        with self.lock:
            due = [(g.game_id, g.phase, g.deadline) for g in self.games.values()
                   if g.status == "ACTIVE" and not g.paused and g.deadline and g.deadline <= now_iso]
        return sorted(due)[:limit]  # type: ignore[arg-type]

    def phases(self, game_id: str) -> list[PhaseRecord]:
        return list(self.phase_items.get(game_id, []))

    def last_phase(self, game_id: str) -> PhaseRecord | None:
        found = self.phase_items.get(game_id, [])
        return found[-1] if found else None

    def events_after(self, game_id: str, after: int, limit: int = 100) -> list[EventRecord]:
        return [e for e in self.events.get(game_id, []) if e.seq > after][:limit]
