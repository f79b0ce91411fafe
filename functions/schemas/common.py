"""The base of every API model, and the models both the player's view
(functions/schemas/api.py) and the other routes' bodies (games.py, turns.py, ...) use.

Import them from ``functions.schemas.api``, which re-exports them; they live here so that
the view's module and the bodies' module, which it loads lazily, import each other in
one direction only (tests/contracts/test_boundaries.py: no cycles).
"""

from typing import Any, Literal

from pydantic import BaseModel as PydanticModel
from pydantic import ConfigDict, Field


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


class Vote(BaseModel):
    draw: bool
    concede: bool


class GameResult(BaseModel):
    kind: Literal["solo", "draw", "concession", "year_limit", "abandoned"]
    winners: list[str] = Field(description="The winner, or the draw's members (all survivors).")
    centers: dict[str, int] = Field(description="Final supply-centre counts, every power.")
    final_phase: str | None = Field(description="The last phase actually played.")
    ended_at: str
    scores: dict[str, dict[str, float]] = Field(
        description="sum_of_squares and draw_size, and the game's own scoring system: power -> points.")
    scoring: str | None = Field(default=None,
                                description="The scoring system the game was played for (issue 34).")


class Event(BaseModel):
    seq: int
    type: str
    phase: str
    data: dict[str, Any]
    at: str


# A listing's word for where a game stands (functions/usecases/kinds/lobby.py, ``stage``).
Stage = Literal["waiting for players", "in play", "paused", "finished"]
STAGE_TEXT = ("Where the game stands, for a lobby: 'waiting for players' until every seat was "
              "filled once, then 'in play' or 'paused', 'finished' once over")
