"""Bodies of the routes a seat plays a game by: joining, orders, processing, votes, deadlines,
wait flags, dummy powers, and the history and events they leave (docs/api.md).

Part of ``functions.schemas.api``: import these models from there (``schemas.JoinRequest``),
which reads this module the first time one is asked for (cold start, issue 9 item 6).
"""

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, SecretStr

from functions.schemas.common import BaseModel, Event, GameResult, Vote, _Request
from functions.schemas.results import ExplanationBody, PhaseNoteBody, ReasonBody


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
