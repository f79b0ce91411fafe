"""Request and response models of the stateless sandbox (issue 19; docs/api.md "Sandbox")."""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from functions.schemas.api import ResultEntry

OrderText = Annotated[str, Field(min_length=1, max_length=120)]
STATE_EXAMPLE = {
    "year": 1901, "season": "SPRING", "phase_type": "MOVEMENT",
    "units": [{"kind": "A", "power": "FRANCE", "location": "PAR"}],
    "ownership": {"PAR": "FRANCE"},
}


class _PositionFields(BaseModel):
    """A position: ``state`` (the engine's JSON state, as in a game's history) or ``compact``
    (shared/seeds/compact-notation.txt) with its ``phase``; exactly one of the two."""

    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)

    variant: str = Field(default="classical", max_length=40, description="See GET /variants.")
    rules: str = Field(default="2023", max_length=20, description='Rulebook: "2023" or "2000".')
    state: dict[str, Any] | None = Field(
        default=None, description="The engine's JSON state (year, season, phase_type, units, "
        "ownership, dislodged with retreats, contested).", examples=[STATE_EXAMPLE],
    )
    compact: str | None = Field(
        default=None, max_length=4000, description="The compact notation, e.g. "
        "'France:APar,FBre|Par,Bre England:FLon|Lon'. Carries no retreat options.",
    )
    phase: str | None = Field(
        default=None, max_length=8, description="With compact only: S1901M, F1901R, W1901A "
        "(default: the variant's first phase; a dislodged unit makes it the retreat phase).",
    )
    include_compact: bool = Field(default=False, description="Also answer in the compact notation.")


class AdjudicateRequest(_PositionFields):
    orders: dict[str, Annotated[list[OrderText], Field(max_length=64)]] = Field(
        default_factory=dict, description="Power -> order texts; units without an order hold.",
        examples=[{"FRANCE": ["A PAR - BUR"]}],
    )
    notation: Literal["standard", "compact"] = Field(
        default="standard", description="How the orders are written: 'A PAR - BUR' or 'APar-Bur'.",
    )


class LegalOrdersRequest(_PositionFields):
    powers: Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=20)] | None = Field(
        default=None, description="Whose menus; default every power with a decision to make.",
    )


class OrderAnswer(BaseModel):
    power: str
    order: str = Field(description="The order as sent.")
    ok: bool = Field(description="Would a game's order entry accept it? (The adjudicator gets it "
                     "either way if it parses, and voids it if illegal, as the DATC prescribes.)")
    canonical: str | None = Field(description="The canonical standard text, when ok.")
    code: str | None = Field(description="UNPARSEABLE_ORDER or ILLEGAL_ORDER when not ok.")
    engine_code: str | None = Field(description="The engine's reason code (NOT_ADJACENT, ...).")
    message: str | None


class SandboxResolution(BaseModel):
    phase: str
    results: list[ResultEntry]


class NextPosition(BaseModel):
    phase: str
    status: str
    winner: str | None
    state: dict[str, Any]
    compact: str | None = Field(description="The compact notation, when include_compact.")


class AdjudicateResponse(BaseModel):
    variant: str
    rules: str
    phase: str = Field(description="The phase adjudicated.")
    orders: list[OrderAnswer]
    resolution: SandboxResolution
    next: NextPosition
    compact: str | None = Field(description="The position sent, in compact notation, when include_compact.")


class LegalOrdersResponse(BaseModel):
    variant: str
    rules: str
    phase: str
    legal_orders: dict[str, list[str]]
    legal_orders_compact: dict[str, list[str]] | None = Field(
        description="When include_compact; a move via convoy has no compact form and is left out.",
    )


class WhatIfRequest(BaseModel):
    """A preview of a game's current phase (``POST /games/{id}/whatif``): the game gives the
    position; the body gives guessed orders (standard notation) for other powers and, if it
    wants, the caller's own instead of its pending ones."""

    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)

    orders: dict[str, Annotated[list[OrderText], Field(max_length=64)]] = Field(
        default_factory=dict,
        description="Power -> order texts: guesses for other powers (a power without any holds); "
        "the caller's own power here replaces its pending orders in the preview.",
        examples=[{"GERMANY": ["A MUN - BUR"]}],
    )
    phase: str | None = Field(default=None, max_length=8,
                              description="The phase the preview is for; STALE_PHASE if the game moved on.")
    include_compact: bool = Field(default=False, description="Also answer in the compact notation.")


class WhatIfResponse(AdjudicateResponse):
    game_id: str
    power: str = Field(description="The caller's power.")
    own_orders: Literal["pending", "given"] = Field(
        description="Whether the caller's orders were its pending ones or those in the body.")
