"""Secrets from SSM Parameter Store (SecureString), read once per process (issue 11, item 5).

On AWS no secret sits in a function's environment: the environment names the parameter
(``*_PARAMETER``) and the value is fetched through Powertools' parameters utility with
decryption, in one ``GetParameters`` call for every secret the function needs, on first
use (the first request or batch, never at import: the API's cold import stays cheap),
and kept for the life of the container by the composition root (functions/wiring.py).
A rotated parameter therefore reaches a container at its next cold start;
docs/operations.md says how to force one.

| setting                   | parameter name from           | plain fallback (local, tests) |
|---------------------------|-------------------------------|-------------------------------|
| ``operator_token``        | CONVOY_OPERATOR_TOKEN_PARAMETER | CONVOY_OPERATOR_TOKEN       |
| ``telegram_bot_token``    | TELEGRAM_BOT_TOKEN_PARAMETER  | TELEGRAM_BOT_TOKEN            |
| ``telegram_webhook_secret`` | TELEGRAM_WEBHOOK_SECRET_PARAMETER | TELEGRAM_WEBHOOK_SECRET |

A named parameter wins over the plain variable. The local stack seeds its own parameters
in the emulator (local_stack/parameters.py), so ``make run`` reads them the same way.

The operator token must be at least ``MIN_OPERATOR_TOKEN_LENGTH`` characters: the
template cannot see a SecureString's value, so the rule is checked here, and a shorter
token is refused (no operator at all) rather than accepted.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

PARAMETER_VARIABLES = {
    "operator_token": "CONVOY_OPERATOR_TOKEN_PARAMETER",
    "telegram_bot_token": "TELEGRAM_BOT_TOKEN_PARAMETER",
    "telegram_webhook_secret": "TELEGRAM_WEBHOOK_SECRET_PARAMETER",
}
MIN_OPERATOR_TOKEN_LENGTH = 32
CACHE_SECONDS = 24 * 3600  # Powertools' own cache; the composition root keeps the values anyway

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


def fetch_parameters(names: list[str]) -> Mapping[str, str]:
    """SecureString values by name, through Powertools' SSM provider (imported here: it imports
    boto3), over the process's one botocore SSM client (infra/aws_clients.py), so no second
    session and client are built."""
    from aws_lambda_powertools.utilities.parameters import SSMProvider

    from infra import aws_clients

    provider = SSMProvider(boto3_client=aws_clients.client("ssm"))
    try:
        found = provider.get_parameters_by_name(
            parameters={name: {} for name in names}, decrypt=True, max_age=CACHE_SECONDS
        )
    except Exception as exc:  # GetParameterError, botocore errors: the message names no value
        raise SecretUnavailable(f"could not read SSM parameters {', '.join(sorted(names))}: "
                                f"{type(exc).__name__}") from exc
    return {name: str(value) for name, value in found.items()}


def with_secrets(settings: S, env: Mapping[str, str] | None = None, fetch: Fetch = fetch_parameters) -> S:
    """``settings`` (a dataclass with the fields above) with its secrets read from SSM."""
    e = os.environ if env is None else env
    names = parameter_names(e)
    if names:
        values = fetch(sorted(set(names.values())))
        settings = replace(settings, **{field: values[name] for field, name in names.items()})  # type: ignore[type-var]
    minimum = max(MIN_OPERATOR_TOKEN_LENGTH, int(e.get("CONVOY_OPERATOR_TOKEN_MIN_LENGTH") or 0))
    check_operator_token(getattr(settings, "operator_token", None), minimum)
    return settings


def check_operator_token(token: Any, minimum: int = MIN_OPERATOR_TOKEN_LENGTH) -> None:
    """Refuse a configured operator token that is too short to be a secret (the template's
    ``OperatorTokenMinLength``, never below 32)."""
    if token and len(str(token)) < minimum:
        raise OperatorTokenTooShort(f"the operator token must be at least {minimum} characters")
