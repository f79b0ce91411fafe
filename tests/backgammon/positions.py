"""Build a backgammon state from a few checker placements, for rule tests.

Checkers not placed on the board or the bar count as borne off, so every built position holds
15 checkers a side, like every reachable one.
"""

from __future__ import annotations

from backgammon.types import CHECKERS, POINTS, DieRolls, GameState, Phase, Position, Side


def position(
    white: dict[int, int] | None = None,
    black: dict[int, int] | None = None,
    bar: tuple[int, int] = (0, 0),
) -> Position:
    counts = [[0] * POINTS, [0] * POINTS]
    for side, placed in ((Side.WHITE, white or {}), (Side.BLACK, black or {})):
        for index, n in placed.items():
            counts[side.value][index] = n
    off = tuple(CHECKERS - sum(counts[s.value]) - bar[s.value] for s in Side)
    assert min(off) >= 0, "more than 15 checkers placed"
    return Position(counts=(tuple(counts[0]), tuple(counts[1])), bar=bar, off=(off[0], off[1]))


def moving(
    pos: Position, turn: Side, dice: tuple[int, int], unused: tuple[int, int] | None = None
) -> GameState:
    """A state waiting for `turn` to move with `dice` (all of them unused unless told)."""
    roll = DieRolls(*dice)
    per_die = 2 if roll.is_double else 1
    return GameState(
        position=pos, phase=Phase.MOVING, turn=turn, dice=roll, unused=unused or (per_die, per_die)
    )
