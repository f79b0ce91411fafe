"""The user pool on Amazon Cognito (``functions.ports.IdentityProvider``), over botocore.

The API's ``/auth/*`` routes are thin conveniences over these calls for clients that do
not use Cognito's hosted UI; on AWS a client may call Cognito itself (``SignUp``,
``ConfirmSignUp``, ``InitiateAuth`` are public operations of an app client without a
secret) and send the API the ID token it gets. Locally the same calls go to moto's
cognito-idp (local_stack/user_pool.py; docs/accounts.md).

Email is the username (the pool's ``UsernameAttributes: [email]``); the user id is the
pool's ``sub``. ``ClientError`` never leaves this module: each Cognito refusal becomes an
``IdentityRejected`` with the API's stable code; a busy or unreachable service becomes
``StorageUnavailable`` (503, "send it again"), like the game store.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from functions.ports import AuthTokens, IdentityRejected, SignedUp, StorageUnavailable
from infra import aws_errors
from infra.errors import is_retryable

# Cognito's error code -> (our code, message a person can act on)
REFUSALS: dict[str, tuple[str, str]] = {
    "UsernameExistsException": ("USER_EXISTS", "an account with this email exists; sign in instead"),
    "InvalidPasswordException": ("WEAK_PASSWORD", "the password does not meet the pool's policy"),
    "CodeMismatchException": ("BAD_CONFIRMATION_CODE", "the confirmation code is wrong"),
    "ExpiredCodeException": ("BAD_CONFIRMATION_CODE", "the confirmation code has expired"),
    "UserNotConfirmedException": ("USER_NOT_CONFIRMED", "confirm the account with the emailed code first"),
    "NotAuthorizedException": ("BAD_CREDENTIALS", "wrong email or password"),
    "UserNotFoundException": ("BAD_CREDENTIALS", "wrong email or password"),
    "InvalidParameterException": ("INVALID_ACCOUNT_REQUEST", "the pool refused the request"),
    "TooManyRequestsException": ("TOO_MANY_REQUESTS", "too many attempts; wait and retry"),
    "LimitExceededException": ("TOO_MANY_REQUESTS", "too many attempts; wait and retry"),
    "TooManyFailedAttemptsException": ("TOO_MANY_REQUESTS", "too many attempts; wait and retry"),
}

# ConfirmSignUp says NotAuthorized for a user already confirmed, and (unless the client hides
# it) UserNotFound for an unknown address: neither is about credentials there.
CONFIRM_REFUSALS: dict[str, tuple[str, str]] = {
    "NotAuthorizedException": ("ALREADY_CONFIRMED", "this account is confirmed already; sign in"),
    "UserNotFoundException": ("BAD_CONFIRMATION_CODE", "the confirmation code is wrong"),
}


class CognitoIdentity:
    """``IdentityProvider`` over a Cognito app client (no client secret: a public client)."""

    def __init__(self, client: Callable[[], Any], client_id: str) -> None:
        self._client = client
        self.client_id = client_id

    def sign_up(self, email: str, password: str, display_name: str) -> SignedUp:
        answer = self._call(
            "sign_up", ClientId=self.client_id, Username=email, Password=password,
            UserAttributes=[{"Name": "email", "Value": email}, {"Name": "name", "Value": display_name}],
        )
        return SignedUp(user_id=str(answer["UserSub"]), confirmed=bool(answer.get("UserConfirmed")))

    def confirm(self, email: str, code: str) -> None:
        self._call("confirm_sign_up", ClientId=self.client_id, Username=email, ConfirmationCode=code,
                   refusals=CONFIRM_REFUSALS)

    def sign_in(self, email: str, password: str) -> AuthTokens:
        answer = self._call(
            "initiate_auth", ClientId=self.client_id, AuthFlow="USER_PASSWORD_AUTH",
            AuthParameters={"USERNAME": email, "PASSWORD": password},
        )
        return _tokens(answer, with_refresh=True)

    def refresh(self, refresh_token: str) -> AuthTokens:
        try:
            answer = self._call(
                "initiate_auth", ClientId=self.client_id, AuthFlow="REFRESH_TOKEN_AUTH",
                AuthParameters={"REFRESH_TOKEN": refresh_token},
            )
        except IdentityRejected as error:
            if error.code != "BAD_CREDENTIALS":
                raise
            raise IdentityRejected("BAD_REFRESH_TOKEN", "the refresh token is unknown, expired or revoked; "
                                   "sign in again") from None
        return _tokens(answer, with_refresh=False)

    def _call(self, operation: str, refusals: dict[str, tuple[str, str]] | None = None,
              **arguments: Any) -> dict[str, Any]:
        try:
            answer: dict[str, Any] = getattr(self._client(), operation)(**arguments)
            return answer
        except aws_errors.ClientError as error:
            code = str(error.response.get("Error", {}).get("Code", ""))
            table = {**REFUSALS, **(refusals or {})}
            if code in table:
                raise IdentityRejected(*table[code]) from None
            if is_retryable(error):
                raise StorageUnavailable(f"cognito-idp {operation}: {code}") from None
            raise
        except aws_errors.BotoCoreError as error:
            raise StorageUnavailable(f"cognito-idp {operation}: {error}") from None


def _tokens(answer: dict[str, Any], *, with_refresh: bool) -> AuthTokens:
    result = answer.get("AuthenticationResult")
    if not result:  # a challenge (MFA, new password): not offered by this pool's client
        name = answer.get("ChallengeName", "a challenge")
        raise IdentityRejected("AUTH_CHALLENGE", f"the pool asks for {name}; use the hosted UI")
    return AuthTokens(
        id_token=str(result["IdToken"]), access_token=str(result["AccessToken"]),
        expires_in=int(result.get("ExpiresIn", 3600)),
        refresh_token=str(result["RefreshToken"]) if with_refresh and result.get("RefreshToken") else None,
    )
