"""Secrets from SSM Parameter Store (SecureString), read once per process (issue 11, item 5).

On AWS no secret sits in a function's environment: the environment names the parameter
(``*_PARAMETER``) and the value is fetched with decryption, in one signed ``GetParameters``
call for every secret the function needs (``infra/ssm.py``, over Convoy's small JSON-protocol
client), on first use (the first request or batch, never at import: the API's cold import
stays cheap), cached here for ``CACHE_SECONDS`` and kept for the life of the container by
the composition root (functions/wiring.py).

Why not Powertools' parameters utility, which issue 11 item 5 named (issue 9 item 6): its
SSM provider builds a boto3 client, and importing boto3 and building that client was
~200 ms of *every* function's first request. The utility's caching is the part Convoy used,
and it is kept here: values cached per parameter name with a maximum age, cleared by
``clear_cache()``. A rotated parameter therefore reaches a container at its next cold start;
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
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

PARAMETER_VARIABLES = {
    "operator_token": "CONVOY_OPERATOR_TOKEN_PARAMETER",
    "telegram_bot_token": "TELEGRAM_BOT_TOKEN_PARAMETER",
    "telegram_webhook_secret": "TELEGRAM_WEBHOOK_SECRET_PARAMETER",
}
MIN_OPERATOR_TOKEN_LENGTH = 32
CACHE_SECONDS = 24 * 3600  # a value's maximum age here; the composition root keeps the values anyway
BATCH = 10  # GetParameters takes at most 10 names a call

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


_cache: dict[str, tuple[str, float]] = {}  # name -> (value, fetched at, monotonic)
_cache_lock = threading.Lock()


def clear_cache() -> None:
    """Forget every cached value (tests; the next read asks SSM again)."""
    with _cache_lock:
        _cache.clear()


def fetch_parameters(names: list[str], *, max_age: float = CACHE_SECONDS,
                     clock: Callable[[], float] = time.monotonic) -> Mapping[str, str]:
    """SecureString values by name: from the cache while younger than ``max_age``, else in one
    ``GetParameters`` call (``WithDecryption``) over the process's SSM client (infra/aws_clients.py)."""
    now = clock()
    with _cache_lock:
        fresh = {name: hit[0] for name in names if (hit := _cache.get(name)) and now - hit[1] < max_age}
    missing = sorted(set(names) - set(fresh))
    if missing:
        read = _read(missing)
        with _cache_lock:
            _cache.update({name: (value, now) for name, value in read.items()})
        fresh.update(read)
    return fresh


def _read(names: list[str]) -> dict[str, str]:
    from infra import aws_clients

    ssm = aws_clients.client("ssm")
    found: dict[str, str] = {}
    invalid: list[str] = []
    try:
        for at in range(0, len(names), BATCH):
            answer = ssm.get_parameters(Names=names[at:at + BATCH], WithDecryption=True)
            found.update({p["Name"]: str(p["Value"]) for p in answer.get("Parameters", [])})
            invalid += answer.get("InvalidParameters", [])
    except Exception as exc:  # ClientError, BotoCoreError: the message names no value
        raise SecretUnavailable(f"could not read SSM parameters {', '.join(names)}: "
                                f"{type(exc).__name__}") from exc
    if invalid or set(names) - set(found):
        absent = sorted(set(invalid) | (set(names) - set(found)))
        raise SecretUnavailable(f"could not read SSM parameters {', '.join(absent)}: not found")
    return found


def with_secrets(settings: S, env: Mapping[str, str] | None = None, fetch: Fetch = fetch_parameters) -> S:
    """``settings`` (a NamedTuple with the fields above: functions/wiring.py ``Settings``)
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
