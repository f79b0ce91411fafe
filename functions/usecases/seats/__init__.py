"""Seats and the game's course: joining, seat changes, pause and control, votes.

What other rooms use of this area is exported here; inside the area, modules import each
other directly."""

from __future__ import annotations

from functions.usecases.seats.game_control import DeadlineState, extend_deadline, pause_game, resume_game
from functions.usecases.seats.join import join_game
from functions.usecases.seats.seats import SeatChanged, leave_game, open_seat, set_dummy_powers
from functions.usecases.seats.votes import cast_vote

__all__ = [
    "DeadlineState",
    "SeatChanged",
    "cast_vote",
    "extend_deadline",
    "join_game",
    "leave_game",
    "open_seat",
    "pause_game",
    "resume_game",
    "set_dummy_powers",
]
