"""Issue 15, "Done when": JWT tests. Forged signature, another pool's token, wrong audience,
expired, an access token where the ID token is required: all 401 with stable codes; the
JWKS is fetched once and cached. The verifier is the API's own (infra/jwt_verifier.py,
PyJWT); the tokens are real RS256 tokens (testkit/account_fakes.py)."""

from __future__ import annotations

import base64
import json
import time
from typing import Any

import jwt
import pytest

from functions.ports import IdentityRejected
from infra.jwt_verifier import REFETCH_AFTER_SECONDS, CognitoTokenVerifier
from testkit.account_fakes import KID, FakeUserPool, rsa_key
from testkit.api_harness import InProcessApi

SUB = "5b8f91ff-0000-4e68-bca1-c0757be736a1"


def _refused(verifier: CognitoTokenVerifier, token: str) -> str:
    with pytest.raises(IdentityRejected) as refused:
        verifier.verify(token)
    return refused.value.code


def test_a_good_id_token_gives_its_claims() -> None:
    pool = FakeUserPool()
    claims = pool.verifier().verify(pool.mint(SUB, name="Ada"))
    assert claims["sub"] == SUB and claims["token_use"] == "id" and claims["name"] == "Ada"


@pytest.mark.parametrize(("case", "code"), [
    ("forged signature", "TOKEN_INVALID_SIGNATURE"),
    ("tampered payload", "TOKEN_INVALID_SIGNATURE"),
    ("another pool", "TOKEN_WRONG_ISSUER"),
    ("wrong audience", "TOKEN_WRONG_AUDIENCE"),
    ("expired", "TOKEN_EXPIRED"),
    ("access token", "TOKEN_WRONG_USE"),
    ("unknown key", "TOKEN_UNKNOWN_KEY"),
    ("no exp", "TOKEN_MALFORMED"),
    ("HS256", "TOKEN_MALFORMED"),
    ("alg none", "TOKEN_MALFORMED"),
    ("not a jwt", "TOKEN_MALFORMED"),
])
def test_each_bad_token_is_refused_with_its_code(case: str, code: str) -> None:
    pool = FakeUserPool()
    other = FakeUserPool(pool_id="us-east-1_OtherPool")
    good = pool.mint(SUB)
    header, payload, signature = good.split(".")

    def b64(data: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()

    tokens = {
        "forged signature": pool.forge(SUB),
        "tampered payload": ".".join([header, b64({
            "sub": "someone-else", "iss": pool.issuer, "aud": pool.client_id, "token_use": "id", "iat": 1,
            "exp": 2**40}), signature]),
        "another pool": other.mint(SUB),  # signed by a key the JWKS lists, for another issuer
        "wrong audience": pool.mint(SUB, aud="another-app-client"),
        "expired": pool.mint(SUB, exp=int(time.time()) - 120, iat=int(time.time()) - 3720),
        "access token": pool.mint(SUB, token_use="access"),
        "unknown key": pool.mint(SUB, kid="rotated-away"),
        "no exp": _without_exp(pool),
        "HS256": ".".join([b64({"alg": "HS256", "kid": "test-key-1"}), payload, signature]),
        "alg none": ".".join([b64({"alg": "none", "kid": "test-key-1"}), payload, ""]),
        "not a jwt": "eyJ.not.ajwt",
    }
    assert _refused(pool.verifier(), tokens[case]) == code


def _without_exp(pool: FakeUserPool) -> str:
    claims = {"sub": SUB, "iss": pool.issuer, "aud": pool.client_id, "token_use": "id",
              "iat": int(time.time())}
    return jwt.encode(claims, rsa_key("pool"), algorithm="RS256", headers={"kid": KID})


def test_the_jwks_is_fetched_once_and_cached() -> None:
    pool = FakeUserPool()
    verifier = pool.verifier()
    for n in range(20):
        verifier.verify(pool.mint(f"user-{n}"))
    _refused(verifier, pool.forge(SUB))  # a forged token does not make it fetch again either
    assert pool.jwks_fetches == 1 and verifier.fetches == 1


def test_an_unknown_key_fetches_again_at_most_once_per_interval() -> None:
    pool = FakeUserPool()
    now = [1000.0]
    verifier = CognitoTokenVerifier(pool.issuer, pool.client_id, fetch=pool.fetch_jwks, clock=lambda: now[0])
    verifier.verify(pool.mint(SUB))
    for _ in range(10):  # a flood of unknown kids within the interval: no fetch
        assert _refused(verifier, pool.mint(SUB, kid="rotated-in")) == "TOKEN_UNKNOWN_KEY"
    assert pool.jwks_fetches == 1
    now[0] += REFETCH_AFTER_SECONDS  # then one fetch (a rotation would be picked up here)
    _refused(verifier, pool.mint(SUB, kid="rotated-in"))
    assert pool.jwks_fetches == 2


@pytest.mark.parametrize("case", ["forged", "other pool", "audience", "expired", "access"])
def test_the_api_answers_401_with_the_code(api: InProcessApi, case: str) -> None:
    """The same refusals over the API, on a game route and on /me: 401, stable code, nothing done."""
    sub, good = api.pool.user("Ada")
    other = FakeUserPool(pool_id="us-east-1_OtherPool")
    token = {
        "forged": api.pool.forge(sub), "other pool": other.mint(sub),
        "audience": api.pool.mint(sub, aud="another-app-client"),
        "expired": api.pool.mint(sub, exp=int(time.time()) - 120),
        "access": api.pool.mint(sub, token_use="access"),
    }[case]
    code = {"forged": "TOKEN_INVALID_SIGNATURE", "other pool": "TOKEN_WRONG_ISSUER",
            "audience": "TOKEN_WRONG_AUDIENCE", "expired": "TOKEN_EXPIRED", "access": "TOKEN_WRONG_USE"}[case]
    game = api.call("POST", "/games", {"variant": "classical"}).body["game_id"]
    api.call("POST", f"/games/{game}/join", {"power": "FRANCE"}, token=good)
    for method, path, body in [("GET", "/me", None), ("GET", "/me/games", None),
                               ("POST", f"/games/{game}/orders", {"orders": ["A PAR - BUR"]}),
                               ("POST", f"/games/{game}/join", {"power": "ENGLAND"}),
                               ("POST", "/games", {"variant": "classical"})]:
        answer = api.call(method, path, body, token=token)
        assert (answer.status, answer.body["code"]) == (401, code), (method, path, answer.raw)
    view = api.call("GET", f"/games/{game}", token=good).body
    assert view["orders"] == {"FRANCE": []} and view["players"].keys() == {"FRANCE"}


def test_a_retry_after_a_token_refresh_is_the_same_intent(api: InProcessApi) -> None:
    """Idempotency-Key belongs to the account, not to one ID token: a client that retries with
    the refreshed token gets the first answer, and the orders are applied once."""
    import dataclasses

    from composition import wiring
    from tests.functions.test_idempotency import MemoryIdempotencyStore

    wiring.override(dataclasses.replace(wiring.services(), idempotency=MemoryIdempotencyStore()))
    sub, first_token = api.pool.user("Ada")
    game = api.call("POST", "/games", {"variant": "classical"}).body["game_id"]
    api.call("POST", f"/games/{game}/join", {"power": "FRANCE"}, token=first_token)
    key = {"idempotency-key": "retry-1"}
    first = api.call("POST", f"/games/{game}/orders", {"orders": ["A PAR - BUR"]}, token=first_token,
                     headers=key)
    version = api.store.games[game].version
    refreshed = api.pool.mint(sub, name="Ada")
    assert refreshed != first_token
    again = api.call("POST", f"/games/{game}/orders", {"orders": ["A PAR - BUR"]}, token=refreshed,
                     headers=key)
    assert (first.status, first.body) == (again.status, again.body)
    assert api.store.games[game].version == version  # the answer was replayed, nothing written
    _, other = api.pool.user("Bob")  # another account with the same key: its own intent
    api.call("POST", f"/games/{game}/join", {"power": "ENGLAND"}, token=other)
    theirs = api.call("POST", f"/games/{game}/orders", {"orders": ["F LON - NTH"]}, token=other, headers=key)
    assert theirs.status == 200 and theirs.body["accepted"] == ["F LON - NTH"]
