"""Every view ``GET /games/{id}`` answers is exactly what its model documents.

The view route returns the one view builder's dict (functions/api/routes/games.py
``get_game``), which the resolver validates against the route's return annotation and
serializes through the model; what the client gets must still be the builder's dict
unchanged. This test is what holds the two together: seeded random games played through the API,
each view of every phase type, for every kind of caller (player, observer, creator,
operator) with press unread, and a finished game, must validate against its kind's model
(``VIEW_MODELS``) *and* come out of the model unchanged — so no key the model does not name
(which the model would have dropped, and which might leak), no value the model would coerce.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from composition.factories import telegram
from functions.api.handler import VIEW_MODELS
from functions.schemas import api as schemas
from testkit.api_harness import OPERATOR_TOKEN, POWERS, InProcessApi, in_process_api
from tests.notifications.fakes import MemoryTelegramStore


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> Iterator[InProcessApi]:
    # the in-process API has no notification table: press finds no linked Telegram chat
    monkeypatch.setattr(telegram, "telegram_store", MemoryTelegramStore)
    yield from in_process_api()


def _held_to_model(kind: str, view: dict[str, Any]) -> None:
    model = getattr(schemas, VIEW_MODELS[kind])
    assert model.model_validate(view).model_dump(mode="json", by_alias=True) == view


def _views(api: InProcessApi, game_id: str, tokens: dict[str, str | None]) -> dict[str, dict[str, Any]]:
    found = {}
    for who, token in tokens.items():
        answer = api.call("GET", f"/games/{game_id}", token=token)
        assert answer.status == 200, answer.raw
        _held_to_model("diplomacy", answer.body)
        found[who] = answer.body
    return found


# Random orders seldom dislodge anyone; this opening does (Venice, in the autumn of 1901),
# so the views of a retreat phase are checked too.
DISLODGE_VENICE = {"S1901M": {"AUSTRIA": ["A VIE - TYR"], "ITALY": ["A VEN H"]},
                   "F1901M": {"AUSTRIA": ["F TRI - VEN", "A TYR S F TRI - VEN"], "ITALY": ["A VEN H"]}}


def _play(api: InProcessApi, rng: random.Random, phase_types: set[str],
          script: dict[str, dict[str, list[str]]]) -> None:
    """One game of ten phases with press, then a draw; every view checked on the way. Orders
    are random legal ones, but for the phases ``script`` gives."""
    game_id, creator, seats = api.new_game()
    callers: dict[str, str | None] = {**seats, "observer": None, "creator": creator,
                                      "operator": OPERATOR_TOKEN}
    for _ in range(10):
        views = _views(api, game_id, callers)
        phase = views["observer"]["phase"]
        phase_types.add(views["observer"]["phase_type"])
        for power in POWERS:
            legal = views[power]["legal_orders"]
            picked = rng.sample(legal, min(len(legal), rng.randint(2, 12)))
            if phase in script:
                picked = script[phase].get(power, [])
            answer = api.call("POST", f"/games/{game_id}/orders", {"orders": picked}, token=seats[power])
            assert answer.status == 200, answer.raw
            if rng.random() < 0.3:  # press: the others' views then count unread messages
                to = "ALL" if rng.random() < 0.5 else [rng.choice([p for p in POWERS if p != power])]
                sent = api.call("POST", f"/games/{game_id}/messages", {"to": to, "text": "hello"},
                                token=seats[power])
                assert sent.status == 201, sent.raw
        _views(api, game_id, callers)  # with orders pending and messages unread
        done = api.call("POST", f"/games/{game_id}/process_turn", {"phase": phase}, token=creator)
        assert done.status == 200, done.raw
    for power in POWERS:  # a draw by every seat ends the game: the finished view, with its result
        voted = api.call("POST", f"/games/{game_id}/votes", {"draw": True}, token=seats[power])
        assert voted.status == 200, voted.raw
    final = _views(api, game_id, callers)
    assert final["observer"]["status"] == "COMPLETED" and final["observer"]["result"]["kind"] == "draw"


def test_every_view_of_random_games_is_exactly_its_model(api: InProcessApi) -> None:
    phase_types: set[str] = set()
    for seed in (1, 2, 3):
        _play(api, random.Random(seed), phase_types, DISLODGE_VENICE if seed == 1 else {})
    # only as good as the positions it sees: these games reach every phase type
    assert phase_types == {"MOVEMENT", "RETREAT", "ADJUSTMENT"}


def test_a_backgammon_view_is_exactly_its_model(api: InProcessApi) -> None:
    created = api.call("POST", "/games", {"game": "backgammon", "backgammon": {"seed": 2024}}).body
    tokens = {side: api.call("POST", f"/games/{created['game_id']}/join", {"side": side}).body["token"]
              for side in ("white", "black")}
    for token in [*tokens.values(), None, created["token"]]:
        answer = api.call("GET", f"/games/{created['game_id']}", token=token)
        assert answer.status == 200, answer.raw
        _held_to_model("backgammon", answer.body)


def test_the_check_fails_on_a_key_the_model_does_not_name_or_a_value_it_would_coerce(
        api: InProcessApi) -> None:
    """What the equality catches that validation alone would not: the model silently drops
    an unknown key and turns ``"1901"`` into ``1901``."""
    game_id, _, _ = api.new_game()
    view = api.call("GET", f"/games/{game_id}").body
    _held_to_model("diplomacy", view)
    for broken in ({**view, "secret": "leaked"}, {**view, "year": str(view["year"])}):
        schemas.GameView.model_validate(broken)  # valid to the model...
        with pytest.raises(AssertionError):
            _held_to_model("diplomacy", broken)  # ...but not exactly it


def test_views_of_games_with_every_setting_are_exactly_their_model(api: InProcessApi) -> None:
    """The settings a view echoes (lifecycle settings, a deadline time, press, anonymity,
    dummies, a pause), which the random games above leave at their defaults."""
    created = api.call("POST", "/games", {
        "variant": "classical", "private": True, "join_password": "pw", "anonymous": True,
        "press": "public_only", "draw_votes": "public", "max_year": 1905, "nmr_extensions": 1,
        "civil_disorder_after": 2, "dummy_powers": ["TURKEY"], "auto_process": True,
        "phase_seconds": {"MOVEMENT": 3600}, "reminder_seconds": 600,
        "deadline_at": {"time": "20:00", "zone": "Europe/Berlin", "every_days": {"MOVEMENT": 2}},
    })
    assert created.status == 201, created.raw
    game_id, creator = created.body["game_id"], created.body["token"]
    france = api.call("POST", f"/games/{game_id}/join", {"power": "FRANCE", "password": "pw"})
    assert france.status == 200, france.raw
    callers: dict[str, str | None] = {"FRANCE": france.body["token"], "observer": None, "creator": creator,
                                      "operator": OPERATOR_TOKEN}
    _views(api, game_id, callers)
    paused = api.call("POST", f"/games/{game_id}/pause", token=creator)
    assert paused.status == 200, paused.raw
    assert _views(api, game_id, callers)["FRANCE"]["paused"] is True
    demo = api.call("POST", "/games", {"variant": "classical", "demo": True, "demo_power": "ENGLAND"})
    assert demo.status == 201, demo.raw
    _views(api, demo.body["game_id"], {"creator": demo.body["token"], "observer": None,
                                       "ENGLAND": demo.body.get("player_token")})
