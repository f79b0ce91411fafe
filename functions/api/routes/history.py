"""What has happened in a game: the last resolution, the adjudicated phases page by page, the event log."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from functions.api.plumbing import OPTIONAL_SECURITY, RequestHelpers, answers, services
from functions.schemas import api as schemas
from functions.usecases.game import decode_cursor, encode_cursor, load, with_scores
from functions.usecases.turns import views

router = Router()
request = RequestHelpers(router)


@router.get("/games/<game_id>/last_resolution", tags=["turns"], security=OPTIONAL_SECURITY,
            responses=answers(),
            summary="The resolution of the last adjudicated phase ({results: []} before the first)")
def get_last_resolution(game_id: str) -> schemas.Resolution:
    found, store = services()
    actor = request.actor(store, game_id, found.settings.operator_token)  # a fog game shows what it saw
    return schemas.Resolution.model_validate(views.last_resolution(store, game_id, actor))


@router.get("/games/<game_id>/history", tags=["turns"], security=OPTIONAL_SECURITY, responses=answers(),
            summary="Adjudicated phases, oldest first, a page at a time: state before, all orders, "
            "resolution; next_cursor continues")
def get_history(
    game_id: str,
    limit: Annotated[int, Query(ge=1, le=views.HISTORY_PAGE_MAX)] = views.HISTORY_PAGE,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
) -> schemas.History:
    found, store = services()
    actor = request.actor(store, game_id, found.settings.operator_token)
    phases, last = views.history_page(store, game_id, after=decode_cursor(game_id, cursor), limit=limit,
                                      actor=actor)
    result = with_scores(load(store, game_id).result)
    next_cursor = encode_cursor(game_id, last) if last is not None else None
    return schemas.History.model_validate({"phases": phases, "result": result, "next_cursor": next_cursor})


@router.get("/games/<game_id>/events", tags=["games"], security=OPTIONAL_SECURITY, responses=answers(),
            summary="The event log after seq N (no gaps; ask again from last seq)")
def get_events(
    game_id: str,
    after: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> schemas.Events:
    found, store = services()
    actor = request.actor(store, game_id, found.settings.operator_token)
    return schemas.Events.model_validate(views.events_after(store, game_id, after, limit, actor))
