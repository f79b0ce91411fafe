"""Notification settings of a game: rotate a webhook's signing secret, link a Telegram chat to a seat."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router

from functions.api import services as api_services
from functions.api.plumbing import SECURITY, RequestHelpers, answers, services
from functions.schemas import api as schemas
from functions.usecases.game import iso
from functions.usecases.notifications import rotate_webhook_secret
from functions.usecases.reach import link_code_for

router = Router()
request = RequestHelpers(router)


@router.post("/games/<game_id>/notify/<index>/rotate_secret", tags=["notifications"], security=SECURITY,
             responses=answers(), summary="New signing secret for one webhook target; the old one signs "
             "beside it for 24 h (creator or operator; docs/notifications.md)")
def post_rotate_secret(game_id: str, index: str) -> Response[schemas.RotateSecretResponse]:
    found, store = services()

    def apply() -> schemas.RotateSecretResponse:
        actor = request.actor(store, game_id, found.settings.operator_token)
        position = int(index) if index.isdigit() and len(index) < 4 else -1
        done = rotate_webhook_secret(store, found.clock, game_id, actor, position)
        return schemas.RotateSecretResponse(
            target=done.target, secret=done.secret, previous_valid_until=done.previous_valid_until
        )

    return request.intent("rotate_secret", game_id, {"index": index}, apply)


@router.post("/games/<game_id>/telegram/link_code", tags=["notifications"], security=SECURITY,
             responses=answers(), summary="A one-time code linking a Telegram user to the caller's seat")
def post_link_code(game_id: str) -> schemas.LinkCodeResponse:
    found, store = services()
    actor = request.actor(store, game_id, found.settings.operator_token)
    issued = link_code_for(actor, game_id, store=api_services.current().telegram_store, now=found.clock.now())
    return schemas.LinkCodeResponse(code=issued.code, expires_at=iso(issued.expires_at))
