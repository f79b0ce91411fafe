"""Who is calling: a seat token, the operator token, or a signed-in user's ID token (issue 15).

A bearer value that looks like a JWT (three base64url parts, the first a JSON header:
``eyJ...``) is an account's ID token and is verified in full (infra/jwt_verifier.py); any
other value is a seat, creator or operator token, compared by hash as before
(``functions.usecases.players.identity.identify``). Seat tokens (43 URL-safe characters, no dot)
never look like a JWT, so they never reach the JWT library; nor does the operator token
unless someone chose one shaped like a JWT (docs/accounts.md says not to). The account use
cases (functions/usecases/accounts/accounts.py) are imported only for a JWT: a cold Lambda serving a
seat token never loads them (issue 9).
"""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING

from functions.api import services as api_services
from functions.errors import NotSignedIn
from functions.ports import GameRecord, IdentityRejected
from functions.usecases.players import Actor, hash_token, identify

if TYPE_CHECKING:
    from functions.usecases.accounts.accounts import User


def looks_like_jwt(token: str | None) -> bool:
    return token is not None and token.count(".") == 2 and token.startswith("eyJ")


def user_for(token: str | None) -> User | None:
    """The signed-in user of a JWT bearer (401 ``TOKEN_*`` if it does not verify); None otherwise."""
    if not looks_like_jwt(token):
        return None
    from functions.usecases.accounts.accounts import user_of

    services = api_services.current()
    return user_of(services.token_verifier, services.account_store, services.clock, str(token))


def signed_in(token: str | None) -> User:
    """The signed-in user, required: a seat token or no token at all is ``NOT_SIGNED_IN`` (401)."""
    user = user_for(token)
    if user is None:
        raise NotSignedIn("these routes need Authorization: Bearer <ID token> from /auth/signin")
    return user


def is_operator(token: str | None, operator_token: str | None) -> bool:
    """The operator token, compared by hash in constant time (as ``identify`` does)."""
    if not token or not operator_token:
        return False
    return hmac.compare_digest(hash_token(token), hash_token(operator_token))


def caller_key(token: str | None) -> str | None:
    """Whom an Idempotency-Key belongs to: the account for an ID token (a retry after a token
    refresh is the same caller, so it gets the first answer), else the token's hash."""
    if not token:
        return None
    if not looks_like_jwt(token):
        return hash_token(token)
    try:
        claims = api_services.current().token_verifier.verify(token)
    except IdentityRejected as error:
        from functions.usecases.accounts.accounts import rejected

        raise rejected(error) from None
    return f"user:{claims['sub']}"


def actor_for(game: GameRecord, token: str | None, operator_token: str | None) -> Actor:
    user = user_for(token)
    if user is not None:
        from functions.usecases.accounts.accounts import actor_of

        return actor_of(game, user)
    return identify(game, token, operator_token)
