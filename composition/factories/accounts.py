"""Accounts (issue 15): the account records and the Cognito user pool (boto3 only; the JWT
verifier, which needs PyJWT and cryptography, is composition/factories/tokens.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from composition import wiring

if TYPE_CHECKING:
    from functions.ports.accounts import AccountStore, IdentityProvider


@wiring.once
def account_store() -> AccountStore:
    from infra.dynamodb.account_store import DynamoAccountStore

    return DynamoAccountStore(wiring.settings().game_table)


@wiring.once
def identity_provider() -> IdentityProvider:
    from infra import aws_clients
    from infra.cognito import CognitoIdentity

    return CognitoIdentity(lambda: aws_clients.client("cognito-idp"), wiring.settings().cognito_client_id)


# looked up at call time, so a test may swap a factory: ``monkeypatch.setattr(accounts, ...)``
wiring.provide("account_store", lambda: account_store())
wiring.provide("identity_provider", lambda: identity_provider())
