"""Press (issue 13; functions/usecases/press/press.py): send, read, list channels, mark read."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import unquote

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from functions.api import services as api_services
from functions.api.plumbing import OPTIONAL_SECURITY, SECURITY, RequestHelpers, answers, services
from functions.schemas import api as schemas
from functions.usecases.press import press, reading

router = Router()
request = RequestHelpers(router)
SENT: dict[int, OpenAPIResponse] = {**answers(status=201, description="Sent"),
                                    429: {"description": "RATE_LIMITED (Retry-After header)"}}


def _chats() -> Any:
    """The Telegram chats linked to seats; read through ``wiring`` on each call (tests replace it)."""
    return api_services.current().telegram_store


@router.post("/games/<game_id>/messages", status_code=201, tags=["press"], security=SECURITY, responses=SENT,
             summary='Send press: "to" a list of powers (a channel with the sender) or "ALL"')
def post_message(game_id: str, body: schemas.SendMessageRequest) -> Response[schemas.SentMessage]:
    found, store = services()

    def apply() -> schemas.SentMessage:
        actor = request.actor(store, game_id, found.settings.operator_token)
        sent = press.send_message(
            store, found.press_store, found.clock, game_id, actor, body.to, body.text,
            client_timestamp=body.client_timestamp, chats=_chats(),
        )
        return schemas.SentMessage(**sent._asdict())

    return request.intent("message", game_id, body, apply, status=201)


@router.get("/games/<game_id>/messages", tags=["press"], security=OPTIONAL_SECURITY, responses=answers(),
            summary="The caller's messages after a cursor, oldest first (observers: public press)")
def get_messages(
    game_id: str,
    after: Annotated[int, Query(ge=0)] = 0,
    channel: Annotated[str | None, Query(max_length=200)] = None,
    limit: Annotated[int, Query(ge=1, le=reading.MAX_READ)] = 50,
) -> schemas.MessageList:
    found, store = services()
    actor = request.actor(store, game_id, found.settings.operator_token)
    read = reading.read_messages(store, found.press_store, game_id, actor, after=after, channel=channel,
                               limit=limit)
    return schemas.MessageList.model_validate(read)


@router.get("/games/<game_id>/channels", tags=["press"], security=OPTIONAL_SECURITY, responses=answers(),
            summary="The caller's channels: members, last message, unread count")
def get_channels(game_id: str) -> schemas.ChannelList:
    found, store = services()
    actor = request.actor(store, game_id, found.settings.operator_token)
    return schemas.ChannelList.model_validate(reading.list_channels(store, found.press_store, game_id, actor))


@router.post("/games/<game_id>/channels/<channel>/read", tags=["press"], security=SECURITY,
             responses=answers(), summary="Mark a channel read up to a seq")
def post_channel_read(game_id: str, channel: str, body: schemas.MarkReadRequest
                      ) -> Response[schemas.MarkReadResponse]:
    found, store = services()

    def apply() -> schemas.MarkReadResponse:
        actor = request.actor(store, game_id, found.settings.operator_token)
        name = unquote(channel)  # rawPath keeps %2C if a client encoded the commas
        done = reading.mark_read(store, found.press_store, game_id, actor, name, body.upto)
        return schemas.MarkReadResponse(**done)

    return request.intent(f"read:{channel}", game_id, body, apply)
