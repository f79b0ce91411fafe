"""The ID token verifier (the API and the live function): its own area because it is the one
adapter that needs PyJWT and cryptography."""

from __future__ import annotations

from typing import TYPE_CHECKING

from composition import wiring

if TYPE_CHECKING:
    from functions.ports.accounts import TokenVerifier


@wiring.once
def token_verifier() -> TokenVerifier:
    """One verifier per process: its JWKS is fetched once and cached (infra/jwt_verifier.py)."""
    from infra.jwt_verifier import CognitoTokenVerifier

    s = wiring.settings()
    return CognitoTokenVerifier(s.cognito_issuer, s.cognito_client_id, s.cognito_jwks_url or None)


wiring.provide("token_verifier", lambda: token_verifier())  # looked up at call time (tests swap it)
