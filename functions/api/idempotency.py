"""Idempotent intents: a retry with the same ``Idempotency-Key`` gets the first answer.

Our own, on a conditional write (``functions.ports.IdempotencyStore``; on AWS the
idempotency table, infra/dynamodb/idempotency_store.py) — not Powertools' Idempotency
utility, whose import (with boto3) cost ~130 ms of every API cold start (issue 9).

- The key is scoped by route, game and caller (hash of the bearer token), so two players
  can never collide on a key; what is stored is a SHA-256 of ``[key, scope]``.
- The body is the validated payload: the same key with a different body is
  ``IDEMPOTENCY_KEY_REUSED`` (422), checked before anything else.
- While the first request runs, a second one with the key gets 409 ``CONFLICT`` (retry
  later); the claim lapses after the Lambda's remaining time, so a request that died
  mid-way does not hold the key for the whole TTL.
- Only successes are remembered: when the intent raises (any domain error), the claim is
  released and the same key may be sent again after fixing the cause.
- An answer that carries a secret (a seat or creator ``token``, a ``webhook_secret``) is
  never stored and never replayed (issue 11): on anonymous routes the scope cannot tell two
  callers apart, so a replay would hand one caller's token to whoever sends the same key
  and body. What is stored is the answer without its secrets; a repeat gets 409
  ``IDEMPOTENT_REPLAY_SECRET`` carrying those non-secret fields (``game_id``, ``power``),
  so a retrying client learns the first call succeeded, and nothing is applied twice.
  Passwords never reach the stored payload hash either (they are ``SecretStr``, hashed as
  their mask).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from collections.abc import Callable
from typing import Any

from functions.errors import Conflict, IdempotencyKeyReused, IdempotentReplaySecret
from functions.ports import COMPLETED, IdempotencyStore

Outcome = dict[str, Any]  # {"status": int, "body": JSON}
DEFAULT_IN_PROGRESS_SECONDS = 60
# player_token: a demo seat; secret: a rotated webhook secret (issue 11)
SECRET_FIELDS = frozenset({"token", "webhook_secret", "webhook_secrets", "player_token", "secret"})
WITHHELD = "secrets_withheld"  # marks a stored outcome whose secrets were removed


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _in_progress_seconds(lambda_context: Any | None) -> int:
    remaining = getattr(lambda_context, "get_remaining_time_in_millis", None)
    return max(1, int(remaining() / 1000) + 1) if callable(remaining) else DEFAULT_IN_PROGRESS_SECONDS


def run_once(
    store: IdempotencyStore | None,
    key: str | None,
    scope: dict[str, Any],
    body: Any,
    apply: Callable[[], Outcome],
    ttl_seconds: int,
    lambda_context: Any | None = None,
    now: Callable[[], float] = time.time,
) -> Outcome:
    """``apply()`` once per (key, scope); a repeat returns the stored outcome."""
    if not key or store is None:
        return apply()
    record_key, payload_hash = _digest([key, scope]), _digest(body)
    started = int(now())
    existing = store.claim(
        record_key, payload_hash, now=started,
        in_progress_until=started + _in_progress_seconds(lambda_context),
        expires_at=started + ttl_seconds,
    )
    if existing is not None:
        if existing.payload_hash != payload_hash:
            raise IdempotencyKeyReused("this Idempotency-Key was already used with a different body")
        if existing.status == COMPLETED and existing.outcome is not None:
            return _replay(dict(existing.outcome))
        raise Conflict("a request with this Idempotency-Key is still in progress; retry later")
    try:
        outcome = apply()
    except BaseException:
        # if even the release fails, the claim lapses after in_progress_until: never mask the cause
        with contextlib.suppress(Exception):
            store.release(record_key)
        raise
    store.complete(record_key, _storable(outcome), expires_at=int(now()) + ttl_seconds)
    return outcome


def _storable(outcome: Outcome) -> Outcome:
    """The outcome as it may be kept: without any secret field of its body."""
    body = outcome.get("body")
    if not isinstance(body, dict) or not SECRET_FIELDS & body.keys():
        return outcome
    kept = {k: v for k, v in body.items() if k not in SECRET_FIELDS}
    return {**outcome, "body": kept, WITHHELD: sorted(SECRET_FIELDS & body.keys())}


def _replay(stored: Outcome) -> Outcome:
    if WITHHELD in stored:
        fields = ", ".join(stored[WITHHELD])
        raise IdempotentReplaySecret(
            f"this Idempotency-Key was already applied; its answer held a secret ({fields}) "
            "that is shown only once",
            first=stored.get("body"),
        )
    return dict(stored)
