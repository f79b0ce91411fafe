"""The sandbox routes (issue 19): ``POST /adjudicate`` and ``POST /adjudicate/legal_orders``.

No token is needed and no game is read or written; each request is counted against its
caller's rate limit first (functions/usecases/sandbox.py). Errors, body limits and the
OpenAPI document are the same as every other route's (functions/api/handler.py).
"""

from __future__ import annotations

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from functions import wiring
from functions.api.plumbing import ERROR_BODY, RequestHelpers, answers
from functions.schemas import sandbox as schemas
from functions.usecases import sandbox

router = Router()
request = RequestHelpers(router)
RESPONSES: dict[int, OpenAPIResponse] = answers({
    code: {"description": text, "content": ERROR_BODY}
    for code, text in [
        (400, "UNKNOWN_VARIANT (variant or rulebook), UNKNOWN_POWER (an orders key)"),
        (422, "BAD_POSITION (unreadable or impossible position), VALIDATION_ERROR"),
        (429, "RATE_LIMITED: too many sandbox requests from this caller (Retry-After header)"),
    ]
})


def _position(body: schemas.AdjudicateRequest | schemas.LegalOrdersRequest) -> sandbox.PositionRequest:
    return sandbox.PositionRequest(variant=body.variant, rules=body.rules, state=body.state,
                                   compact=body.compact, phase=body.phase)


def _count_the_caller() -> None:
    services = wiring.services()
    limit = services.settings.sandbox_rate_limit
    now = services.clock.now().timestamp()
    sandbox.take_sandbox_slot(services.rate_counter, request.source_ip(), now, limit)


@router.post("/adjudicate", tags=["sandbox"], responses=RESPONSES,
             summary="Adjudicate a position without a game: validation answers, resolution, next state")
def post_adjudicate(body: schemas.AdjudicateRequest) -> schemas.AdjudicateResponse:
    _count_the_caller()
    done = sandbox.adjudicate(_position(body), body.orders, notation=body.notation,
                              include_compact=body.include_compact)
    return schemas.AdjudicateResponse.model_validate(done)


@router.post("/adjudicate/legal_orders", tags=["sandbox"], responses=RESPONSES,
             summary="Every legal order of a position, per power, without a game")
def post_legal_orders(body: schemas.LegalOrdersRequest) -> schemas.LegalOrdersResponse:
    _count_the_caller()
    done = sandbox.legal_order_menus(_position(body), body.powers, include_compact=body.include_compact)
    return schemas.LegalOrdersResponse.model_validate(done)
