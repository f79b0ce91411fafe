"""The sandbox routes (issue 19): ``POST /adjudicate`` and ``POST /adjudicate/legal_orders``;
and the what-if preview inside a game (issue 31), ``POST /games/{id}/whatif``.

The first two need no token and read or write no game; each request is counted against
its caller's rate limit first (functions/usecases/sandbox/sandbox.py). The what-if needs a seated
player's token, reads the game once and writes nothing at all (functions/usecases/sandbox/whatif.py).
Errors, body limits and the OpenAPI document are the same as every other route's
(functions/api/handler.py).
"""

from __future__ import annotations

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from functions.api import services as api_services
from functions.api.plumbing import ERROR_BODY, SECURITY, RequestHelpers, answers, services
from functions.schemas import sandbox as schemas
from functions.usecases.sandbox import positions, sandbox, what_if

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


def _position(body: schemas.AdjudicateRequest | schemas.LegalOrdersRequest) -> positions.PositionRequest:
    return positions.PositionRequest(variant=body.variant, rules=body.rules, state=body.state,
                                   compact=body.compact, phase=body.phase)


def _count_the_caller() -> None:
    services = api_services.current()
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


WHATIF_RESPONSES: dict[int, OpenAPIResponse] = answers({
    code: {"description": text, "content": ERROR_BODY}
    for code, text in [
        (400, "UNKNOWN_POWER (an orders key)"),
        (401, "NOT_A_PLAYER: no valid token"),
        (403, "FORBIDDEN: the token is not a seated player's"),
        (404, "GAME_NOT_FOUND"),
        (409, "STALE_PHASE (the phase sent is no longer current), GAME_NOT_ACTIVE, WRONG_GAME_KIND"),
        (422, "VALIDATION_ERROR"),
    ]
})


@router.post("/games/<game_id>/whatif", tags=["sandbox"], security=SECURITY, responses=WHATIF_RESPONSES,
             summary="Preview the current phase: the caller's orders against guessed ones; nothing is stored")
def post_whatif(game_id: str, body: schemas.WhatIfRequest) -> schemas.WhatIfResponse:
    found, store = services()
    actor = request.actor(store, game_id, found.settings.operator_token)
    done = what_if(store, game_id, actor, body.orders, phase=body.phase, include_compact=body.include_compact)
    return schemas.WhatIfResponse.model_validate(done)
