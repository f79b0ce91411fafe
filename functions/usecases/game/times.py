"""Times as the game record keeps them (ISO 8601, milliseconds, ``Z``), and a new phase's deadline."""

from __future__ import annotations

from datetime import datetime, timedelta

from functions.ports import GameRecord
from functions.usecases.game.deadline_grid import grid_deadline


def iso(at: datetime) -> str:
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def deadline_for(game: GameRecord, phase_type: str, now: datetime) -> str | None:
    """The deadline of a phase starting ``now``: on the ``deadline_at`` grid if the game has
    one (functions/usecases/game/deadline_grid.py), else ``phase_seconds`` later, else none."""
    grid = game.settings.get("deadline_at")
    if grid:
        return iso(grid_deadline(grid, phase_type, now))
    seconds = (game.settings.get("phase_seconds") or {}).get(phase_type)
    return iso(now + timedelta(seconds=int(seconds))) if seconds else None
