"""The ports of the deadline function: a game's deadline, what became of a firing, and the
slice of the game store and process_turn that fires deadlines and reminders.

Standard library only, like the rest of the ports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True)
class DeadlineInfo:
    """What the deadline logic needs to know of a game: its phase, deadline and status."""

    game_id: str
    phase: str
    deadline: datetime | None
    status: str  # "ACTIVE", "PAUSED", "FINISHED", ... only "ACTIVE" games are processed


@dataclass(frozen=True)
class Firing:
    """What became of a deadline firing: ``outcome`` PROCESSED, NOT_DUE (``deadline`` is when
    the phase's deadline now falls), STALE (the game is gone, over, paused, untimed or past
    that phase) or LOST_RACE (someone else processed the phase after it was read)."""

    outcome: str
    deadline: datetime | None = None


class DeadlineGames(Protocol):
    """The slice of the game store + process_turn that deadlines use."""

    def process_if_due(self, game_id: str, phase: str, now: datetime) -> Firing:
        """Adjudicate `phase` if the game is still in it and its deadline passed by `now`:
        one read of the game, one commit."""
        ...

    def overdue(self, now: datetime) -> Sequence[DeadlineInfo]:
        """Active games whose deadline is <= now (the sweeper's backstop query)."""
        ...

    def remind_if_in_phase(self, game_id: str, phase: str) -> str:
        """Write the phase's DEADLINE_APPROACHING notice at most once and schedule the phase's
        deadline; returns the outcome's name (``DUE``: the deadline has passed, fire it)."""
        ...
