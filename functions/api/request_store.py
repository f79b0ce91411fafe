"""A per-request view of the game store that saves one read.

The handler reads META to identify the caller, then the use case reads it again.
``RequestStore`` serves that second read from the first (once). This is safe under
the version protocol: if another writer got in between, the conditional write fails
and the use case's retry reloads from the table.
"""

from __future__ import annotations

from collections.abc import Sequence

from functions.ports import EventRecord, GameRecord, GameStore, OutboxRecord, PhaseRecord, PowerPress


class RequestStore:
    def __init__(self, store: GameStore) -> None:
        self._store = store
        self._cached: dict[str, GameRecord] = {}

    def load(self, game_id: str) -> GameRecord:
        cached = self._cached.pop(game_id, None)
        if cached is not None:
            return cached
        game = self._store.load(game_id)
        self._cached[game_id] = game.copy()
        return game

    def load_with_press(self, game_id: str) -> tuple[GameRecord, dict[str, PowerPress] | None]:
        return self._store.load_with_press(game_id)

    def create(
        self, game: GameRecord, events: Sequence[EventRecord] = (), outbox: Sequence[OutboxRecord] = ()
    ) -> GameRecord:
        return self._store.create(game, events, outbox)

    def save_turn(self, game: GameRecord, power: str, *, events: Sequence[EventRecord] = ()) -> GameRecord:
        self._cached.clear()
        return self._store.save_turn(game, power, events=events)

    def save(
        self,
        game: GameRecord,
        *,
        expected_version: int,
        events: Sequence[EventRecord] = (),
        outbox: Sequence[OutboxRecord] = (),
    ) -> GameRecord:
        self._cached.clear()
        return self._store.save(game, expected_version=expected_version, events=events, outbox=outbox)

    def commit_turn(
        self,
        game: GameRecord,
        *,
        expected_version: int,
        phases: Sequence[PhaseRecord] = (),
        events: Sequence[EventRecord] = (),
        outbox: Sequence[OutboxRecord] = (),
    ) -> GameRecord:
        self._cached.clear()
        return self._store.commit_turn(
            game, expected_version=expected_version, phases=phases, events=events, outbox=outbox
        )

    def list_games(self, limit: int = 50) -> list[GameRecord]:
        return self._store.list_games(limit)

    def delete_game(self, game_id: str) -> int:
        self._cached.clear()
        return self._store.delete_game(game_id)

    def due_games(self, now_iso: str, limit: int = 1000) -> list[tuple[str, str, str]]:
        return self._store.due_games(now_iso, limit)

    def phases(self, game_id: str, *, after: int = -1, limit: int | None = None) -> list[PhaseRecord]:
        return self._store.phases(game_id, after=after, limit=limit)

    def last_phase(self, game_id: str) -> PhaseRecord | None:
        return self._store.last_phase(game_id)

    def events_after(self, game_id: str, after: int, limit: int = 100) -> list[EventRecord]:
        return self._store.events_after(game_id, after, limit)
