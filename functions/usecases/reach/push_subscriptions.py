"""Web push (issue 33 item 3): an account's devices, and a notice as a push message.

Each browser that allows notifications gives the client a ``PushSubscription`` (an endpoint
URL of its browser's push service and two keys); the client registers it with
``POST /me/push_devices`` and every device of the account gets every push (diplicity's users
complained for years that only the last device did, diplicity #113). A device is known by the
SHA-256 of its endpoint, so registering it again replaces it rather than adding a twin. A
subscription the push service calls gone (404/410) is dropped when a push finds out.

Endpoints come from browsers, so they are checked before anything is stored or sent: https,
no credentials, no explicit port, and a host under a known push service (``PUSH_SERVICES``:
Google's FCM (Chrome, Edge's Chromium), Mozilla's autopush, Microsoft's WNS, Apple's web push).
That allowlist, not a resolver check, is what keeps a player from making the notifier POST to
an address of their choosing (SSRF); ``allow_loopback`` (local runs and tests, the same switch
as webhooks) also admits ``http://127.0.0.1``, where the tests' stand-in push service listens.

The payload is small JSON the service worker shows as a notification: ``{"title", "body",
"url", "tag"}``; push services cap payloads near 4 KB, and a lock screen is no place for press,
so press pushes say who wrote, never what.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from functions.errors import PushEndpointNotAllowed, TooManyDevices, ValidationFailed
from functions.ports import Clock
from functions.ports.reach import PushDevice, ReachStore
from functions.usecases.game import iso
from functions.usecases.reach.personal_notices import Notice

MAX_DEVICES = 10
PUSH_TTL_SECONDS = 6 * 3600  # a phone offline for longer gets the next notice instead
PUSH_SERVICES = (
    "fcm.googleapis.com",  # Chrome, Chromium-based browsers
    "android.googleapis.com",
    "updates.push.services.mozilla.com",  # Firefox
    "push.services.mozilla.com",
    "notify.windows.com",  # Edge (legacy), Windows
    "push.apple.com",  # Safari (web.push.apple.com)
)


def device_id_of(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()[:32]


def check_endpoint(endpoint: str, allow_loopback: bool = False) -> None:
    """``PUSH_ENDPOINT_NOT_ALLOWED`` unless ``endpoint`` is a known push service's https URL."""
    parts = urlsplit(endpoint)
    host = (parts.hostname or "").lower()
    if allow_loopback and parts.scheme in ("http", "https") and _loopback(host) and not parts.username:
        return
    known = any(host == s or host.endswith("." + s) for s in PUSH_SERVICES)
    if parts.scheme != "https" or parts.username or parts.password or parts.port or not known:
        raise PushEndpointNotAllowed("a push subscription must name a known push service over https")


def endpoint_allowed(endpoint: str, allow_loopback: bool = False) -> bool:
    try:
        check_endpoint(endpoint, allow_loopback)
    except PushEndpointNotAllowed:
        return False
    return True


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def register(store: ReachStore, clock: Clock, user_id: str, subscription: Mapping[str, Any],
             label: str = "", allow_loopback: bool = False) -> dict[str, Any]:
    """Store one device's subscription (``PushSubscription.toJSON()``): its device id."""
    endpoint = str(subscription.get("endpoint") or "")
    keys = subscription.get("keys") or {}
    p256dh, auth = str(keys.get("p256dh") or ""), str(keys.get("auth") or "")
    if not endpoint or not p256dh or not auth:
        raise ValidationFailed("a push subscription needs endpoint, keys.p256dh and keys.auth")
    check_endpoint(endpoint, allow_loopback)
    device = PushDevice(device_id_of(endpoint), endpoint, p256dh, auth, iso(clock.now()), label[:60])
    if not store.add_device(user_id, device, MAX_DEVICES):
        raise TooManyDevices(f"an account may register at most {MAX_DEVICES} push devices; remove one first")
    return {"device_id": device.device_id, "label": device.label, "created_at": device.created_at}


def devices(store: ReachStore, user_id: str) -> dict[str, Any]:
    """The account's devices, without their keys or endpoints (those are the device's secrets)."""
    return {"devices": [{"device_id": d.device_id, "label": d.label, "created_at": d.created_at}
                        for d in store.devices(user_id)]}


def remove(store: ReachStore, user_id: str, device_id: str) -> None:
    store.remove_device(user_id, device_id)


def payload_for(notice: Notice) -> bytes:
    """The push message of a notice: its subject and first line, and the game's page."""
    body = {"title": notice.subject, "body": notice.lines[0] if notice.lines else "",
            "url": notice.link, "tag": f"{notice.game_id}:{notice.kind}"}
    return json.dumps(body, separators=(",", ":")).encode()
