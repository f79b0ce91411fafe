"""What the community's read routes show (issue 34): a player's profile, a variant's
leaderboard, the archive of finished games. Reads only; the records are written once per
finished game by functions/usecases/community/player_records.py.

A profile is public, as on every Diplomacy site that keeps one: the display name, the counters
over rated games (played, finished, results, centres), reliability (phases owed, on time, late,
missed; civil disorders, games left), the ratings per variant and the recent games. Nothing
in it is a secret of a game in play: a game enters the records only once it is over.
"""

from __future__ import annotations

from typing import Any

from community.ratings import MU, SIGMA
from functions.errors import DomainError, ValidationFailed
from functions.ports.community import ArchiveEntry, ArchiveQuery, CommunityStore, PlayedGame, StoredRating

RECENT_GAMES = 20
RELIABILITY = ("phases_owed", "on_time", "late", "missed", "civil_disorders", "games_left", "removed")
RESULTS = ("won", "drew", "survived", "eliminated", "left", "civil_disorder", "removed")


class PlayerNotFound(DomainError):
    """No record of this player: no finished game of theirs was recorded."""

    code = "PLAYER_NOT_FOUND"
    status = 404


def rating_view(rating: StoredRating) -> dict[str, Any]:
    return {
        "player": rating.player,
        "display_name": rating.display_name,
        "variant": rating.variant,
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "rating": round(rating.ordinal, 3),
        "games": rating.games,
    }


def line_view(line: PlayedGame) -> dict[str, Any]:
    return {
        "game_id": line.game_id,
        "variant": line.variant,
        "ended_at": line.ended_at,
        "power": line.power,
        "result": line.kind,
        "outcome": line.outcome,
        "centres": line.centres,
        "rated": line.rated,
        "reliability": dict(line.reliability),
        "rating_before": None if line.rating_before is None else round(line.rating_before, 3),
        "rating_after": None if line.rating_after is None else round(line.rating_after, 3),
    }


def entry_view(entry: ArchiveEntry) -> dict[str, Any]:
    return {
        "game_id": entry.game_id,
        "variant": entry.variant,
        "name": entry.name,
        "ended_at": entry.ended_at,
        "result": entry.kind,
        "winners": list(entry.winners),
        "centres": dict(entry.centres),
        "players": dict(entry.players),
        "rated": entry.rated,
        "unrated_reason": entry.unrated_reason,
        "phases": entry.phases,
    }


def profile(store: CommunityStore, user_id: str) -> dict[str, Any]:
    """The player's public record; ``PLAYER_NOT_FOUND`` (404) before their first recorded game."""
    stats = store.stats(user_id)
    games = store.played(user_id, RECENT_GAMES)
    if stats is None and not games:
        raise PlayerNotFound(f"no finished game of player {user_id!r} is on record")
    counts = dict(stats.counts) if stats else {}
    owed = counts.get("phases_owed", 0)
    reliability: dict[str, Any] = {k: counts.get(k, 0) for k in RELIABILITY}
    reliability["on_time_share"] = round(counts.get("on_time", 0) / owed, 4) if owed else None
    ratings = store.ratings_of(user_id)
    return {
        "player": user_id,
        "display_name": (stats.display_name if stats else "")
        or next((r.display_name for r in ratings if r.display_name), ""),
        "games_played": counts.get("games_played", 0),
        "games_finished": counts.get("games_finished", 0),
        "results": {k: counts.get(k, 0) for k in RESULTS},
        "centres": counts.get("centres", 0),
        "reliability": reliability,
        "ratings": [rating_view(r) for r in sorted(ratings, key=lambda r: r.variant)],
        "recent_games": [line_view(g) for g in games],
    }


def leaderboard(store: CommunityStore, variant: str, limit: int) -> dict[str, Any]:
    """The variant's ratings, best first (rank 1 first; equal ratings share a rank)."""
    rows: list[dict[str, Any]] = []
    for i, rating in enumerate(store.leaderboard(variant, limit)):
        shown = rating_view(rating)
        tied = rows and rows[-1]["rating"] == shown["rating"]
        rows.append({"rank": rows[-1]["rank"] if tied else i + 1, **shown})
    return {
        "variant": variant,
        "prior": {"mu": MU, "sigma": SIGMA, "rating": MU - 3 * SIGMA},
        "ratings": rows,
    }


def search_archive(store: CommunityStore, query: ArchiveQuery) -> dict[str, Any]:
    """Finished games, newest first, by variant or player (one of them is needed)."""
    if not query.variant and not query.player:
        raise ValidationFailed("search the archive by variant or by player")
    return {"games": [entry_view(e) for e in store.search(query)]}
