"""Bodies of GET /games/{id}/export and POST /games/import (functions/usecases/turns/export.py,
functions/usecases/turns/import_replay.py).

Part of ``functions.schemas.api``: import these models from there (``schemas.ImportDocument``),
which reads this module the first time one is asked for (cold start, issue 9 item 6).
"""

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from functions.schemas.common import BaseModel, _Request


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
