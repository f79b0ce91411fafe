"""Issue 12 item 10 (seed W5): export -> import -> export round-trips; no secret ever leaves."""

from __future__ import annotations

import copy
import json

import pytest

from functions import errors
from functions.usecases.game import LifecycleSettings
from functions.usecases.games import CreateGame, create_game, import_game
from functions.usecases.players import SCHEDULER, Actor
from functions.usecases.seats import cast_vote, join_game
from functions.usecases.turns import export_game, process_turn, submit_orders
from functions.usecases.turns.views import game_view
from testkit.fakes import FakeClock, InMemoryGameStore
from testkit.openings import FALL_1901, SPRING_1901
from tests.functions.conftest import POWERS

CREATOR = Actor("creator")


def _played(store: InMemoryGameStore, clock: FakeClock) -> tuple[str, dict[str, str]]:
    """A private, public-ballot game with a webhook, 1901 played, pending orders and votes left."""
    request = CreateGame(
        private=True, join_password="sesame", phase_seconds={"MOVEMENT": 3600},
        notify=({"type": "webhook", "url": "https://hooks.example.com/secret-path"},),
        lifecycle=LifecycleSettings(draw_votes="public", max_year=1910, dummy_powers=("TURKEY",)),
    )
    created = create_game(store, clock, request)
    tokens = {p: join_game(store, clock, created.game_id, p, "sesame").token for p in POWERS if p != "TURKEY"}
    for orders in (SPRING_1901, FALL_1901):
        for power, given in orders.items():
            if power != "TURKEY":
                submit_orders(store, clock, created.game_id, Actor("player", power), given)
        cast_vote(store, clock, created.game_id, Actor("player", "ENGLAND"), draw=True)
        process_turn(store, clock, created.game_id, SCHEDULER,
                     expected_phase=store.load(created.game_id).phase)
    submit_orders(store, clock, created.game_id, Actor("player", "FRANCE"), ["BUILD A PAR"])
    cast_vote(store, clock, created.game_id, Actor("player", "FRANCE"), draw=True)
    return created.game_id, tokens


def test_export_import_export_is_the_same_document(store: InMemoryGameStore, clock: FakeClock) -> None:
    game_id, _ = _played(store, clock)
    first = export_game(store, game_id)
    assert [p["phase"] for p in first["phases"]] == ["S1901M", "F1901M"]
    assert first["phases"][0]["resolution"]["votes"] == {"ENGLAND": {"draw": True}}  # public ballot
    imported = import_game(store, clock, json.loads(json.dumps(first)))
    again = export_game(store, imported.game_id)
    assert again["source"]["game_id"] == imported.game_id
    assert {**again, "source": None} == {**first, "source": None}
    # the imported game is at the last phase with every seat open (dummies stay dummies)
    game = store.load(imported.game_id)
    view = game_view(game)
    assert view["phase"] == "W1901A" and view["open_seats"] == [p for p in POWERS if p != "TURKEY"]
    assert game.players == {} and game.pending_orders == {} and not view["private"]
    assert game.settings.get("notify") is None and game.settings.get("join_password") is None
    # and it plays on: the seats fill without a password, then the game starts
    for power in POWERS[:-1]:
        join_game(store, clock, imported.game_id, power)
    assert store.load(imported.game_id).started_at is not None
    process_turn(store, clock, imported.game_id, CREATOR, expected_phase=store.load(imported.game_id).phase)
    assert store.load(imported.game_id).phase == "S1902M"


def test_an_export_holds_no_secret(store: InMemoryGameStore, clock: FakeClock) -> None:
    game_id, tokens = _played(store, clock)
    game = store.load(game_id)
    text = json.dumps(export_game(store, game_id))
    secrets = [*tokens.values(), game.creator_token_hash, "hooks.example.com", "sesame", "BUILD A PAR",
               *(p["token_hash"] for p in game.players.values()), game.settings["join_password"]["hash"]]
    assert [s for s in secrets if str(s) in text] == []
    assert '"FRANCE": {"draw": true' not in text  # this phase's votes are not history yet


@pytest.mark.parametrize("damage", ["orders", "state", "format", "settings", "numbering"])
def test_a_document_that_does_not_replay_is_refused_and_nothing_is_written(
    store: InMemoryGameStore, clock: FakeClock, damage: str
) -> None:
    game_id, _ = _played(store, clock)
    document = copy.deepcopy(export_game(store, game_id))
    if damage == "orders":
        document["phases"][0]["orders"]["FRANCE"] = ["A PAR - PIC"]
    elif damage == "state":
        document["current"]["state"]["units"] = document["current"]["state"]["units"][1:]
    elif damage == "format":
        document["format"] = "something-else"
    elif damage == "settings":
        document["settings"]["notify"] = [{"type": "webhook", "url": "https://x"}]
    else:
        document["phases"][1]["n"] = 5
    games = len(store.games)
    with pytest.raises(errors.BadImport):
        import_game(store, clock, document)
    assert len(store.games) == games
