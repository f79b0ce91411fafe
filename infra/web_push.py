"""Web push (issue 33): ``PushSender`` on ``pywebpush`` with the deployment's VAPID key.

pywebpush encrypts the payload for the subscription's keys (RFC 8291, ``aes128gcm`` through
``http_ece``) and signs a VAPID JWT (RFC 8292, through ``py_vapid``) whose audience is the
endpoint's origin; it POSTs with ``requests`` and a timeout. A 404 or 410 answer means the
subscription is gone: ``PushGone``, and the caller drops it. Any other refusal is raised for a
retry.

The key: ``WEB_PUSH_PRIVATE_KEY`` (read from the SecureString ``WEB_PUSH_KEY_PARAMETER`` names:
infra/secrets.py) is the raw P-256 private key, base64url (what ``vapid --gen`` and
``Vapid.from_string`` take); its public key, the browser's ``applicationServerKey``, is derived
from it. ``WEB_PUSH_SUBJECT`` is the ``sub`` claim push services ask for (a mailto: address).
Endpoints are checked before anything is sent by ``allowed`` (the composition root passes the
push-service allowlist of functions/usecases/reach/push_subscriptions.py), again here, so a device
stored before a rule tightened is still refused.
"""

from __future__ import annotations

import base64
import functools
from collections.abc import Callable
from typing import Any

from functions.ports.reach import PushDevice, PushGone


class VapidPushSender:
    def __init__(self, private_key: str, subject: str, allowed: Callable[[str], bool]) -> None:
        self._private_key = private_key
        self._subject = subject
        self._allowed = allowed

    @functools.cached_property
    def _vapid(self) -> Any:
        from py_vapid import Vapid

        return Vapid.from_string(private_key=self._private_key)

    def public_key(self) -> str:
        from cryptography.hazmat.primitives import serialization

        raw = self._vapid.public_key.public_bytes(serialization.Encoding.X962,
                                                  serialization.PublicFormat.UncompressedPoint)
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def send(self, device: PushDevice, payload: bytes, *, ttl: int, timeout: float) -> None:
        from pywebpush import WebPushException, webpush

        if not self._allowed(device.endpoint):
            raise PushGone(device.device_id)  # not a push service (any more): drop the device
        info = {"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth}}
        try:
            webpush(info, data=payload.decode(), vapid_private_key=self._vapid,
                    vapid_claims={"sub": self._subject}, ttl=ttl, timeout=timeout)
        except WebPushException as exc:
            if exc.status_code in (404, 410):
                raise PushGone(device.device_id) from None
            raise
