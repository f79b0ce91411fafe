"""What Amazon Cognito does with codes and wrong guesses that moto 5.2.5 does not, emulated.

moto's ``SignUp`` makes no confirmation code and its ``ConfirmSignUp`` confirms any code; its
``ForgotPassword`` checks only codes it prefixed itself; it has no ``ResendConfirmationCode``;
and it never locks anyone out. So ``make run`` accepted 300 wrong confirmation codes and then
the right one, and 100 wrong passwords and then the right one (issue 28 item 11). Here, for
the local stack (``install``, called by the emulator):

- **Codes.** Sign-up, ``ResendConfirmationCode`` and ``ForgotPassword`` draw a six-digit code
  (from moto's seeded random, so a journal replay draws the same one), "mail" it to the local
  mailbox (local_stack/user_pool.py ``Mailbox``) and keep it on the user; ``ConfirmSignUp``
  and ``ConfirmForgotPassword`` accept only that code (``CodeMismatchException``), and a
  confirmed user cannot be confirmed again (``NotAuthorizedException``), as on AWS.
- **Lockouts**, as Cognito documents them for sign-in: after ``FREE_FAILURES`` (5) failures
  in a row, each further failure locks the name for 1 s, then 2, 4, ... up to
  ``LONGEST_LOCK`` (15 minutes); a try during a lock is refused unchecked and not counted;
  a success, or ``QUIET_RESET`` (15 minutes) without a failure, starts afresh. A locked
  sign-in answers ``NotAuthorizedException: Password attempts exceeded``; a locked
  confirmation ``LimitExceededException: Attempt limit exceeded, please try after some
  time.`` Wrong passwords, wrong sign-up codes and wrong reset codes are counted apart.
- **No enumeration** (the app client's ``PreventUserExistenceErrors: ENABLED``): a name
  that has no account is counted and locked like one that has, a reset code for it is a
  ``CodeMismatchException``, and ``ForgotPassword`` / ``ResendConfirmationCode`` answer it
  with simulated delivery details.

The counters live on moto's user pool object, so the data directory's snapshot keeps them,
and they read moto's clock, which a journal replay pins: a restart neither forgets a lock
nor invents one. On AWS, Cognito does all this itself; the API's adapter (infra/cognito.py)
is the same for both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from moto.core.exceptions import JsonRESTError

from local_stack.patching import replace, replaced

FREE_FAILURES = 5
FIRST_LOCK = 1.0
LONGEST_LOCK = 15 * 60.0
QUIET_RESET = 15 * 60.0
MISMATCH = "Invalid verification code provided, please try again."


class LimitExceeded(JsonRESTError):
    def __init__(self) -> None:
        super().__init__("LimitExceededException", "Attempt limit exceeded, please try after some time.")


@dataclass
class Tries:
    """One name's recent failures at one thing (sign-in, a sign-up code, a reset code)."""

    failures: int = 0
    last_failure: float = 0.0
    locked_until: float = 0.0


def _now() -> float:
    from moto.core.utils import utcnow  # pinned during a journal replay (local_stack/durable.py)

    return utcnow().replace(tzinfo=UTC).timestamp()


def _book(pool: Any) -> dict[str, Tries]:
    book: dict[str, Tries] | None = getattr(pool, "convoy_tries", None)
    if book is None:
        book = pool.convoy_tries = {}
    return book


def locked(pool: Any, key: str, now: float) -> bool:
    tries = _book(pool).get(key)
    if tries is not None and now - tries.last_failure >= QUIET_RESET:
        del _book(pool)[key]
        return False
    return tries is not None and now < tries.locked_until


def failed(pool: Any, key: str, now: float) -> None:
    tries = _book(pool).setdefault(key, Tries())
    tries.failures += 1
    tries.last_failure = now
    if tries.failures >= FREE_FAILURES:  # the 5th failure locks 1 s, the 6th 2 s, the 7th 4 s, ...
        tries.locked_until = now + min(LONGEST_LOCK, FIRST_LOCK * 2 ** (tries.failures - FREE_FAILURES))


def succeeded(pool: Any, key: str) -> None:
    _book(pool).pop(key, None)


def guarded(pool: Any, key: str, refusal: Callable[[], Exception], attempt: Callable[[], Any],
            counted: tuple[type[Exception], ...]) -> Any:
    """Run ``attempt`` unless ``key`` is locked (then raise ``refusal()``); an exception of
    ``counted`` is a failure, anything returned a success."""
    now = _now()
    if locked(pool, key, now):
        raise refusal()
    try:
        answer = attempt()
    except counted:
        failed(pool, key, now)
        raise
    succeeded(pool, key)
    return answer


def name_key(kind: str, username: str) -> str:
    return f"{kind}:{str(username).strip().lower()}"


# --- the patches -------------------------------------------------------------------------------


def install(deliver: Callable[[str, str, str], None]) -> None:
    """Patch moto's Cognito once per process; ``deliver(address, subject, code)`` mails a code."""
    from moto.cognitoidp.models import CognitoIdpBackend
    from moto.cognitoidp.responses import CognitoIdpResponse

    _deliver[:] = [deliver]
    if replaced(CognitoIdpBackend, "sign_up"):
        return
    _patch_codes(CognitoIdpBackend, CognitoIdpResponse)
    _patch_sign_in(CognitoIdpBackend)
    _patch_reset(CognitoIdpBackend)


_deliver: list[Callable[[str, str, str], None]] = []


def _mail(user: Any, username: str, subject: str) -> str:
    from moto.moto_api._internal import mock_random

    code = f"{mock_random.randint(0, 999_999):06d}"
    address = user.attribute_lookup.get("email") or username
    for deliver in _deliver:
        deliver(str(address), subject, code)
    return code


def _pool_of(backend: Any, client_id: str) -> Any:
    from moto.cognitoidp.exceptions import ResourceNotFoundError

    pool = next((p for p in backend.user_pools.values() if client_id in p.clients), None)
    if pool is None:
        raise ResourceNotFoundError(client_id)
    return pool


def _patch_codes(backend_class: Any, response_class: Any) -> None:
    """Sign-up codes: drawn and mailed at sign-up and on resend, checked at confirmation.

    ``ConfirmSignUp`` and ``ResendConfirmationCode`` reach the backend under names of ours
    (``convoy_*``): moto's own ``confirm_sign_up`` confirms any code, and it has no resend."""
    from moto.cognitoidp.models import UserStatus

    original_sign_up = backend_class.sign_up

    def sign_up(self: Any, client_id: str, username: str, password: str, attributes: list[Any]) -> Any:
        user, details = original_sign_up(self, client_id, username, password, attributes)
        if user.status == UserStatus.UNCONFIRMED:
            user.confirmation_code = _mail(user, username, "Your Convoy confirmation code")
        return user, details

    replace(backend_class, "sign_up", sign_up)
    replace(backend_class, "convoy_confirm_sign_up", _confirm_sign_up)
    replace(backend_class, "convoy_resend", _resend_confirmation_code)
    replace(response_class, "confirm_sign_up", _confirm_response)
    replace(response_class, "resend_confirmation_code", _resend_response)


def _confirm_sign_up(backend: Any, client_id: str, username: str, code: str) -> None:
    """Confirm ``username`` with the code it was mailed, and only once; wrong codes lock out."""
    from moto.cognitoidp.exceptions import CodeMismatchException, NotAuthorizedError, UserNotFoundError
    from moto.cognitoidp.models import UserStatus

    pool = _pool_of(backend, client_id)

    def attempt() -> None:
        user = pool._get_user(username)
        if user is None:
            raise UserNotFoundError("User does not exist.")
        if user.status != UserStatus.UNCONFIRMED:
            raise NotAuthorizedError(f"User cannot be confirmed. Current status is {user.status.value}")
        if code != getattr(user, "confirmation_code", None):
            raise CodeMismatchException(MISMATCH)
        user.confirmation_code = None
        user.status = UserStatus.CONFIRMED
        # Cognito marks the address verified when the mailed code confirms it (the pool
        # auto-verifies email); moto does not: mail goes only to verified addresses (issue 33)
        if "email_verified" not in user.attribute_lookup:
            user.attributes.append({"Name": "email_verified", "Value": "true"})

    guarded(pool, name_key("signup-code", username), LimitExceeded, attempt,
            (CodeMismatchException, UserNotFoundError, NotAuthorizedError))


def _resend_confirmation_code(backend: Any, client_id: str, username: str) -> dict[str, Any]:
    """Mail an unconfirmed user a new code; a name without an account gets the same answer."""
    from moto.cognitoidp.exceptions import InvalidParameterException
    from moto.cognitoidp.models import UserStatus

    user = _pool_of(backend, client_id)._get_user(username)
    if user is not None and user.status != UserStatus.UNCONFIRMED:
        raise InvalidParameterException("User is already confirmed.")
    if user is not None:
        user.confirmation_code = _mail(user, username, "Your Convoy confirmation code")
    return {"CodeDeliveryDetails": _delivery(username)}


def _backend_for_client(response: Any) -> Any:
    """The backend holding the request's app client, as moto's own Cognito responses find it."""
    return response._get_region_agnostic_backend()._find_backend_for_clientid(response._get_param("ClientId"))


def _confirm_response(response: Any) -> Any:
    """moto's ``ConfirmSignUp`` request, answered through ``_confirm_sign_up``."""
    from moto.core.responses import EmptyResult

    _backend_for_client(response).convoy_confirm_sign_up(response._get_param("ClientId"),
                                                          response._get_param("Username"),
                                                          response._get_param("ConfirmationCode"))
    return EmptyResult()


def _resend_response(response: Any) -> Any:
    """``ResendConfirmationCode`` (moto has none), answered by ``_resend_confirmation_code``."""
    from moto.core.responses import ActionResult

    return ActionResult(_backend_for_client(response).convoy_resend(
        response._get_param("ClientId"), response._get_param("Username")))


def _delivery(username: str) -> dict[str, str]:
    """Cognito's masked delivery details (also simulated for a name without an account)."""
    name, _, domain = str(username).partition("@")
    masked = f"{name[:1]}***@{domain[:1]}***"
    return {"Destination": masked, "DeliveryMedium": "EMAIL", "AttributeName": "email"}


def _patch_sign_in(backend_class: Any) -> None:
    """USER_PASSWORD_AUTH: wrong passwords (and unknown names) are counted and lock out."""
    from moto.cognitoidp.exceptions import NotAuthorizedError, UserNotFoundError

    original = backend_class.initiate_auth

    def initiate_auth(self: Any, client_id: str, auth_flow: str, auth_parameters: dict[str, str]) -> Any:
        if str(auth_flow) != "USER_PASSWORD_AUTH":
            return original(self, client_id, auth_flow, auth_parameters)
        pool = _pool_of(self, client_id)
        key = name_key("password", (auth_parameters or {}).get("USERNAME", ""))
        return guarded(pool, key, lambda: NotAuthorizedError("Password attempts exceeded"),
                       lambda: original(self, client_id, auth_flow, auth_parameters),
                       (NotAuthorizedError, UserNotFoundError))

    replace(backend_class, "initiate_auth", initiate_auth)


def _patch_reset(backend_class: Any) -> None:
    """ForgotPassword mails a real code; ConfirmForgotPassword takes only it."""
    from moto.cognitoidp.exceptions import CodeMismatchException

    original_forgot = backend_class.forgot_password

    def forgot_password(self: Any, client_id: str, username: str) -> tuple[str, dict[str, Any]]:
        _, answer = original_forgot(self, client_id, username)
        user = _pool_of(self, client_id)._get_user(username)
        if user is not None:
            user.confirmation_code = None  # moto's own prefixed code: never accepted here
            user.convoy_reset_code = _mail(user, username, "Your Convoy password reset code")
        return "", answer  # moto would send its code in a header: never here

    def confirm_forgot_password(self: Any, client_id: str, username: str, password: str, code: str) -> None:
        pool = _pool_of(self, client_id)

        def attempt() -> None:
            user = pool._get_user(username)
            if user is None or not getattr(user, "convoy_reset_code", None) or code != user.convoy_reset_code:
                raise CodeMismatchException(MISMATCH)
            self._validate_password(pool.id, password)
            user.password = password
            user.convoy_reset_code = None

        guarded(pool, name_key("reset-code", username), LimitExceeded, attempt, (CodeMismatchException,))

    replace(backend_class, "forgot_password", forgot_password)
    replace(backend_class, "confirm_forgot_password", confirm_forgot_password)
