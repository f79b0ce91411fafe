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

from functions.ports import IdentityRejected, StorageUnavailable
from functions.ports.accounts import AuthTokens, SignedUp
from infra import aws_errors
from infra.errors import is_retryable

# Cognito's error code -> (our code, message a person can act on). No answer may tell whether
# an address has an account (issue 28 item 11; the app client's PreventUserExistenceErrors):
# one message for every refused sign-in, whether the password was wrong, the address unknown
# or the name locked out after repeated failures ("Password attempts exceeded" is also a
# NotAuthorizedException); one for every refused code.
WRONG_CREDENTIALS = ("wrong email or password (after several wrong passwords the account also waits a "
                     "while before it takes another: try again later)")
WRONG_CODE = ("the code is wrong or expired, or too many wrong codes were tried (wait a while); ask for a "
              "new code if it keeps failing")
REFUSALS: dict[str, tuple[str, str]] = {
    "UsernameExistsException": ("USER_EXISTS", "an account with this email exists"),
    "InvalidPasswordException": ("WEAK_PASSWORD", "the password does not meet the pool's policy"),
    "CodeMismatchException": ("BAD_CONFIRMATION_CODE", WRONG_CODE),
    "ExpiredCodeException": ("BAD_CONFIRMATION_CODE", WRONG_CODE),
    "UserNotConfirmedException": ("USER_NOT_CONFIRMED", "confirm the account with the emailed code first"),
    "NotAuthorizedException": ("BAD_CREDENTIALS", WRONG_CREDENTIALS),
    "UserNotFoundException": ("BAD_CREDENTIALS", WRONG_CREDENTIALS),
    "InvalidParameterException": ("INVALID_ACCOUNT_REQUEST", "the pool refused the request"),
    "TooManyRequestsException": ("TOO_MANY_REQUESTS", "too many requests; wait and retry"),
    "LimitExceededException": ("TOO_MANY_REQUESTS", "too many requests; wait and retry"),
    "TooManyFailedAttemptsException": ("TOO_MANY_REQUESTS", "too many requests; wait and retry"),
}

# A code's check (ConfirmSignUp, ConfirmForgotPassword): a confirmed account (NotAuthorized),
# an unknown address (UserNotFound) and a name locked out after wrong codes (LimitExceeded,
# TooManyFailedAttempts) all answer as a wrong code does, so none of them tells that the
# address has an account or what state it is in.
CODE_REFUSALS: dict[str, tuple[str, str]] = {
    code: ("BAD_CONFIRMATION_CODE", WRONG_CODE)
    for code in ("NotAuthorizedException", "UserNotFoundException", "LimitExceededException",
                 "TooManyFailedAttemptsException")
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

    def resend_code(self, email: str) -> None:
        self._call("resend_confirmation_code", ClientId=self.client_id, Username=email)

    def confirm(self, email: str, code: str) -> None:
        self._call("confirm_sign_up", ClientId=self.client_id, Username=email, ConfirmationCode=code,
                   refusals=CODE_REFUSALS)

    def forgot_password(self, email: str) -> None:
        self._call("forgot_password", ClientId=self.client_id, Username=email)

    def reset_password(self, email: str, code: str, password: str) -> None:
        self._call("confirm_forgot_password", ClientId=self.client_id, Username=email, ConfirmationCode=code,
                   Password=password, refusals=CODE_REFUSALS)

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
