"""`python -m backgammon`: play in a terminal, two people at one keyboard or against the bot.

It drives `step` directly (not `run`) so it can redraw the board after every move of a turn,
which the seed's outputs do not carry. Commands at the prompt:
  `<die> <point>`  play die index 0 or 1 from a point (e.g. `0 12`); `<die> bar` enters from the bar
  `u`  undo the last move of this turn      `h`  list the legal moves      `q`  quit
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any, TextIO

from backgammon.bot import RandomBot
from backgammon.dice import RandomDice
from backgammon.rules import Move, legal_moves
from backgammon.step import Outputs, new_game, step
from backgammon.text import SYMBOL, render
from backgammon.types import GameState, InputType, OutputType, Phase, Roll, Side

HELP = (
    "X = WHITE (home 0-5, moves down), O = BLACK (home 18-23, moves up). Commands: '<die> <point>' "
    "(e.g. '0 12'), '<die> bar', 'u' undo, 'h' legal moves, 'q' quit"
)


def parse_command(text: str) -> tuple[InputType, Any] | str:
    """A typed line as the seed's input tuple, or a local command word ('help', 'hint', 'quit')."""
    words = text.strip().lower().split()
    if not words or words[0] in ("?", "help"):
        return "help"
    if words[0] in ("h", "hint"):
        return "hint"
    if words[0] in ("q", "quit", "exit"):
        return "quit"
    if words[0] in ("u", "undo"):
        return (InputType.UNDO, None)
    if len(words) == 2 and words[0].isdigit() and (words[1] == "bar" or words[1].isdigit()):
        return (InputType.MOVE, (int(words[0]), None if words[1] == "bar" else int(words[1])))
    return "help"


def _describe(out_type: OutputType, data: Any) -> str | None:
    if out_type is OutputType.TURN_ROLLS:
        first = Side.WHITE if data.first > data.second else Side.BLACK
        return f"Turn rolls: WHITE {data.first}, BLACK {data.second}: {first.name} plays first"
    if out_type is OutputType.MOVE_ROLLS:
        return f"Dice: [0]={data.first} [1]={data.second}"
    if out_type is OutputType.INVALID_MOVE:
        return f"Refused: {data.value}"
    if out_type is OutputType.GAME_WON:
        return f"GAME_WON: {data.name}"
    return None


def _format_move(move: Move) -> str:
    return f"{move[0]} {'bar' if move[1] is None else move[1]}"


class Terminal:
    def __init__(self, out: TextIO, bots: dict[Side, RandomBot], dice: RandomDice) -> None:
        self.out, self.bots, self.dice = out, bots, dice

    def show(self, state: GameState, outputs: Outputs) -> None:
        for o in outputs:
            line = _describe(o.type, o.data)
            if line:
                print(line, file=self.out)
            if o.type is OutputType.GAME_STATE and state.phase is Phase.MOVE_ROLL and state.turn:
                print(f"-- {state.turn.name}'s turn --", file=self.out)

    def play(self, lines: TextIO, move_by_turn_rolls: bool) -> GameState:
        state, outputs = new_game(move_by_turn_rolls)
        print(render(state), file=self.out)
        while state.phase is not Phase.OVER:
            if state.phase is not Phase.MOVING:
                state, outputs = step(state, Roll(self.dice.roll()))
                self.show(state, outputs)
                if state.phase is Phase.MOVING:
                    print(render(state), file=self.out)
                continue
            given = self._next_input(state, lines)
            if given is None:
                print("bye", file=self.out)
                return state
            before = state
            state, outputs = step(state, given)
            self.show(state, outputs)
            if state != before and state.phase is not Phase.MOVE_ROLL:
                print(render(state), file=self.out)
        return state

    def _next_input(self, state: GameState, lines: TextIO) -> tuple[InputType, Any] | None:
        assert state.turn is not None
        bot = self.bots.get(state.turn)
        if bot is not None:
            move = bot.choose(state)
            print(f"{state.turn.name} (bot) plays {_format_move(move)}", file=self.out)
            return (InputType.MOVE, move)
        while True:
            print(f"{SYMBOL[state.turn]} {state.turn.name}> ", end="", file=self.out, flush=True)
            line = lines.readline()
            if not line:
                return None
            command = parse_command(line)
            if command == "quit":
                return None
            if command == "hint":
                moves = ", ".join(_format_move(m) for m in legal_moves(state))
                print(f"legal moves: {moves}", file=self.out)
            elif command == "help":
                print(HELP, file=self.out)
            else:
                assert isinstance(command, tuple)
                return command


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m backgammon", description="Backgammon in a terminal.")
    parser.add_argument(
        "--bot",
        choices=["none", "white", "black", "both"],
        default="none",
        help="which side(s) the bot plays (default: two people at one keyboard)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed the dice (and the bot) to replay a game")
    parser.add_argument(
        "--move-by-turn-rolls", action="store_true", help="the opening roll is played as the first move"
    )
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    sides = {"none": [], "white": [Side.WHITE], "black": [Side.BLACK], "both": list(Side)}[args.bot]
    terminal = Terminal(
        stdout or sys.stdout, {s: RandomBot(random.Random(rng.random())) for s in sides}, RandomDice(rng)
    )
    print(HELP, file=terminal.out)
    terminal.play(stdin or sys.stdin, args.move_by_turn_rolls)
    return 0
