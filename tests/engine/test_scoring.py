"""Scoring systems against the worked examples of the pages that define them (issue 34 item 4).

Sources, as cited per test:
- [DIPLOMATICON] Diplomaticon, "C-Diplo scoring system", 2022-01-23,
  https://diplomaticon.com/2022/01/23/c-diplo-scoring-system/ — worked C-Diplo figures.
- [HARRIS] Toby Harris, "C-Diplo – Saint or Sinner?", https://diplom.org/~diparch/resources/ftf/c-diplo.htm
  — "4 players sharing 2nd place would each gain one quarter of the 14 + 7 points".
- [AFJD] diplomania-gen.fr, C-Diplo page ("C-Diplo 73 official system": 38 top + 34 sc + 1
  participation, 0 for others), https://diplomania-gen.fr/dokuwiki2/doku.php?id=scoring:system:c-diplo
- [WDW-TRIBUTE] World Diplomacy Wiki, "Tribute Scoring System",
  https://world-diplomacy-wiki.fandom.com/wiki/Tribute_Scoring_System — the draw-size table
  (7-way 9.4 ... 2-way 33), 1 point per centre the topper holds over 6, never more than the
  draw-size score, tied toppers split.
- [WCW-OPEN] Windy City Weasels, "OpenTribute Variant", https://windycityweasels.org/opentribute-scoring-system/
  — "once all neutrals have been claimed": lone topper 10 × centers, non-topping survivors
  34 + 4 × centers − topper centers, eliminated 0; solo 340; n sharing the top get 1/n² each.
- [WDW-SOS] World Diplomacy Wiki, "Sum of Square Scoring System",
  https://world-diplomacy-wiki.fandom.com/wiki/Sum_of_Square_Scoring_System — 5 centres = 25
  points, 15 centres = 225 points, normalised so a draw totals 100.
- [EMBASSY-DSS] The Embassy, "Tournament Scoring - Part 3: Draw Size Scoring (DSS)", 2020-03,
  https://theembassydip.blogspot.com/2020/03/tournament-scoring-part-3-draw-size.html
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.scoring import SCORING_SYSTEMS, Outcome, score, scoring_system

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def board(*counts: int) -> dict[str, int]:
    """Centre counts in the order of POWERS (missing powers hold none)."""
    return dict(zip(POWERS, list(counts) + [0] * (len(POWERS) - len(counts)), strict=True))


def draw(counts: dict[str, int]) -> Outcome:
    """A DIAS draw: every power with a centre is in it."""
    return Outcome.of("draw", [p for p, c in counts.items() if c > 0], counts)


def points(system: str, outcome: Outcome) -> dict[str, Fraction]:
    return scoring_system(system).points(outcome)


# --- C-Diplo ------------------------------------------------------------------------------


def test_c_diplo_lone_topper_on_17_scores_56_and_on_6_scores_45() -> None:
    """[DIPLOMATICON]: "the best result is to Top the Board on 17 SCs ... scoring 56 pts; the
    worst result which still results in Topping the Board (finishing on 6 SCs) scores 45 pts"."""
    assert points("c_diplo", draw(board(17, 6, 5, 3, 2, 1)))["AUSTRIA"] == 56
    assert points("c_diplo", draw(board(6, 5, 5, 5, 5, 4, 4)))["AUSTRIA"] == 45


def test_c_diplo_two_way_share_of_the_top() -> None:
    """[DIPLOMATICON]: two on 17 each score (38+14)/2 + 17 + 1 = 44; the worst shared top,
    on 6, scores (38+14)/2 + 6 + 1 = 33."""
    best = points("c_diplo", draw(board(17, 17)))
    assert best["AUSTRIA"] == best["ENGLAND"] == 44
    worst = points("c_diplo", draw(board(6, 6, 5, 5, 4, 4, 4)))
    assert worst["AUSTRIA"] == worst["ENGLAND"] == 33


def test_c_diplo_three_way_share_of_the_top() -> None:
    """[DIPLOMATICON]: a 3-way tie scores at best (38+14+7)/3 + 11 + 1 = 32 "rounded up"
    (31 2/3 exactly), at worst (38+14+7)/3 + 6 + 1 = 27 (26 2/3)."""
    best = points("c_diplo", draw(board(11, 11, 11, 1)))
    assert best["AUSTRIA"] == Fraction(59, 3) + 12 == Fraction(95, 3)
    assert round(float(best["AUSTRIA"])) == 32
    worst = points("c_diplo", draw(board(6, 6, 6, 5, 5, 3, 3)))
    assert worst["AUSTRIA"] == Fraction(59, 3) + 7
    assert round(float(worst["AUSTRIA"])) == 27


def test_c_diplo_four_sharing_second_place_each_take_a_quarter_of_14_and_7() -> None:
    """[HARRIS]: "4 players sharing 2nd place would each gain one quarter of the 14 + 7 points"."""
    got = points("c_diplo", draw(board(10, 6, 6, 6, 6)))
    for power in ("ENGLAND", "FRANCE", "GERMANY", "ITALY"):
        assert got[power] == Fraction(21, 4) + 6 + 1
    assert got["AUSTRIA"] == 38 + 10 + 1
    assert sum(got.values()) == 100  # [HARRIS]: "Grand total: 100 points" (7 + 34 + 38 + 14 + 7)


def test_c_diplo_solo_is_100_or_73() -> None:
    """[HARRIS]: "an 18+ scores 100 points (with everyone else scoring zero)"; [AFJD]: the
    official French variant scores a solo 38 + 34 + 1 = 73, 0 for others."""
    solo = Outcome.of("solo", ["FRANCE"], board(4, 4, 18, 4, 4))
    assert points("c_diplo", solo) == {**{p: 0 for p in POWERS}, "FRANCE": 100}
    assert points("c_diplo_73", solo) == {**{p: 0 for p in POWERS}, "FRANCE": 73}


# --- Tribute ------------------------------------------------------------------------------


@pytest.mark.parametrize("size, published", [(7, 9.4), (6, 11), (5, 13.2), (4, 16.5), (3, 22), (2, 33)])
def test_tribute_draw_size_score_table(size: int, published: float) -> None:
    """[WDW-TRIBUTE] "66 points are divided equally between each surviving player": the
    table's figures, on boards where nobody tops above 6 (no tribute): score = centres + share."""
    counts = board(*([6] * size))
    got = points("tribute", draw(counts))
    assert round(float(got["AUSTRIA"] - 6), 1) == published


def test_tribute_topper_collects_a_point_per_centre_over_six_from_each_survivor() -> None:
    """[WDW-TRIBUTE] "Each player pays the board-topper 1 pt in tribute for each center the
    board-topper has over 6": a 3-way draw 16-12-6, share 22, tribute 10 from each of two."""
    got = points("tribute", draw(board(16, 12, 6)))
    assert got["AUSTRIA"] == 16 + 22 + 2 * 10
    assert got["ENGLAND"] == 12 + 22 - 10
    assert got["FRANCE"] == 6 + 22 - 10
    assert sum(got.values()) == 100  # 34 centres + 66


def test_tribute_paid_cannot_exceed_the_draw_size_score() -> None:
    """[WDW-TRIBUTE] "Tribute paid cannot exceed the draw size score": a 7-way draw topped on
    16 owes 10 a head, but each pays only its 66/7."""
    got = points("tribute", draw(board(16, 13, 1, 1, 1, 1, 1)))
    assert got["ENGLAND"] == 13 and got["FRANCE"] == 1
    assert got["AUSTRIA"] == 16 + 66


def test_tribute_tied_toppers_split_it() -> None:
    """[WDW-TRIBUTE] "Tied board-toppers split the tribute equally": 10-10-8-6, share 16.5,
    each of two payers owes 4, the two toppers take 4 each."""
    got = points("tribute", draw(board(10, 10, 8, 6)))
    assert got["AUSTRIA"] == got["ENGLAND"] == 10 + Fraction(33, 2) + 4
    assert got["FRANCE"] == 8 + Fraction(33, 2) - 4


def test_tribute_solo_is_100() -> None:
    """[WDW-TRIBUTE] (and the Weasels' page): a solo scores 100, nobody else anything."""
    got = points("tribute", Outcome.of("solo", ["TURKEY"], board(3, 3, 3, 3, 2, 2, 18)))
    assert got["TURKEY"] == 100 and sum(got.values()) == 100


# --- OpenTribute --------------------------------------------------------------------------


@pytest.mark.parametrize("counts", [board(12, 8, 6, 4, 3, 1), board(9, 7, 6, 5, 4, 2, 1), board(17, 7, 10)])
def test_open_tribute_simplified_figures_once_all_neutrals_are_claimed(counts: dict[str, int]) -> None:
    """[WCW-OPEN] "Once all neutrals have been claimed ... Lone board-toppers: 10 × centers;
    Non-topping survivors: 34 + 4 × centers – toppercenters; Eliminated players: 0"."""
    assert sum(counts.values()) == 34
    top = max(counts.values())
    got = points("open_tribute", draw(counts))
    for power, c in counts.items():
        if c == top:
            assert got[power] == 10 * c
        elif c:
            assert got[power] == 34 + 4 * c - top
        else:
            assert got[power] == 0


def test_open_tribute_shared_top_gets_one_over_n_squared_each() -> None:
    """[WCW-OPEN] "If n players share the top, they split 1/n of the collected tribute, so
    that each receives 1/n² of what a lone topper would have received"."""
    counts = board(10, 10, 8, 6)  # 34 centres; three eliminated powers pay 10 each
    got = points("open_tribute", draw(counts))
    collected = (10 - 8) + (10 - 6) + 3 * 10
    assert got["AUSTRIA"] == got["ENGLAND"] == 34 + 30 + Fraction(collected, 4)
    assert got["FRANCE"] == 34 + 24 - 2


def test_open_tribute_solo_is_340() -> None:
    """[WCW-OPEN] "In the event of a solo, the soloist receives 340 points (10×34) and all
    other players receive 0"."""
    got = points("open_tribute", Outcome.of("solo", ["RUSSIA"], board(2, 2, 3, 3, 3, 18, 3)))
    assert got == {**{p: 0 for p in POWERS}, "RUSSIA": 340}


# --- sum of squares and draw size ------------------------------------------------------------


def test_sum_of_squares_squares_and_normalises_to_100() -> None:
    """[WDW-SOS] "5 centres = 25 points, 15 centres = 225 points", then normalised to 100."""
    got = points("sum_of_squares", draw(board(15, 5)))
    assert got["AUSTRIA"] == Fraction(100 * 225, 250) and got["ENGLAND"] == Fraction(100 * 25, 250)


def test_draw_size_splits_100_among_the_draw() -> None:
    """[EMBASSY-DSS] "you receive the points available in the game divided by the number of
    players in the draw"; a loss scores 0."""
    got = points("draw_size", Outcome.of("draw", ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY"],
                                         board(10, 10, 8, 6)))
    assert got["AUSTRIA"] == 25 and got["TURKEY"] == 0


# --- the registry and the rules common to every system ---------------------------------------


def test_the_registry_names_every_system_and_refuses_an_unknown_one() -> None:
    assert set(SCORING_SYSTEMS) == {"draw_size", "sum_of_squares", "c_diplo", "c_diplo_73", "tribute",
                                    "open_tribute"}
    with pytest.raises(KeyError, match="unknown scoring system 'carnage'"):
        scoring_system("carnage")


def test_a_stored_result_record_scores_as_the_api_shows_it() -> None:
    result = {"kind": "year_limit", "winners": ["AUSTRIA", "ENGLAND", "FRANCE"],
              "centers": board(11, 11, 11, 1), "final_phase": "F1910M", "ended_at": "x"}
    # a year-limit ending is a draw of the survivors; TURKEY (one centre) is not in it here
    assert score("c_diplo", result)["AUSTRIA"] == 31.667
    assert score("draw_size", {**result, "kind": "abandoned", "winners": []}) == {p: 0.0 for p in POWERS}
    assert score("open_tribute", {**result, "kind": "concession", "winners": ["ENGLAND"]})["ENGLAND"] == 340


def test_an_outcome_that_cannot_be_is_refused() -> None:
    with pytest.raises(ValueError, match="exactly one winner"):
        Outcome.of("solo", ["AUSTRIA", "ENGLAND"], board(18, 16))
    with pytest.raises(ValueError, match="not powers of the game"):
        Outcome.of("draw", ["ATLANTIS"], board(18, 16))
    with pytest.raises(ValueError, match="unknown outcome kind"):
        Outcome.of("won", ["AUSTRIA"], board(18, 16))


CENTRES = st.lists(st.integers(0, 7), min_size=34, max_size=34).map(
    lambda owners: [owners.count(i) for i in range(7)]  # the owner of each of 34 centres; 7: neutral
).filter(lambda counts: sum(counts) > 0 and max(counts) < 18)


@given(CENTRES)
def test_every_system_gives_every_power_a_number_and_draws_stay_within_bounds(counts: list[int]) -> None:
    """Property: every power of the map gets points, none negative; the fixed-total systems
    total their 100 in a draw of every survivor."""
    outcome = draw(board(*counts))
    for name, system in SCORING_SYSTEMS.items():
        got = system.points(outcome)
        assert set(got) == set(POWERS), name
        assert all(v >= 0 for v in got.values()), (name, got)
        assert max(got.values()) <= system.solo, name
    for name in ("draw_size", "sum_of_squares"):
        assert sum(points(name, outcome).values()) == 100
    if sum(counts) == 34:
        assert sum(points("tribute", outcome).values()) == 100
        assert sum(points("c_diplo", outcome).values()) == 100
