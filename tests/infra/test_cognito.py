"""The Cognito adapter (infra/cognito.py) and the account store (infra/dynamodb/account_store.py)
against moto (mock_aws), the pool and client built from template.yaml (local_stack/user_pool.py):
each Cognito refusal becomes the API's stable code, and the pool's tokens pass the verifier."""

from __future__ import annotations

from collections.abc import Callable

import boto3
import pytest
from moto.utilities.utils import load_resource

from functions.ports import IdentityRejected
from functions.ports.accounts import Profile
from infra.cognito import CognitoIdentity
from infra.dynamodb.account_store import DynamoAccountStore
from infra.jwt_verifier import CognitoTokenVerifier
from local_stack.user_pool import ensure_user_pool

PASSWORD = "Convoy-test-1"


@pytest.fixture
def pool(aws: dict[str, str]) -> tuple[CognitoIdentity, dict[str, str]]:
    client = boto3.client("cognito-idp", region_name="us-east-1")
    made = ensure_user_pool(client, "http://unused")
    assert ensure_user_pool(client, "http://unused") == made  # found again, not made twice
    return CognitoIdentity(lambda: client, made["COGNITO_CLIENT_ID"]), made


def _code(made: dict[str, str], email: str) -> None:
    """moto makes no confirmation code (the local stack's mailbox does): confirm as an admin."""
    boto3.client("cognito-idp", region_name="us-east-1").admin_confirm_sign_up(
        UserPoolId=made["COGNITO_USER_POOL_ID"], Username=email)


def _refusal(call: Callable[..., object], *args: str) -> str:
    with pytest.raises(IdentityRejected) as refused:
        call(*args)
    return refused.value.code


def test_sign_up_sign_in_refresh_and_the_tokens_verify(pool: tuple[CognitoIdentity, dict[str, str]]) -> None:
    identity, made = pool
    signed_up = identity.sign_up("ada@example.com", PASSWORD, "Ada")
    assert signed_up.confirmed is False and signed_up.user_id
    assert _refusal(identity.sign_in, "ada@example.com", PASSWORD) == "USER_NOT_CONFIRMED"
    _code(made, "ada@example.com")
    tokens = identity.sign_in("ada@example.com", PASSWORD)
    assert tokens.refresh_token and tokens.expires_in > 0
    # moto's public keys, the document its server serves at the pool's JWKS URL
    issuer = f"https://cognito-idp.us-east-1.amazonaws.com/{made['COGNITO_USER_POOL_ID']}"
    verifier = CognitoTokenVerifier(issuer, made["COGNITO_CLIENT_ID"],
                                    fetch=lambda url: load_resource("cognitoidp/resources/jwks-public.json"))
    assert verifier.verify(tokens.id_token)["sub"] == signed_up.user_id
    assert _refusal(verifier.verify, tokens.access_token) == "TOKEN_WRONG_USE"
    again = identity.refresh(tokens.refresh_token)
    assert again.refresh_token is None and verifier.verify(again.id_token)["sub"] == signed_up.user_id


def test_cognito_refusals_become_stable_codes(pool: tuple[CognitoIdentity, dict[str, str]]) -> None:
    identity, made = pool
    identity.sign_up("bob@example.com", PASSWORD, "Bob")
    assert _refusal(identity.sign_up, "bob@example.com", PASSWORD, "Bob") == "USER_EXISTS"
    assert _refusal(identity.sign_up, "cy@example.com", "short", "Cy") == "WEAK_PASSWORD"
    assert _refusal(identity.sign_up, "not-an-email", PASSWORD, "Cy") == "INVALID_ACCOUNT_REQUEST"
    _code(made, "bob@example.com")
    assert _refusal(identity.sign_in, "bob@example.com", "Wrong-pass-1") == "BAD_CREDENTIALS"
    assert _refusal(identity.sign_in, "nobody@example.com", PASSWORD) == "BAD_CREDENTIALS"
    assert _refusal(identity.refresh, "not-a-refresh-token") == "BAD_REFRESH_TOKEN"


def test_the_account_store_keeps_profiles_games_and_telegram_links(aws: dict[str, str]) -> None:
    store = DynamoAccountStore(aws["GAME_TABLE"], client=boto3.client("dynamodb", region_name="us-east-1"))
    assert store.profile("u1") is None
    store.save_profile(Profile("u1", "Ada", "2026-01-01T00:00:00.000Z"))
    assert store.profile("u1") == Profile("u1", "Ada", "2026-01-01T00:00:00.000Z")
    store.remember_game("u1", "g-old", "2026-01-01T00:00:00.000Z")
    store.remember_game("u1", "g-new", "2026-01-02T00:00:00.000Z")
    store.remember_game("u1", "g-old", "2026-01-01T00:00:00.000Z")  # idempotent
    store.remember_game("u2", "g-other", "2026-01-03T00:00:00.000Z")
    assert store.games_of("u1") == ["g-new", "g-old"]
    assert store.games_of("u1", limit=1) == ["g-new"]
    assert store.telegram_account(42) is None
    store.link_telegram(42, "u1")
    assert store.telegram_account(42) == "u1"
