"""Dice: the only randomness in a game, kept outside `step` so games replay.

`RandomDice` wraps any `random.Random`-like source (inject a seeded one to replay a game);
`seeded_roll(seed, n)` is the n-th roll of a seeded game as a pure function, so a stateless
server can roll from a stored seed and the state's roll counter without keeping a generator.
"""

from __future__ import annotations

import random
from typing import Protocol

from backgammon.types import DieRolls


class RandomSource(Protocol):
    def randint(self, a: int, b: int) -> int: ...


class RandomDice:
    """Two fair dice drawn from `source` (default: a fresh, unseeded `random.Random`)."""

    def __init__(self, source: RandomSource | None = None) -> None:
        self._source: RandomSource = source if source is not None else random.Random()

    def roll(self) -> DieRolls:
        return DieRolls(self._source.randint(1, 6), self._source.randint(1, 6))


def seeded_roll(seed: int, number: int) -> DieRolls:
    """The `number`-th roll (0-based) of the game seeded with `seed`: the same every time."""
    return RandomDice(random.Random(f"{seed}:{number}")).roll()
