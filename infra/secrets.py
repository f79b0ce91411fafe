"""Secrets from SSM Parameter Store (SecureString), read once per process (issue 11, item 5).

On AWS no secret sits in a function's environment: the environment names the parameter
(``*_PARAMETER``) and the value is read with decryption through Powertools' parameters
utility (``SSMProvider.get_parameters_by_name``: one ``GetParameters`` call for up to ten
names, every secret the function needs) over the process's boto3 SSM client
(infra/aws_clients.py), on first use (the first request or batch, never at import), cached
by the provider for ``CACHE_SECONDS`` and kept for the life of the container by the
composition root (composition/wiring.py). The utility's cache is why it is used: values per
parameter name with a maximum age, dropped by ``clear_cache()``. A rotated parameter
therefore reaches a container at its next cold start; docs/operations.md says how to
force one.

| setting                   | parameter name from           | plain fallback (local, tests) |
|---------------------------|-------------------------------|-------------------------------|
| ``operator_token``        | CONVOY_OPERATOR_TOKEN_PARAMETER | CONVOY_OPERATOR_TOKEN       |
| ``telegram_bot_token``    | TELEGRAM_BOT_TOKEN_PARAMETER  | TELEGRAM_BOT_TOKEN            |
| ``telegram_webhook_secret`` | TELEGRAM_WEBHOOK_SECRET_PARAMETER | TELEGRAM_WEBHOOK_SECRET |
| ``mail_link_key``         | MAIL_LINK_KEY_PARAMETER       | MAIL_LINK_KEY                 |
| ``web_push_private_key``  | WEB_PUSH_KEY_PARAMETER        | WEB_PUSH_PRIVATE_KEY          |

A named parameter wins over the plain variable. The local stack seeds its own parameters
in the emulator (local_stack/parameters.py), so ``make run`` reads them the same way.

The operator token must be at least ``MIN_OPERATOR_TOKEN_LENGTH`` characters: the
template cannot see a SecureString's value, so the rule is checked here, and a shorter
token is refused (no operator at all) rather than accepted.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

PARAMETER_VARIABLES = {
    "operator_token": "CONVOY_OPERATOR_TOKEN_PARAMETER",
    "telegram_bot_token": "TELEGRAM_BOT_TOKEN_PARAMETER",
    "telegram_webhook_secret": "TELEGRAM_WEBHOOK_SECRET_PARAMETER",
    # issue 33: the key that signs mail unsubscribe links, and the VAPID key of web push
    "mail_link_key": "MAIL_LINK_KEY_PARAMETER",
    "web_push_private_key": "WEB_PUSH_KEY_PARAMETER",
}
MIN_OPERATOR_TOKEN_LENGTH = 32
CACHE_SECONDS = 24 * 3600  # a value's maximum age in the provider; the composition root keeps it anyway

S = TypeVar("S")
Fetch = Callable[[list[str]], Mapping[str, str]]


class SecretUnavailable(Exception):
    """A named parameter could not be read: the function must fail rather than run without it."""


class OperatorTokenTooShort(ValueError):
    """The operator token is shorter than MIN_OPERATOR_TOKEN_LENGTH."""


def parameter_names(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """{setting field: SSM parameter name} for the parameters this process is told to read."""
    e = os.environ if env is None else env
    return {field: e[var] for field, var in PARAMETER_VARIABLES.items() if e.get(var)}


_providers: list[Any] = []  # at most one SSMProvider: it holds the cache
_provider_lock = threading.Lock()


def clear_cache() -> None:
    """Forget every cached value (tests; the next read asks SSM again)."""
    with _provider_lock:
        _providers.clear()


def _provider() -> Any:
    """The process's SSMProvider, over the current SSM client: a new client (aws_clients.reset(),
    e.g. another endpoint) gets a new provider, so values never outlive the endpoint they came from."""
    from aws_lambda_powertools.utilities.parameters import SSMProvider

    from infra import aws_clients

    ssm = aws_clients.client("ssm")
    with _provider_lock:
        if not _providers or _providers[0].client is not ssm:
            _providers[:] = [SSMProvider(boto3_client=ssm)]
        return _providers[0]


def fetch_parameters(names: list[str], *, max_age: int = CACHE_SECONDS) -> Mapping[str, str]:
    """SecureString values by name: cached ones younger than ``max_age``, the others decrypted
    in ``GetParameters`` calls of up to ten names. Raises SecretUnavailable, naming parameters,
    never values."""
    try:
        found = _provider().get_parameters_by_name(
            parameters={name: {} for name in names}, decrypt=True, max_age=max_age)
    except Exception as exc:  # GetParameterError, ClientError, BotoCoreError: no value in them
        raise SecretUnavailable(f"could not read SSM parameters {', '.join(sorted(names))}: "
                                f"{_reason(exc)}") from exc
    absent = sorted(set(names) - set(found))  # the provider skips names a KMS or 5xx error lost
    if absent:
        raise SecretUnavailable(f"could not read SSM parameters {', '.join(absent)}: not returned")
    return {name: str(found[name]) for name in names}


def _reason(exc: Exception) -> str:
    """The exception's class, and AWS's error code when there is one (neither holds a value)."""
    code = getattr(exc, "response", {}).get("Error", {}).get("Code")
    return f"{type(exc).__name__} {code}" if code else type(exc).__name__


def with_secrets(settings: S, env: Mapping[str, str] | None = None, fetch: Fetch = fetch_parameters) -> S:
    """``settings`` (a NamedTuple with the fields above: functions/settings.py ``Settings``)
    with its secrets read from SSM."""
    e = os.environ if env is None else env
    names = parameter_names(e)
    if names:
        values = fetch(sorted(set(names.values())))
        settings = settings._replace(**{field: values[name] for field, name in names.items()})  # type: ignore[attr-defined]
    minimum = max(MIN_OPERATOR_TOKEN_LENGTH, int(e.get("CONVOY_OPERATOR_TOKEN_MIN_LENGTH") or 0))
    check_operator_token(getattr(settings, "operator_token", None), minimum)
    return settings


def check_operator_token(token: Any, minimum: int = MIN_OPERATOR_TOKEN_LENGTH) -> None:
    """Refuse a configured operator token that is too short to be a secret (the template's
    ``OperatorTokenMinLength``, never below 32)."""
    if token and len(str(token)) < minimum:
        raise OperatorTokenTooShort(f"the operator token must be at least {minimum} characters")
