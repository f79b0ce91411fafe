"""Live updates Lambda: the WebSocket API's ``$connect``, ``$disconnect`` and ``subscribe`` routes.

Wiring only: read API Gateway's WebSocket event (Powertools' parser models check its shape),
call one use case of functions/usecases/reach/live_updates.py, answer.

- ``$connect``: the bearer token is offered as a subprotocol beside ``convoy``
  (``Sec-WebSocket-Protocol: convoy, <token>``); the answer selects ``convoy``. An ID token
  that does not verify is refused with its 401 code (the connection is never opened).
- ``subscribe`` (``{"action": "subscribe", "game_id"}``): answered through the route's
  response (two-way route) with ``{"type": "subscribed", "game_id", "view"}``; a refusal is
  ``{"type": "error", "code", "message"}``.
- ``$disconnect``: the connection is forgotten (also when the client simply went away).

Frames for a game's events are posted by the notifier, not here.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.utilities.parser import ValidationError, parse
from aws_lambda_powertools.utilities.parser.models import (
    APIGatewayWebSocketConnectEventModel,
    APIGatewayWebSocketDisconnectEventModel,
    APIGatewayWebSocketMessageEventModel,
)

from functions.errors import DomainError
from functions.observability import get_logger, get_tracer
from functions.schemas.live import Subscribe
from functions.usecases.reach import (
    SUBPROTOCOL,
    open_connection,
    subscribe,
    token_from_protocols,
)

LambdaHandler = Callable[[dict[str, Any], Any], dict[str, Any]]
logger = get_logger()
tracer = get_tracer()


def _answer(status: int, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None
            ) -> dict[str, Any]:
    reply: dict[str, Any] = {"statusCode": status}
    if body is not None:
        reply["body"] = json.dumps(body, separators=(",", ":"))
    if headers:
        reply["headers"] = headers
    return reply


def _refusal(error: DomainError) -> dict[str, Any]:
    logger.info("refused", extra={"code": error.code, "status": error.status})
    return _answer(error.status, {"type": "error", "code": error.code, "message": error.message})


def _header(event: dict[str, Any], name: str) -> str | None:
    for key, value in (event.get("headers") or {}).items():
        if key.lower() == name:
            return str(value)
    return None


def make_handler(dependencies: Callable[[], Any], clock: Callable[[], float] = time.time) -> LambdaHandler:
    """A handler over ``dependencies()`` -> .connections, .store, .press, .verifier, .operator_token."""

    @logger.inject_lambda_context(clear_state=True)
    @tracer.capture_lambda_handler
    def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
        route = str((event.get("requestContext") or {}).get("routeKey", ""))
        try:
            if route == "$connect":
                return _connect(event, dependencies(), clock())
            if route == "$disconnect":
                parse(event=event, model=APIGatewayWebSocketDisconnectEventModel)
                dependencies().connections.close(event["requestContext"]["connectionId"])
                return _answer(200)
            if route == "subscribe":
                return _subscribe(event, dependencies(), clock())
        except ValidationError:
            return _answer(400, {"type": "error", "code": "INVALID_EVENT",
                                 "message": "not a WebSocket event"})
        except DomainError as error:
            return _refusal(error)
        return _answer(400, {"type": "error", "code": "UNKNOWN_ROUTE", "message": f"no route {route[:40]!r}"})

    return handler


def _connect(event: dict[str, Any], deps: Any, now: float) -> dict[str, Any]:
    parse(event=event, model=APIGatewayWebSocketConnectEventModel)
    offered = _header(event, "sec-websocket-protocol")
    open_connection(deps.connections, deps.verifier, event["requestContext"]["connectionId"],
                    token_from_protocols(offered), now)
    return _answer(200, headers={"Sec-WebSocket-Protocol": SUBPROTOCOL} if offered else None)


def _subscribe(event: dict[str, Any], deps: Any, now: float) -> dict[str, Any]:
    parse(event=event, model=APIGatewayWebSocketMessageEventModel)
    try:
        body = Subscribe.model_validate_json(event.get("body") or "")
    except ValueError:
        return _answer(400, {"type": "error", "code": "VALIDATION_ERROR",
                             "message": 'expected {"action": "subscribe", "game_id": "<id>"}'})
    answer = subscribe(deps.connections, deps.store, deps.press, event["requestContext"]["connectionId"],
                       body.game_id, now, deps.operator_token)
    return _answer(200, answer)
