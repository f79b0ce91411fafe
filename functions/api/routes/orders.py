"""Orders: a Diplomacy power's order set (replace, add, retract), who still owes orders, the
wait flag; and a backgammon side's moves, the same thing for the other game kind."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router

from functions.api.plumbing import SECURITY, RequestHelpers, answers, services
from functions.schemas import api as schemas
from functions.usecases.backgammon import BACKGAMMON, play
from functions.usecases.game import load
from functions.usecases.turns import retract_orders, set_wait_flag, submit_orders, views

router = Router()
request = RequestHelpers(router)


def _submitted(result: Any) -> schemas.SubmitOrdersResponse:
    return schemas.SubmitOrdersResponse(
        phase=result.phase,
        accepted=result.accepted,
        rejected=[schemas.RejectedOrder(**r._asdict()) for r in result.rejected],
        orders=result.orders,
    )


Submitted = Response[schemas.SubmitOrdersResponse]


def _submit(game_id: str, body: schemas.SubmitOrdersRequest, mode: str) -> Submitted:
    found, store = services()

    def apply() -> schemas.SubmitOrdersResponse:
        actor = request.actor(store, game_id, found.settings.operator_token)
        result = submit_orders(
            store, found.clock, game_id, actor, body.orders,
            phase=body.phase, client_timestamp=body.client_timestamp, mode=mode, scheduler=found.scheduler,
        )
        return _submitted(result)

    return request.intent(f"orders:{mode}", game_id, body, apply)


@router.post("/games/<game_id>/orders", tags=["orders"], security=SECURITY, responses=answers(),
             summary="Replace the caller's whole order set for the phase")
def post_orders(game_id: str, body: schemas.SubmitOrdersRequest) -> Submitted:
    return _submit(game_id, body, "replace")


@router.post("/games/<game_id>/orders/add", tags=["orders"], security=SECURITY, responses=answers(),
             summary="Add orders, replacing earlier orders for the same units")
def post_orders_add(game_id: str, body: schemas.SubmitOrdersRequest) -> Submitted:
    return _submit(game_id, body, "add")


@router.delete("/games/<game_id>/orders", tags=["orders"], security=SECURITY, responses=answers(),
               summary='Retract all orders, or with body {"units": ["A PAR"]} those units\' orders')
def delete_orders(game_id: str) -> schemas.SubmitOrdersResponse:
    """The body is optional and read here, not declared: OpenAPI gives a DELETE no request body."""
    found, store = services()
    # model_validate_json: a body that is not JSON is a 422 like any other (the handler maps
    # pydantic's ValidationError); body_guard has already made it UTF-8 text, "{}" when empty
    body = schemas.RetractOrdersRequest.model_validate_json(router.current_event.decoded_body or "{}")
    actor = request.actor(store, game_id, found.settings.operator_token)
    return _submitted(retract_orders(store, found.clock, game_id, actor, body.units))


@router.get("/games/<game_id>/orders_status", tags=["orders"], responses=answers(),
            summary="Who still owes orders (only powers with a decision to make)")
def get_orders_status(game_id: str) -> schemas.OrdersStatus:
    _, store = services()
    return schemas.OrdersStatus.model_validate(views.orders_status(load(store, game_id)))


@router.post("/games/<game_id>/wait", tags=["orders"], security=SECURITY, responses=answers(),
             summary="Raise or lower the caller's wait flag (holds auto-processing this phase)")
def post_wait(game_id: str, body: schemas.WaitRequest) -> Response[schemas.WaitResponse]:
    found, store = services()

    def apply() -> schemas.WaitResponse:
        actor = request.actor(store, game_id, found.settings.operator_token)
        done = set_wait_flag(store, found.clock, game_id, actor, body.wait, scheduler=found.scheduler)
        return schemas.WaitResponse(phase=done.phase, wait_flags=done.wait_flags,
                                    auto_processed=done.auto_processed)

    return request.intent("wait", game_id, body, apply)


@router.post("/games/<game_id>/moves", tags=["backgammon"], security=SECURITY, responses=answers(),
             summary="Backgammon: one MOVE [die index, source] or UNDO by the side to play")
def post_move(game_id: str, body: schemas.MoveRequest) -> Response[schemas.MoveResponse]:
    found, store = services()

    def apply() -> schemas.MoveResponse:
        actor = request.actor(store, game_id, found.settings.operator_token)
        played = play(store, found.clock, game_id, actor, body.input, body.move, phase=body.phase)
        return schemas.MoveResponse.model_validate({
            "view": BACKGAMMON.view(played.game, actor),
            "events": [e._asdict() for e in played.events],
        })

    return request.intent("moves", game_id, body, apply)
