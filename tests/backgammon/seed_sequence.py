"""The seed's "Game loop" section as a checker over a recorded list of run() calls.

A recorded call is ("in", side, returned) for `receive_input(side)` or ("out", args) for
`send_output(*args)`. `check_seed_sequence` walks the list bullet by bullet of
docs/backgammon-protocol.txt and fails at the first call the seed does not allow there. The one
addition is docs/backgammon.md rule 6 (a roll without a legal move passes: MOVE_ROLLS, then
GAME_STATE for the other side, with no receive_input).
"""

from __future__ import annotations

from typing import Any

from backgammon import DieRolls, GameState, InputType, InvalidMoveCode, OutputType, Side

Call = tuple[Any, ...]


class Walker:
    def __init__(self, calls: list[Call]) -> None:
        self.calls, self.at = calls, 0

    def peek(self) -> Call | None:
        return self.calls[self.at] if self.at < len(self.calls) else None

    def take(self) -> Call:
        call = self.peek()
        assert call is not None, f"the run ended early after {self.at} calls"
        self.at += 1
        return call

    def broadcast(self, kind: OutputType, data_type: type) -> Any:
        """The next call must be send_output(kind, data) with two arguments: for both sides."""
        call = self.take()
        assert call[0] == "out" and len(call[1]) == 2, f"call {self.at - 1}: {call!r} is not a 2-arg output"
        assert call[1][0] is kind and isinstance(call[1][1], data_type), f"call {self.at - 1}: {call!r}"
        return call[1][1]

    def invalid(self, side: Side, code: InvalidMoveCode | None = None) -> None:
        call = self.take()
        assert call[0] == "out" and len(call[1]) == 3 and call[1][0] is OutputType.INVALID_MOVE, call
        assert isinstance(call[1][1], InvalidMoveCode) and call[1][2] is side, call
        assert code is None or call[1][1] is code, call


def _is_out(call: Call | None, kind: OutputType) -> bool:
    return call is not None and call[0] == "out" and call[1][0] is kind


def check_seed_sequence(calls: list[Call], move_by_turn_rolls: bool) -> Side:
    """Check the whole recorded game; return the winner GAME_WON named."""
    w = Walker(calls)
    w.broadcast(OutputType.GAME_STATE, GameState)  # "Once the game starts ... the initial game state"
    turn_rolls = w.broadcast(OutputType.TURN_ROLLS, DieRolls)  # "Then ... the turn-deciding die rolls"
    side = Side.WHITE if turn_rolls.first > turn_rolls.second else Side.BLACK
    first = True
    while True:  # "Then, the game loop starts"
        if not (first and move_by_turn_rolls):  # "skipped for the first iteration" with the flag
            w.broadcast(OutputType.MOVE_ROLLS, DieRolls)
        first = False
        if _is_out(w.peek(), OutputType.GAME_STATE):  # docs/backgammon.md rule 6: no legal move
            assert w.broadcast(OutputType.GAME_STATE, GameState).turn is side.other
            side = side.other
            continue
        outcome = _until_turn_ends(w, side)
        if outcome == "won":
            assert w.peek() is None, "calls after GAME_WON"
            return side
        side = side.other


def _until_turn_ends(w: Walker, side: Side) -> str:
    """ "Then, until a valid move is made, or game is won": one receive_input after another."""
    while True:
        call = w.take()
        assert call[0] == "in" and call[1] is side, f"call {w.at - 1}: expected receive_input({side})"
        kind, data = call[2] if isinstance(call[2], tuple) and len(call[2]) == 2 else (None, None)
        if kind is InputType.MOVE and data is None:
            w.invalid(side, InvalidMoveCode.INVALID_MOVE_TYPE)
        elif kind is InputType.MOVE:
            if _is_out(w.peek(), OutputType.INVALID_MOVE):
                w.invalid(side)
            elif _is_out(w.peek(), OutputType.GAME_STATE):
                state = w.broadcast(OutputType.GAME_STATE, GameState)
                if _is_out(w.peek(), OutputType.GAME_WON):  # "called once more with GAME_WON"
                    assert w.broadcast(OutputType.GAME_WON, Side) is side
                    assert state.position.off[side.value] == 15
                    return "won"
                assert state.turn is side.other  # "the other side starts their turn"
                return "turn over"
        elif kind is InputType.UNDO and data is not None:
            w.invalid(side, InvalidMoveCode.INVALID_MOVE_TYPE)
        elif kind is InputType.UNDO:
            if _is_out(w.peek(), OutputType.INVALID_MOVE):
                w.invalid(side, InvalidMoveCode.NOTHING_TO_UNDO)
        else:
            w.invalid(side, InvalidMoveCode.INVALID_INPUT_TYPE)
