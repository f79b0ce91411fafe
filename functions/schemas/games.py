"""Bodies of the game routes: creating a game and its settings, its webhook secrets and
Telegram link code, and listing games and variants (docs/api.md).

Part of ``functions.schemas.api``: import these models from there (``schemas.CreateGameRequest``),
which reads this module the first time one is asked for, so a cold Lambda serving a
player's view defines only the view's models (cold start, issue 9 item 6).
"""

from typing import Literal

from pydantic import Field, SecretStr

from functions.schemas.common import STAGE_TEXT, BaseModel, GameResult, Stage, _Request


class PhaseSeconds(_Request):
    MOVEMENT: int | None = Field(default=None, ge=1, le=30 * 86400)
    RETREAT: int | None = Field(default=None, ge=1, le=30 * 86400)
    ADJUSTMENT: int | None = Field(default=None, ge=1, le=30 * 86400)


class NotifyTarget(_Request):
    type: Literal["webhook", "discord", "telegram"]
    url: str | None = Field(default=None, max_length=500, description="webhook and discord: an https URL")
    chat_id: int | str | None = Field(default=None, description="telegram: a chat id or @channelname")


class BackgammonSettings(_Request):
    seed: int | None = Field(
        default=None, ge=0, le=2**62,
        description="Seeds the dice so the game replays; whoever knows it can predict them. "
        "Omit for a secret random seed.",
    )
    move_by_turn_rolls: bool = Field(default=False, description="The opening roll is the first move.")


class EveryDays(_Request):
    MOVEMENT: int = Field(default=1, ge=1, le=30)
    RETREAT: int = Field(default=1, ge=1, le=30)
    ADJUSTMENT: int = Field(default=1, ge=1, le=30)


class DeadlineAt(_Request):
    time: str = Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", examples=["20:00"])
    zone: str = Field(min_length=1, max_length=60, examples=["Europe/Berlin"])
    every_days: EveryDays | None = None
    min_gap_minutes: int = Field(default=60, ge=0, le=1440)


ScoringName = Literal["draw_size", "sum_of_squares", "c_diplo", "c_diplo_73", "tribute", "open_tribute"]


class CreateGameRequest(_Request):
    game: str = Field(
        default="diplomacy", pattern=r"^[a-z]{1,20}$", examples=["diplomacy", "backgammon"],
        description="diplomacy, or backgammon (docs/backgammon.md; variant and the Diplomacy "
        "settings do not apply to it)",
    )
    backgammon: BackgammonSettings | None = None
    variant: str = Field(
        default="classical", pattern=r"^[A-Za-z0-9_-]{1,40}$", examples=["classical", "1900"]
    )
    rules: Literal["2023", "2000"] = "2023"
    phase_seconds: PhaseSeconds | None = None
    private: bool = False
    # SecretStr: a repr (Powertools' DEBUG log of the route's arguments) shows "**********"
    join_password: SecretStr | None = Field(default=None, min_length=1, max_length=200)
    auto_process: bool = False
    notify: list[NotifyTarget] | None = Field(default=None, max_length=5)
    reminder_seconds: int | None = Field(
        default=None,
        ge=0,
        le=7 * 86400,
        description="How long before a deadline DEADLINE_APPROACHING goes out (default 3600; 0: none). "
        "Capped at a quarter of the phase length.",
    )
    press: Literal["full", "public_only", "none", "rulebook"] = Field(
        default="full", description="Who may talk when (docs/api.md, Press)."
    )
    anonymous: bool = Field(default=False, description="Nothing ties a power to a seat's identity.")
    fog: bool = Field(default=False, description="Fog of war: a power sees only units, orders and results "
                      "in or next to its own units and centres; observers see nothing until the game ends "
                      "(docs/variants.md, Fog of war).")
    name: str | None = Field(default=None, min_length=1, max_length=80,
                             description="Shown in /me/games (issue 15); default '<variant> <game id>'")
    draw_votes: Literal["secret", "public"] = Field(
        default="secret", description="secret: a power sees only its own vote; public: every vote."
    )
    max_year: int | None = Field(default=None, ge=1, le=3000,
                                 description="After this year's last phase the game ends as a draw.")
    nmr_extensions: int = Field(default=0, ge=0, le=10,
                                description="Deadline extensions per power for missing orders.")
    civil_disorder_after: int = Field(
        default=2, ge=0, le=20, description="Missed movement phases in a row before civil disorder; 0: never."
    )
    dummy_powers: list[str] | None = Field(default=None, max_length=6, examples=[["TURKEY"]])
    demo: bool = Field(default=False, description="One seat for the creator; every other power a dummy AI.")
    demo_power: str | None = Field(default=None, max_length=40, description="demo: the creator's power.")
    deadline_at: DeadlineAt | None = None
    # issue 34 (functions/usecases/players/community_settings.py)
    scoring: ScoringName | None = Field(default=None, description="The scoring system the game is "
                                        "played for; its points are in the result's scores.")
    min_reliability: int | None = Field(default=None, ge=0, le=100, description="Join only with this share "
                                        "(whole percent) of phases ordered on time in rated games.")
    min_rating: int | None = Field(default=None, ge=-100, le=100, description="Join only with this rating "
                                   "(OpenSkill ordinal) in the game's variant; a newcomer has 0.")


class WebhookSecret(BaseModel):
    """One webhook target's signing secret (issue 11: a secret per target)."""

    target: int = Field(description="The target's index in the game's notify list.")
    secret: str


class RotateSecretResponse(BaseModel):
    """A webhook target's new secret; the old one still signs until ``previous_valid_until``."""

    target: int
    secret: str = Field(description="The new signing secret. Shown once.")
    previous_valid_until: str = Field(description="ISO time until which the old secret signs too.")


class CreateGameResponse(BaseModel):
    game_id: str
    token: str = Field(description="The creator's token (authorises process_turn). Shown once.")
    webhook_secret: str | None = Field(
        default=None,
        description="The first webhook target's signing secret (docs/notifications.md). Shown once.",
    )
    webhook_secrets: list[WebhookSecret] = Field(
        default_factory=list,
        description="Each webhook target's own signing secret, by its index in notify. Shown once.",
    )
    power: str | None = Field(default=None, description="demo: the creator's seat.")
    player_token: str | None = Field(default=None, description="demo: the creator's seat token. Shown once.")


class LinkCodeResponse(BaseModel):
    code: str = Field(description="Type /link CODE to the Telegram bot. Shown once; single use.")
    expires_at: str


class GameSummary(BaseModel):
    game_id: str
    name: str = Field(description="The game's name, else '<variant> <game id>'")
    variant: str
    seats_filled: int = Field(description="Seats taken, of seats_total (dummy powers are not seats)")
    seats_total: int
    stage: Stage = Field(description=STAGE_TEXT)
    deadline: str | None = Field(default=None, description="UTC, ISO 8601; null without a running clock")
    press: str | None = Field(default=None, description="Diplomacy: the press mode (full, public_only, none, "
                              "rulebook); null for a kind without press")
    fog: bool = Field(default=False, description="Played in fog of war: each power sees only near its units")
    rules: str
    phase: str
    status: str
    private: bool
    players: list[str]
    open_seats: list[str] = Field(description="Seats join may take (never taken, left, or civil disorder)")
    dummy_powers: list[str] = Field(default_factory=list)
    civil_disorder: list[str] = Field(default_factory=list)
    demo: bool = False
    result: GameResult | None = None
    created_at: str
    game: str = Field(default="diplomacy", description="The game kind: diplomacy or backgammon")


class GameList(BaseModel):
    games: list[GameSummary]


class Variant(BaseModel):
    name: str
    powers: list[str]
    rules: list[str]
    provinces: dict[str, str] = Field(default_factory=dict, description="Each province's name by its id")


class VariantList(BaseModel):
    variants: list[Variant]
