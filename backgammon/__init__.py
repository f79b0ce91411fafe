"""Backgammon to the protocol of seeds/backgammon-protocol.txt: pure rules, stdlib only, no I/O.

    import backgammon
    backgammon.run(receive_input, send_output, move_by_turn_rolls=False)   # the seed's loop
    state, outputs = backgammon.new_game()                                  # or drive it yourself:
    state, outputs = backgammon.step(state, backgammon.Roll(backgammon.DieRolls(3, 1)))
    state, outputs = backgammon.step(state, (backgammon.InputType.MOVE, (0, 7)))

Non-goals: persistence, networking, a strong AI. docs/backgammon.md states the rules followed
where the seed is silent.
"""

from backgammon.board import checkers_of, start_position
from backgammon.bot import RandomBot
from backgammon.dice import RandomDice, seeded_roll
from backgammon.loop import run
from backgammon.rules import check_move, legal_moves
from backgammon.serialization import state_from_dict, state_to_dict
from backgammon.step import StepError, new_game, step
from backgammon.text import render
from backgammon.types import (
    CHECKERS,
    POINTS,
    DieRolls,
    GameResult,
    GameState,
    InputType,
    InvalidMoveCode,
    Output,
    OutputType,
    Phase,
    Position,
    Roll,
    Side,
    WinKind,
)

__all__ = [
    "CHECKERS",
    "POINTS",
    "DieRolls",
    "GameResult",
    "GameState",
    "InputType",
    "InvalidMoveCode",
    "Output",
    "OutputType",
    "Phase",
    "Position",
    "RandomBot",
    "RandomDice",
    "Roll",
    "Side",
    "StepError",
    "WinKind",
    "check_move",
    "checkers_of",
    "legal_moves",
    "new_game",
    "render",
    "run",
    "seeded_roll",
    "start_position",
    "state_from_dict",
    "state_to_dict",
    "step",
]
