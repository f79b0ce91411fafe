"""Request and response models of the REST API (shared/ARCHITECTURE.md §4, docs/api.md).

The OpenAPI document (GET /openapi.json, docs/openapi.json) is generated from these
models and the routes; a test fails when the committed copy drifts.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel as PydanticModel
from pydantic import ConfigDict, Field, SecretStr


class BaseModel(PydanticModel):
    """The base of every API model here: its validator is built when first used, not at import.

    pydantic builds a model's core schema and validator when the class is defined; for ~35
    models that is tens of ms of every Lambda cold start, though a request uses a few
    (issue 9). ``defer_build`` builds each model once, on its first validation or schema.
    """

    model_config = ConfigDict(defer_build=True)


OrderText = Field(min_length=1, max_length=120)


class _Request(BaseModel):
    """Request bodies are strict (issue 10): no unknown fields, and no coercion —
    ``"true"`` is not a bool, ``"86400"`` is not an int. An explicit ``null`` is refused
    wherever a field is documented as "omit for ..." (see ``_omit_only``)."""

    model_config = ConfigDict(extra="forbid", strict=True)


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


class CreateGameResponse(BaseModel):
    game_id: str
    token: str = Field(description="The creator's token (authorises process_turn). Shown once.")
    webhook_secret: str | None = Field(
        default=None, description="Signs generic webhook deliveries (docs/notifications.md). Shown once."
    )


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
    phase: str | None = Field(
        default=None, max_length=10, examples=["S1901M"],
        description="The phase the caller means to close; another phase answers 409 STALE_PHASE. "
        "Optional for compatibility, but send it: without it a repeated call (double click, retry) "
        "closes the next phase too.",
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
    power: str
    order_str: str


class Resolution(BaseModel):
    phase: str | None = None
    results: list[ResultEntry]


class ProcessTurnResponse(BaseModel):
    status: Literal["ok"] = "ok"
    phase: str
    game_status: str
    resolution: Resolution


class UnitView(BaseModel):
    kind: str
    power: str
    location: str


class DislodgedView(BaseModel):
    unit: UnitView
    attacker_origin: str | None
    retreats: list[str]


class PlayerView(BaseModel):
    joined_at: str | None
    is_active: bool


class Owed(BaseModel):
    builds: int
    disbands: int


class GameView(BaseModel):
    game_id: str
    map_name: str
    variant: str
    rules: str
    phase: str
    year: int
    season: str
    phase_type: str
    status: str
    winner: str | None
    units: list[UnitView]
    units_by_power: dict[str, list[UnitView]]
    ownership: dict[str, str]
    supply_centers: dict[str, str]
    dislodged: list[DislodgedView]
    contested: list[str]
    players: dict[str, PlayerView]
    dummy_powers: list[str]
    auto_process: bool
    wait_flags: list[str]
    paused: bool = False
    private: bool
    phase_seconds: dict[str, int | None]
    deadline: str | None
    phase_started_at: str
    event_seq: int
    power: str | None = Field(description="The caller's power (null for observers).")
    orders: dict[str, list[str]] = Field(description="The caller's own pending orders only.")
    submitted: dict[str, bool] = Field(description="Powers with a decision: have they submitted?")
    legal_orders: list[str] = Field(description="Legal orders for the caller's units.")
    owed: Owed = Field(description="Builds or removals the caller's power owes this phase "
                                   "(adjustment phases; zeros otherwise and for observers).")
    press: str = Field(default="full", description="The game's press rule.")
    anonymous: bool = False
    unread: int = Field(default=0, description="The caller's unread press messages, over all its channels.")


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


class Event(BaseModel):
    seq: int
    type: str
    phase: str
    data: dict[str, Any]
    at: str


class Events(BaseModel):
    events: list[Event]
    last_seq: int


class GameSummary(BaseModel):
    game_id: str
    variant: str
    rules: str
    phase: str
    status: str
    private: bool
    players: list[str]
    open_seats: list[str] = Field(description="Powers nobody plays yet: the game starts when this is empty")
    created_at: str
    game: str = Field(default="diplomacy", description="The game kind: diplomacy or backgammon")


class GameList(BaseModel):
    games: list[GameSummary]


class Variant(BaseModel):
    name: str
    powers: list[str]
    rules: list[str]


class VariantList(BaseModel):
    variants: list[Variant]


class ErrorBody(BaseModel):
    model_config = ConfigDict(extra="allow")

    code: str = Field(examples=["STALE_PHASE"])
    message: str
