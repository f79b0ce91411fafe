"""Issue 34 item 7 on the use cases (in-memory stores): seeding, its guards, and a raced seeding."""

from __future__ import annotations

import pytest

from functions.errors import Conflict, Forbidden, ValidationFailed
from functions.ports.accounts import Profile
from functions.usecases.community.tournament_standings import tournament_standings
from functions.usecases.community.tournaments import (
    RoundNotOver,
    create_tournament,
    seed_next_round,
)
from testkit.account_fakes import MemoryAccountStore
from testkit.community_fakes import MemoryCommunityStore
from testkit.fakes import FakeClock, InMemoryGameStore

PLAYERS = [f"u{n:02d}" for n in range(14)]


def _setup() -> tuple[InMemoryGameStore, MemoryCommunityStore, MemoryAccountStore, FakeClock]:
    accounts = MemoryAccountStore()
    for player in PLAYERS:
        accounts.save_profile(Profile(player, player.upper(), "2026-01-01T00:00:00Z"))
    return InMemoryGameStore(), MemoryCommunityStore(), accounts, FakeClock()


def test_entrants_must_be_accounts_filling_boards_of_seven() -> None:
    store, community, accounts, clock = _setup()
    with pytest.raises(ValidationFailed, match="do not fill boards of 7"):
        create_tournament(community, accounts, clock, "d", "Cup", PLAYERS[:10], 1, "c_diplo")
    with pytest.raises(ValidationFailed, match="not an account"):
        create_tournament(community, accounts, clock, "d", "Cup", [*PLAYERS[:13], "ghost"], 1, "c_diplo")
    with pytest.raises(ValidationFailed, match="listed twice"):
        create_tournament(community, accounts, clock, "d", "Cup", [*PLAYERS[:13], "u00"], 1, "c_diplo")


def test_a_round_seats_every_entrant_and_the_next_waits_for_its_boards() -> None:
    store, community, accounts, clock = _setup()
    event = create_tournament(community, accounts, clock, "d", "Cup", PLAYERS, 2, "sum_of_squares")
    with pytest.raises(Forbidden):
        seed_next_round(store, community, accounts, clock, event["tournament_id"], "u00")
    seeded = seed_next_round(store, community, accounts, clock, event["tournament_id"], "d")
    [first] = seeded["seeded"]
    seats = [p for b in first["boards"] for p in b["seats"].values()]
    assert sorted(seats) == PLAYERS and first["repeats"] == 0
    for board in first["boards"]:  # every seat bound to its account; each entrant finds the game
        game = store.load(board["game_id"])
        assert {p["user_id"] for p in game.players.values()} == set(board["seats"].values())
        assert game.settings["scoring"] == "sum_of_squares" and game.started_at is not None
        assert all(board["game_id"] in accounts.games_of(p) for p in board["seats"].values())
    with pytest.raises(RoundNotOver):
        seed_next_round(store, community, accounts, clock, event["tournament_id"], None, operator=True)
    standings = tournament_standings(store, community.tournament(event["tournament_id"]) or {})
    assert standings["rounds_finished"] == 0 and {r["total"] for r in standings["standings"]} == {0.0}


def test_two_seedings_at_once_one_wins_the_other_is_a_conflict(monkeypatch: pytest.MonkeyPatch) -> None:
    store, community, accounts, clock = _setup()
    event = create_tournament(community, accounts, clock, "d", "Cup", PLAYERS, 1, "c_diplo")
    stale = community.tournament(event["tournament_id"])
    seed_next_round(store, community, accounts, clock, event["tournament_id"], "d")
    monkeypatch.setattr(community, "tournament", lambda _: stale)
    with pytest.raises(Conflict):
        seed_next_round(store, community, accounts, clock, event["tournament_id"], "d")
