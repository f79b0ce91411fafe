"""The one-step acceptance in ``engine.validate`` must agree with the full check.

``engine.validation._accept_plain`` accepts the commonest legal movement orders
without the full check (docs/performance.md: validation is most of a movement
phase). It may decline (None) but whenever it answers, the full check
``_validate`` must give exactly the same result.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from bench.random_play import play_game
from engine.validation import _accept_plain, _validate
from tests.engine.strategies import CLASSICAL, orders, states


def _check(order: engine.Order, state: engine.GameState) -> bool:
    fast = _accept_plain(order, state, CLASSICAL)
    if fast is None:
        return False
    assert fast == _validate(order, state, CLASSICAL), order
    return True


@settings(max_examples=300, deadline=None)
@given(state=states(), order=orders)
def test_fast_acceptance_never_disagrees_on_arbitrary_orders(
    state: engine.GameState, order: engine.Order
) -> None:
    movement = replace(state, phase_type=engine.PhaseType.MOVEMENT)
    _check(order, movement)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_fast_acceptance_agrees_on_every_menu_order_of_played_games(seed: int) -> None:
    """Every legal order of real positions (engine.legal_orders), and most are taken."""
    taken = offered = 0
    for phase in play_game(CLASSICAL, seed, max_phases=12):
        state = phase.state
        if state.phase_type is not engine.PhaseType.MOVEMENT:
            continue
        for power in CLASSICAL.power_ids:
            for order in engine.legal_orders(state, CLASSICAL, power):
                offered += 1
                taken += _check(order, state)
    assert taken > offered // 2
