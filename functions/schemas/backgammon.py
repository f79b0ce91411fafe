"""Request and response models of the backgammon calls (docs/api.md "Backgammon")."""

from typing import Any

from pydantic import ConfigDict, Field

from functions.schemas.common import BaseModel, Event  # validators built on first use (issue 9)


class MoveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    input: str = Field(max_length=20, examples=["MOVE", "UNDO"], description="The seed's InputType")
    move: list[int | None] | None = Field(
        default=None,
        max_length=4,
        examples=[[0, 12], [1, None]],
        description="MOVE: [die index (0 or 1, as MOVE_ROLLS sent them), source point 0-23 or null "
        "from the bar]; UNDO: omit",
    )
    phase: str | None = Field(
        default=None,
        max_length=12,
        examples=["T2"],
        description="The turn this move is for; another turn: 409 STALE_PHASE",
    )


class Seats(BaseModel):
    WHITE: int
    BLACK: int


class Checkers(BaseModel):
    WHITE: list[int] = Field(description="Checkers on points 0-23 (0 bottom right ... 23 top right)")
    BLACK: list[int]


class BackgammonResult(BaseModel):
    winner: str
    kind: str = Field(description="SINGLE, GAMMON or BACKGAMMON")
    points: int


class BackgammonView(BaseModel):
    game_id: str
    game: str
    status: str
    phase: str = Field(description="T<n>: n rolls so far")
    side: str | None = Field(description="The caller's side, or null for an observer")
    to_play: str | None
    stage: str = Field(description="What the game waits for: TURN_ROLL, MOVE_ROLL, MOVING or OVER")
    points: Checkers
    bar: Seats
    off: Seats
    turn: str | None
    dice: list[int] | None
    unused: list[int] = Field(description="Moves each die index still allows (2 each for a double)")
    moves_this_turn: int
    move_by_turn_rolls: bool
    rolls: int
    result: BackgammonResult | None
    legal_moves: list[list[int | None]] = Field(description="The caller's moves now (empty if not its turn)")
    can_undo: bool
    board_text: str
    players: dict[str, dict[str, Any]]
    open_seats: list[str]
    private: bool
    seeded: bool
    event_seq: int


class MoveResponse(BaseModel):
    view: BackgammonView = Field(description="The game as the caller now sees it")
    events: list[Event] = Field(description="The events this move appended, in order")
