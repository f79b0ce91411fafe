"""Verifying a Cognito user pool's JWTs (``functions.ports.TokenVerifier``) with PyJWT.

Everything a token must pass, each failure with its own stable code (401):

| check | code |
|---|---|
| three base64url parts, a JSON header naming RS256 and a ``kid`` | ``TOKEN_MALFORMED`` |
| ``kid`` among the pool's JWKS keys (fetched once and cached; see below) | ``TOKEN_UNKNOWN_KEY`` |
| the RS256 signature, against that key | ``TOKEN_INVALID_SIGNATURE`` |
| ``exp`` in the future (30 s leeway for clock skew), ``iat`` present | ``TOKEN_EXPIRED`` |
| ``iss`` is this pool's issuer URL | ``TOKEN_WRONG_ISSUER`` |
| ``token_use`` is ``id`` (the API takes ID tokens; an access token is refused) | ``TOKEN_WRONG_USE`` |
| ``aud`` is this app client's id | ``TOKEN_WRONG_AUDIENCE`` |

Why PyJWT and not hand-written crypto: the signature check is ``cryptography``'s RSA
verify behind PyJWT's well-kept API. PyJWT and cryptography are imported on the first
verification only, so the API's cold import does not pay for them (issue 9); seat tokens
never get here. An unknown ``kid`` fetches the JWKS again at most once per 5 minutes, so a
key rotation is picked up without letting forged tokens make us fetch on every request.
The JWKS is fetched from ``jwks_url`` (on AWS ``<issuer>/.well-known/jwks.json``; the local
stack points it at moto, docs/accounts.md).
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from functions.ports import IdentityRejected, StorageUnavailable

LEEWAY_SECONDS = 30
REFETCH_AFTER_SECONDS = 300  # an unknown kid triggers at most one JWKS fetch per 5 minutes
ALGORITHMS = ["RS256"]


def fetch_jwks(url: str) -> dict[str, Any]:
    """The JWKS document at ``url`` (https on AWS, the emulator's loopback URL locally)."""
    if not url.startswith(("https://", "http://127.0.0.1", "http://localhost")):
        raise StorageUnavailable(f"refusing to fetch a JWKS from {url!r}: https or loopback only")
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            document: dict[str, Any] = json.loads(answer.read())
            return document
    except (OSError, ValueError) as error:
        raise StorageUnavailable(f"the user pool's JWKS could not be fetched: {error}") from None


class CognitoTokenVerifier:
    """Verifies ID tokens of one user pool and app client; the JWKS is cached per instance."""

    def __init__(self, issuer: str, client_id: str, jwks_url: str | None = None,
                 fetch: Callable[[str], dict[str, Any]] = fetch_jwks,
                 clock: Callable[[], float] = time.time) -> None:
        self.issuer = issuer.rstrip("/")
        self.client_id = client_id
        self.jwks_url = jwks_url or f"{self.issuer}/.well-known/jwks.json"
        self._fetch = fetch
        self._clock = clock
        self._lock = threading.Lock()
        self._keys: dict[str, Any] | None = None
        self._fetched_at = 0.0
        self.fetches = 0  # how often the JWKS was fetched (tests, docs/accounts.md)

    def verify(self, token: str) -> dict[str, Any]:
        import jwt  # deferred: only a JWT bearer pays for PyJWT + cryptography

        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            raise IdentityRejected("TOKEN_MALFORMED", "the bearer value is not a well-formed JWT") from None
        if header.get("alg") not in ALGORITHMS or not isinstance(header.get("kid"), str):
            raise IdentityRejected("TOKEN_MALFORMED", "the JWT must be RS256 with a key id")
        key = self._key(str(header["kid"]))
        try:
            claims: dict[str, Any] = jwt.decode(
                token, key=key, algorithms=ALGORITHMS, leeway=LEEWAY_SECONDS,
                options={"require": ["exp", "iat", "iss", "sub", "token_use"], "verify_aud": False,
                         "verify_iss": False},
            )
        except jwt.InvalidSignatureError:
            raise IdentityRejected("TOKEN_INVALID_SIGNATURE", "the signature does not verify") from None
        except jwt.ExpiredSignatureError:
            raise IdentityRejected("TOKEN_EXPIRED", "the token has expired; refresh it") from None
        except jwt.PyJWTError as error:
            raise IdentityRejected("TOKEN_MALFORMED", f"the token was refused: {error}") from None
        return self._checked(claims)

    def _checked(self, claims: dict[str, Any]) -> dict[str, Any]:
        """Issuer, then use, then audience: each its own code (the order a client can act on)."""
        if claims.get("iss") != self.issuer:
            raise IdentityRejected("TOKEN_WRONG_ISSUER", "the token was issued by another user pool")
        if claims.get("token_use") != "id":
            raise IdentityRejected("TOKEN_WRONG_USE", "send the ID token (token_use id), not another")
        if claims.get("aud") != self.client_id:
            raise IdentityRejected("TOKEN_WRONG_AUDIENCE", "the token was issued to another app client")
        return claims

    def _key(self, kid: str) -> Any:
        keys = self._keys
        if keys is None or (kid not in keys and self._clock() - self._fetched_at >= REFETCH_AFTER_SECONDS):
            keys = self._load_keys()
        if kid not in keys:
            raise IdentityRejected("TOKEN_UNKNOWN_KEY", "signed with a key the pool does not list")
        return keys[kid]

    def _load_keys(self) -> dict[str, Any]:
        from jwt import PyJWKSet

        with self._lock:
            if self._keys is None or self._clock() - self._fetched_at >= REFETCH_AFTER_SECONDS:
                document = self._fetch(self.jwks_url)
                self.fetches += 1
                self._keys = {k.key_id: k.key for k in PyJWKSet.from_dict(document).keys if k.key_id}
                self._fetched_at = self._clock()
            return self._keys
