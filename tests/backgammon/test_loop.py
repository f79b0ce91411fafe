"""Issue 18 item 2: the seed's run() calls receive_input / send_output exactly in the seed's order
with exactly the seed's arguments (docs/backgammon-protocol.txt, "Game loop")."""

from __future__ import annotations

import random
from typing import Any

import pytest

from backgammon import (
    DieRolls,
    GameState,
    InputType,
    InvalidMoveCode,
    OutputType,
    Phase,
    RandomDice,
    Side,
    run,
    start_position,
)
from tests.backgammon.seed_sequence import Call, check_seed_sequence

MOVE, UNDO = InputType.MOVE, InputType.UNDO


class ScriptedDice(RandomDice):
    """Rolls from a list first, then from a seeded source."""

    def __init__(self, rolls: list[tuple[int, int]], seed: int = 0) -> None:
        super().__init__(random.Random(seed))
        self.rolls = list(rolls)

    def roll(self) -> DieRolls:
        return DieRolls(*self.rolls.pop(0)) if self.rolls else super().roll()


class Player:
    """receive_input for both sides: a script first, then random tries (with junk and undos) that
    only the game's answers tell apart, like a client that knows nothing but the protocol."""

    def __init__(self, calls: list[Call], script: list[Any], seed: int) -> None:
        self.calls, self.script, self.rng = calls, list(script), random.Random(seed)

    def __call__(self, side: Side) -> Any:
        given = self.script.pop(0) if self.script else self._random_input()
        self.calls.append(("in", side, given))
        return given

    def _random_input(self) -> Any:
        r = self.rng.random()
        if r < 0.02:
            return ("PASS", None)
        if r < 0.04:
            return (MOVE, None)
        if r < 0.08:
            return (UNDO, None)
        source = self.rng.choice([None, *range(24)])
        return (MOVE, (self.rng.choice((0, 1)), source))


def record(
    script: list[Any], dice: ScriptedDice, move_by_turn_rolls: bool, seed: int = 1
) -> tuple[list[Call], GameState]:
    calls: list[Call] = []

    def send_output(*args: Any) -> None:
        calls.append(("out", args))

    final = run(Player(calls, script, seed), send_output, move_by_turn_rolls, dice=dice)
    return calls, final


OPENING_SCRIPT = [
    ("RESIGN", None),
    (MOVE, None),
    (UNDO, None),
    (MOVE, (0, 7)),  # 3: 7 -> 4
    (UNDO, (1, 5)),
    (UNDO, None),
    (MOVE, (2, 7)),
    (MOVE, (0, 7)),
    (MOVE, (1, 5)),  # 1: 5 -> 4, the turn is over
]


def test_the_opening_calls_are_exactly_the_seed_sequence() -> None:
    # Given turn rolls 5-2 (WHITE first) and WHITE's roll 3-1, When the script plays, Then:
    calls, _ = record(OPENING_SCRIPT, ScriptedDice([(5, 2), (3, 1), (6, 4)]), move_by_turn_rolls=False)
    W = Side.WHITE
    expected: list[Any] = [
        ("out", (OutputType.GAME_STATE, GameState)),
        ("out", (OutputType.TURN_ROLLS, DieRolls(5, 2))),
        ("out", (OutputType.MOVE_ROLLS, DieRolls(3, 1))),
        ("in", W, ("RESIGN", None)),
        ("out", (OutputType.INVALID_MOVE, InvalidMoveCode.INVALID_INPUT_TYPE, W)),
        ("in", W, (MOVE, None)),
        ("out", (OutputType.INVALID_MOVE, InvalidMoveCode.INVALID_MOVE_TYPE, W)),
        ("in", W, (UNDO, None)),
        ("out", (OutputType.INVALID_MOVE, InvalidMoveCode.NOTHING_TO_UNDO, W)),
        ("in", W, (MOVE, (0, 7))),
        ("in", W, (UNDO, (1, 5))),
        ("out", (OutputType.INVALID_MOVE, InvalidMoveCode.INVALID_MOVE_TYPE, W)),
        ("in", W, (UNDO, None)),
        ("in", W, (MOVE, (2, 7))),
        ("out", (OutputType.INVALID_MOVE, InvalidMoveCode.DIE_INDEX_INVALID, W)),
        ("in", W, (MOVE, (0, 7))),
        ("in", W, (MOVE, (1, 5))),
        ("out", (OutputType.GAME_STATE, GameState)),
        ("out", (OutputType.MOVE_ROLLS, DieRolls(6, 4))),
        ("in", Side.BLACK, calls[19][2]),
    ]
    got = [
        c if c[0] == "in" else ("out", tuple(type(a) if isinstance(a, GameState) else a for a in c[1]))
        for c in calls[:20]
    ]
    assert got == expected
    initial, after_turn = calls[0][1][1], calls[17][1][1]
    assert initial.position == start_position() and initial.phase is Phase.TURN_ROLL
    assert after_turn.position.count(Side.WHITE, 4) == 2 and after_turn.turn is Side.BLACK


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_game_follows_the_seed_sequence(seed: int) -> None:
    calls, final = record(OPENING_SCRIPT, ScriptedDice([(5, 2), (3, 1)], seed), False, seed)
    winner = check_seed_sequence(calls, move_by_turn_rolls=False)
    assert final.result is not None and final.result.winner is winner


@pytest.mark.parametrize("seed", [4, 5])
def test_move_by_turn_rolls_skips_the_first_move_rolls(seed: int) -> None:
    # Seed note: the opening roll 3-1 is WHITE's first move; no MOVE_ROLLS before it.
    calls, final = record(OPENING_SCRIPT, ScriptedDice([(3, 1)], seed), True, seed)
    assert [c[1][0] for c in calls[:2]] == [OutputType.GAME_STATE, OutputType.TURN_ROLLS]
    assert calls[2] == ("in", Side.WHITE, ("RESIGN", None))
    winner = check_seed_sequence(calls, move_by_turn_rolls=True)
    assert final.result is not None and final.result.winner is winner


def test_a_send_output_with_the_seeds_signature_gets_none_for_both_sides() -> None:
    # Seed: the third argument "should have a None default value": omitted = both sides.
    seen: list[tuple[OutputType, Any, Side | None]] = []

    def send_output(output_type: OutputType, data: Any, side: Side | None = None) -> None:
        seen.append((output_type, data, side))

    run(Player([], OPENING_SCRIPT, 7), send_output, dice=ScriptedDice([(5, 2), (3, 1)], 7))
    assert {k for k, _, s in seen if s is None} == {
        OutputType.GAME_STATE,
        OutputType.TURN_ROLLS,
        OutputType.MOVE_ROLLS,
        OutputType.GAME_WON,
    }
    assert {k for k, _, s in seen if s is not None} == {OutputType.INVALID_MOVE}


def test_the_checker_refuses_a_sequence_the_seed_does_not_allow() -> None:
    # The checker above must be able to fail: a GAME_STATE addressed to one side, a missing
    # MOVE_ROLLS, and an extra call after GAME_WON are each caught.
    calls, _ = record(OPENING_SCRIPT, ScriptedDice([(5, 2), (3, 1)], 9), False, 9)
    addressed = [calls[0][:1] + ((*calls[0][1], Side.WHITE),), *calls[1:]]
    missing_roll = calls[:2] + calls[3:]
    extra = [*calls, ("in", Side.WHITE, (UNDO, None))]
    for broken in (addressed, missing_roll, extra):
        with pytest.raises(AssertionError):
            check_seed_sequence(broken, move_by_turn_rolls=False)
