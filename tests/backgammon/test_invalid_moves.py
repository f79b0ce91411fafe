"""Every InvalidMoveCode case the seed lists ("Game loop" and "Moving" sections of
seeds/backgammon-protocol.txt, copied in docs/backgammon-protocol.txt), plus the codes of the rules
the seed leaves open (docs/backgammon.md). Each input must produce exactly one INVALID_MOVE output
with that code for the side to play, and leave the state exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest

from backgammon import (
    GameState,
    InputType,
    InvalidMoveCode,
    Output,
    OutputType,
    Side,
    start_position,
    step,
)
from tests.backgammon.positions import moving, position

Code = InvalidMoveCode
START_WHITE_31 = moving(start_position(), Side.WHITE, (3, 1))

CASES: list[tuple[str, GameState, Any, InvalidMoveCode]] = [
    # Game loop: "If the second item is None ... INVALID_MOVE_TYPE"
    ("move without data", START_WHITE_31, (InputType.MOVE, None), Code.INVALID_MOVE_TYPE),
    # Game loop, UNDO: "If the second item is not None ... INVALID_MOVE_TYPE"
    ("undo with data", START_WHITE_31, (InputType.UNDO, (0, 7)), Code.INVALID_MOVE_TYPE),
    # Game loop, UNDO: "if there are no moves to undo ... NOTHING_TO_UNDO"
    ("undo at the start of a turn", START_WHITE_31, (InputType.UNDO, None), Code.NOTHING_TO_UNDO),
    # Game loop: "Else ... INVALID_INPUT_TYPE"
    ("unknown input type", START_WHITE_31, ("RESIGN", None), Code.INVALID_INPUT_TYPE),
    ("input that is no pair", START_WHITE_31, InputType.MOVE, Code.INVALID_INPUT_TYPE),
    # Moving, DIE_INDEX_INVALID: "Die index is already played"
    (
        "die already played",
        moving(start_position(), Side.WHITE, (3, 1), unused=(0, 1)),
        (InputType.MOVE, (0, 7)),
        Code.DIE_INDEX_INVALID,
    ),
    # Moving, DIE_INDEX_INVALID: "Die index does not exist"
    ("die index 2", START_WHITE_31, (InputType.MOVE, (2, 7)), Code.DIE_INDEX_INVALID),
    ("die index -1", START_WHITE_31, (InputType.MOVE, (-1, 7)), Code.DIE_INDEX_INVALID),
    ("die index not a number", START_WHITE_31, (InputType.MOVE, ("0", 7)), Code.DIE_INDEX_INVALID),
    # Moving, SOURCE_INVALID: "Player has pieces that have been hit and source index is not None"
    (
        "source given while on the bar",
        moving(position(white={5: 14}, black={23: 15}, bar=(1, 0)), Side.WHITE, (3, 1)),
        (InputType.MOVE, (0, 5)),
        Code.SOURCE_INVALID,
    ),
    # Moving, SOURCE_INVALID: "Player does not have pieces that have been hit and source index is None"
    ("bar entry with nothing on the bar", START_WHITE_31, (InputType.MOVE, (0, None)), Code.SOURCE_INVALID),
    # Moving, SOURCE_INVALID: "Source index does not exist"
    ("source 24", START_WHITE_31, (InputType.MOVE, (0, 24)), Code.SOURCE_INVALID),
    ("source -1", START_WHITE_31, (InputType.MOVE, (0, -1)), Code.SOURCE_INVALID),
    # Moving, SOURCE_NOT_OWNED_PIECE: "Source is not a piece belonging to the player"
    ("source holds the opponent", START_WHITE_31, (InputType.MOVE, (0, 11)), Code.SOURCE_NOT_OWNED_PIECE),
    ("source is empty", START_WHITE_31, (InputType.MOVE, (0, 3)), Code.SOURCE_NOT_OWNED_PIECE),
    # Moving, DESTINATION_OCCUPIED: "Destination is occupied by two or more opponent pieces"
    (
        "move onto a closed point",
        moving(start_position(), Side.WHITE, (5, 1)),
        (InputType.MOVE, (0, 23)),  # 23 - 5 = 18: five BLACK checkers
        Code.DESTINATION_OCCUPIED,
    ),
    (
        "entry onto a closed point",
        moving(position(white={5: 14}, black={18: 2, 0: 13}, bar=(1, 0)), Side.WHITE, (6, 1)),
        (InputType.MOVE, (0, None)),  # a 6 enters WHITE on 18
        Code.DESTINATION_OCCUPIED,
    ),
    # Moving, DESTINATION_OUT_OF_BOARD: "Player is not bearing off and destination is out of the board"
    (
        "bearing off with a checker still outside home",
        moving(start_position(), Side.WHITE, (6, 1)),
        (InputType.MOVE, (0, 5)),
        Code.DESTINATION_OUT_OF_BOARD,
    ),
    # docs/backgammon.md rule 4: a higher die only bears off the farthest checker
    (
        "higher die while a checker is farther",
        moving(position(white={1: 1, 4: 1}, black={23: 15}), Side.WHITE, (6, 3)),
        (InputType.MOVE, (0, 1)),
        Code.BEAR_OFF_NOT_FARTHEST,
    ),
    # docs/backgammon.md rule 5: play as many dice as the roll allows (5 then 6 works)
    (
        "a first move that leaves the other die unplayable",
        moving(position(white={12: 1, 5: 1, 0: 13}, black={6: 2, 23: 13}), Side.WHITE, (5, 6)),
        (InputType.MOVE, (0, 5)),
        Code.MUST_USE_MORE_DICE,
    ),
    # docs/backgammon.md rule 5: of two dice that cannot both be played, the larger
    (
        "the smaller die when only one can be played",
        moving(position(white={12: 1, 0: 14}, black={1: 2, 23: 13}), Side.WHITE, (5, 6)),
        (InputType.MOVE, (0, 12)),
        Code.MUST_USE_LARGER_DIE,
    ),
]


@pytest.mark.parametrize(("state", "given", "code"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_input_is_refused_with_exactly_that_code_and_nothing_changes(
    state: GameState, given: Any, code: InvalidMoveCode
) -> None:
    after, outputs = step(state, given)
    assert outputs == (Output(OutputType.INVALID_MOVE, code, state.turn),)
    assert after == state


def test_every_code_has_a_case() -> None:
    assert {c[3] for c in CASES} == set(InvalidMoveCode)


def test_a_black_move_past_the_board_is_refused_too() -> None:
    # The same rule read in BLACK's direction: BLACK moves up and bears off past 23.
    state = moving(start_position(), Side.BLACK, (6, 1))
    after, outputs = step(state, (InputType.MOVE, (0, 18)))
    assert outputs == (Output(OutputType.INVALID_MOVE, Code.DESTINATION_OUT_OF_BOARD, Side.BLACK),)
    assert after == state
