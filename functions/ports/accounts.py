"""The ports of accounts (issue 15, docs/accounts.md): the user pool, token checks, profiles.

Part of ``functions.ports`` (one set of ports): import these names from ``functions.ports``,
which reads this module the first time one is asked for (cold start, issue 9 item 6).
``IdentityRejected`` stays in ``functions.ports`` itself: the API catches it on every
request that carries an ID token.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class SignedUp:
    user_id: str  # the Cognito subject (``sub``)
    confirmed: bool  # True when the pool confirmed the user at once (a pre-sign-up trigger)


@dataclass(frozen=True)
class AuthTokens:
    id_token: str
    access_token: str
    expires_in: int
    refresh_token: str | None = None  # only sign-in issues one


class IdentityProvider(Protocol):
    """The user pool (Amazon Cognito; moto's cognito-idp locally): infra/cognito.py.
    Every refusal is an ``IdentityRejected``."""

    def sign_up(self, email: str, password: str, display_name: str) -> SignedUp:
        """``IdentityRejected("USER_EXISTS")`` when the address has an account (the pool says so,
        as Cognito's SignUp does; the use case keeps it from the caller)."""
        ...

    def resend_code(self, email: str) -> None:
        """Mail an unconfirmed account a new confirmation code."""
        ...

    def confirm(self, email: str, code: str) -> None: ...

    def sign_in(self, email: str, password: str) -> AuthTokens: ...

    def refresh(self, refresh_token: str) -> AuthTokens: ...

    def forgot_password(self, email: str) -> None:
        """Mail the account a code to set a new password (nothing for an unknown address)."""
        ...

    def reset_password(self, email: str, code: str, password: str) -> None:
        """Set a new password with the mailed code."""
        ...


class TokenVerifier(Protocol):
    """Checks a pool's JWT completely (signature on the cached JWKS, issuer, audience, expiry,
    ``token_use``) and returns its claims; ``IdentityRejected`` with a ``TOKEN_*`` code if not."""

    def verify(self, token: str) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Profile:
    user_id: str
    display_name: str
    created_at: str


class AccountStore(Protocol):
    """Profiles and the user -> games index (infra/dynamodb/account_store.py). The index only
    says where to look: a game's META is the truth about who holds its seats."""

    def profile(self, user_id: str) -> Profile | None: ...

    def save_profile(self, profile: Profile) -> None: ...

    def remember_game(self, user_id: str, game_id: str, at: str) -> None:
        """Idempotent: the user has (or is about to have) a seat or the creator's rights in the game."""
        ...

    def games_of(self, user_id: str, limit: int = 100) -> list[str]:
        """Game ids remembered for the user, newest first."""
        ...

    def link_telegram(self, telegram_user_id: int, user_id: str) -> None:
        """The Telegram user linked a seat of this account (the bot's /games lists its games)."""
        ...

    def telegram_account(self, telegram_user_id: int) -> str | None: ...
