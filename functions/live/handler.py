"""Live updates Lambda: the WebSocket API's ``subscribe`` route (its only route to a function).

Wiring only: read API Gateway's WebSocket event (Powertools' parser models check its shape),
call the use case of functions/usecases/reach/live_updates.py, answer.

- ``subscribe`` (``{"action": "subscribe", "game_id", "token"}``, ``token`` optional): the
  caller's identity rides in the frame (an ID token that does not verify is refused with its
  401 code, nothing written); answered through the route's response (two-way route) with
  ``{"type": "subscribed", "game_id", "view"}``; a refusal is ``{"type": "error", "code",
  "message"}``. The subscription expires with the connection: the event's ``connectedAt``
  (epoch ms) dates it.
- There is no ``$connect`` and no ``$disconnect`` route (issue 29: a page visit is one
  invocation and one write): API Gateway accepts a connection by itself when no ``$connect``
  route exists, and a closed connection's subscription is forgotten when a post meets 410.
  Neither event reaches this function; anything else it is sent is answered ``UNKNOWN_ROUTE``.

Frames for a game's events are posted by the notifier, not here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.utilities.parser import ValidationError, parse
from aws_lambda_powertools.utilities.parser.models import APIGatewayWebSocketMessageEventModel

from functions.errors import DomainError
from functions.observability import get_logger, get_tracer
from functions.schemas.live import Subscribe
from functions.usecases.reach import identify, subscribe

EXPECTED = 'expected {"action": "subscribe", "game_id": "<id>", "token": "<token>"}'
LambdaHandler = Callable[[dict[str, Any], Any], dict[str, Any]]
logger = get_logger()
tracer = get_tracer()


def _answer(status: int, body: dict[str, Any]) -> dict[str, Any]:
    return {"statusCode": status, "body": json.dumps(body, separators=(",", ":"))}


def _refusal(error: DomainError) -> dict[str, Any]:
    logger.info("refused", extra={"code": error.code, "status": error.status})
    return _answer(error.status, {"type": "error", "code": error.code, "message": error.message})


def make_handler(dependencies: Callable[[], Any]) -> LambdaHandler:
    """A handler over ``dependencies()`` -> .connections, .store, .press, .verifier, .operator_token."""

    @logger.inject_lambda_context(clear_state=True)
    @tracer.capture_lambda_handler
    def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
        route = str((event.get("requestContext") or {}).get("routeKey", ""))
        try:
            if route == "subscribe":
                return _subscribe(event, dependencies())
        except ValidationError:
            return _answer(400, {"type": "error", "code": "INVALID_EVENT",
                                 "message": "not a WebSocket event"})
        except DomainError as error:
            return _refusal(error)
        return _answer(400, {"type": "error", "code": "UNKNOWN_ROUTE", "message": f"no route {route[:40]!r}"})

    return handler


def _subscribe(event: dict[str, Any], deps: Any) -> dict[str, Any]:
    parse(event=event, model=APIGatewayWebSocketMessageEventModel)
    try:
        body = Subscribe.model_validate_json(event.get("body") or "")
    except ValueError:  # never echoes the frame: it may hold a token
        return _answer(400, {"type": "error", "code": "VALIDATION_ERROR",
                             "message": EXPECTED})
    context = event["requestContext"]
    connection = identify(deps.verifier, context["connectionId"], body.token, context["connectedAt"] / 1000)
    view = subscribe(deps.connections, deps.store, deps.press, connection, body.game_id, deps.operator_token)
    return _answer(200, view)
