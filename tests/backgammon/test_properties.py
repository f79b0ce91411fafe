"""Issue 18 "Done when": property tests over random games (hypothesis picks the seeds).

Over every step of a random game: 15 checkers a side (board + bar + off), no point with both
colours, UNDO restores the exact previous state, serialization round-trips; every game ends
with GAME_WON for the side that bore off all 15; and no input of any shape crashes `step`.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon import (
    CHECKERS,
    POINTS,
    GameState,
    InputType,
    OutputType,
    Phase,
    RandomBot,
    Roll,
    Side,
    checkers_of,
    legal_moves,
    new_game,
    seeded_roll,
    start_position,
    state_from_dict,
    state_to_dict,
    step,
)
from tests.backgammon.positions import moving

MOVE, UNDO = InputType.MOVE, InputType.UNDO


def assert_invariants(state: GameState) -> None:
    p = state.position
    for side in Side:
        assert checkers_of(p, side) == CHECKERS
        assert all(n >= 0 for n in p.counts[side.value]) and p.bar[side.value] >= 0 and p.off[side.value] >= 0
    assert all(not (p.count(Side.WHITE, i) and p.count(Side.BLACK, i)) for i in range(POINTS))
    assert state_from_dict(state_to_dict(state)) == state


def play(seed: int, undo_rate: float) -> tuple[GameState, list[Any]]:
    """A whole game of random legal moves, with undos, from the seeded dice; every output kept."""
    rng, bot = random.Random(seed), RandomBot(random.Random(seed + 1))
    state, outputs = new_game(move_by_turn_rolls=bool(seed % 2))
    log = list(outputs)
    while state.phase is not Phase.OVER:
        if state.phase is not Phase.MOVING:
            state, outputs = step(state, Roll(seeded_roll(seed, state.rolls)))
        elif state.undo and rng.random() < undo_rate:
            before = state
            state, outputs = step(state, (UNDO, None))
            assert outputs == () and len(state.undo) == len(before.undo) - 1
        else:
            before = state
            state, outputs = step(state, (MOVE, bot.choose(state)))
            if outputs == ():  # the turn goes on: undo must give back exactly `before`
                assert step(state, (UNDO, None)) == (before, ())
        assert not any(o.type is OutputType.INVALID_MOVE for o in outputs)
        assert_invariants(state)
        log += outputs
    return state, log


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_keep_the_invariants_and_end_with_game_won(seed: int) -> None:
    final, log = play(seed, undo_rate=0.15)
    winner = final.result.winner if final.result else None
    assert winner is not None and final.position.off[winner.value] == CHECKERS
    assert final.position.off[winner.other.value] < CHECKERS
    assert log[-1].type is OutputType.GAME_WON and log[-1].data is winner and log[-1].side is None
    assert log[-2].type is OutputType.GAME_STATE and log[-2].data == final
    assert sum(o.type is OutputType.GAME_WON for o in log) == 1


_junk = st.recursive(
    st.none() | st.booleans() | st.integers(-30, 30) | st.text(max_size=3) | st.sampled_from(list(InputType)),
    lambda inner: st.tuples(inner, inner) | st.lists(inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(given_input=_junk | st.tuples(st.sampled_from(list(InputType)), _junk))
def test_no_input_crashes_step_and_a_refusal_changes_nothing(given_input: Any) -> None:
    state = moving(start_position(), Side.WHITE, (3, 1))
    after, outputs = step(state, given_input)
    if any(o.type is OutputType.INVALID_MOVE for o in outputs):
        assert after == state and len(outputs) == 1
    else:
        assert given_input[0] is MOVE and tuple(given_input[1]) in legal_moves(state)
    assert_invariants(after)
