"""In-memory fakes of the ports: the same conditional-write contract as DynamoDB."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from functions.ports import (
    ChannelRecord,
    EventRecord,
    GameRecord,
    InboxEntry,
    ItemNotFound,
    MessageRecord,
    OutboxRecord,
    PhaseRecord,
    PowerPress,
    PowerTurn,
    PressNotice,
    StaleVersion,
    apply_turns,
    changed_turns,
    turn_of,
)


class FakeClock:
    def __init__(self, start: datetime | None = None) -> None:
        self.at = start or datetime(2024, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        self.at += timedelta(milliseconds=1)
        return self.at


class InMemoryGameStore:
    """A GameStore in dicts, with DynamoDB's contract (infra/dynamodb/game_store.py): META
    conditional on its version, each power's own item on its version, and an event appended
    only under the next free number (the phase pin). ``before_write`` lets a test run another
    writer in between."""

    def __init__(self) -> None:
        self.games: dict[str, GameRecord] = {}  # META as stored (decisions live in turn_items)
        self.turn_items: dict[tuple[str, str], PowerTurn] = {}
        self.phase_items: dict[str, list[PhaseRecord]] = {}
        self.events: dict[str, list[EventRecord]] = {}
        self.outbox: dict[str, list[OutboxRecord]] = {}
        self.lock = threading.Lock()
        self.before_write: Callable[[], None] | None = None
        self.commits = 0
        self.loads = 0

    def load(self, game_id: str) -> GameRecord:
        with self.lock:
            if game_id not in self.games:
                raise ItemNotFound(game_id)
            self.loads += 1
            turns = [t for (g, _), t in sorted(self.turn_items.items()) if g == game_id]
            return apply_turns(self.games[game_id].copy(), turns)

    def load_with_press(self, game_id: str) -> tuple[GameRecord, None]:
        return self.load(game_id), None  # the press fake keeps the ledgers

    def create(
        self, game: GameRecord, events: Sequence[EventRecord] = (), outbox: Sequence[OutboxRecord] = ()
    ) -> GameRecord:
        with self.lock:
            stored = replace(game.copy(), version=1, layout=2)
            self.games[game.game_id] = _meta(stored)
            self.events[game.game_id] = list(events)
            self.outbox[game.game_id] = list(outbox)
            self.phase_items[game.game_id] = []
            self._put_turns(game.game_id, changed_turns(stored))
            return _read_back(stored, changed_turns(stored))

    def _check(self, game_id: str, events: Sequence[EventRecord], turns: Sequence[PowerTurn]) -> None:
        """The conditions of the transaction: free event numbers, each item at its version."""
        last = self.events[game_id][-1].seq if self.events.get(game_id) else 0
        if events and events[0].seq != last + 1:
            raise StaleVersion(game_id, last)
        for turn in turns:
            stored = self.turn_items.get((game_id, turn.power))
            if (stored.version if stored else 0) != turn.version:
                raise StaleVersion(game_id, turn.version)

    def _put_turns(self, game_id: str, turns: Sequence[PowerTurn]) -> None:
        for turn in turns:
            self.turn_items[(game_id, turn.power)] = turn._replace(version=turn.version + 1)

    def _write(
        self,
        game: GameRecord,
        expected_version: int,
        events: Sequence[EventRecord],
        outbox: Sequence[OutboxRecord],
        phases: Sequence[PhaseRecord] = (),
    ) -> GameRecord:
        hook, self.before_write = self.before_write, None
        if hook is not None:
            hook()
        with self.lock:
            current = self.games.get(game.game_id)
            if current is None or current.version != expected_version:
                raise StaleVersion(game.game_id, expected_version)
            turns = changed_turns(game)
            self._check(game.game_id, events, turns)
            stored = replace(game.copy(), version=expected_version + 1)
            self.games[game.game_id] = _meta(stored)
            self._put_turns(game.game_id, turns)
            self.events[game.game_id].extend(events)
            self.outbox[game.game_id].extend(outbox)
            if phases:
                self.phase_items[game.game_id].extend(phases)
                self.commits += 1
            return _read_back(stored, turns)

    def save(
        self,
        game: GameRecord,
        *,
        expected_version: int,
        events: Sequence[EventRecord] = (),
        outbox: Sequence[OutboxRecord] = (),
    ) -> GameRecord:
        return self._write(game, expected_version, events, outbox)

    def save_turn(self, game: GameRecord, power: str, *, events: Sequence[EventRecord] = ()) -> GameRecord:
        hook, self.before_write = self.before_write, None
        if hook is not None:
            hook()
        with self.lock:
            if game.game_id not in self.games:
                raise StaleVersion(game.game_id, game.version)
            turn = turn_of(game, power)
            self._check(game.game_id, events, [turn])
            self._put_turns(game.game_id, [turn])
            self.events[game.game_id].extend(events)
            return _read_back(game.copy(), [turn])

    def commit_turn(
        self,
        game: GameRecord,
        *,
        expected_version: int,
        phases: Sequence[PhaseRecord] = (),
        events: Sequence[EventRecord] = (),
        outbox: Sequence[OutboxRecord] = (),
    ) -> GameRecord:
        return self._write(game, expected_version, events, outbox, phases)

    def delete_game(self, game_id: str) -> int:
        with self.lock:
            found = [self.games.pop(game_id, None), self.phase_items.pop(game_id, None),
                     self.events.pop(game_id, None), self.outbox.pop(game_id, None)]
            turns = [key for key in self.turn_items if key[0] == game_id]
            for key in turns:
                del self.turn_items[key]
            return sum(len(f) if isinstance(f, list) else 1 for f in found if f is not None) + len(turns)

    def list_games(self, limit: int = 50) -> list[GameRecord]:
        with self.lock:
            found = sorted(self.games.values(), key=lambda g: g.created_at, reverse=True)
            return [g.copy() for g in found[:limit]]

    def due_games(self, now_iso: str, limit: int = 1000) -> list[tuple[str, str, str]]:
        """What the sparse deadline index holds (infra/dynamodb/items.py ``game_item``)."""
        with self.lock:
            due = [(g.game_id, g.phase, g.deadline) for g in self.games.values()
                   if g.status == "ACTIVE" and not g.paused and g.deadline and g.deadline <= now_iso]
        return sorted(due)[:limit]

    def phases(self, game_id: str, *, after: int = -1, limit: int | None = None) -> list[PhaseRecord]:
        found = [p for p in self.phase_items.get(game_id, []) if p.n > after]
        return found if limit is None else found[:limit]

    def last_phase(self, game_id: str) -> PhaseRecord | None:
        found = self.phase_items.get(game_id, [])
        return found[-1] if found else None

    def events_after(self, game_id: str, after: int, limit: int = 100) -> list[EventRecord]:
        return [e for e in self.events.get(game_id, []) if e.seq > after][:limit]


def _meta(game: GameRecord) -> GameRecord:
    """META as the store keeps it: without the powers' decisions (they are their own items)."""
    return replace(game, pending_orders={}, wait_flags={}, votes={}, turns={})


def _read_back(game: GameRecord, written: Sequence[PowerTurn]) -> GameRecord:
    game.turns = {**game.turns, **{t.power: t._replace(version=t.version + 1) for t in written}}
    return game


class InMemoryPressStore:
    """A PressStore in dicts, with the same all-or-nothing, conditional send as DynamoDB."""

    def __init__(self) -> None:

        self.lock = threading.Lock()
        self.ledger_items: dict[tuple[str, str], PowerPress] = {}
        self.channel_items: dict[tuple[str, str], ChannelRecord] = {}
        self.messages: dict[tuple[str, str], list[MessageRecord]] = {}
        self.inboxes: dict[tuple[str, str], list[InboxEntry]] = {}
        self.keys: dict[tuple[str, str], dict[str, object]] = {}
        self.notices: list[PressNotice] = []

    def ledger(self, game_id: str, power: str) -> PowerPress:
        import copy

        with self.lock:
            return copy.deepcopy(self.ledger_items.get((game_id, power), PowerPress(power=power)))

    def ledgers(self, game_id: str, powers: Sequence[str]) -> dict[str, PowerPress]:
        return {p: self.ledger(game_id, p) for p in powers}

    def channel(self, game_id: str, channel: str) -> ChannelRecord | None:
        return self.channel_items.get((game_id, channel))

    def channels(self, game_id: str, names: Sequence[str]) -> list[ChannelRecord]:
        return [self.channel_items[(game_id, n)] for n in names if (game_id, n) in self.channel_items]

    def applied(self, game_id: str, dedupe_key: str) -> dict[str, Any] | None:
        return self.keys.get((game_id, dedupe_key))

    def inbox(self, game_id: str, power: str, after: int, limit: int) -> list[InboxEntry]:
        return [e for e in self.inboxes.get((game_id, power), []) if e.n > after][:limit]

    def channel_messages(self, game_id: str, channel: str, after: int, limit: int) -> list[MessageRecord]:
        return [m for m in self.messages.get((game_id, channel), []) if m.seq > after][:limit]

    def commit_message(self, game_id: str, *, message: MessageRecord, channel: ChannelRecord,
                       expected_last_seq: int, ledgers: Sequence[tuple[PowerPress, int]],
                       notices: Sequence[PressNotice] = (), dedupe_key: str | None = None,
                       result: dict[str, Any] | None = None) -> None:
        import copy

        with self.lock:
            current = self.channel_items.get((game_id, channel.channel))
            stale = (current.last_seq if current else 0) != expected_last_seq or any(
                self.ledger_items.get((game_id, ledger.power), ledger).version != expected
                and (game_id, ledger.power) in self.ledger_items
                for ledger, expected in ledgers
            ) or (dedupe_key is not None and (game_id, dedupe_key) in self.keys)
            if stale:
                raise StaleVersion(game_id, expected_last_seq)
            self.channel_items[(game_id, channel.channel)] = channel
            self.messages.setdefault((game_id, message.channel), []).append(message)
            for ledger, expected in ledgers:
                stored = copy.deepcopy(ledger)
                stored.version = expected + 1
                self.ledger_items[(game_id, ledger.power)] = stored
                entry = InboxEntry(ledger.inbox_seq, message)
                self.inboxes.setdefault((game_id, ledger.power), []).append(entry)
            if dedupe_key is not None:
                self.keys[(game_id, dedupe_key)] = dict(result or {})
            self.notices.extend(notices)

    def save_ledger(self, game_id: str, ledger: PowerPress, *, expected_version: int) -> PowerPress:
        import copy

        with self.lock:
            current = self.ledger_items.get((game_id, ledger.power))
            if (current.version if current else 0) != expected_version:
                raise StaleVersion(game_id, expected_version)
            ledger.version = expected_version + 1
            self.ledger_items[(game_id, ledger.power)] = copy.deepcopy(ledger)
            return ledger
