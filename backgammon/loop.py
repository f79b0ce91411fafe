"""The seed's game loop, `run(receive_input, send_output, move_by_turn_rolls=False)`.

A thin loop over `step`: it rolls when the state waits for dice, asks `receive_input(side)` when it
waits for a player, and relays every output to `send_output` in order. An output for both sides
is sent with two arguments, so `send_output`'s third parameter takes its None default (seed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from backgammon.dice import RandomDice
from backgammon.step import new_game, step
from backgammon.types import GameState, Output, Phase, Roll, Side

ReceiveInput = Callable[[Side], Any]
SendOutput = Callable[..., Any]


def run(
    receive_input: ReceiveInput,
    send_output: SendOutput,
    move_by_turn_rolls: bool = False,
    *,
    dice: RandomDice | None = None,
) -> GameState:
    """Play one game to its end and return the final state (its `result` names the winner).

    `dice` is the injectable random source; pass `RandomDice(random.Random(seed))` to replay."""
    roller = dice if dice is not None else RandomDice()
    state, outputs = new_game(move_by_turn_rolls)
    _send(send_output, outputs)
    while state.phase is not Phase.OVER:
        if state.phase is Phase.MOVING:
            assert state.turn is not None
            state, outputs = step(state, receive_input(state.turn))
        else:
            state, outputs = step(state, Roll(roller.roll()))
        _send(send_output, outputs)
    return state


def _send(send_output: SendOutput, outputs: tuple[Output, ...]) -> None:
    for out in outputs:
        if out.side is None:
            send_output(out.type, out.data)
        else:
            send_output(out.type, out.data, out.side)
