"""The adapters over the API's game store and process_turn: a deadline adjudicates exactly once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from composition.settings import load_settings
from functions.adapters import StoreDeadlineGames, StoreGameActions, StoreTargetDirectory
from functions.ports.notifications import DiscordTarget, TelegramTarget
from functions.ports.telegram import Seat
from functions.usecases.game import parse_iso
from functions.usecases.games import CreateGame, create_game
from functions.usecases.seats import join_game
from functions.usecases.turns import process_turn
from functions.usecases.turns.deadlines import FireOutcome, fire_deadline, sweep
from testkit.fakes import FakeClock, InMemoryGameStore
from tests.notifications.fakes import FakeScheduler

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


@pytest.fixture
def started() -> tuple[InMemoryGameStore, FakeClock, str, str]:
    store, clock = InMemoryGameStore(), FakeClock()
    created = create_game(store, clock, CreateGame(variant="classical", phase_seconds={"MOVEMENT": 60}))
    for power in POWERS:
        join_game(store, clock, created.game_id, power)
    return store, clock, created.game_id, created.token


def test_firing_twice_through_the_real_process_turn_adjudicates_once(
    started: tuple[InMemoryGameStore, FakeClock, str, str],
) -> None:
    store, clock, game_id, _ = started
    games = StoreDeadlineGames(store, clock)
    deadline = store.load(game_id).deadline
    assert deadline is not None
    late = parse_iso(deadline) + timedelta(seconds=1)

    first = fire_deadline(game_id, "S1901M", now=late, games=games, scheduler=FakeScheduler())
    second = fire_deadline(game_id, "S1901M", now=late, games=games, scheduler=FakeScheduler())

    assert (first, second) == (FireOutcome.PROCESSED, FireOutcome.STALE)
    assert [p.phase for p in store.phases(game_id)] == ["S1901M"]


def test_a_firing_after_a_manual_process_does_nothing(
    started: tuple[InMemoryGameStore, FakeClock, str, str],
) -> None:
    from functions.usecases.players import Actor

    store, clock, game_id, _ = started
    games = StoreDeadlineGames(store, clock)
    process_turn(store, clock, game_id, Actor("operator"), expected_phase="S1901M")  # by hand (issue 11)
    loads = store.loads
    firing = games.process_if_due(game_id, "S1901M", clock.now() + timedelta(days=1))
    assert firing.outcome == "STALE" and store.loads == loads + 1  # one read, no second adjudication
    deadline = store.load(game_id).deadline
    assert deadline is not None
    assert (
        sweep(now=parse_iso(deadline) - timedelta(seconds=1), games=games, scheduler=FakeScheduler()).outcomes
        == {}
    )
    assert [p.phase for p in store.phases(game_id)] == ["S1901M"]


def test_targets_come_from_the_games_notify_setting(
    started: tuple[InMemoryGameStore, FakeClock, str, str],
) -> None:
    store, _, game_id, _ = started
    game = store.games[game_id]
    game.settings["notify"] = [
        {"type": "discord", "url": "https://d.example/h"},
        {"type": "bogus"},
        {"type": "telegram", "chat_id": 5},
    ]
    assert StoreTargetDirectory(store).targets_for(game_id) == [
        DiscordTarget("https://d.example/h"),
        TelegramTarget(5),
    ]
    assert StoreTargetDirectory(store).targets_for("missing") == []


def test_bot_actions_use_the_api_use_cases(started: tuple[InMemoryGameStore, FakeClock, str, str]) -> None:
    store, clock, game_id, _ = started
    actions = StoreGameActions(store, clock)
    seat = Seat(game_id, "FRANCE")
    outcome = actions.submit_orders(seat, ["A PAR - BUR", "A PAR - MOON"])
    assert outcome.phase == "S1901M" and outcome.accepted == ("A PAR - BUR",)
    assert [order for order, _ in outcome.rejected] == ["A PAR - MOON"]
    assert actions.my_orders(seat) == ("S1901M", ["A PAR - BUR"])
    phase, submitted = actions.orders_status(seat)
    assert phase == "S1901M" and submitted["FRANCE"] and not submitted["ENGLAND"]


def test_settings_default_to_safe_values() -> None:
    s = load_settings({})
    assert not s.allow_loopback_webhooks and s.telegram_webhook_secret == ""
    assert s.game_table == "convoy-games" and s.scheduler_group == "convoy-deadlines"
    assert load_settings({"CONVOY_ALLOW_LOOPBACK_WEBHOOKS": "1"}).allow_loopback_webhooks
