"""Reaching players (issue 33): notice preferences, web push, and the notifier's ``Reach`` (live
frames, mail with the turn's map, push). The API reads the preferences and sends test pushes;
the notifier reaches players. This area carries web push (pywebpush, py-vapid) and, through the
mailed map, the renderer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from composition import wiring
from composition.factories import connections

if TYPE_CHECKING:
    from functions.ports.reach import PushSender, ReachStore
    from functions.usecases.reach import Reach


@wiring.once
def reach_store() -> ReachStore:
    from infra.dynamodb.reach_store import DynamoReachStore

    return DynamoReachStore(wiring.settings().game_table)


@wiring.once
def push_sender() -> PushSender | None:
    """VAPID web push, when the deployment has a key (WEB_PUSH_KEY_PARAMETER)."""
    from functions.usecases.reach import endpoint_allowed
    from infra.web_push import VapidPushSender

    s = wiring.settings()
    if not s.web_push_private_key:
        return None
    loopback = s.allow_loopback_webhooks
    return VapidPushSender(s.web_push_private_key, s.web_push_subject,
                           lambda endpoint: endpoint_allowed(endpoint, loopback))


def _resolution_png(game_id: str, phase: str, power: str) -> bytes | None:
    """A turn result's mail picture: the phase's resolution map as the seat's power sees it (the
    public one, but for a fog game's: functions/usecases/maps/map_view.py)."""
    from functions.usecases.maps import MapRequest, map_picture
    from functions.usecases.players import Actor

    request = MapRequest("resolution", "png", 800, "standard", phase)
    return map_picture(wiring.services().store, game_id, Actor("player", power), request).body


@wiring.once
def reach() -> Reach:
    """The notifier's ports for reaching players; a channel without its setting is off."""
    from functions.usecases.reach import Reach
    from infra import aws_clients
    from infra.cognito_contacts import CognitoContacts
    from infra.live_connections import ApiGatewayPoster
    from infra.notification_store import DynamoDeliveryLog
    from infra.ses_mail import SesMailSender

    s = wiring.settings()
    api = wiring.services()
    live = bool(s.live_management_url)
    mail = bool(s.mail_from and s.cognito_user_pool_id)
    queue = wiring.outbox_queue() if s.queue_url else None
    return Reach(
        store=api.store, press=api.press_store, prefs=reach_store(),
        log=DynamoDeliveryLog(aws_clients.dynamodb, s.game_table),
        connections=connections.connection_store() if live else None,
        poster=ApiGatewayPoster(lambda: aws_clients.client("apigatewaymanagementapi", s.live_management_url))
        if live else None,
        mail=SesMailSender(lambda: aws_clients.client("sesv2"), s.mail_from, s.mail_configuration_set)
        if mail else None,
        contacts=CognitoContacts(lambda: aws_clients.client("cognito-idp"), s.cognito_user_pool_id)
        if mail else None,
        push=push_sender(),
        queue=queue,
        delayed=queue,  # type: ignore[arg-type]
        public_url=s.public_url, link_key=s.mail_link_key, operator_token=s.operator_token,
        press_delay=s.press_mail_delay, map_png=_resolution_png,
    )


# looked up at call time, so a test may swap a factory: ``monkeypatch.setattr(reach, ...)``
wiring.provide("reach_store", lambda: reach_store())
wiring.provide("push_sender", lambda: push_sender())
