"""The community's port (issue 34): what is kept of finished games and of the players in them.

Standard library only, like every port. The values are what the use cases
(functions/usecases/community/player_records.py, archive.py, tournaments.py) read and write; the
adapter (infra/dynamodb/community_store.py) says how each is keyed in the game table.

One write per finished game (``FinishedGameWrite``), all or nothing: the game's write-once
marker, its archive entry, each rated player's game line, profile counters and rating. The
marker makes a second application of the same game a no-op (``record`` answers False); a
rating whose ``last_game`` moved since it was read makes the write fail with
``RatingMoved``, and the use case computes the game again from the ratings as they are now.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol


class RatingMoved(Exception):
    """A player's rating changed between its read and the game's write: compute again."""


class StoredRating(NamedTuple):
    """One player's rating in one variant (OpenSkill mu/sigma; ``ordinal`` = mu - 3 sigma)."""

    player: str
    variant: str
    mu: float
    sigma: float
    games: int
    last_game: str | None
    display_name: str = ""

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class PlayedGame(NamedTuple):
    """One player's line for one finished game: what the profile lists and the archive's
    search by player reads. ``reliability``: that seat's counts (phases owed, on time, ...)."""

    player: str
    game_id: str
    variant: str
    ended_at: str
    power: str
    kind: str  # the game's result kind: solo, draw, concession, year_limit, abandoned
    outcome: str  # the player's: won, drew, survived, eliminated, left, civil_disorder, removed
    centres: int
    rated: bool
    reliability: Mapping[str, int]
    rating_before: float | None = None  # ordinal before and after, when rated
    rating_after: float | None = None


class ArchiveEntry(NamedTuple):
    """A finished game as the archive lists it (search by variant, result and date)."""

    game_id: str
    variant: str
    name: str
    ended_at: str
    kind: str
    winners: tuple[str, ...]
    centres: Mapping[str, int]
    players: Mapping[str, str]  # power -> display name (empty for an anonymous game)
    rated: bool
    unrated_reason: str | None = None
    phases: int = 0


class PlayerStats(NamedTuple):
    """A player's profile counters, summed over the rated games recorded for them."""

    player: str
    display_name: str = ""
    counts: Mapping[str, int] = {}  # games_played, games_finished, won, drew, ..., centres, phases_owed, ...


class FinishedGameWrite(NamedTuple):
    """Everything one finished game changes, written at once."""

    entry: ArchiveEntry
    lines: Sequence[PlayedGame] = ()
    counters: Mapping[str, Mapping[str, int]] = {}  # player -> counters to add
    names: Mapping[str, str] = {}  # player -> display name, for the stats and rating items
    ratings: Sequence[tuple[StoredRating | None, StoredRating]] = ()  # (as read, as written)


class ArchiveQuery(NamedTuple):
    """An archive search: by variant or by player, a result kind, a date range (ISO, inclusive)."""

    variant: str | None = None
    player: str | None = None
    kind: str | None = None
    since: str | None = None
    until: str | None = None
    limit: int = 50


class CommunityStore(Protocol):
    """Ratings, profiles and the archive (infra/dynamodb/community_store.py)."""

    def recorded(self, game_id: str) -> bool:
        """True once the game's write went through."""
        ...

    def record(self, write: FinishedGameWrite) -> bool:
        """Apply ``write`` unless the game was recorded already (then False, nothing written);
        ``RatingMoved`` if a rating is no longer the one read."""
        ...

    def rating(self, player: str, variant: str) -> StoredRating | None: ...

    def ratings_of(self, player: str) -> list[StoredRating]:
        """The player's rating in every variant they have one in."""
        ...

    def leaderboard(self, variant: str, limit: int) -> list[StoredRating]:
        """Best ``ordinal`` first."""
        ...

    def stats(self, player: str) -> PlayerStats | None: ...

    def played(self, player: str, limit: int) -> list[PlayedGame]:
        """The player's recorded games, newest first."""
        ...

    def search(self, query: ArchiveQuery) -> list[ArchiveEntry]:
        """Newest first; ``query.variant`` or ``query.player`` is required."""
        ...

    # tournaments (functions/usecases/community/tournaments.py): one item per event, versioned
    def tournament(self, tournament_id: str) -> dict[str, Any] | None: ...

    def save_tournament(self, tournament: dict[str, Any], *, expected_version: int) -> None:
        """Write the event; ``expected_version`` 0 creates it. ``RatingMoved`` is not used here:
        a raced write raises ``functions.ports.StaleVersion``."""
        ...
