"""The sandbox routes (issue 19): ``POST /adjudicate`` and ``POST /adjudicate/legal_orders``.

Declared on the API's one router by ``register(app)`` (called once by
functions/api/handler.py), so errors, body limits and the OpenAPI document are the same
as every other route's. No token is needed and no game is read or written; each request
is counted against its caller's rate limit first (functions/usecases/sandbox.py).
"""

from __future__ import annotations

from typing import Any

from functions import wiring
from functions.api.router import Router
from functions.schemas import sandbox as schemas
from functions.usecases import sandbox

ERROR_BODY = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
RESPONSES: dict[int, Any] = {
    code: {"description": text, "content": ERROR_BODY}
    for code, text in [
        (400, "UNKNOWN_VARIANT (variant or rulebook), UNKNOWN_POWER (an orders key)"),
        (422, "BAD_POSITION (unreadable or impossible position), VALIDATION_ERROR"),
        (429, "RATE_LIMITED: too many sandbox requests from this caller (Retry-After header)"),
    ]
}


def _position(body: schemas.AdjudicateRequest | schemas.LegalOrdersRequest) -> sandbox.PositionRequest:
    return sandbox.PositionRequest(variant=body.variant, rules=body.rules, state=body.state,
                                   compact=body.compact, phase=body.phase)


def register(app: Router) -> None:
    """Add the sandbox routes to ``app``."""

    def count_the_caller() -> None:
        services = wiring.services()
        context = app.current_event.raw_event.get("requestContext") or {}
        source_ip = (context.get("http") or {}).get("sourceIp")
        limit = services.settings.sandbox_rate_limit
        sandbox.take_sandbox_slot(services.rate_counter, source_ip, services.clock.now().timestamp(), limit)

    @app.post("/adjudicate", tags=["sandbox"], responses=RESPONSES,
              summary="Adjudicate a position without a game: validation answers, resolution, next state")
    def post_adjudicate(body: schemas.AdjudicateRequest) -> schemas.AdjudicateResponse:
        count_the_caller()
        done = sandbox.adjudicate(_position(body), body.orders, notation=body.notation,
                                  include_compact=body.include_compact)
        return schemas.AdjudicateResponse.model_validate(done)

    @app.post("/adjudicate/legal_orders", tags=["sandbox"], responses=RESPONSES,
              summary="Every legal order of a position, per power, without a game")
    def post_legal_orders(body: schemas.LegalOrdersRequest) -> schemas.LegalOrdersResponse:
        count_the_caller()
        done = sandbox.legal_order_menus(_position(body), body.powers, include_compact=body.include_compact)
        return schemas.LegalOrdersResponse.model_validate(done)
