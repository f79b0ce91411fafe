"""Request and response bodies of the API's routes other than the player's view (docs/api.md).

Part of ``functions.schemas.api``: import these models from there (``schemas.JoinRequest``),
which reads this module the first time one is asked for, so a cold Lambda serving a
player's view defines only the view's models (cold start, issue 9 item 6). The OpenAPI
document is generated from the routes, which read every model.
"""

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, SecretStr

from functions.schemas.common import STAGE_TEXT, BaseModel, Event, GameResult, Stage, Vote, _Request
from functions.schemas.results import ExplanationBody, PhaseNoteBody, ReasonBody


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


class ExtendRequest(_Request):
    seconds: int = Field(ge=1, le=30 * 86400)


class DeadlineState(BaseModel):
    phase: str
    deadline: str | None
    paused: bool


class WaitRequest(_Request):
    wait: bool


class WaitResponse(BaseModel):
    phase: str
    wait_flags: list[str] = Field(description="Powers whose wait flag is up this phase.")
    auto_processed: bool


class LinkCodeResponse(BaseModel):
    code: str = Field(description="Type /link CODE to the Telegram bot. Shown once; single use.")
    expires_at: str


class JoinRequest(_Request):
    # ``str`` with a None default that is never validated: omitting the field means "any
    # free power", but an explicit ``"power": null`` is refused (it used to join a random seat)
    power: str = Field(default=None, max_length=40, validate_default=False,  # type: ignore[assignment]
                       description="Omit for a random free power (null is refused).")
    side: str = Field(default=None, max_length=10, validate_default=False,  # type: ignore[assignment]
                      description="Backgammon: WHITE or BLACK (= power); null is refused.")
    password: SecretStr | None = Field(default=None, max_length=200)


class JoinResponse(BaseModel):
    power: str
    token: str = Field(description="This player's bearer token. Shown once; only its hash is stored.")


class SubmitOrdersRequest(_Request):
    orders: list[Annotated[str, Field(max_length=120)]] = Field(
        max_length=64, examples=[["A PAR - BUR", "F BRE - MAO"]]
    )
    phase: str | None = Field(default=None, max_length=10, examples=["S1901M"])
    client_timestamp: str | None = Field(default=None, max_length=40)


class ProcessTurnRequest(_Request):
    phase: str = Field(
        min_length=1, max_length=10, examples=["S1901M"],
        description="The phase the caller means to close (required: 422 without it); another phase "
        "answers 409 STALE_PHASE, so a repeated call (double click, retry) never closes the next "
        "phase too.",
    )


class RetractOrdersRequest(_Request):
    units: list[Annotated[str, Field(max_length=40)]] | None = Field(
        default=None, max_length=64, examples=[["A PAR"]]
    )


class RejectedOrder(BaseModel):
    order: str
    code: str
    message: str
    engine_code: str | None = None


class SubmitOrdersResponse(BaseModel):
    phase: str
    accepted: list[str]
    rejected: list[RejectedOrder]
    orders: list[str] = Field(description="The power's whole pending order set after this call.")


class ResultEntry(BaseModel):
    model_config = ConfigDict(extra="allow")

    order: dict[str, Any]
    result: str
    dislodged: bool = False
    retreat_options: list[str] = []
    reason: ReasonBody | None = None
    explanation: ExplanationBody | None = Field(
        default=None, description="Why the order ended as it did (null in phases stored before issue 31).")
    power: str
    order_str: str


class Resolution(BaseModel):
    phase: str | None = None
    results: list[ResultEntry]
    notes: list[PhaseNoteBody] = Field(
        default=[],
        description="What happened that no order asked for: units disbanded at once, phases skipped.",
    )
    nmr: list[str] | None = Field(default=None, description="Powers that owed orders and gave none.")
    votes: dict[str, dict[str, bool]] | None = Field(default=None, description="Public ballots only.")


class ProcessTurnResponse(BaseModel):
    status: Literal["ok"] = "ok"
    phase: str
    game_status: str
    resolution: Resolution


class VoteRequest(_Request):
    draw: bool | None = None
    concede: bool | None = None


class VoteResponse(BaseModel):
    phase: str
    power: str
    draw: bool
    concede: bool
    game_status: str
    result: GameResult | None
    votes: dict[str, Vote] | None = Field(description="Every vote of the phase: public ballots only.")


class SeatChange(BaseModel):
    power: str
    status: str
    open_seats: list[str]


class DummyPowersRequest(_Request):
    dummy_powers: list[str] = Field(max_length=6, examples=[["TURKEY"]])


class DummyPowersResponse(BaseModel):
    dummy_powers: list[str]
    open_seats: list[str]
    started: bool = Field(description="The dummies filled the last seats: the game has started.")


class OrdersStatus(BaseModel):
    phase: str
    powers_with_orders: list[str]
    submitted: dict[str, bool]
    waiting_on: list[str]
    deadline: str | None


class HistoryEntry(BaseModel):
    n: int
    phase: str
    state: dict[str, Any]
    orders: dict[str, list[str]]
    resolution: Resolution
    processed_at: str


class History(BaseModel):
    phases: list[HistoryEntry]
    result: GameResult | None = None
    next_cursor: str | None = Field(
        default=None, description="Pass as ?cursor= for the next page; null on the last page (issue 11)."
    )


class Events(BaseModel):
    events: list[Event]
    last_seq: int


class GameSummary(BaseModel):
    game_id: str
    name: str = Field(description="The game's name, else '<variant> <game id>'")
    variant: str
    seats_filled: int = Field(description="Seats taken, of seats_total (dummy powers are not seats)")
    seats_total: int
    stage: Stage = Field(description=STAGE_TEXT)
    deadline: str | None = Field(default=None, description="UTC, ISO 8601; null without a running clock")
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


class ExportedPhase(BaseModel):
    n: int
    phase: str
    state: dict[str, Any]
    orders: dict[str, list[str]]
    resolution: dict[str, Any]
    processed_at: str


class ExportedCurrent(BaseModel):
    phase: str
    state: dict[str, Any]
    status: str


class ExportDocument(BaseModel):
    """GET /games/{id}/export, POST /games/import (functions/usecases/turns/export.py)."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["convoy-export/1"]
    source: dict[str, Any] = Field(default_factory=dict, description="The exported game's id and creation.")
    variant: str = Field(max_length=40)
    rules: str = Field(max_length=10)
    settings: dict[str, Any] = Field(default_factory=dict, description="Without secrets (an allow-list).")
    phases: list[ExportedPhase] = Field(max_length=2000)
    current: ExportedCurrent
    result: dict[str, Any] | None = None


# POST /games/import (issue 28 item 1): the export's shape, strict, with the sizes bounded here
# and every value checked by the import's replay (functions/usecases/turns/import_replay.py, whose
# MAX_PHASES, MAX_ORDERS_PER_POWER and MAX_ORDER_CHARS these numbers repeat; a test holds them
# equal). What a game's rules decide (resolutions, status, result) is never read from it.
ImportedOrder = Annotated[str, Field(max_length=120)]
ImportedPower = Annotated[str, Field(max_length=40)]


class ImportedSource(_Request):
    game_id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,64}$")
    created_at: str | None = Field(default=None, max_length=40)


class ImportedPhase(_Request):
    n: int = Field(ge=0, le=400)
    phase: str = Field(pattern=r"^[SFW]\d{1,4}[MRA]$", examples=["S1901M"])
    state: dict[str, Any]
    orders: dict[ImportedPower, Annotated[list[ImportedOrder], Field(max_length=64)]] = Field(max_length=40)
    resolution: dict[str, Any] = Field(
        default_factory=dict, description="Recomputed by the replay; only a public ballot's votes are read.")
    processed_at: str = Field(max_length=40)


class ImportedCurrent(_Request):
    phase: str = Field(pattern=r"^[SFW]\d{1,4}[MRA]$")
    state: dict[str, Any]
    status: str | None = Field(default=None, max_length=20, description="Ignored: the replay decides.")


class ImportDocument(_Request):
    """An export document (``GET /games/{id}/export``) to import."""

    format: Literal["convoy-export/1"]
    source: ImportedSource = Field(default_factory=ImportedSource)
    variant: str = Field(pattern=r"^[A-Za-z0-9_-]{1,40}$")
    rules: Literal["2023", "2000"]
    settings: dict[str, Any] = Field(default_factory=dict, max_length=20,
                                     description="The export's settings, each within POST /games' bounds.")
    phases: list[ImportedPhase] = Field(default_factory=list, max_length=400)
    current: ImportedCurrent
    result: dict[str, Any] | None = Field(default=None, description="Ignored: the replay decides.")


# Every 4xx/5xx answer (docs/api.md "Errors"). The handler writes these as dicts, so only
# the OpenAPI document reads the model. (A docstring would become its schema's description.)
class ErrorBody(BaseModel):
    model_config = ConfigDict(extra="allow")

    code: str = Field(examples=["STALE_PHASE"])
    message: str
