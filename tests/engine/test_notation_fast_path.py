"""The canonical-form fast path of ``parse_order`` must agree with the full grammar.

``engine.notation.standard._parse_canonical`` reads the text ``format_order``
writes without the general tokenizer (it is most of what clients send, and
parsing was most of a movement phase's cost: docs/performance.md). It may decline
(None) but must never answer differently from ``_parse_general``.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.notation.standard import _parse_canonical, _parse_general
from tests.engine.datc_reader import DATC_DIR, read_cases
from tests.engine.strategies import CLASSICAL, orders, powers

MOVEMENT = engine.initial_state(CLASSICAL)


def _agree(text: str, power: str, state: engine.GameState | None) -> bool:
    fast = _parse_canonical(text, power, state, CLASSICAL)
    if fast is None:
        return False
    assert fast == _parse_general(text, power, state, CLASSICAL), text
    return True


@settings(max_examples=300, deadline=None)
@given(order=orders, power=powers)
def test_fast_path_agrees_on_formatted_orders(order: engine.Order, power: str) -> None:
    """Every order format_order writes, with a unit letter, is taken by the fast path."""
    text = engine.format_order(order)
    took = _agree(text, power, MOVEMENT)
    letters = getattr(order, "kind", None) is not None and getattr(order, "target_kind", "x") is not None
    if letters and not isinstance(order, (engine.Build, engine.Waive, engine.Retreat)):
        assert took, text


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="AFHSCDRV -/()NCSEWPARBUIMLOTY", max_size=24), power=powers)
def test_fast_path_never_disagrees_on_noise(text: str, power: str) -> None:
    fast = _parse_canonical(text, power, MOVEMENT, CLASSICAL)
    if fast is not None:
        assert fast == _parse_general(text, power, MOVEMENT, CLASSICAL)


def test_fast_path_agrees_on_every_datc_order_line() -> None:
    """DATC v3.0 order lines, as written, in a movement and in a retreat phase."""
    retreat = engine.GameState(1901, engine.Season.SPRING, engine.PhaseType.RETREAT)
    taken = 0
    for path in ("datc_v3.0_cases.txt", "datc_extra_and_alternative_cases.txt"):
        for case in read_cases(DATC_DIR / path):
            for power, text in case.orders:
                taken += _agree(text, power, MOVEMENT) + _agree(text, power, retreat)
    assert taken > 500
