"""Authorization matrix: every route x every kind of caller, with the expected status
(issue 10, item 5). One table; a route the table does not list fails the test, so a new
route cannot ship without its row.

Callers: ``anonymous`` (no token), ``other_game`` (a valid player token of another game),
``another_power`` (GERMANY in this game), ``the_power`` (FRANCE, whose orders/seat the
call concerns), ``creator`` (the game's creator token), ``operator`` (the env token).
Each cell runs on a fresh game (a timed classical game, every seat taken), so a cell that
changes state (process_turn, pause) cannot affect another.

Signed-in callers (issue 15), each with a real RS256 ID token checked by the API's verifier:
``signed_in_own`` (the account holding FRANCE's seat), ``signed_in_other`` (the account
holding GERMANY's), ``signed_in_creator`` (the account that created the game, no seat) and
``signed_in_observer`` (an account with no role in the game). Unless a row says otherwise
they expect what ``the_power``, ``another_power`` and ``creator`` get, and an observer what
``anonymous`` gets with 401 turned into 403 (known, but not allowed).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import engine
from community.mila import to_mila
from functions.api.handler import openapi_document
from testkit.api_harness import OPERATOR_TOKEN, POWERS, InProcessApi
from tests.notifications.fakes import MemoryTelegramStore

IMPORTABLE = {  # the smallest export: a game at its first phase, nothing played
    "format": "convoy-export/1", "variant": "classical", "rules": "2023", "phases": [],
    "current": {"phase": "S1901M", "status": "ACTIVE",
                "state": engine.state_to_dict(engine.initial_state(engine.load_map("classical")))},
}
MILA = to_mila(IMPORTABLE)
CICERO = json.loads((Path(__file__).parents[1] / "community" / "data" / "cicero_layout_game.json")
                    .read_text())
CALLERS = ("anonymous", "other_game", "another_power", "the_power", "creator", "operator")
SIGNED_IN = ("signed_in_own", "signed_in_other", "signed_in_creator", "signed_in_observer")
ALL_CALLERS = CALLERS + SIGNED_IN
NOT_SIGNED_IN = (401,) * 6
PLAYERS_ONLY = (401, 401, 200, 200, 403, 403)
CONTROLLERS_ONLY = (401, 401, 403, 403, 200, 200)
EVERYONE = (200,) * 6
VIEW = (200, 401, 200, 200, 200, 200)  # a token of another game is refused, not taken as observer

# (method, path template, body) -> expected status per caller, in CALLERS order
MATRIX: dict[tuple[str, str], tuple[Any, tuple[int, ...]]] = {
    ("POST", "/games"): ({"variant": "classical"}, (201,) * 6),
    ("GET", "/games"): (None, EVERYONE),
    ("GET", "/games/{game_id}"): (None, VIEW),
    ("POST", "/games/{game_id}/join"): ({"power": "FRANCE"}, (409,) * 6),  # seat taken, whoever asks
    ("POST", "/games/{game_id}/orders"): ({"orders": ["A PAR - BUR"]}, PLAYERS_ONLY),
    ("POST", "/games/{game_id}/orders/add"): ({"orders": ["A PAR - BUR"]}, PLAYERS_ONLY),
    ("DELETE", "/games/{game_id}/orders"): (None, PLAYERS_ONLY),
    ("GET", "/games/{game_id}/orders_status"): (None, EVERYONE),
    # a timed game before its deadline: the creator may not cut players off (issue 11), the operator may
    ("POST", "/games/{game_id}/process_turn"): ({"phase": "S1901M"}, (401, 401, 403, 403, 409, 200)),
    ("POST", "/games/{game_id}/pause"): (None, CONTROLLERS_ONLY),
    ("POST", "/games/{game_id}/resume"): (None, CONTROLLERS_ONLY),
    # issue 11: the controllers rotate a webhook's secret; this game has none: 404 for them
    ("POST", "/games/{game_id}/notify/{index}/rotate_secret"): (None, (401, 401, 403, 403, 404, 404)),
    ("POST", "/games/{game_id}/extend"): ({"seconds": 60}, CONTROLLERS_ONLY),
    ("POST", "/games/{game_id}/wait"): ({"wait": True}, PLAYERS_ONLY),
    ("POST", "/games/{game_id}/telegram/link_code"): (None, PLAYERS_ONLY),
    # issue 35 item 3: a fog game shows each caller what its power saw, so the token is read as
    # the view reads it (optional; one of another game is refused)
    ("GET", "/games/{game_id}/last_resolution"): (None, VIEW),
    ("GET", "/games/{game_id}/history"): (None, VIEW),
    ("GET", "/games/{game_id}/events"): (None, VIEW),
    ("GET", "/variants"): (None, EVERYONE),
    ("GET", "/games/{game_id}/map"): (None, VIEW),
    ("GET", "/games/{game_id}/map/orders"): (None, VIEW),  # only the caller's own orders drawn
    # no phase adjudicated yet: PHASE_NOT_FOUND for whoever may see the game
    ("GET", "/games/{game_id}/map/resolution"): (None, (404, 401, 404, 404, 404, 404)),
    # backgammon moves on a Diplomacy game: identity first, then WRONG_GAME_KIND for players
    ("POST", "/games/{game_id}/moves"): ({"input": "ROLL"}, (401, 401, 409, 409, 403, 403)),
    # issue 12: votes and leaving are the seated players'; opening a seat is the controllers'
    ("POST", "/games/{game_id}/votes"): ({"draw": True}, PLAYERS_ONLY),
    ("POST", "/games/{game_id}/leave"): (None, PLAYERS_ONLY),
    ("POST", "/games/{game_id}/seats/{power}/open"): (None, CONTROLLERS_ONLY),
    # dummies are chosen while forming: this game has started, so even its controllers get 403
    ("POST", "/games/{game_id}/dummy_powers"): ({"dummy_powers": []}, (401, 401, 403, 403, 403, 403)),
    ("GET", "/games/{game_id}/export"): (None, EVERYONE),  # as public as the history
    # issue 28 item 1: signed-in accounts and the operator import; a seat token is nobody here
    ("POST", "/games/import"): (IMPORTABLE, (401, 401, 401, 401, 401, 201) + (201,) * 4),
    # press (issue 13): players send; everyone who may see the game reads (observers: public press)
    ("POST", "/games/{game_id}/messages"): ({"to": ["ENGLAND"], "text": "hi"},
                                            (401, 401, 201, 201, 403, 403)),
    ("GET", "/games/{game_id}/messages"): (None, VIEW),
    ("GET", "/games/{game_id}/channels"): (None, VIEW),
    # the public channel has no message yet: CHANNEL_NOT_FOUND for players
    ("POST", "/games/{game_id}/channels/{channel}/read"): ({"upto": 1}, (401, 401, 404, 404, 403, 403)),
    # accounts (issue 15): the /auth/* conveniences ignore the bearer; /me* need an ID token
    ("POST", "/auth/signup"): ({"email": "new@example.com", "password": "Password-1", "display_name": "N"},
                               (201,) * 10),
    ("POST", "/auth/confirm"): ({"email": "nobody@example.com", "code": "123456"}, (400,) * 10),
    ("POST", "/auth/signin"): ({"email": "own@example.com", "password": "Password-1"}, (200,) * 10),
    ("POST", "/auth/refresh"): ({"refresh_token": "unknown"}, (401,) * 10),
    # issue 28 item 11: the same answer for any address; a wrong reset code is refused for all
    ("POST", "/auth/forgot"): ({"email": "own@example.com"}, (200,) * 10),
    ("POST", "/auth/reset"): ({"email": "own@example.com", "code": "000000", "password": "Password-2"},
                              (400,) * 10),
    ("GET", "/me"): (None, NOT_SIGNED_IN + (200,) * 4),
    ("GET", "/me/games"): (None, NOT_SIGNED_IN + (200,) * 4),
    # ITALY's seat token (joined without an account): only an account without a seat here may bind it
    ("POST", "/me/seats"): ({"game_id": "{game_id}", "token": "{seat}"},
                            NOT_SIGNED_IN + (409, 409, 200, 200)),
    # the stateless sandbox (issue 19): no game, no token needed; a token changes nothing
    ("POST", "/adjudicate"): (
        {"compact": "France:APar|Par", "orders": {"FRANCE": ["A PAR - BUR"]}}, EVERYONE),
    ("POST", "/adjudicate/legal_orders"): ({"compact": "France:APar|Par"}, EVERYONE),
    # issue 31: a preview of the current phase is a seated player's, and writes nothing
    ("POST", "/games/{game_id}/whatif"): ({"orders": {"GERMANY": ["A MUN - BUR"]}}, PLAYERS_ONLY),
    # reaching players (issue 33): where the socket is, as public as the game; the account's own
    # notice settings and push devices; an unsubscribe link without its token is malformed for all
    ("GET", "/games/{game_id}/live"): (None, EVERYONE),
    ("GET", "/me/notifications"): (None, NOT_SIGNED_IN + (200,) * 4),
    ("PUT", "/me/notifications"): ({"preferences": {"mail": {"press": "digest"}}},
                                   NOT_SIGNED_IN + (200,) * 4),
    ("GET", "/me/push_devices"): (None, NOT_SIGNED_IN + (200,) * 4),
    ("POST", "/me/push_devices"): ({"subscription": {"endpoint": "https://fcm.googleapis.com/fcm/send/x",
                                                    "keys": {"p256dh": "B" * 87, "auth": "a" * 22}}},
                                   NOT_SIGNED_IN + (200,) * 4),
    ("DELETE", "/me/push_devices/{device_id}"): (None, NOT_SIGNED_IN + (200,) * 4),
    ("GET", "/mail/unsubscribe"): (None, (422,) * 10),
    ("POST", "/mail/unsubscribe"): (None, (422,) * 10),
    # issue 34: a finished game's record is public; nobody here has one yet (PLAYER_NOT_FOUND)
    ("GET", "/players/{user_id}"): (None, (404,) * 10),
    ("GET", "/leaderboard"): (None, EVERYONE),
    ("GET", "/archive"): (None, (422,) * 10),  # a search names a variant or a player
    ("GET", "/games/{game_id}/export/mila"): (None, EVERYONE),
    # files of other programs are imports: signed-in accounts and the operator, as /games/import
    ("POST", "/games/import/mila"): (MILA, (401, 401, 401, 401, 401, 201) + (201,) * 4),
    ("POST", "/games/import/cicero"): (CICERO, (401, 401, 401, 401, 401, 201) + (201,) * 4),
    # a tournament is directed by an account; entrants must be accounts (these seven are not)
    ("POST", "/tournaments"): ({"name": "Cup", "rounds": 1, "players": [f"u{n}" for n in range(7)]},
                               NOT_SIGNED_IN + (422,) * 4),
    ("GET", "/tournaments/{tournament_id}"): (None, (404,) * 10),
    ("POST", "/tournaments/{tournament_id}/rounds"): (None, (401, 401, 401, 401, 401, 404) + (404,) * 4),
    ("GET", "/tournaments/{tournament_id}/standings"): (None, (404,) * 10),
}


def _expected(route: tuple[str, str], caller: str) -> int:
    wanted = MATRIX[route][1]
    if len(wanted) == len(ALL_CALLERS):
        return wanted[ALL_CALLERS.index(caller)]
    like = {"signed_in_own": "the_power", "signed_in_other": "another_power", "signed_in_creator": "creator"}
    if caller in like:
        return wanted[CALLERS.index(like[caller])]
    if caller == "signed_in_observer":
        anonymous = wanted[CALLERS.index("anonymous")]
        return 403 if anonymous == 401 else anonymous
    return wanted[CALLERS.index(caller)]


def _documented_routes() -> set[tuple[str, str]]:
    paths = openapi_document()["paths"]
    return {(method.upper(), path) for path, ops in paths.items() for method in ops}


def test_every_route_has_a_row() -> None:
    assert _documented_routes() == set(MATRIX)


def _token(caller: str, creator: str, tokens: dict[str, str], other: str,
           jwts: dict[str, str] | None = None) -> str | None:
    return {
        "anonymous": None, "other_game": other, "another_power": tokens["GERMANY"],
        "the_power": tokens["FRANCE"], "creator": creator, "operator": OPERATOR_TOKEN, **(jwts or {}),
    }[caller]


def _game_with_accounts(api: InProcessApi) -> tuple[str, str, dict[str, str], dict[str, str]]:
    """A full timed game created by an account, FRANCE and GERMANY joined by two more accounts
    (their seat tokens are still returned), the rest by seat token; and each caller's ID token."""
    jwts = {caller: api.pool.user(name)[1] for caller, name in (
        ("signed_in_own", "Own"), ("signed_in_other", "Other"), ("signed_in_creator", "Creator"),
        ("signed_in_observer", "Observer"))}
    created = api.call("POST", "/games", {"variant": "classical", "phase_seconds": {"MOVEMENT": 3600}},
                       token=jwts["signed_in_creator"])
    assert created.status == 201, created.raw
    game_id, tokens = created.body["game_id"], {}
    joiners = {"FRANCE": jwts["signed_in_own"], "GERMANY": jwts["signed_in_other"]}
    for power in POWERS:
        joined = api.call("POST", f"/games/{game_id}/join", {"power": power}, token=joiners.get(power))
        assert joined.status == 200, joined.raw
        tokens[power] = joined.body["token"]
    return game_id, created.body["token"], tokens, jwts


def _filled(body: Any, **values: str) -> Any:
    if isinstance(body, dict):
        return {k: v.format(**values) if isinstance(v, str) and "{" in v else v for k, v in body.items()}
    return body


@pytest.mark.parametrize("caller", ALL_CALLERS)
@pytest.mark.parametrize("route", sorted(MATRIX))
def test_authorization(api: InProcessApi, monkeypatch: pytest.MonkeyPatch,
                       route: tuple[str, str], caller: str) -> None:
    from composition.factories import telegram

    monkeypatch.setattr(telegram, "telegram_store", MemoryTelegramStore)
    method, template = route
    body, _ = MATRIX[route]
    _, _, other_tokens = api.new_game()
    game_id, creator, tokens, jwts = _game_with_accounts(api)
    token = _token(caller, creator, tokens, other_tokens["FRANCE"], jwts)
    path = template.format(game_id=game_id, power="FRANCE", channel="ALL", index=0, device_id="d1",
                           user_id="nobody", tournament_id="nope")
    answer = api.call(method, path, _filled(body, game_id=game_id, seat=tokens["ITALY"]), token=token)
    want = _expected(route, caller)
    assert answer.status == want, (method, template, caller, answer.raw[:300])
    if answer.status >= 400:
        assert set(answer.body) >= {"code", "message"}


@pytest.mark.parametrize("caller", ["anonymous", "another_power", "creator", "operator", "other_game"])
def test_nobody_but_the_power_sees_its_pending_orders(api: InProcessApi, caller: str) -> None:
    _, _, other_tokens = api.new_game()
    game_id, creator, tokens = api.new_game()
    api.call("POST", f"/games/{game_id}/orders", {"orders": ["A PAR - GAS"]}, token=tokens["FRANCE"])
    token = _token(caller, creator, tokens, other_tokens["FRANCE"])
    for path in ("", "/orders_status", "/events", "/history", "/last_resolution"):
        answer = api.call("GET", f"/games/{game_id}{path}", token=token)
        assert "A PAR - GAS" not in answer.raw, (caller, path)
    mine = api.call("GET", f"/games/{game_id}", token=tokens["FRANCE"]).body
    assert mine["orders"] == {"FRANCE": ["A PAR - GAS"]}
