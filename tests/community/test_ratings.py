"""Ratings (issue 34 item 2): OpenSkill per player and variant, once per game, unrated games
change nothing. The orderings are community/ratings.py's (its docstring says why)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from community.ratings import (
    MU,
    SIGMA,
    FinishedGame,
    Ledger,
    Rating,
    RatingUpdate,
    StaleRating,
    apply_change,
    ranks,
    rate_game,
    unrated_reason,
)

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
SEATS = {power: f"player-{power.lower()}" for power in POWERS}


def game(game_id: str, kind: str, winners: list[str], centers: Mapping[str, int],
         **extra: Any) -> FinishedGame:
    result = {"kind": kind, "winners": winners, "centers": {p: centers.get(p, 0) for p in POWERS}}
    fields: dict[str, Any] = {"players": SEATS, **extra}
    return FinishedGame(game_id, str(fields.pop("variant", "classical")), result, **fields)


def _rated(finished: FinishedGame) -> RatingUpdate:
    """``finished``'s rating changes from everyone's prior (the game must be a rated one)."""
    update = rate_game(finished, {})
    assert update is not None, unrated_reason(finished)
    return update


SOLO = game("g-solo", "solo", ["FRANCE"], {"FRANCE": 18, "ENGLAND": 6, "GERMANY": 5, "ITALY": 5})
TWO_WAY = game("g-two", "draw", ["ENGLAND", "TURKEY"], {"ENGLAND": 17, "TURKEY": 17})
FIVE_WAY = game("g-five", "draw", ["AUSTRIA", "ENGLAND", "FRANCE", "RUSSIA", "TURKEY"],
                {"AUSTRIA": 7, "ENGLAND": 7, "FRANCE": 7, "RUSSIA": 7, "TURKEY": 6})


def test_a_solo_orders_winner_survivors_then_the_eliminated() -> None:
    got = ranks(SOLO)
    assert got["player-france"] == 1
    assert got["player-england"] == got["player-germany"] == got["player-italy"] == 2
    assert got["player-austria"] == got["player-russia"] == got["player-turkey"] == 3


def test_a_finished_game_moves_the_winner_up_and_the_losers_down() -> None:
    update = rate_game(SOLO, {})
    assert update is not None and update.game_id == "g-solo"
    after = {c.player: c.after for c in update.changes}
    assert after["player-france"].mu > MU > after["player-austria"].mu
    assert after["player-england"].mu > after["player-austria"].mu  # surviving beats elimination
    assert all(r.sigma < SIGMA and r.games == 1 and r.last_game == "g-solo" for r in after.values())


def test_a_smaller_draw_is_worth_more_to_its_members() -> None:
    """Draw shares: two-way draw members gain more than five-way draw members from the same start."""
    two = {c.player: c.after.mu for c in _rated(TWO_WAY).changes}
    five = {c.player: c.after.mu for c in _rated(FIVE_WAY).changes}
    assert two["player-england"] > five["player-england"] > MU
    assert two["player-england"] == two["player-turkey"]  # a draw is a tie


def test_applying_the_same_game_twice_changes_nothing() -> None:
    ledger, first = Ledger().apply(SOLO)
    again, second = ledger.apply(SOLO)
    assert first is not None and second is None
    assert again == ledger
    assert ledger.rating("player-france", "classical").games == 1


def test_a_change_applied_to_the_rating_it_produced_is_a_no_op_and_a_stale_one_is_refused() -> None:
    update = rate_game(SOLO, {})
    assert update is not None
    change = update.changes[0]
    after = apply_change(None, change)
    assert apply_change(after, change) is after
    moved = Rating(change.player, "classical", mu=30.0, games=3, last_game="another")
    with pytest.raises(StaleRating):
        apply_change(moved, change)


@pytest.mark.parametrize("extra, reason", [
    ({"demo": True}, "a demo game"),
    ({"dummies": ("RUSSIA",)}, "played with dummy powers"),
    ({"imported": True}, "an imported game"),
    ({"players": {"FRANCE": "solo-player"}}, "fewer than two rated players"),
])
def test_unrated_games_change_nothing(extra: dict[str, object], reason: str) -> None:
    unrated = game("g-unrated", "solo", ["FRANCE"], {"FRANCE": 18}, **extra)
    assert unrated_reason(unrated) == reason
    ledger = Ledger()
    assert ledger.apply(unrated) == (ledger, None)


def test_an_abandoned_game_is_unrated() -> None:
    assert unrated_reason(game("g-ab", "abandoned", [], {})) == "an abandoned game"


def test_ratings_are_per_variant() -> None:
    ledger, _ = Ledger().apply(SOLO)
    ledger, _ = ledger.apply(game("g-1900", "solo", ["FRANCE"], {"FRANCE": 18}, variant="1900"))
    assert ledger.rating("player-france", "classical").games == 1
    assert ledger.rating("player-france", "1900").games == 1
    assert ledger.rating("player-france", "1900").last_game == "g-1900"
    assert [r.player for r in ledger.leaderboard("classical")][0] == "player-france"


def test_a_player_who_left_ranks_below_the_eliminated() -> None:
    """A departed player (left, or civil disorder) is rated last; the power's new holder by the result."""
    seats = {**SEATS, "AUSTRIA": "replacement"}
    left = game("g-left", "solo", ["FRANCE"], {"FRANCE": 18, "ENGLAND": 6}, players=seats,
                departed={"player-austria": "AUSTRIA"})
    got = ranks(left)
    assert got["player-austria"] > got["replacement"] == got["player-russia"]
    after = {c.player: c.after.mu for c in _rated(left).changes}
    assert after["player-austria"] < after["replacement"]


def test_one_player_holding_two_powers_is_refused() -> None:
    with pytest.raises(ValueError, match="holds two powers"):
        rate_game(game("g-two-seats", "solo", ["FRANCE"], {"FRANCE": 18},
                       players={**SEATS, "RUSSIA": "player-france"}), {})


def test_ratings_carry_on_from_the_current_ones() -> None:
    ledger, _ = Ledger().apply(SOLO)
    ledger, update = ledger.apply(TWO_WAY)
    assert update is not None
    france = next(c for c in update.changes if c.player == "player-france")
    assert france.before.last_game == "g-solo" and france.after.games == 2
