"""What the API does before its SnapStart snapshot (functions/snapstart.py, issue 27 item 5).

A restored environment keeps everything init built, so priming runs the code a first request
would run, as far as it can without a player's game:

- the engine's rules (``snapstart.warm_engine``: what a view and a submission compute);
- every route's Powertools machinery (its dependant, the request and response validators) by
  generating the OpenAPI document, which walks them all;
- requests through the real handler: the variant list, a view and an order submission for a game
  that does not exist (``PRIMING_GAME``: routing, the body's validation, the services and their
  secrets, one DynamoDB read over a live connection, the 404 answer).

Nothing is written: a missing game is answered before anything is stored. The lines these
requests log are written once per published version, when the snapshot is taken (the first of
them carries Powertools' ``cold_start: true``, so restored environments log ``false``).
"""

from __future__ import annotations

import base64
import json
import uuid
from collections.abc import Callable
from typing import Any

from functions.snapstart import PRIMING_GAME, PrimingContext


def event(method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """An HTTP API (payload 2.0) event, as API Gateway sends it."""
    raw = json.dumps(body) if body is not None else None
    headers = {"host": "priming", "authorization": "Bearer priming-token-that-matches-no-seat"}
    if raw is not None:
        headers["content-type"] = "application/json"
    return {
        "version": "2.0", "routeKey": "$default", "rawPath": path, "rawQueryString": "", "headers": headers,
        "requestContext": {"http": {"method": method, "path": path, "protocol": "HTTP/1.1",
                                    "sourceIp": "127.0.0.1", "userAgent": "priming"},
                           "requestId": f"priming-{uuid.uuid4()}", "routeKey": "$default",
                           "stage": "$default"},
        "body": base64.b64encode(raw.encode()).decode() if raw else None, "isBase64Encoded": bool(raw),
    }


REQUESTS = (
    ("GET", "/variants", None),
    ("GET", f"/games/{PRIMING_GAME}", None),
    ("POST", f"/games/{PRIMING_GAME}/orders", {"orders": ["A PAR - BUR"], "phase": "S1901M"}),
)


def warm_requests(handler: Callable[[dict[str, Any], Any], Any]) -> Callable[[], None]:
    """A warm-up that sends ``REQUESTS`` through ``handler``."""

    def send() -> None:
        for method, path, body in REQUESTS:
            handler(event(method, path, body), PrimingContext())

    return send
