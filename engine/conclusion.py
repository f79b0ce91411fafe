"""Where a finished game stands: the name of its final phase (issue 10).

A solo is decided by the ownership update at the end of a year (after Fall movement,
or after Fall retreats). The rules step (``engine.game.next_phase``) returns that
position still named for the phase it just closed (``F1907M`` or ``F1907R``), so a
client would see a finished game "in" a retreat phase with nothing dislodged, and a
move from F1907R to F1907R. ``concluded`` names it for what it is: the board at the
end of that year, where the adjustments would come next: ``W1907A``, with status
COMPLETED and nothing dislodged or contested. Nothing is ever adjudicated there.
An ACTIVE state, or one already named as a winter, is returned unchanged.
"""

from __future__ import annotations

import dataclasses

from engine.types import GameState, GameStatus, PhaseType, Season


def concluded(state: GameState) -> GameState:
    """``state`` if the game goes on, else its final position named ``W<year>A``."""
    if state.status is GameStatus.ACTIVE or state.season is Season.WINTER:
        return state
    return dataclasses.replace(
        state, season=Season.WINTER, phase_type=PhaseType.ADJUSTMENT, dislodged=(), contested=frozenset()
    )
