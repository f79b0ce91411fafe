"""The game as a pure function: `step(state, input) -> (state, outputs)`.

`new_game` gives the first state and the seed's opening GAME_STATE output. From then on the state's
`phase` says what `step` needs next: a `Roll` (TURN_ROLL, MOVE_ROLL) from whoever holds the dice,
or the seed's `receive_input` result (MOVING) from `state.turn`. The outputs are the seed's
`send_output` calls, in order, so `run()` and a stateless server both only relay them.

Decisions where the seed is silent (docs/backgammon.md): tied turn rolls are rolled again and only
the deciding pair is sent; a roll with no legal move passes (GAME_STATE with the other side to
play); a turn also ends as soon as no remaining die can be used; UNDO only takes back moves of
the current turn.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from backgammon.board import checkers_of, index_of, start_position
from backgammon.rules import can_move, check_move
from backgammon.types import (
    CHECKERS,
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
    Snapshot,
    WinKind,
)

Outputs = tuple[Output, ...]


class StepError(ValueError):
    """The driver fed `step` the wrong kind of input for the phase (a bug in the driver, not a
    player's mistake: players' mistakes are INVALID_MOVE outputs)."""


def new_game(move_by_turn_rolls: bool = False) -> tuple[GameState, Outputs]:
    """The starting position, waiting for the turn-deciding roll; outputs the initial GAME_STATE."""
    state = GameState(position=start_position(), phase=Phase.TURN_ROLL, move_by_turn_rolls=move_by_turn_rolls)
    return state, (Output(OutputType.GAME_STATE, state),)


def step(state: GameState, given: Any) -> tuple[GameState, Outputs]:
    """Advance by one input: a `Roll` while a roll is due, else a player's (InputType, data)."""
    if state.phase in (Phase.TURN_ROLL, Phase.MOVE_ROLL):
        if not isinstance(given, Roll) or not _valid_roll(given.dice):
            raise StepError(f"{state.phase.value} needs a Roll of two dice 1-6, got {given!r}")
        if state.phase is Phase.TURN_ROLL:
            return _turn_roll(state, DieRolls(*given.dice))
        return _move_roll(state, DieRolls(*given.dice))
    if state.phase is Phase.OVER:
        raise StepError("the game is over")
    if isinstance(given, Roll):
        raise StepError("a player's input is due, not a roll")
    return _player_input(state, given)


def _valid_roll(dice: object) -> bool:
    return (
        isinstance(dice, tuple)
        and len(dice) == 2
        and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)
    )


def _turn_roll(state: GameState, dice: DieRolls) -> tuple[GameState, Outputs]:
    state = replace(state, rolls=state.rolls + 1)
    if dice.is_double:
        return state, ()
    first = Side.WHITE if dice.first > dice.second else Side.BLACK
    outputs = (Output(OutputType.TURN_ROLLS, dice),)
    if not state.move_by_turn_rolls:
        return replace(state, phase=Phase.MOVE_ROLL, turn=first), outputs
    return _start_turn(replace(state, turn=first), dice, outputs)


def _move_roll(state: GameState, dice: DieRolls) -> tuple[GameState, Outputs]:
    state = replace(state, rolls=state.rolls + 1)
    return _start_turn(state, dice, (Output(OutputType.MOVE_ROLLS, dice),))


def _start_turn(state: GameState, dice: DieRolls, outputs: Outputs) -> tuple[GameState, Outputs]:
    per_die = 2 if dice.is_double else 1
    state = replace(state, phase=Phase.MOVING, dice=dice, unused=(per_die, per_die), undo=())
    if can_move(state):
        return state, outputs
    passed = _end_turn(state)
    return passed, (*outputs, Output(OutputType.GAME_STATE, passed))


def _end_turn(state: GameState) -> GameState:
    assert state.turn is not None
    return replace(state, phase=Phase.MOVE_ROLL, turn=state.turn.other, dice=None, unused=(0, 0), undo=())


def _player_input(state: GameState, given: Any) -> tuple[GameState, Outputs]:
    kind, data = given if isinstance(given, tuple) and len(given) == 2 else (None, None)
    if kind is InputType.MOVE:
        if data is None or not isinstance(data, tuple) or len(data) != 2:
            return _invalid(state, InvalidMoveCode.INVALID_MOVE_TYPE)
        return _move(state, data[0], data[1])
    if kind is InputType.UNDO:
        if data is not None:
            return _invalid(state, InvalidMoveCode.INVALID_MOVE_TYPE)
        if not state.undo:
            return _invalid(state, InvalidMoveCode.NOTHING_TO_UNDO)
        last = state.undo[-1]
        return replace(state, position=last.position, unused=last.unused, undo=state.undo[:-1]), ()
    return _invalid(state, InvalidMoveCode.INVALID_INPUT_TYPE)


def _invalid(state: GameState, code: InvalidMoveCode) -> tuple[GameState, Outputs]:
    return state, (Output(OutputType.INVALID_MOVE, code, state.turn),)


def _move(state: GameState, die_index: object, source: object) -> tuple[GameState, Outputs]:
    after = check_move(state, die_index, source)
    if isinstance(after, InvalidMoveCode):
        return _invalid(state, after)
    assert isinstance(die_index, int) and state.turn is not None
    unused = list(state.unused)
    unused[die_index] -= 1
    moved = replace(
        state,
        position=after,
        unused=(unused[0], unused[1]),
        undo=(*state.undo, Snapshot(state.position, state.unused)),
    )
    if after.off[state.turn.value] == CHECKERS:
        result = _result(after, state.turn)
        won = replace(moved, phase=Phase.OVER, dice=None, unused=(0, 0), undo=(), result=result)
        return won, (Output(OutputType.GAME_STATE, won), Output(OutputType.GAME_WON, state.turn))
    if sum(moved.unused) and can_move(moved):
        return moved, ()
    ended = _end_turn(moved)
    return ended, (Output(OutputType.GAME_STATE, ended),)


def _result(position: Position, winner: Side) -> GameResult:
    """Single, gammon or backgammon, judged on the loser's checkers (standard rules, no cube)."""
    loser = winner.other
    assert checkers_of(position, loser) == CHECKERS
    if position.off[loser.value]:
        return GameResult(winner, WinKind.SINGLE)
    in_winners_home = any(position.count(loser, index_of(winner, p)) for p in range(1, 7))
    if position.bar[loser.value] or in_winners_home:
        return GameResult(winner, WinKind.BACKGAMMON)
    return GameResult(winner, WinKind.GAMMON)
