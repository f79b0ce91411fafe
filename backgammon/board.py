"""Board geometry and the physical move: where a die takes a checker, and what that does.

Indexing follows the seed ("Moving"): 0 is the bottom-right point, 11 bottom-left, 12 top-left,
23 top-right. WHITE (the first player) has its home board at 0-5 and moves down; BLACK has
18-23 and moves up. This module answers "where does it land?"; whether the move is allowed is
`rules.py`'s job.
"""

from __future__ import annotations

from backgammon.types import CHECKERS, POINTS, Position, Side

# The standard opening set-up, as (pips from bearing off, checkers): two on the 24-point, five on
# the 13, three on the 8, five on the 6 (each side counts pips from its own home).
_START = ((24, 2), (13, 5), (8, 3), (6, 5))
OFF = -1  # destination of a checker borne off


def index_of(side: Side, pips: int) -> int:
    """The board index `pips` pips away from `side` bearing off (1 = its last point)."""
    return pips - 1 if side is Side.WHITE else POINTS - pips


def pips_of(side: Side, index: int) -> int:
    """How far a checker of `side` on `index` is from bearing off (1..24)."""
    return index + 1 if side is Side.WHITE else POINTS - index


def start_position() -> Position:
    """The standard starting position (15 checkers each, nothing on the bar or off)."""
    counts = [[0] * POINTS, [0] * POINTS]
    for side in Side:
        for pips, n in _START:
            counts[side.value][index_of(side, pips)] = n
    return Position(counts=(tuple(counts[0]), tuple(counts[1])), bar=(0, 0), off=(0, 0))


def entry_index(side: Side, die: int) -> int:
    """Where a checker from the bar enters: the opponent's home board, die 1 its farthest point."""
    return index_of(side, POINTS + 1 - die)


def target(side: Side, source: int, die: int) -> int | None:
    """The index a checker on `source` reaches with `die`, or None when that is past the board."""
    pips = pips_of(side, source) - die
    return index_of(side, pips) if pips >= 1 else None


def all_home(position: Position, side: Side) -> bool:
    """True when every checker of `side` still in play is in its home board (bearing off allowed)."""
    if position.bar[side.value]:
        return False
    return all(position.count(side, index_of(side, p)) == 0 for p in range(7, POINTS + 1))


def farthest_pips(position: Position, side: Side) -> int:
    """Pips of `side`'s farthest checker on the board (25 for the bar, 0 when none is left)."""
    if position.bar[side.value]:
        return POINTS + 1
    return max((p for p in range(1, POINTS + 1) if position.count(side, index_of(side, p))), default=0)


def blocked(position: Position, side: Side, index: int) -> bool:
    """A point is closed to `side` when two or more opposing checkers stand on it."""
    return position.count(side.other, index) >= 2


def place(position: Position, side: Side, source: int | None, dest: int) -> Position:
    """Move one checker of `side` from `source` (None: the bar) to `dest` (OFF: borne off),
    sending a lone opposing checker on `dest` to the bar. No legality is checked here."""
    mine = list(position.counts[side.value])
    theirs = list(position.counts[side.other.value])
    bar, off = list(position.bar), list(position.off)
    if source is None:
        bar[side.value] -= 1
    else:
        mine[source] -= 1
    if dest == OFF:
        off[side.value] += 1
    else:
        mine[dest] += 1
        if theirs[dest] == 1:
            theirs[dest] = 0
            bar[side.other.value] += 1
    pair = (tuple(mine), tuple(theirs)) if side is Side.WHITE else (tuple(theirs), tuple(mine))
    return Position(counts=pair, bar=(bar[0], bar[1]), off=(off[0], off[1]))


def checkers_of(position: Position, side: Side) -> int:
    """All of `side`'s checkers: board + bar + off (15 in every reachable position)."""
    return sum(position.counts[side.value]) + position.bar[side.value] + position.off[side.value]


__all__ = [
    "CHECKERS",
    "OFF",
    "all_home",
    "blocked",
    "checkers_of",
    "entry_index",
    "farthest_pips",
    "index_of",
    "pips_of",
    "place",
    "start_position",
    "target",
]
