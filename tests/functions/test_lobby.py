"""Create, join and identify: use cases on in-memory fakes (no engine adjudication needed)."""

from __future__ import annotations

import pytest

from functions import errors
from functions.usecases.accounts.accounts import User, my_games
from functions.usecases.game import LifecycleSettings
from functions.usecases.games import CreateGame, create_game
from functions.usecases.kinds.lobby import game_summary, list_games
from functions.usecases.notifications.outbox_items import message_from_event_item
from functions.usecases.players import Actor, hash_token, identify
from functions.usecases.seats import join_game
from functions.usecases.turns.views import list_variants
from testkit.account_fakes import MemoryAccountStore
from testkit.fakes import FakeClock, InMemoryGameStore, InMemoryPressStore
from tests.functions.conftest import POWERS, Table


def test_create_stores_initial_state_and_only_a_token_hash(
    store: InMemoryGameStore, clock: FakeClock
) -> None:
    created = create_game(store, clock, CreateGame(variant="classical", phase_seconds={"MOVEMENT": 3600}))
    game = store.load(created.game_id)
    assert game.phase == "S1901M" and game.version == 1
    assert game.creator_token_hash == hash_token(created.token)
    assert created.token not in repr(game)
    assert [e.type for e in store.events[created.game_id]] == ["GAME_CREATED"]
    assert game.deadline is None  # the clock starts when the last power is seated


def test_create_rejects_unknown_variant_rules_and_private_without_password(
    store: InMemoryGameStore, clock: FakeClock
) -> None:
    with pytest.raises(errors.UnknownVariant):
        create_game(store, clock, CreateGame(variant="nope"))
    with pytest.raises(errors.UnknownVariant):
        create_game(store, clock, CreateGame(rules="1971"))
    with pytest.raises(errors.ValidationFailed):
        create_game(store, clock, CreateGame(private=True))


def test_join_named_random_taken_and_full(store: InMemoryGameStore, clock: FakeClock) -> None:
    game_id = create_game(store, clock, CreateGame(phase_seconds={"MOVEMENT": 60})).game_id
    assert join_game(store, clock, game_id, "france").power == "FRANCE"
    with pytest.raises(errors.PowerTaken):
        join_game(store, clock, game_id, "FRANCE")
    with pytest.raises(errors.UnknownPower):
        join_game(store, clock, game_id, "NARNIA")
    seated = {join_game(store, clock, game_id).power for _ in range(6)}
    assert seated == set(POWERS) - {"FRANCE"}
    with pytest.raises(errors.GameFull):
        join_game(store, clock, game_id)
    game = store.load(game_id)
    assert game.deadline is not None  # full: the first deadline runs
    # a join's notice is its own event (issue 29: no OUTBOX item for it); the start's is an OUTBOX item
    assert [o.kind for o in store.outbox[game_id]] == ["PHASE_STARTED"]
    joined = [e for e in store.events[game_id] if e.type == "PLAYER_JOINED"]
    notices = [message_from_event_item({"pk": f"GAME#{game_id}", "sk": f"EVENT#{e.seq:010d}", **e._asdict()})
               for e in joined]
    assert sorted(n.payload["power"] for n in notices if n) == sorted(POWERS)
    assert {n.kind for n in notices if n} == {"PLAYER_JOINED"}
    assert len({n.dedupe_key for n in notices if n}) == 7  # one per join, the same on a redelivery


def test_private_game_needs_the_password(store: InMemoryGameStore, clock: FakeClock) -> None:
    game_id = create_game(store, clock, CreateGame(private=True, join_password="s3cret")).game_id
    stored = store.load(game_id).settings["join_password"]
    assert "s3cret" not in repr(stored)
    with pytest.raises(errors.BadPassword):
        join_game(store, clock, game_id, "ITALY")
    with pytest.raises(errors.BadPassword):
        join_game(store, clock, game_id, "ITALY", password="wrong")
    assert join_game(store, clock, game_id, "ITALY", password="s3cret").power == "ITALY"


def test_identify_tokens(table: Table) -> None:
    game = table.store.load(table.game_id)
    assert identify(game, table.tokens["FRANCE"]) == Actor("player", "FRANCE")
    assert identify(game, table.creator_token) == Actor("creator")
    assert identify(game, "op", operator_token="op") == Actor("operator")
    assert identify(game, None).kind == "anonymous"
    with pytest.raises(errors.NotAPlayer):
        identify(game, "forged")


def test_listings_never_show_secrets(table: Table) -> None:
    [summary] = list_games(table.store)
    assert summary["game_id"] == table.game_id and summary["players"] == POWERS
    game = table.store.load(table.game_id)
    assert "token" not in str(game_summary(game))
    assert {v["name"] for v in list_variants()} >= {"classical", "1900"}
    classical = next(v for v in list_variants() if v["name"] == "classical")
    assert classical["provinces"]["PAR"] == "Paris" and len(classical["provinces"]) == 75


def test_listing_shows_which_seats_are_still_open(store: InMemoryGameStore, clock: FakeClock) -> None:
    """A lobby needs to see games still forming: open_seats empties as powers join."""
    game_id = create_game(store, clock, CreateGame(variant="classical")).game_id
    join_game(store, clock, game_id, "FRANCE")
    [summary] = list_games(store)
    assert summary["open_seats"] == [p for p in POWERS if p != "FRANCE"]
    for power in POWERS:
        if power != "FRANCE":
            join_game(store, clock, game_id, power)
    assert list_games(store)[0]["open_seats"] == []


def test_listing_reads_like_a_lobby_name_seats_and_stage(store: InMemoryGameStore, clock: FakeClock) -> None:
    """ARCHITECTURE §8 (issue 32): a listing carries the game's name, seats filled and a stage
    that says "waiting for players" before the board is full; dummy powers are not seats."""
    hourly = {"MOVEMENT": 3600}
    named = create_game(store, clock, CreateGame(name="H1 newcomer game", phase_seconds=hourly)).game_id
    join_game(store, clock, named, "FRANCE")
    dummies = ("AUSTRIA", "ENGLAND", "ITALY", "RUSSIA", "TURKEY")
    duo = create_game(store, clock, CreateGame(lifecycle=LifecycleSettings(dummy_powers=dummies)))
    listed = {g["game_id"]: g for g in list_games(store)}
    assert {k: listed[named][k] for k in ("name", "variant", "seats_filled", "seats_total", "stage")} == {
        "name": "H1 newcomer game", "variant": "classical", "seats_filled": 1, "seats_total": 7,
        "stage": "waiting for players"}
    two = listed[duo.game_id]
    assert (two["name"], two["seats_total"]) == (f"classical {duo.game_id}", 2)
    for power in POWERS[1:]:
        if power != "FRANCE":
            join_game(store, clock, named, power)
    six = game_summary(store.load(named))
    assert (six["stage"], six["seats_filled"], six["deadline"]) == ("waiting for players", 6, None)
    join_game(store, clock, named, POWERS[0])
    full = game_summary(store.load(named))
    assert (full["stage"], full["seats_filled"]) == ("in play", 7)
    assert full["deadline"] == store.load(named).deadline is not None


def test_my_games_owes_no_orders_before_the_board_is_full(store: InMemoryGameStore, clock: FakeClock) -> None:
    """Issue 32: a game with 6 of 7 seats empty said "orders due"; it says "waiting for players"."""
    ada = User("u-ada", "Ada")
    accounts, press = MemoryAccountStore(), InMemoryPressStore()
    request = CreateGame(name="H1 newcomer game", creator_user_id=ada.user_id)
    game_id = create_game(store, clock, request).game_id
    join_game(store, clock, game_id, "FRANCE", owner=ada)
    accounts.remember_game(ada.user_id, game_id, "2026-01-01T00:00:00Z")
    [mine] = my_games(store, press, accounts, ada)
    assert {k: mine[k] for k in ("name", "power", "seats_filled", "seats_total", "stage", "orders_due")} == {
        "name": "H1 newcomer game", "power": "FRANCE", "seats_filled": 1, "seats_total": 7,
        "stage": "waiting for players", "orders_due": False}
    for power in POWERS:
        if power != "FRANCE":
            join_game(store, clock, game_id, power)
    [mine] = my_games(store, press, accounts, ada)
    assert (mine["stage"], mine["seats_filled"], mine["orders_due"]) == ("in play", 7, True)
    assert mine["deadline"] == store.load(game_id).deadline
