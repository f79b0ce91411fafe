"""The one legality check: `check_move` says whether a move may be made and, if not, why.

A move is (die index, source index or None from the bar), as in the seed's "Moving" section. The
codes follow the seed's list in its order; past it, the rules the seed leaves open
(docs/backgammon.md): a higher die bears off only the farthest checker, and a player must use as
many dice as the roll allows, the larger one when only one of two can be used.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from backgammon.board import OFF, all_home, blocked, entry_index, farthest_pips, pips_of, place, target
from backgammon.types import POINTS, GameState, InvalidMoveCode, Position, Side

Move = tuple[int, int | None]


def sources(position: Position, side: Side) -> list[int | None]:
    """Where `side` may move from: only the bar while it has checkers there (bar entry first)."""
    if position.bar[side.value]:
        return [None]
    return [i for i in range(POINTS) if position.count(side, i)]


def physical(position: Position, side: Side, die: int, source: int | None) -> Position | InvalidMoveCode:
    """Play one die from an owned source (or the bar), ignoring which dice must be used."""
    if source is None:
        dest: int | None = entry_index(side, die)
    else:
        dest = target(side, source, die)
    if dest is None:
        assert source is not None  # entering always lands on the board
        if not all_home(position, side):
            return InvalidMoveCode.DESTINATION_OUT_OF_BOARD
        if pips_of(side, source) != die and pips_of(side, source) < farthest_pips(position, side):
            return InvalidMoveCode.BEAR_OFF_NOT_FARTHEST
        return place(position, side, source, OFF)
    if blocked(position, side, dest):
        return InvalidMoveCode.DESTINATION_OCCUPIED
    return place(position, side, source, dest)


@lru_cache(maxsize=1 << 16)
def max_dice(position: Position, side: Side, dice: tuple[int, ...]) -> int:
    """How many of the remaining `dice` (sorted values) can be played in some order from here."""
    best = 0
    for die in sorted(set(dice), reverse=True):
        rest = _without(dice, die)
        for source in sources(position, side):
            after = physical(position, side, die, source)
            if isinstance(after, Position):
                best = max(best, 1 + max_dice(after, side, rest))
                if best == len(dice):
                    return best
    return best


def _without(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    i = dice.index(die)
    return dice[:i] + dice[i + 1 :]


def remaining_dice(state: GameState) -> tuple[int, ...]:
    """The values still to play this turn, sorted (a double gives four)."""
    if state.dice is None:
        return ()
    counter = Counter({state.dice[0]: 0, state.dice[1]: 0})
    for i in (0, 1):
        counter[state.dice[i]] += state.unused[i]
    return tuple(sorted(counter.elements()))


def check_move(state: GameState, die_index: object, source: object) -> Position | InvalidMoveCode:
    """The position after the move, or the code of the first rule it breaks (nothing changes)."""
    assert state.turn is not None and state.dice is not None
    side, position = state.turn, state.position
    if not isinstance(die_index, int) or isinstance(die_index, bool) or die_index not in (0, 1):
        return InvalidMoveCode.DIE_INDEX_INVALID
    if state.unused[die_index] == 0:
        return InvalidMoveCode.DIE_INDEX_INVALID
    on_bar = position.bar[side.value] > 0
    if source is None:
        if not on_bar:
            return InvalidMoveCode.SOURCE_INVALID
    elif on_bar or not isinstance(source, int) or isinstance(source, bool) or not 0 <= source < POINTS:
        return InvalidMoveCode.SOURCE_INVALID
    elif position.count(side, source) == 0:
        return InvalidMoveCode.SOURCE_NOT_OWNED_PIECE
    die = state.dice[die_index]
    after = physical(position, side, die, source)
    if isinstance(after, InvalidMoveCode):
        return after
    return _forced_dice(state, die, after) or after


def _forced_dice(state: GameState, die: int, after: Position) -> InvalidMoveCode | None:
    """Use as many dice as possible; of two dice that cannot both be used, the larger if it can."""
    assert state.turn is not None
    side, dice = state.turn, remaining_dice(state)
    best = max_dice(state.position, side, dice)
    if 1 + max_dice(after, side, _without(dice, die)) < best:
        return InvalidMoveCode.MUST_USE_MORE_DICE
    larger = max(dice)
    if best == 1 and die < larger and _playable(state.position, side, larger):
        return InvalidMoveCode.MUST_USE_LARGER_DIE
    return None


def _playable(position: Position, side: Side, die: int) -> bool:
    return any(isinstance(physical(position, side, die, s), Position) for s in sources(position, side))


def legal_moves(state: GameState) -> list[Move]:
    """Every (die index, source) `check_move` accepts now, in a stable order."""
    if state.turn is None or state.dice is None:
        return []
    moves: list[Move] = []
    for die_index in (0, 1):
        if state.unused[die_index]:
            for source in sources(state.position, state.turn):
                if isinstance(check_move(state, die_index, source), Position):
                    moves.append((die_index, source))
    return moves


def can_move(state: GameState) -> bool:
    """True when the side to play can use at least one of its remaining dice."""
    assert state.turn is not None
    return max_dice(state.position, state.turn, remaining_dice(state)) > 0
