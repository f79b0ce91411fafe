"""Bodies and answers of the community's routes (issue 34): profiles, the leaderboard, the
archive, MILA and Cicero files, tournaments. See docs/community.md.

No ``from __future__ import annotations`` (functions/schemas/api.py says why)."""

from typing import Any, Literal

from pydantic import ConfigDict, Field

from functions.schemas.common import BaseModel, _Request
from functions.schemas.games import ScoringName

# --- profiles, ratings, the archive --------------------------------------------------------------


class RatingRow(BaseModel):
    player: str
    display_name: str
    variant: str
    mu: float
    sigma: float
    rating: float = Field(description="The OpenSkill ordinal, mu - 3 sigma: what the leaderboard sorts by.")
    games: int


class RankedRating(RatingRow):
    rank: int


class Prior(BaseModel):
    mu: float
    sigma: float
    rating: float


class Leaderboard(BaseModel):
    variant: str
    prior: Prior = Field(description="A newcomer's rating (the model's prior).")
    ratings: list[RankedRating]


class PlayedGameRow(BaseModel):
    game_id: str
    variant: str
    ended_at: str
    power: str
    result: str = Field(description="The game's result kind: solo, draw, concession, year_limit, abandoned.")
    outcome: str = Field(
        description="The player's: won, drew, survived, eliminated, left, civil_disorder, removed."
    )
    centres: int
    rated: bool
    reliability: dict[str, int]
    rating_before: float | None
    rating_after: float | None


class Reliability(BaseModel):
    phases_owed: int
    on_time: int
    late: int
    missed: int
    civil_disorders: int
    games_left: int
    removed: int
    on_time_share: float | None = Field(
        description="on_time / phases_owed; null before the first phase owed."
    )


class PlayerProfile(BaseModel):
    player: str
    display_name: str
    games_played: int
    games_finished: int
    results: dict[str, int]
    centres: int
    reliability: Reliability
    ratings: list[RatingRow]
    recent_games: list[PlayedGameRow]


class ArchiveGame(BaseModel):
    game_id: str
    variant: str
    name: str
    ended_at: str
    result: str
    winners: list[str]
    centres: dict[str, int]
    players: dict[str, str] = Field(description="power -> display name (none for an anonymous game).")
    rated: bool
    unrated_reason: str | None
    phases: int


class Archive(BaseModel):
    games: list[ArchiveGame]


# --- open formats ------------------------------------------------------------------------------


class _Foreign(BaseModel):
    """Another program's document: fields of its own are kept (extra allowed), sizes bounded."""

    model_config = ConfigDict(extra="allow")


class MilaState(_Foreign):
    name: str = Field(max_length=12)
    units: dict[str, list[str]] = Field(max_length=40)
    centers: dict[str, list[str]] = Field(max_length=40)


class MilaPhase(_Foreign):
    name: str = Field(max_length=12)
    state: MilaState
    orders: dict[str, list[str] | None] = Field(default_factory=dict, max_length=40)
    results: dict[str, Any] = Field(default_factory=dict)
    messages: list[dict[str, Any]] = Field(default_factory=list, max_length=5000)


class MilaGame(_Foreign):
    """MILA's saved-game JSON (``diplomacy.utils.export.to_saved_game_format``); ``convoy`` is
    Convoy's extension: variant, rulebook, status and outcome, which the format lacks (MILA #149)."""

    id: str = Field(default="", max_length=200)
    map: str = Field(max_length=40, examples=["standard"])
    rules: list[str] = Field(default_factory=list, max_length=30)
    phases: list[MilaPhase] = Field(min_length=1, max_length=2000)
    convoy: dict[str, Any] | None = None


class CiceroGame(_Foreign):
    """A webDiplomacy game in the layout of Cicero's release (``data/cicero_redacted_games``)."""

    id: str | int = Field(default="")
    map: str = Field(max_length=40, examples=["standard"])
    phases: list[MilaPhase] = Field(min_length=1, max_length=2000)


# --- tournaments -------------------------------------------------------------------------------


class TournamentRequest(_Request):
    name: str = Field(min_length=1, max_length=80)
    variant: Literal["classical"] = "classical"
    scoring: ScoringName = "sum_of_squares"
    rounds: int = Field(ge=1, le=10, description="How many rounds the event plays.")
    players: list[str] = Field(
        min_length=7,
        max_length=350,
        description="Account ids (user_id) of the entrants; a multiple of 7 per round.",
    )
    max_year: int | None = Field(
        default=None,
        ge=1901,
        le=3000,
        description="Each board's year limit (a timed round): a draw of the survivors.",
    )
    phase_seconds: int | None = Field(
        default=None, ge=60, le=30 * 86400, description="Each board's phase length (every phase type)."
    )


class BoardSeat(BaseModel):
    power: str
    player: str
    display_name: str


class TournamentBoard(BaseModel):
    round: int
    number: int
    game_id: str
    seats: list[BoardSeat]
    status: str
    result: dict[str, Any] | None
    points: dict[str, float] | None = Field(
        description="player -> points under the event's system, once over."
    )


class StandingRow(BaseModel):
    rank: int
    player: str
    display_name: str
    total: float
    best: float
    boards: int


class Tournament(BaseModel):
    tournament_id: str
    name: str
    variant: str
    scoring: str
    rounds: int
    players: list[str]
    director: str
    boards: list[TournamentBoard]
    repeat_pairs: list[int] = Field(
        description="Per round seeded: pairs of players who had met at a board before."
    )


class Standings(BaseModel):
    tournament_id: str
    name: str
    scoring: str
    rounds_played: int
    rounds_finished: int
    standings: list[StandingRow]
