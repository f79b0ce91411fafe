"""Request and response models of the REST API (shared/ARCHITECTURE.md §4, docs/api.md).

The OpenAPI document (GET /openapi.json, docs/openapi.json) is generated from these
models and the routes; a test fails when the committed copy drifts. This module defines
the base models and the player's view; every other route's bodies are in
functions/schemas/games.py, turns.py, exports.py and errors.py, press's in
functions/schemas/press.py and backgammon's in functions/schemas/backgammon.py, read on
first use and importable from here (``LAZY``).

No ``from __future__ import annotations`` in the schema modules (issue 9 item 6): pydantic
reads each field's annotation when the class is defined, and a string annotation costs a
compile and an eval per field there, a real one nothing (tests/contracts/test_cold_start_rules.py).
"""

from typing import Any, Literal

from pydantic import Field

from functions.schemas.common import BaseModel, Event, GameResult, Vote, _Request  # noqa: F401 - re-exported


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
    display_name: str | None = Field(
        default=None, description="The account's name (issue 15); never in an anonymous game")


class SeatView(BaseModel):
    status: Literal["player", "dummy", "open", "civil_disorder"]
    missed: int = Field(description="Consecutive missed movement phases.")


class Owed(BaseModel):
    builds: int
    disbands: int


class FogView(BaseModel):
    """What the caller sees in a fog-of-war game (docs/variants.md, Fog of war)."""

    visible: list[str] = Field(description="The provinces the caller sees; everything else is fog.")
    centres: dict[str, int] = Field(description="Every power's number of supply centres (public).")


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
    # The resolver writes a view in its model's field order: the lifecycle block stays where
    # the view builder puts it (functions/usecases/turns/views.py lifecycle_view), so the view's
    # JSON is byte for byte what the builder makes.
    seats: dict[str, SeatView] = Field(default_factory=dict)
    open_seats: list[str] = Field(default_factory=list, description="Seats join may take.")
    civil_disorder: list[str] = Field(default_factory=list)
    votes: dict[str, Vote] = Field(
        default_factory=dict, description="This phase's votes: the caller's own (secret) or all (public)."
    )
    result: GameResult | None = None
    demo: bool = False
    settings: dict[str, Any] = Field(default_factory=dict, description="The game's lifecycle settings.")
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
    fog: FogView | None = Field(
        default=None, description="A fog-of-war game until it ends: what the caller sees (units, centres, "
        "dislodged units and standoffs are cut to it); null otherwise.")


# The other routes' bodies, press's models (issue 13) and backgammon's, defined on first use
# (PEP 562): import them from here (``schemas.JoinRequest``, ``schemas.SentMessage``).
LAZY: dict[str, tuple[str, ...]] = {
    "functions.schemas.games": (
        "PhaseSeconds", "NotifyTarget", "BackgammonSettings", "EveryDays", "DeadlineAt",
        "CreateGameRequest", "WebhookSecret", "RotateSecretResponse", "CreateGameResponse",
        "LinkCodeResponse", "GameSummary", "GameList", "Variant", "VariantList",
    ),
    "functions.schemas.turns": (
        "ExtendRequest", "DeadlineState", "WaitRequest", "WaitResponse", "JoinRequest", "JoinResponse",
        "SubmitOrdersRequest", "ProcessTurnRequest", "RetractOrdersRequest", "RejectedOrder",
        "SubmitOrdersResponse", "ResultEntry", "Resolution", "ProcessTurnResponse", "VoteRequest",
        "VoteResponse", "SeatChange", "DummyPowersRequest", "DummyPowersResponse", "OrdersStatus",
        "HistoryEntry", "History", "Events",
    ),
    "functions.schemas.exports": (
        "ExportedPhase", "ExportedCurrent", "ExportDocument", "ImportedSource", "ImportedPhase",
        "ImportedCurrent", "ImportDocument",
    ),
    "functions.schemas.errors": ("ErrorBody",),
    "functions.schemas.press": (
        "SendMessageRequest", "SentMessage", "MessageView", "MessageList", "ChannelView",
        "ChannelList", "MarkReadRequest", "MarkReadResponse",
    ),
    # a Diplomacy game's requests never need these
    "functions.schemas.backgammon": (
        "MoveRequest", "Seats", "Checkers", "BackgammonResult", "BackgammonView", "MoveResponse",
    ),
}
_MODULE_OF = {name: module for module, names in LAZY.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups are plain attribute reads
    return value
