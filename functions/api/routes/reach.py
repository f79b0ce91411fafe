"""The routes that reach players (issue 33; docs/notifications.md, "Reaching players"):

- ``GET /games/{id}/live``: where the client opens its WebSocket for this game;
- ``GET``/``PUT /me/notifications``: the account's choices per kind and channel;
- ``GET``/``POST /me/push_devices``, ``DELETE /me/push_devices/{device_id}``: web push devices;
- ``GET``/``POST /mail/unsubscribe?t=``: the link every mail carries. ``POST`` is RFC 8058's
  one-click unsubscribe (a mail client sends ``List-Unsubscribe=One-Click``; the body is not
  read); ``GET`` only shows a page with the button, because mail scanners follow links.

Thin: parse, call one use case, answer.
"""

from __future__ import annotations

import html
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from functions.api import services as api_services
from functions.api.identity import signed_in
from functions.api.plumbing import SECURITY, RequestHelpers, answers
from functions.errors import DomainError
from functions.schemas import reach as schemas
from functions.usecases.game import load
from functions.usecases.notifications import notice_preferences
from functions.usecases.reach import KIND_WORDS, push_subscriptions

TAGS = ["notifications"]
router = Router()
request = RequestHelpers(router)
HTML = "text/html; charset=utf-8"


@router.get("/games/<game_id>/live", tags=TAGS, responses=answers(),
            summary="Where to open the game's live socket (WebSocket; docs/notifications.md)")
def get_live(game_id: str) -> schemas.LiveAddress:
    services = api_services.current()
    load(services.store, game_id)
    return schemas.LiveAddress(url=services.settings.live_url or None)


def _preferences(user_id: str) -> schemas.Preferences:
    services = api_services.current()
    sender = api_services.current().push_sender
    found: dict[str, Any] = notice_preferences.preferences(services.reach_store, user_id)
    return schemas.Preferences(**found, push_key=sender.public_key() if sender else None,
                               mail=bool(services.settings.mail_from))


@router.get("/me/notifications", tags=TAGS, security=SECURITY, responses=answers(),
            summary="What reaches the account: per kind and channel, immediately, daily or never")
def get_notifications() -> schemas.Preferences:
    return _preferences(signed_in(request.bearer()).user_id)


@router.put("/me/notifications", tags=TAGS, security=SECURITY, responses=answers(),
            summary="Change some of the account's choices (the others stay)")
def put_notifications(body: schemas.PreferencesRequest) -> schemas.Preferences:
    user = signed_in(request.bearer())
    choices = body.preferences.model_dump(exclude_none=True)
    notice_preferences.change(api_services.current().reach_store, user.user_id, choices)
    return _preferences(user.user_id)


@router.get("/me/push_devices", tags=TAGS, security=SECURITY, responses=answers(),
            summary="The account's push devices (never their endpoints or keys)")
def get_push_devices() -> schemas.PushDevices:
    user = signed_in(request.bearer())
    return schemas.PushDevices.model_validate(push_subscriptions.devices(api_services.current().reach_store,
                                                                         user.user_id))


@router.post("/me/push_devices", tags=TAGS, security=SECURITY, responses=answers(),
             summary="Register this browser's push subscription (each device its own)")
def post_push_device(body: schemas.PushDeviceRequest) -> Response[schemas.PushDeviceView]:
    user = signed_in(request.bearer())
    services = api_services.current()

    def apply() -> schemas.PushDeviceView:
        added = push_subscriptions.register(
            services.reach_store, services.clock, user.user_id, body.subscription.model_dump(),
            body.label, services.settings.allow_loopback_webhooks)
        return schemas.PushDeviceView(**added)

    return request.intent("push_device", None, body, apply)


@router.delete("/me/push_devices/<device_id>", tags=TAGS, security=SECURITY, responses=answers(),
               summary="Forget one push device")
def delete_push_device(device_id: str) -> schemas.PushDevices:
    user = signed_in(request.bearer())
    store = api_services.current().reach_store
    push_subscriptions.remove(store, user.user_id, device_id)
    return schemas.PushDevices.model_validate(push_subscriptions.devices(store, user.user_id))


def _page(status: int, title: str, text: str, form: str = "") -> Response[str]:
    body = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            '<meta name="viewport" content="width=device-width"></head>'
            f'<body style="font-family:sans-serif;max-width:36em;margin:2em auto;padding:0 1em">'
            f"<h1>{html.escape(title)}</h1><p>{html.escape(text)}</p>{form}</body></html>")
    return Response(status_code=status, content_type=HTML, body=body)


PAGE: dict[int, OpenAPIResponse] = {
    200: {"description": "A page for people", "content": {HTML: {"schema": {"type": "string"}}}},
    400: {"description": "BAD_UNSUBSCRIBE_LINK, as a page",
          "content": {HTML: {"schema": {"type": "string"}}}},
    422: answers()[422],
}


@router.get("/mail/unsubscribe", tags=TAGS, responses=PAGE,
            summary="The unsubscribe link of a mail: a page with the button (following it changes nothing)")
def get_unsubscribe(t: Annotated[str, Query(max_length=400)]) -> Response[str]:
    try:
        _, kind = notice_preferences.read_token(api_services.current().settings.mail_link_key, t)
    except DomainError as error:
        return _page(error.status, "Link not recognised", error.message)
    form = (f'<form method="post" action="?t={html.escape(t, quote=True)}">'
            '<button type="submit" name="List-Unsubscribe" value="One-Click">Unsubscribe</button></form>')
    return _page(200, "Unsubscribe", f"Stop mails of {KIND_WORDS[kind]} from Convoy?", form)


@router.post("/mail/unsubscribe", tags=TAGS, responses=PAGE,
             summary="One-click unsubscribe (RFC 8058): that kind of mail stops for the link's account")
def post_unsubscribe(t: Annotated[str, Query(max_length=400)]) -> Response[str]:
    try:
        services = api_services.current()
        _, kind = notice_preferences.unsubscribe(services.reach_store, services.settings.mail_link_key, t)
    except DomainError as error:
        return _page(error.status, "Link not recognised", error.message)
    return _page(200, "Unsubscribed", f"You will get no more mails of {KIND_WORDS[kind]}. "
                 "Change this any time in the settings of the Convoy web client.")
