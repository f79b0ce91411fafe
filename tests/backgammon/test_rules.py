"""The rules of issue 18 item 1, each named by its source: the seed (docs/backgammon-protocol.txt)
or the rule number in docs/backgammon.md where the seed is silent."""

from __future__ import annotations

import pytest

from backgammon import (
    DieRolls,
    GameResult,
    GameState,
    InputType,
    InvalidMoveCode,
    Output,
    OutputType,
    Phase,
    Roll,
    Side,
    StepError,
    WinKind,
    checkers_of,
    legal_moves,
    new_game,
    start_position,
    step,
)
from backgammon.board import entry_index
from tests.backgammon.positions import moving, position

MOVE, UNDO = InputType.MOVE, InputType.UNDO


def test_start_position_seed_indexing() -> None:
    # Seed "Moving": indices run bottom right (0) to bottom left, then top left to top right (23);
    # the first player's (WHITE's) home is the bottom-right quarter, so its six-point is index 5.
    p = start_position()
    assert {i: p.count(Side.WHITE, i) for i in range(24) if p.count(Side.WHITE, i)} == {
        5: 5,
        7: 3,
        12: 5,
        23: 2,
    }
    assert {i: p.count(Side.BLACK, i) for i in range(24) if p.count(Side.BLACK, i)} == {
        0: 2,
        11: 5,
        16: 3,
        18: 5,
    }
    assert checkers_of(p, Side.WHITE) == checkers_of(p, Side.BLACK) == 15


def test_white_moves_towards_zero_and_black_towards_23() -> None:
    after, _ = step(moving(start_position(), Side.WHITE, (3, 1)), (MOVE, (0, 7)))
    assert after.position.count(Side.WHITE, 4) == 1 and after.position.count(Side.WHITE, 7) == 2
    after, _ = step(moving(start_position(), Side.BLACK, (3, 1)), (MOVE, (0, 16)))
    assert after.position.count(Side.BLACK, 19) == 1


def test_a_double_is_four_moves_two_per_die_index() -> None:
    # docs/backgammon.md "die index": each index of a double may be played twice.
    state = moving(start_position(), Side.WHITE, (2, 2))
    for die in (0, 0, 1):
        state, outputs = step(state, (MOVE, (die, 12)))
        assert outputs == () and state.turn is Side.WHITE
    refused, outputs = step(state, (MOVE, (0, 12)))
    assert outputs == (Output(OutputType.INVALID_MOVE, InvalidMoveCode.DIE_INDEX_INVALID, Side.WHITE),)
    state, outputs = step(state, (MOVE, (1, 12)))
    assert [o.type for o in outputs] == [OutputType.GAME_STATE]
    assert state.turn is Side.BLACK and state.phase is Phase.MOVE_ROLL
    assert state.position.count(Side.WHITE, 10) == 4


def test_a_checker_on_the_bar_must_enter_first_in_the_opponents_home() -> None:
    # docs/backgammon.md rule 2; WHITE enters on 24 - die.
    state = moving(position(white={5: 14}, black={0: 15}, bar=(1, 0)), Side.WHITE, (3, 1))
    assert legal_moves(state) == [(0, None), (1, None)]
    assert entry_index(Side.WHITE, 3) == 21 and entry_index(Side.BLACK, 3) == 2
    after, _ = step(state, (MOVE, (0, None)))
    assert after.position.bar == (0, 0) and after.position.count(Side.WHITE, 21) == 1


def test_landing_on_a_blot_hits_it() -> None:
    # docs/backgammon.md rule 3.
    state = moving(position(white={10: 15}, black={7: 1, 20: 14}), Side.WHITE, (3, 1))
    after, _ = step(state, (MOVE, (0, 10)))
    assert after.position.owner(7) is Side.WHITE
    assert after.position.bar == (0, 1)
    assert checkers_of(after.position, Side.BLACK) == 15


def test_a_closed_board_makes_the_checker_on_the_bar_pass() -> None:
    # docs/backgammon.md rule 6: no legal move passes; MOVE_ROLLS then GAME_STATE, other side.
    closed = position(white={0: 9}, black={i: 2 for i in range(18, 24)}, bar=(1, 0))
    state = GameState(position=closed, phase=Phase.MOVE_ROLL, turn=Side.WHITE)
    after, outputs = step(state, Roll(DieRolls(4, 2)))
    assert [o.type for o in outputs] == [OutputType.MOVE_ROLLS, OutputType.GAME_STATE]
    assert outputs[1].data is after and after.turn is Side.BLACK and after.phase is Phase.MOVE_ROLL
    assert after.position == closed


def test_a_turn_ends_when_the_remaining_die_cannot_be_used() -> None:
    # docs/backgammon.md rule 6: the 6 is played, the 5 (6 -> 1, closed) cannot be: turn over.
    state = moving(position(white={12: 1, 0: 14}, black={1: 2, 23: 13}), Side.WHITE, (5, 6))
    after, outputs = step(state, (MOVE, (1, 12)))
    assert [o.type for o in outputs] == [OutputType.GAME_STATE] and after.turn is Side.BLACK


def test_bearing_off_exact_and_higher_die_from_the_farthest_checker() -> None:
    # docs/backgammon.md rule 4.
    home = position(white={2: 1, 4: 1}, black={23: 15})
    exact, _ = step(moving(home, Side.WHITE, (5, 6)), (MOVE, (0, 4)))  # 4 is five pips from off
    assert exact.position.off[0] == 14
    higher, _ = step(moving(home, Side.WHITE, (6, 1)), (MOVE, (0, 4)))  # 6 > 5 and 4 is farthest
    assert higher.position.count(Side.WHITE, 4) == 0 and higher.position.off[0] == 14
    black_home = position(white={0: 15}, black={20: 1, 22: 1})
    black_off, _ = step(moving(black_home, Side.BLACK, (4, 1)), (MOVE, (0, 20)))
    assert black_off.position.off[1] == 14


def test_no_bearing_off_while_a_checker_is_on_the_bar() -> None:
    state = moving(position(white={0: 14}, black={23: 15}, bar=(1, 0)), Side.WHITE, (1, 2))
    assert {s for _, s in legal_moves(state)} == {None}


def test_bearing_off_the_last_checker_wins_game_state_then_game_won() -> None:
    # Seed: "If game is won, send_output sends GAME_STATE ... Then ... GAME_WON."
    state = moving(position(white={0: 1}, black={23: 1}), Side.WHITE, (1, 2))
    after, outputs = step(state, (MOVE, (1, 0)))  # either die bears it off: the larger must (rule 5)
    assert outputs == (Output(OutputType.GAME_STATE, after), Output(OutputType.GAME_WON, Side.WHITE))
    assert after.phase is Phase.OVER and after.result == GameResult(Side.WHITE, WinKind.SINGLE)
    with pytest.raises(StepError):
        step(after, (MOVE, (1, 0)))


@pytest.mark.parametrize(
    ("black", "bar", "kind"),
    [
        ({23: 1}, (0, 0), WinKind.SINGLE),  # the loser bore off 14
        ({23: 15}, (0, 0), WinKind.GAMMON),  # none off, all in its own home
        ({23: 14, 3: 1}, (0, 0), WinKind.BACKGAMMON),  # none off, one in the winner's home
        ({23: 14}, (0, 1), WinKind.BACKGAMMON),  # none off, one on the bar
    ],
)
def test_single_gammon_backgammon(black: dict[int, int], bar: tuple[int, int], kind: WinKind) -> None:
    # docs/backgammon.md rule 8.
    state = moving(position(white={0: 1}, black=black, bar=bar), Side.WHITE, (2, 1))
    after, _ = step(state, (MOVE, (0, 0)))
    assert after.result == GameResult(Side.WHITE, kind) and after.result.points == kind.value


def test_undo_restores_the_previous_state_within_the_turn_only() -> None:
    # docs/backgammon.md rule 7.
    state = moving(start_position(), Side.WHITE, (3, 1))
    moved, _ = step(state, (MOVE, (0, 7)))
    undone, outputs = step(moved, (UNDO, None))
    assert outputs == () and undone == state
    ended, _ = step(moved, (MOVE, (1, 5)))
    assert ended.turn is Side.BLACK and ended.undo == ()


def test_tied_turn_rolls_are_rolled_again_silently() -> None:
    # docs/backgammon.md rule 1: only the deciding pair is sent.
    state, _ = new_game()
    tied, outputs = step(state, Roll(DieRolls(4, 4)))
    assert outputs == () and tied.phase is Phase.TURN_ROLL and tied.rolls == 1
    decided, outputs = step(tied, Roll(DieRolls(2, 5)))
    assert outputs == (Output(OutputType.TURN_ROLLS, DieRolls(2, 5)),)
    assert decided.turn is Side.BLACK and decided.phase is Phase.MOVE_ROLL


def test_move_by_turn_rolls_plays_the_opening_roll() -> None:
    # Seed note: with move_by_turn_rolls the first MOVE_ROLLS is skipped.
    state, _ = new_game(move_by_turn_rolls=True)
    first, outputs = step(state, Roll(DieRolls(6, 1)))
    assert outputs == (Output(OutputType.TURN_ROLLS, DieRolls(6, 1)),)
    assert first.phase is Phase.MOVING and first.turn is Side.WHITE and first.dice == DieRolls(6, 1)


def test_the_driver_must_feed_the_input_the_phase_needs() -> None:
    state, _ = new_game()
    with pytest.raises(StepError):
        step(state, (MOVE, (0, 7)))
    with pytest.raises(StepError):
        step(state, Roll(DieRolls(7, 1)))
    with pytest.raises(StepError):
        step(moving(start_position(), Side.WHITE, (3, 1)), Roll(DieRolls(3, 1)))
