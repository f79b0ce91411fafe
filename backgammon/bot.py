"""A simple bot: it plays a legal move chosen by its own random source (seed it to replay)."""

from __future__ import annotations

import random

from backgammon.rules import Move, legal_moves
from backgammon.types import GameState


class RandomBot:
    def __init__(self, source: random.Random | None = None) -> None:
        self._source = source if source is not None else random.Random()

    def choose(self, state: GameState) -> Move:
        """One of the moves `check_move` accepts now (the state must be waiting for a move)."""
        moves = legal_moves(state)
        if not moves:
            raise ValueError("no legal move: step passes such turns itself")
        return self._source.choice(moves)
