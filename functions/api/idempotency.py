"""Idempotent intents: a retry with the same ``Idempotency-Key`` gets the first answer.

Built on Powertools' Idempotency utility (DynamoDB persistence, its own table).
The key is scoped by route, game and caller (hash of the bearer token), so two
players can never collide on a key. The body is the validated payload: the same
key with a different body is ``IDEMPOTENCY_KEY_REUSED`` (422). Only successes are
remembered; a rejected intent (any domain error) may be retried with the same key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.utilities.idempotency import IdempotencyConfig, idempotent_function
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
    IdempotencyValidationError,
)

from functions.errors import Conflict, IdempotencyKeyReused

Outcome = dict[str, Any]  # {"status": int, "body": JSON}


def run_once(
    persistence: Any | None,
    key: str | None,
    scope: dict[str, Any],
    body: Any,
    apply: Callable[[], Outcome],
    ttl_seconds: int,
    lambda_context: Any | None = None,
) -> Outcome:
    """``apply()`` once per (key, scope); a repeat returns the stored outcome."""
    if not key or persistence is None:
        return apply()
    config = IdempotencyConfig(
        event_key_jmespath="[key, scope]",
        payload_validation_jmespath="body",
        expires_after_seconds=ttl_seconds,
        raise_on_no_idempotency_key=True,
    )
    if lambda_context is not None:
        config.register_lambda_context(lambda_context)

    def intent(request: dict[str, Any]) -> Outcome:
        return apply()

    guarded = idempotent_function(
        data_keyword_argument="request", persistence_store=persistence, config=config
    )(intent)
    try:
        result: Outcome = guarded(request={"key": key, "scope": scope, "body": body})
    except IdempotencyValidationError as exc:
        raise IdempotencyKeyReused("this Idempotency-Key was already used with a different body") from exc
    except IdempotencyAlreadyInProgressError as exc:
        raise Conflict("a request with this Idempotency-Key is still in progress; retry later") from exc
    return result
