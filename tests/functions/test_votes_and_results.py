"""Issue 12 items 1-4: draw votes (DIAS, secret/public), concession, year limit, results and scores."""

from __future__ import annotations

from typing import Any, TypedDict, Unpack

import pytest

from functions import errors
from functions.usecases.game import LifecycleSettings
from functions.usecases.game.results import scores
from functions.usecases.games import CreateGame, create_game
from functions.usecases.kinds.lobby import game_summary
from functions.usecases.players import Actor
from functions.usecases.seats import cast_vote, join_game
from functions.usecases.seats.votes import VoteState
from functions.usecases.turns import process_turn, submit_orders
from functions.usecases.turns.views import events_after, game_view, history
from testkit.fakes import FakeClock, InMemoryGameStore
from tests.functions.conftest import POWERS, Table

CREATOR = Actor("creator")


def _table(store: InMemoryGameStore, clock: FakeClock, **settings: Any) -> Table:
    created = create_game(store, clock, CreateGame(lifecycle=LifecycleSettings(**settings)))
    tokens = {p: join_game(store, clock, created.game_id, p).token for p in POWERS}
    return Table(store, clock, created.game_id, created.token, tokens)


class Vote(TypedDict, total=False):
    """The ballot ``cast_vote`` takes: either flag, or both."""

    draw: bool
    concede: bool


def _vote(t: Table, power: str, **vote: Unpack[Vote]) -> VoteState:
    return cast_vote(t.store, t.clock, t.game_id, t.player(power), **vote)


def test_secret_draw_needs_every_active_power_and_shows_only_own_vote(table: Table) -> None:
    # Given six of seven powers voting for a draw (issue 12 item 1, secret ballot by default)
    for power in POWERS[:-1]:
        answer = _vote(table, power, draw=True)
        assert answer.game_status == "ACTIVE" and answer.votes is None
    game = table.store.load(table.game_id)
    # Then nobody sees another power's vote: views, events, listing
    view = game_view(game, table.player("FRANCE"))
    assert view["votes"] == {"FRANCE": {"draw": True, "concede": False}}
    assert game_view(game, table.player("TURKEY"))["votes"] == {}
    assert game_view(game)["votes"] == {}
    assert not [e for e in events_after(table.store, table.game_id, 0)["events"] if e["type"] == "VOTE_CAST"]
    # When the last one votes, the game is a draw of all survivors
    done = _vote(table, POWERS[-1], draw=True)
    assert done.game_status == "COMPLETED"
    result = done.result
    assert result is not None
    assert result["kind"] == "draw" and result["winners"] == POWERS
    assert result["final_phase"] is None  # nothing was adjudicated yet
    assert result["scores"]["draw_size"]["FRANCE"] == pytest.approx(100 / 7, abs=1e-3)
    # sum of squares at the start: Russia 4 centres, the others 3 -> 16 / (6*9 + 16)
    assert result["scores"]["sum_of_squares"]["RUSSIA"] == pytest.approx(1600 / 70, abs=1e-3)
    ended = [e for e in events_after(table.store, table.game_id, 0)["events"] if e["type"] == "GAME_ENDED"]
    assert len(ended) == 1 and ended[0]["data"]["result"]["kind"] == "draw"
    assert [o.kind for o in table.store.outbox[table.game_id]].count("GAME_ENDED") == 1
    # And a completed game takes no more orders or votes
    with pytest.raises(errors.GameNotActive):
        _vote(table, "FRANCE", draw=False)
    with pytest.raises(errors.GameNotActive):
        submit_orders(table.store, table.clock, table.game_id, table.player("FRANCE"), ["A PAR H"])


def test_public_ballot_shows_every_vote_and_logs_it(store: InMemoryGameStore, clock: FakeClock) -> None:
    t = _table(store, clock, draw_votes="public")
    _vote(t, "FRANCE", draw=True)
    answer = _vote(t, "ENGLAND", draw=True)
    assert answer.votes is not None and set(answer.votes) == {"FRANCE", "ENGLAND"}
    assert set(game_view(store.load(t.game_id))["votes"]) == {"FRANCE", "ENGLAND"}
    cast = [e for e in events_after(store, t.game_id, 0)["events"] if e["type"] == "VOTE_CAST"]
    assert [e["data"]["power"] for e in cast] == ["FRANCE", "ENGLAND"]
    # votes stand until the phase is processed; then they are in its history and cleared
    process_turn(store, clock, t.game_id, CREATOR, expected_phase=store.load(t.game_id).phase)
    assert store.load(t.game_id).votes == {}
    assert history(store, t.game_id)[0]["resolution"]["votes"]["FRANCE"]["draw"] is True


def test_withdrawn_vote_and_votes_cleared_by_processing(table: Table) -> None:
    for power in POWERS[:-1]:
        _vote(table, power, draw=True)
    _vote(table, "FRANCE", draw=False)
    _vote(table, POWERS[-1], draw=True)
    assert table.store.load(table.game_id).status == "ACTIVE"  # France withdrew
    process_turn(table.store, table.clock, table.game_id, CREATOR,
                 expected_phase=table.store.load(table.game_id).phase)
    assert table.store.load(table.game_id).votes == {}
    _vote(table, "FRANCE", draw=True)
    assert table.store.load(table.game_id).status == "ACTIVE"


def test_concession_every_active_power_but_one(table: Table) -> None:
    for power in [p for p in POWERS if p != "GERMANY"][:-1]:
        _vote(table, power, concede=True)
    assert table.store.load(table.game_id).status == "ACTIVE"
    done = _vote(table, "TURKEY", concede=True)
    result = done.result
    assert result is not None
    assert result["kind"] == "concession" and result["winners"] == ["GERMANY"]
    assert result["scores"]["sum_of_squares"] == {p: (100.0 if p == "GERMANY" else 0.0) for p in POWERS}
    game = table.store.load(table.game_id)
    assert game_view(game)["winner"] == "GERMANY" and game_summary(game)["result"]["kind"] == "concession"


def test_votes_need_a_seated_player_and_a_started_game(store: InMemoryGameStore, clock: FakeClock) -> None:
    created = create_game(store, clock, CreateGame())
    join_game(store, clock, created.game_id, "FRANCE")
    with pytest.raises(errors.GameNotStarted):
        cast_vote(store, clock, created.game_id, Actor("player", "FRANCE"), draw=True)
    with pytest.raises(errors.Forbidden):
        cast_vote(store, clock, created.game_id, CREATOR, draw=True)
    with pytest.raises(errors.ValidationFailed):
        cast_vote(store, clock, created.game_id, Actor("player", "FRANCE"))


def test_year_limit_ends_after_the_last_phase_of_the_year(store: InMemoryGameStore, clock: FakeClock) -> None:
    # Given max_year 1901 (issue 12 item 3)
    t = _table(store, clock, max_year=1901)
    submit_orders(store, clock, t.game_id, t.player("FRANCE"), ["A MAR - SPA"])
    process_turn(store, clock, t.game_id, CREATOR, expected_phase=store.load(t.game_id).phase)
    submit_orders(store, clock, t.game_id, t.player("FRANCE"), ["A SPA H"])
    process_turn(store, clock, t.game_id, CREATOR,
                 expected_phase=store.load(t.game_id).phase)  # F1901M: France owns Spain, builds in W1901A
    assert store.load(t.game_id).phase == "W1901A"
    done = process_turn(store, clock, t.game_id, CREATOR, expected_phase=store.load(t.game_id).phase)
    assert done.game_status == "COMPLETED"
    game = store.load(t.game_id)
    result = game_view(game)["result"]
    assert result["kind"] == "year_limit" and result["final_phase"] == "W1901A"
    assert result["winners"] == POWERS and result["centers"]["FRANCE"] == 4
    assert history(store, t.game_id)[-1]["phase"] == "W1901A"


def test_scores_follow_the_centre_counts() -> None:
    draw = {"kind": "draw", "winners": ["A", "B"], "centers": {"A": 3, "B": 1, "C": 0}}
    assert scores(draw) == {
        "sum_of_squares": {"A": 90.0, "B": 10.0, "C": 0.0},
        "draw_size": {"A": 50.0, "B": 50.0, "C": 0.0},
    }
    solo = {"kind": "solo", "winners": ["A"], "centers": {"A": 18, "B": 16}}
    assert scores(solo)["draw_size"] == {"A": 100.0, "B": 0.0}
    assert scores({"kind": "abandoned", "winners": [], "centers": {"A": 2}})["sum_of_squares"] == {"A": 0.0}
