"""Issue 15 over real HTTP: accounts on the local stack's user pool (moto's cognito-idp).

The "Done when" flow: sign up, confirm with the code from the local mailbox, sign in,
create a game, join two games, list /me/games, sign in again as on a new device and order
without any stored seat token; a user cannot take a second seat in a game they already play.
"""

from __future__ import annotations

import os
import uuid
from datetime import datetime
from typing import Any

import pytest

from local_stack.stack import LocalStack
from tests.system.client import Api

pytestmark = pytest.mark.system
PASSWORD = "Convoy-test-1"


def _email(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:8]}@example.com"


def _account(api: Api, stack: LocalStack, name: str) -> tuple[str, str]:
    """A confirmed account (email, user id), confirmed with the code the local pool mailed."""
    email = _email(name)
    signed_up = api.call("POST", "/auth/signup", expect=201,
                         body={"email": email, "password": PASSWORD, "display_name": name})
    assert signed_up["confirmation"] == "required"
    code = stack.emulator.mailbox.code_for(email)
    assert code is not None and len(code) == 6
    assert api.call("POST", "/auth/confirm", body={"email": email, "code": code}) == {"confirmed": True}
    return email, signed_up["user_id"]


def _sign_in(stack: LocalStack, email: str) -> tuple[Api, dict[str, Any]]:
    """A new device: a new HTTP session that knows nothing but the email and password."""
    device = Api(stack.url)
    tokens = device.call("POST", "/auth/signin", body={"email": email, "password": PASSWORD})
    return device, tokens


def test_an_account_keeps_its_seats_across_devices(stack: LocalStack) -> None:
    api = Api(stack.url)
    # Given a confirmed account, signed in on a first device
    email, user_id = _account(api, stack, "Ada")
    phone, tokens = _sign_in(stack, email)
    assert tokens["user"] == {"user_id": user_id, "display_name": "Ada"}
    assert set(tokens) == {"id_token", "access_token", "refresh_token", "expires_in", "user"}
    jwt = tokens["id_token"]
    # When it creates a game and joins it, and joins a second game someone else created
    mine = phone.call("POST", "/games", token=jwt, expect=201,
                      body={"variant": "classical", "name": "Ada's table"})["game_id"]
    first = phone.call("POST", f"/games/{mine}/join", token=jwt, body={"power": "FRANCE"})
    assert first["power"] == "FRANCE" and first["token"]  # the seat token is still shown once, for bots
    theirs = api.call("POST", "/games", body={"variant": "classical"}, expect=201)["game_id"]
    second = phone.call("POST", f"/games/{theirs}/join", token=jwt, body={})
    # Then /me/games lists both, with the seat, the phase and whether the account created it
    games = {g["game_id"]: g for g in phone.call("GET", "/me/games", token=jwt)["games"]}
    assert set(games) == {mine, theirs}
    # (six seats still open: the game waits for players, so nothing is due yet — issue 32)
    assert games[mine] | {"deadline": None} == {
        "game_id": mine, "name": "Ada's table", "game": "diplomacy", "variant": "classical",
        "power": "FRANCE", "phase": "S1901M", "deadline": None, "orders_due": False, "unread_press": 0,
        "is_creator": True, "status": "ACTIVE", "seats_filled": 1, "seats_total": 7,
        "stage": "waiting for players", "press": "full", "fog": False,
    }
    assert games[theirs]["power"] == second["power"] and games[theirs]["is_creator"] is False
    # When the same user signs in again on a new device, holding no seat token at all
    laptop, again = _sign_in(stack, email)
    assert again["id_token"] != jwt or again["refresh_token"] != tokens["refresh_token"]
    # Then it orders as FRANCE with its ID token alone, and the order counts
    ordered = laptop.call("POST", f"/games/{mine}/orders", token=again["id_token"],
                          body={"orders": ["A PAR - BUR"]})
    assert ordered["accepted"] == ["A PAR - BUR"]
    view = laptop.call("GET", f"/games/{mine}", token=again["id_token"])
    assert view["power"] == "FRANCE" and view["orders"] == {"FRANCE": ["A PAR - BUR"]}
    assert view["players"]["FRANCE"]["display_name"] == "Ada"
    listed = {g["game_id"]: g for g in laptop.call("GET", "/me/games", token=again["id_token"])["games"]}
    assert listed[mine]["orders_due"] is False
    # And the creator's rights followed the account to the new device (pause is the creator's)
    paused = laptop.call("POST", f"/games/{mine}/pause", token=again["id_token"])
    assert paused["paused"] is True


def test_one_seat_per_account_per_game(stack: LocalStack) -> None:
    api = Api(stack.url)
    ada_email, _ = _account(api, stack, "Ada")
    bob_email, _ = _account(api, stack, "Bob")
    _, ada = _sign_in(stack, ada_email)
    _, bob = _sign_in(stack, bob_email)
    game = api.call("POST", "/games", body={"variant": "classical"}, expect=201)["game_id"]
    api.call("POST", f"/games/{game}/join", token=ada["id_token"], body={"power": "FRANCE"})
    api.call("POST", f"/games/{game}/join", token=bob["id_token"], body={"power": "GERMANY"})
    # a second user cannot take a second seat in a game that user already plays
    refused = api.call("POST", f"/games/{game}/join", token=bob["id_token"], body={"power": "ITALY"},
                       expect=409)
    assert refused["code"] == "ALREADY_SEATED" and refused["power"] == "GERMANY"
    refused = api.call("POST", f"/games/{game}/join", token=bob["id_token"], body={}, expect=409)
    assert refused["code"] == "ALREADY_SEATED"
    # and a seat token of the same game cannot be bound as a second seat either
    anonymous_seat = api.call("POST", f"/games/{game}/join", body={"power": "ITALY"})["token"]
    refused = api.call("POST", "/me/seats", token=bob["id_token"], expect=409,
                       body={"game_id": game, "token": anonymous_seat})
    assert refused["code"] == "ALREADY_SEATED"
    view = api.call("GET", f"/games/{game}", token=bob["id_token"])
    assert view["power"] == "GERMANY"


def test_a_seat_token_is_bound_to_an_account_once(stack: LocalStack) -> None:
    api = Api(stack.url)
    ada_email, _ = _account(api, stack, "Ada")
    bob_email, _ = _account(api, stack, "Bob")
    _, ada = _sign_in(stack, ada_email)
    _, bob = _sign_in(stack, bob_email)
    game = api.call("POST", "/games", body={"variant": "classical"}, expect=201)["game_id"]
    seat = api.call("POST", f"/games/{game}/join", body={"power": "TURKEY"})["token"]
    # Given a seat joined without an account, its token is bound to Ada's account
    bound = api.call("POST", "/me/seats", token=ada["id_token"], body={"game_id": game, "token": seat})
    assert bound == {"game_id": game, "power": "TURKEY"}
    assert [g["power"] for g in api.call("GET", "/me/games", token=ada["id_token"])["games"]] == ["TURKEY"]
    # Then nobody may bind it again, Ada included
    for who in (ada, bob):
        refused = api.call("POST", "/me/seats", token=who["id_token"], expect=409,
                           body={"game_id": game, "token": seat})
        assert refused["code"] == "SEAT_ALREADY_BOUND"
    # and the seat token still works for a bot
    api.call("POST", f"/games/{game}/orders", token=seat, body={"orders": ["F ANK - BLA"]})


def test_refusals_have_stable_codes(stack: LocalStack) -> None:
    api = Api(stack.url)
    email = _email("Cy")
    api.call("POST", "/auth/signup", expect=201, body={"email": email, "password": PASSWORD,
                                                       "display_name": "Cy"})
    # issue 28 item 11: no answer says an address has an account (was 409 USER_EXISTS)
    taken = api.call("POST", "/auth/signup", expect=201,
                     body={"email": email.upper(), "password": PASSWORD, "display_name": "Cy"})
    assert taken["confirmation"] == "required"
    weak = api.call("POST", "/auth/signup", expect=400,
                    body={"email": _email("weak"), "password": "short", "display_name": "W"})
    assert weak["code"] == "WEAK_PASSWORD"
    unconfirmed = api.call("POST", "/auth/signin", expect=403, body={"email": email, "password": PASSWORD})
    assert unconfirmed["code"] == "USER_NOT_CONFIRMED"
    code = stack.emulator.mailbox.code_for(email)
    wrong = "000000" if code != "000000" else "111111"
    bad = api.call("POST", "/auth/confirm", expect=400, body={"email": email, "code": wrong})
    assert bad["code"] == "BAD_CONFIRMATION_CODE"
    api.call("POST", "/auth/confirm", body={"email": email, "code": code})
    wrong_password = api.call("POST", "/auth/signin", expect=401,
                              body={"email": email, "password": "Nope-123a"})
    assert wrong_password["code"] == "BAD_CREDENTIALS"
    nobody = api.call("POST", "/auth/signin", expect=401, body={"email": _email("x"), "password": PASSWORD})
    assert nobody["code"] == "BAD_CREDENTIALS"
    # refresh: the same shape without a refresh token; a made-up refresh token is refused
    _, tokens = _sign_in(stack, email)
    fresh = api.call("POST", "/auth/refresh", body={"refresh_token": tokens["refresh_token"]})
    assert set(fresh) == {"id_token", "access_token", "expires_in", "user"}
    assert api.call("GET", "/me", token=fresh["id_token"])["display_name"] == "Cy"
    stale = api.call("POST", "/auth/refresh", expect=401, body={"refresh_token": "not-a-token"})
    assert stale["code"] == "BAD_REFRESH_TOKEN"
    # the API takes ID tokens: an access token is refused with its own code
    wrong_use = api.call("GET", "/me", token=tokens["access_token"], expect=401)
    assert wrong_use["code"] == "TOKEN_WRONG_USE"
    assert api.call("GET", "/me/games", expect=401)["code"] == "NOT_SIGNED_IN"


def test_an_account_made_on_cognito_directly_gets_a_profile_at_its_first_call(stack: LocalStack) -> None:
    """Issue 28 item 4: docs/accounts.md lets a client call Cognito itself (SignUp, ConfirmSignUp,
    InitiateAuth) and send the API only its ID token. Such an account has no profile, and the
    one written for it had ``created_at=""``, which the table's index refuses: /auth/signin,
    /me and POST /games answered 500."""
    import boto3

    from infra.dynamodb.account_store import DynamoAccountStore

    client_id = stack.emulator.resources["COGNITO_CLIENT_ID"]
    cognito = boto3.client("cognito-idp", endpoint_url=stack.emulator.endpoint, region_name="us-east-1")
    email = _email("direct")
    # Given an account signed up and confirmed on the user pool, never through the API
    cognito.sign_up(ClientId=client_id, Username=email, Password=PASSWORD,
                    UserAttributes=[{"Name": "email", "Value": email}, {"Name": "name", "Value": "Dee"}])
    code = stack.emulator.mailbox.code_for(email)
    cognito.confirm_sign_up(ClientId=client_id, Username=email, ConfirmationCode=code)
    # When it uses the API
    api, tokens = _sign_in(stack, email)
    jwt = tokens["id_token"]
    # Then every call answers, and the profile written for it has a real creation time
    assert tokens["user"]["display_name"] == "Dee"
    assert api.call("GET", "/me", token=jwt)["display_name"] == "Dee"
    api.call("POST", "/games", token=jwt, body={"variant": "classical"}, expect=201)
    profile = DynamoAccountStore(os.environ["GAME_TABLE"]).profile(tokens["user"]["user_id"])
    assert profile is not None and datetime.fromisoformat(profile.created_at).year >= 2024


def test_no_answer_tells_an_account_from_none_and_wrong_guesses_lock_out(stack: LocalStack) -> None:
    """Issue 28 item 11, over HTTP on the emulated pool (local_stack/pool_codes.py): sign-up,
    confirmation, sign-in and the reset answer alike for a confirmed account, an unconfirmed
    one and an address without one; wrong codes and wrong passwords lock the name out, so the
    right one sent after a run of wrong ones is refused too (it was accepted after 300)."""
    api = Api(stack.url)
    confirmed, _ = _account(api, stack, "sam")
    pending = _email("pat")
    api.call("POST", "/auth/signup", expect=201,
             body={"email": pending, "password": PASSWORD, "display_name": "P"})
    addresses = {"confirmed": confirmed, "pending": pending, "unknown": _email("nobody")}

    def alike(path: str, body: dict[str, str]) -> dict[str, Any]:
        seen = {kind: api.call("POST", path, expect=None, body={"email": email, **body})
                for kind, email in addresses.items()}
        shapes = {kind: {k: v for k, v in (answer or {}).items() if k != "user_id"}
                  for kind, answer in seen.items()}
        assert len({repr(shape) for shape in shapes.values()}) == 1, (path, shapes)
        return shapes["unknown"]

    signed_up = alike("/auth/signup", {"password": "Other-pass-9", "display_name": "E"})
    assert signed_up == {"confirmation": "required"}
    assert alike("/auth/confirm", {"code": "000000x"})["code"] == "BAD_CONFIRMATION_CODE"
    assert alike("/auth/signin", {"password": "Wrong-pass-9"})["code"] == "BAD_CREDENTIALS"
    assert alike("/auth/forgot", {}) == {"requested": True}
    reset = alike("/auth/reset", {"code": "000000x", "password": "Other-pass-9"})
    assert reset["code"] == "BAD_CONFIRMATION_CODE"
    # the pending account's owner got a new code when someone signed up with the address again
    right = stack.emulator.mailbox.code_for(pending)
    for n in range(12):  # wrong codes: the name locks after five
        api.call("POST", "/auth/confirm", expect=400, body={"email": pending, "code": f"x{n}"})
    locked = api.call("POST", "/auth/confirm", expect=400, body={"email": pending, "code": right})
    assert locked["code"] == "BAD_CONFIRMATION_CODE"
    for _ in range(12):  # wrong passwords: the same
        api.call("POST", "/auth/signin", expect=401, body={"email": confirmed, "password": "Wrong-pass-9"})
    assert api.call("POST", "/auth/signin", expect=401,
                    body={"email": confirmed, "password": PASSWORD})["code"] == "BAD_CREDENTIALS"
