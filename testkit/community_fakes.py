"""An in-memory ``CommunityStore`` (functions/ports/community.py) for the API's in-process tests:
the same once-per-game and last_game rules as infra/dynamodb/community_store.py, in dicts."""

from __future__ import annotations

import copy
from typing import Any

from functions.ports import StaleVersion
from functions.ports.community import (
    ArchiveEntry,
    ArchiveQuery,
    FinishedGameWrite,
    PlayedGame,
    PlayerStats,
    RatingMoved,
    StoredRating,
)


class MemoryCommunityStore:
    def __init__(self) -> None:
        self.marked: set[str] = set()
        self.entries: dict[str, ArchiveEntry] = {}
        self.lines: dict[str, list[PlayedGame]] = {}
        self.counters: dict[str, PlayerStats] = {}
        self.ratings: dict[tuple[str, str], StoredRating] = {}
        self.events: dict[str, dict[str, Any]] = {}

    def recorded(self, game_id: str) -> bool:
        return game_id in self.marked

    def record(self, write: FinishedGameWrite) -> bool:
        if write.entry.game_id in self.marked:
            return False
        for before, after in write.ratings:
            now = self.ratings.get((after.player, after.variant))
            if (now.last_game if now else None) != (before.last_game if before else None):
                raise RatingMoved(after.player)
        self.marked.add(write.entry.game_id)
        self.entries[write.entry.game_id] = write.entry
        for line in write.lines:
            self.lines.setdefault(line.player, []).append(line)
        for player, counters in write.counters.items():
            found = self.counters.get(player) or PlayerStats(player, "", {})
            counts = dict(found.counts)
            for key, value in counters.items():
                counts[key] = counts.get(key, 0) + int(value)
            self.counters[player] = PlayerStats(player, write.names.get(player, ""), counts)
        for _, after in write.ratings:
            self.ratings[(after.player, after.variant)] = after
        return True

    def rating(self, player: str, variant: str) -> StoredRating | None:
        return self.ratings.get((player, variant))

    def ratings_of(self, player: str) -> list[StoredRating]:
        return sorted((r for (p, _), r in self.ratings.items() if p == player), key=lambda r: r.variant)

    def leaderboard(self, variant: str, limit: int) -> list[StoredRating]:
        found = [r for (_, v), r in self.ratings.items() if v == variant]
        return sorted(found, key=lambda r: -r.ordinal)[:limit]

    def stats(self, player: str) -> PlayerStats | None:
        return self.counters.get(player)

    def played(self, player: str, limit: int) -> list[PlayedGame]:
        return sorted(self.lines.get(player, []), key=lambda g: g.ended_at, reverse=True)[:limit]

    def search(self, query: ArchiveQuery) -> list[ArchiveEntry]:
        if query.player:
            ids = {g.game_id for g in self.lines.get(query.player, [])}
            found = [e for e in self.entries.values() if e.game_id in ids]
        else:
            found = [e for e in self.entries.values() if e.variant == query.variant]
        found = [e for e in found if (not query.kind or e.kind == query.kind)
                 and (not query.variant or e.variant == query.variant)
                 and (not query.since or e.ended_at >= query.since)
                 and (not query.until or e.ended_at[:len(query.until)] <= query.until)]
        return sorted(found, key=lambda e: e.ended_at, reverse=True)[:query.limit]

    def tournament(self, tournament_id: str) -> dict[str, Any] | None:
        found = self.events.get(tournament_id)
        return copy.deepcopy(found) if found else None

    def save_tournament(self, tournament: dict[str, Any], *, expected_version: int) -> None:
        key = str(tournament["tournament_id"])
        now = self.events.get(key)
        if (int(now["version"]) if now else 0) != expected_version:
            raise StaleVersion(key, expected_version)
        self.events[key] = {**copy.deepcopy(tournament), "version": expected_version + 1}
