"""Issue 34 items 3 and 4 on the use cases: a game's scoring system, chosen at creation, scores
its result; a game asking a minimum reliability or rating admits players by their record and
refuses the others with nothing written (functions/usecases/players/join_rules.py)."""

from __future__ import annotations

import pytest

from community.ratings import MU, SIGMA
from functions.errors import ValidationFailed
from functions.ports.community import PlayerStats, StoredRating
from functions.usecases.accounts.accounts import User
from functions.usecases.games import CreateGame, create_game
from functions.usecases.players import community_settings
from functions.usecases.players.identity import Actor
from functions.usecases.players.join_rules import RecordRequired, RecordTooLow, admission
from functions.usecases.seats import join_game
from functions.usecases.seats.votes import cast_vote
from testkit.community_fakes import MemoryCommunityStore
from testkit.fakes import FakeClock, InMemoryGameStore
from tests.functions.conftest import POWERS


def _records(stats: dict[str, PlayerStats], ratings: dict[str, StoredRating]) -> MemoryCommunityStore:
    """A community store holding these records only: what join_rules reads (stats, ratings)."""
    store = MemoryCommunityStore()
    store.counters.update(stats)
    store.ratings.update({(r.player, r.variant): r for r in ratings.values()})
    return store


RECORDS = _records(
    {
        "steady": PlayerStats("steady", "Steady", {"phases_owed": 10, "on_time": 9}),
        "flaky": PlayerStats("flaky", "Flaky", {"phases_owed": 10, "on_time": 5}),
    },
    {
        "strong": StoredRating("strong", "classical", MU + 10, SIGMA / 2, 8, "g8"),
        "weak": StoredRating("weak", "classical", MU - 5, SIGMA, 3, "g3"),
    },
)


def _join(store: InMemoryGameStore, clock: FakeClock, game_id: str, user: str | None, power: str) -> str:
    owner = User(user, user) if user else None
    return join_game(store, clock, game_id, power, owner=owner, admit=admission(RECORDS, user)).power


def test_community_settings_are_checked() -> None:
    assert community_settings("c_diplo", 80, -3) == {
        "scoring": "c_diplo",
        "min_reliability": 80,
        "min_rating": -3,
    }
    assert community_settings() == {}
    with pytest.raises(ValidationFailed, match="scoring must be one of"):
        community_settings("elo")
    with pytest.raises(ValidationFailed, match="whole percent"):
        community_settings(min_reliability=101)


def test_a_minimum_reliability_admits_by_record_and_refuses_with_nothing_written() -> None:
    store, clock = InMemoryGameStore(), FakeClock()
    gid = create_game(store, clock, CreateGame(community=community_settings(min_reliability=80))).game_id
    before = store.load(gid)
    with pytest.raises(RecordRequired):
        _join(store, clock, gid, None, "FRANCE")
    with pytest.raises(RecordTooLow) as low:
        _join(store, clock, gid, "flaky", "FRANCE")
    assert low.value.extra == {"minimum": 80, "requirement": "min_reliability"} and "50%" in low.value.message
    with pytest.raises(RecordTooLow, match="no phases yet"):
        _join(store, clock, gid, "newcomer", "FRANCE")
    assert store.load(gid).version == before.version and store.load(gid).players == {}
    assert _join(store, clock, gid, "steady", "FRANCE") == "FRANCE"


def test_a_minimum_rating_is_read_in_the_games_variant() -> None:
    store, clock = InMemoryGameStore(), FakeClock()
    gid = create_game(store, clock, CreateGame(community=community_settings(min_rating=5))).game_id
    with pytest.raises(RecordTooLow, match="classical rating of 5"):
        _join(store, clock, gid, "weak", "FRANCE")
    with pytest.raises(RecordTooLow):  # a newcomer's rating is 0, the model's prior ordinal
        _join(store, clock, gid, "newcomer", "FRANCE")
    assert _join(store, clock, gid, "strong", "FRANCE") == "FRANCE"
    other = create_game(store, clock, CreateGame(variant="1900", community=community_settings(min_rating=5)))
    with pytest.raises(RecordTooLow):  # a classical rating says nothing of 1900
        _join(store, clock, other.game_id, "strong", "FRANCE")


def test_the_view_shows_what_the_game_asks_and_is_played_for() -> None:
    from functions.usecases.turns.views import game_view

    store, clock = InMemoryGameStore(), FakeClock()
    gid = create_game(store, clock, CreateGame(community=community_settings("c_diplo", 50, 2))).game_id
    settings = game_view(store.load(gid))["settings"]
    assert (
        settings["scoring"] == "c_diplo" and settings["min_reliability"] == 50 and settings["min_rating"] == 2
    )
    assert "seat_holders" not in settings


def test_a_game_without_minimums_admits_anyone() -> None:
    store, clock = InMemoryGameStore(), FakeClock()
    gid = create_game(store, clock, CreateGame()).game_id
    assert _join(store, clock, gid, None, "FRANCE") == "FRANCE"


def test_the_scoring_system_chosen_at_creation_scores_the_result() -> None:
    # Given a game played for Tribute, ended at once by six concessions (a solo for FRANCE)
    store, clock = InMemoryGameStore(), FakeClock()
    gid = create_game(store, clock, CreateGame(community=community_settings("tribute"))).game_id
    for power in POWERS:
        join_game(store, clock, gid, power)
    answer = None
    for power in POWERS:
        if power != "FRANCE":
            answer = cast_vote(store, clock, gid, Actor("player", power), concede=True)
    assert answer is not None and answer.result is not None
    # Then the result names the system, and its scores carry that system's points beside the two
    # every game shows (engine/scoring.py: a solo scores 100 under Tribute)
    assert answer.result["scoring"] == "tribute"
    assert set(answer.result["scores"]) == {"sum_of_squares", "draw_size", "tribute"}
    assert answer.result["scores"]["tribute"]["FRANCE"] == 100.0
    assert sum(answer.result["scores"]["tribute"].values()) == 100.0
