"""In-memory stand-ins for the user pool and the account store, with real RS256 tokens.

``FakeUserPool`` signs ID and access tokens the way Cognito does (RS256, ``kid``, ``iss``,
``aud`` or ``client_id``, ``token_use``, ``exp``) with a key made for the test session, and
serves its JWKS through ``fetch_jwks`` (counting fetches), so the API's real verifier
(infra/jwt_verifier.py) checks them. ``mint`` makes tokens with any claim changed, for the
negative tests; ``forge`` signs with a key the pool does not own under the pool's ``kid``.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

from functions.ports import IdentityRejected
from functions.ports.accounts import AuthTokens, Profile, SignedUp
from infra.jwt_verifier import CognitoTokenVerifier

KID = "test-key-1"


@lru_cache(maxsize=4)
def rsa_key(name: str) -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@dataclass
class FakeUserPool:
    pool_id: str = "us-east-1_TestPool"
    client_id: str = "test-client-id"
    users: dict[str, dict[str, Any]] = field(default_factory=dict)
    refresh_tokens: dict[str, str] = field(default_factory=dict)
    jwks_fetches: int = 0
    mails: list[tuple[str, str, str]] = field(default_factory=list)  # (address, what, code)

    @property
    def issuer(self) -> str:
        return f"https://cognito-idp.us-east-1.amazonaws.com/{self.pool_id}"

    def verifier(self) -> CognitoTokenVerifier:
        return CognitoTokenVerifier(self.issuer, self.client_id, fetch=self.fetch_jwks)

    def fetch_jwks(self, url: str) -> dict[str, Any]:
        assert url == f"{self.issuer}/.well-known/jwks.json"
        self.jwks_fetches += 1
        public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(rsa_key("pool").public_key()))
        return {"keys": [{**public, "kid": KID, "alg": "RS256", "use": "sig"}]}

    # --- IdentityProvider ------------------------------------------------------------------
    def sign_up(self, email: str, password: str, display_name: str) -> SignedUp:
        if email in self.users:
            raise IdentityRejected("USER_EXISTS", "exists")
        if len(password) < 8 or password.lower() == password:
            raise IdentityRejected("WEAK_PASSWORD", "weak")
        self.users[email] = {"sub": str(uuid.uuid4()), "password": password, "confirmed": False,
                             "code": "123456", "name": display_name}
        return SignedUp(self.users[email]["sub"], confirmed=False)

    def resend_code(self, email: str) -> None:
        user = self.users.get(email)
        if user is None or user["confirmed"]:
            raise IdentityRejected("INVALID_ACCOUNT_REQUEST", "nothing to resend")
        self.mails.append((email, "confirmation", user["code"]))

    def confirm(self, email: str, code: str) -> None:
        user = self.users.get(email)
        if user is None or code != user["code"] or user["confirmed"]:
            raise IdentityRejected("BAD_CONFIRMATION_CODE", "wrong code")
        user["confirmed"] = True

    def forgot_password(self, email: str) -> None:
        user = self.users.get(email)
        if user is None:
            return  # Cognito simulates a delivery for an unknown address
        user["reset_code"] = "654321"
        self.mails.append((email, "reset", "654321"))

    def reset_password(self, email: str, code: str, password: str) -> None:
        user = self.users.get(email)
        if user is None or code != user.get("reset_code"):
            raise IdentityRejected("BAD_CONFIRMATION_CODE", "wrong code")
        user["password"], user["reset_code"] = password, None

    def sign_in(self, email: str, password: str) -> AuthTokens:
        user = self.users.get(email)
        if user is None or user["password"] != password:
            raise IdentityRejected("BAD_CREDENTIALS", "wrong")
        if not user["confirmed"]:
            raise IdentityRejected("USER_NOT_CONFIRMED", "unconfirmed")
        refresh = uuid.uuid4().hex
        self.refresh_tokens[refresh] = user["sub"]
        return AuthTokens(self.mint(user["sub"]), self.mint(user["sub"], token_use="access"), 3600, refresh)

    def refresh(self, refresh_token: str) -> AuthTokens:
        sub = self.refresh_tokens.get(refresh_token)
        if sub is None:
            raise IdentityRejected("BAD_REFRESH_TOKEN", "unknown")
        return AuthTokens(self.mint(sub), self.mint(sub, token_use="access"), 3600)

    # --- tokens for tests -----------------------------------------------------------------
    def user(self, name: str) -> tuple[str, str]:
        """A confirmed user named ``name``: (sub, a fresh ID token)."""
        email = f"{name.lower()}@example.com"
        if email not in self.users:
            self.sign_up(email, "Password-1", name)
            self.confirm(email, "123456")
        sub = str(self.users[email]["sub"])
        return sub, self.mint(sub, name=name)

    def mint(self, sub: str, *, key: str = "pool", kid: str = KID, **claims: Any) -> str:
        now = int(time.time())
        token_use = claims.pop("token_use", "id")
        payload: dict[str, Any] = {
            "sub": sub, "iss": self.issuer, "token_use": token_use, "iat": now, "auth_time": now,
            "exp": now + 3600, "jti": uuid.uuid4().hex,
            **({"aud": self.client_id} if token_use == "id" else {"client_id": self.client_id}),
        }
        payload.update(claims)
        return jwt.encode(payload, rsa_key(key), algorithm="RS256", headers={"kid": kid})

    def forge(self, sub: str, **claims: Any) -> str:
        """Signed by another key under the pool's kid: the signature must not verify."""
        return self.mint(sub, key="attacker", **claims)


@dataclass
class MemoryAccountStore:
    profiles: dict[str, Profile] = field(default_factory=dict)
    games: dict[str, dict[str, str]] = field(default_factory=dict)
    telegram: dict[int, str] = field(default_factory=dict)

    def profile(self, user_id: str) -> Profile | None:
        return self.profiles.get(user_id)

    def save_profile(self, profile: Profile) -> None:
        self.profiles[profile.user_id] = profile

    def remember_game(self, user_id: str, game_id: str, at: str) -> None:
        self.games.setdefault(user_id, {})[game_id] = at

    def games_of(self, user_id: str, limit: int = 100) -> list[str]:
        mine = self.games.get(user_id, {})
        return sorted(mine, key=lambda g: (mine[g], g), reverse=True)[:limit]

    def link_telegram(self, telegram_user_id: int, user_id: str) -> None:
        self.telegram[telegram_user_id] = user_id

    def telegram_account(self, telegram_user_id: int) -> str | None:
        return self.telegram.get(telegram_user_id)
