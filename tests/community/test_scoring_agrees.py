"""The scores the API shows today (functions/usecases/game/results.py) are engine.scoring's for the
two systems both have, so the wiring can make results.py read the registry (one path)."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from engine.scoring import score
from functions.usecases.game.results import scores

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


@given(st.lists(st.integers(0, 7), min_size=34, max_size=34), st.sampled_from(["draw", "solo", "year_limit"]))
def test_draw_size_and_sum_of_squares_agree_with_the_api_scores(owners: list[int], kind: str) -> None:
    centers = {p: owners.count(i) for i, p in enumerate(POWERS)}
    alive = sorted(p for p, c in centers.items() if c)
    assume(alive)
    winners = [max(alive, key=lambda p: centers[p])] if kind == "solo" else alive
    result = {"kind": kind, "winners": winners, "centers": centers}
    today = scores(result)
    for system in ("draw_size", "sum_of_squares"):
        assert score(system, result) == today[system]
