"""The seed's vocabulary (seeds/backgammon-protocol.txt): sides, input/output kinds, codes, values.

Every value here is frozen and hashable, so a game position can be compared, stored and used as a
cache key. Nothing in this module knows a rule; `board.py` and `rules.py` do.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple

POINTS = 24
CHECKERS = 15


class Side(Enum):
    """The two seats. WHITE is the seed's "first player": its home board is the bottom-right quarter
    (indices 0-5) and it moves towards index 0; BLACK's home is indices 18-23 and it moves up."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE


class InputType(Enum):
    """The purpose of what `receive_input` returns (seed, "Game loop")."""

    MOVE = "MOVE"
    UNDO = "UNDO"


class OutputType(Enum):
    """The purpose of a `send_output` call (seed, "Game loop")."""

    GAME_STATE = "GAME_STATE"
    TURN_ROLLS = "TURN_ROLLS"
    MOVE_ROLLS = "MOVE_ROLLS"
    INVALID_MOVE = "INVALID_MOVE"
    GAME_WON = "GAME_WON"


class InvalidMoveCode(Enum):
    """Why an input was refused. The first eight are the seed's; the last four are the rules the
    seed leaves open (docs/backgammon.md names the rule each one enforces)."""

    INVALID_MOVE_TYPE = "INVALID_MOVE_TYPE"
    NOTHING_TO_UNDO = "NOTHING_TO_UNDO"
    INVALID_INPUT_TYPE = "INVALID_INPUT_TYPE"
    DIE_INDEX_INVALID = "DIE_INDEX_INVALID"
    SOURCE_INVALID = "SOURCE_INVALID"
    SOURCE_NOT_OWNED_PIECE = "SOURCE_NOT_OWNED_PIECE"
    DESTINATION_OCCUPIED = "DESTINATION_OCCUPIED"
    DESTINATION_OUT_OF_BOARD = "DESTINATION_OUT_OF_BOARD"
    BEAR_OFF_NOT_FARTHEST = "BEAR_OFF_NOT_FARTHEST"
    MUST_USE_MORE_DICE = "MUST_USE_MORE_DICE"
    MUST_USE_LARGER_DIE = "MUST_USE_LARGER_DIE"


class DieRolls(NamedTuple):
    """Two dice as the game sent them; a move names a die by its index here (0 or 1).

    For TURN_ROLLS, `first` is WHITE's die and `second` BLACK's."""

    first: int
    second: int

    @property
    def is_double(self) -> bool:
        return self.first == self.second


class Phase(Enum):
    """What the game waits for: a roll (supplied by the driver's dice), a player's input, or nothing."""

    TURN_ROLL = "TURN_ROLL"
    MOVE_ROLL = "MOVE_ROLL"
    MOVING = "MOVING"
    OVER = "OVER"


class WinKind(Enum):
    """How much a win is worth (no doubling cube): gammon when the loser bore off nothing,
    backgammon when it also still has a checker on the bar or in the winner's home board."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True)
class Position:
    """Where the 30 checkers are: `counts[side.value][index]` per point, plus bar and borne-off
    counts per side (indexed by `Side.value`)."""

    counts: tuple[tuple[int, ...], tuple[int, ...]]
    bar: tuple[int, int]
    off: tuple[int, int]

    def count(self, side: Side, index: int) -> int:
        return self.counts[side.value][index]

    def owner(self, index: int) -> Side | None:
        """The side with checkers on `index`, or None for an empty point."""
        if self.counts[0][index]:
            return Side.WHITE
        return Side.BLACK if self.counts[1][index] else None


@dataclass(frozen=True)
class Snapshot:
    """What one move changed, kept so UNDO can put it back exactly."""

    position: Position
    unused: tuple[int, int]


@dataclass(frozen=True)
class GameResult:
    winner: Side
    kind: WinKind

    @property
    def points(self) -> int:
        return self.kind.value


@dataclass(frozen=True)
class GameState:
    """The whole game as a value: `step` returns a new one, never changes this one.

    `dice`/`unused` are the current roll and how many moves each die index still allows (1 each,
    2 each for a double); `undo` holds the snapshots of this turn's moves, newest last; `rolls`
    counts the rolls consumed so far (a seeded dice source uses it to stay replayable)."""

    position: Position
    phase: Phase
    turn: Side | None = None
    dice: DieRolls | None = None
    unused: tuple[int, int] = (0, 0)
    undo: tuple[Snapshot, ...] = ()
    move_by_turn_rolls: bool = False
    rolls: int = 0
    result: GameResult | None = None


class Output(NamedTuple):
    """One `send_output` call: `side` None means it concerns both sides (the seed's default)."""

    type: OutputType
    data: Any
    side: Side | None = None


class Roll(NamedTuple):
    """A driver's input to `step` when the game waits for dice (Phase.TURN_ROLL / MOVE_ROLL)."""

    dice: DieRolls
