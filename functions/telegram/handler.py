"""Telegram webhook Lambda: POST /webhooks/telegram (API Gateway HTTP API, payload v2).

Wiring only: check the X-Telegram-Bot-Api-Secret-Token header in constant time
(401 ``BAD_SECRET`` before anything is read or written), parse the update, call
`handle_update`. Telegram retries on any non-2xx, so everything that is not an
infrastructure failure answers 200 — a malformed or foreign update would otherwise
come back again and again. Deduplication on update_id lives in the use case.
"""

from __future__ import annotations

import base64
import hmac
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from functions.observability import API_GATEWAY_HTTP, get_logger, get_tracer
from functions.usecases.reach import handle_update

LambdaHandler = Callable[[dict[str, Any], Any], dict[str, Any]]
logger = get_logger()
tracer = get_tracer()
SECRET_HEADER = "x-telegram-bot-api-secret-token"


def _reply(status: int, body: dict[str, Any]) -> dict[str, Any]:
    return {"statusCode": status, "headers": {"Content-Type": "application/json"}, "body": json.dumps(body)}


def secret_matches(expected: str, presented: str | None) -> bool:
    """Constant-time comparison; an unset expected secret matches nothing (fail closed)."""
    if not expected or presented is None:
        return False
    return hmac.compare_digest(expected.encode(), presented.encode())


def make_handler(
    dependencies: Callable[[], Any], now: Callable[[], datetime] = lambda: datetime.now(UTC)
) -> LambdaHandler:
    """A handler over `dependencies()` -> .secret, .store, .games, .outbox.

    Its log lines carry the API Gateway request id as ``correlation_id``."""

    @logger.inject_lambda_context(correlation_id_path=API_GATEWAY_HTTP, clear_state=True)
    @tracer.capture_lambda_handler
    def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
        deps = dependencies()
        headers = {str(k).lower(): v for k, v in (event.get("headers") or {}).items()}
        if not secret_matches(deps.secret, headers.get(SECRET_HEADER)):
            return _reply(401, {"code": "BAD_SECRET", "message": "bad or missing secret token"})
        raw = event.get("body") or ""
        try:
            text = base64.b64decode(raw).decode() if event.get("isBase64Encoded") else raw
            update = json.loads(text)
        except (ValueError, UnicodeDecodeError):
            return _reply(400, {"code": "BAD_UPDATE", "message": "body is not JSON"})
        if not isinstance(update, dict):
            return _reply(400, {"code": "BAD_UPDATE", "message": "body is not an object"})
        outcome = handle_update(update, store=deps.store, games=deps.games, outbox=deps.outbox, now=now(),
                                accounts=getattr(deps, "accounts", None))
        return _reply(200, {"ok": True, "status": outcome.status})

    return handler
