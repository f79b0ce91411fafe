"""What has happened in a game: the last resolution, the adjudicated phases page by page, the event log."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from functions.api.plumbing import answers, services
from functions.schemas import api as schemas
from functions.usecases.game import decode_cursor, encode_cursor, load, with_scores
from functions.usecases.turns import views

router = Router()


@router.get("/games/<game_id>/last_resolution", tags=["turns"], responses=answers(),
            summary="The resolution of the last adjudicated phase ({results: []} before the first)")
def get_last_resolution(game_id: str) -> schemas.Resolution:
    _, store = services()
    return schemas.Resolution.model_validate(views.last_resolution(store, game_id))


@router.get("/games/<game_id>/history", tags=["turns"], responses=answers(),
            summary="Adjudicated phases, oldest first, a page at a time: state before, all orders, "
            "resolution; next_cursor continues")
def get_history(
    game_id: str,
    limit: Annotated[int, Query(ge=1, le=views.HISTORY_PAGE_MAX)] = views.HISTORY_PAGE,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
) -> schemas.History:
    _, store = services()
    phases, last = views.history_page(store, game_id, after=decode_cursor(game_id, cursor), limit=limit)
    result = with_scores(load(store, game_id).result)
    next_cursor = encode_cursor(game_id, last) if last is not None else None
    return schemas.History.model_validate({"phases": phases, "result": result, "next_cursor": next_cursor})


@router.get("/games/<game_id>/events", tags=["games"], responses=answers(),
            summary="The event log after seq N (no gaps; ask again from last seq)")
def get_events(
    game_id: str,
    after: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> schemas.Events:
    _, store = services()
    return schemas.Events.model_validate(views.events_after(store, game_id, after, limit))
