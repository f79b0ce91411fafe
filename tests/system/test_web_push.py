"""Web push over the local stack (issue 33, "Done when"): one account, two devices, each its own
subscription; a turn result reaches both through a loopback push service that checks what a real
one checks: a VAPID JWT (RFC 8292) signed with the key the API hands browsers, for the push
service's own origin, and a body only the device can decrypt (RFC 8291 ``aes128gcm``: decrypted
here with the device's private key and auth secret through ``http_ece``, what pywebpush uses).
A subscription the service calls gone (410) is dropped. Devices are listed without their keys.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from local_stack.stack import LocalStack
from testkit.openings import SPRING_1901
from tests.system.client import Api
from tests.system.test_games_run_by_themselves import _wait_for
from tests.system.test_reminder_mail import account

pytestmark = pytest.mark.system


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """A push service on loopback: keeps each request; ``/gone/...`` answers 410."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        received = self.received

        class Handle(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(410 if self.path.startswith("/gone/") else 201)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handle)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.origin = f"http://127.0.0.1:{self._server.server_address[1]}"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture()
def push_service() -> Iterator[PushService]:
    service = PushService()
    yield service
    service.stop()


class Device:
    """A browser's side of a push subscription: its ECDH key pair and auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        message: dict[str, Any] = json.loads(plain)
        return message


def check_vapid(headers: dict[str, str], origin: str, server_key: str) -> dict[str, Any]:
    """RFC 8292: ``Authorization: vapid t=<JWT>, k=<public key>``; the JWT is ES256 by that key,
    for this push service's origin, expiring within a day; returns its claims."""
    scheme, _, fields = headers["authorization"].partition(" ")
    assert scheme.lower() == "vapid"
    parts = dict(part.strip().split("=", 1) for part in fields.split(","))
    assert parts["k"] == server_key
    point = unb64(parts["k"])
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    claims = jwt.decode(parts["t"], public, algorithms=["ES256"], audience=origin)
    assert claims["sub"].startswith(("mailto:", "https://"))
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    return claims


def test_a_turn_result_reaches_both_devices_of_one_account_encrypted_and_vapid_signed(
    stack: LocalStack, push_service: PushService,
) -> None:
    # Given an account playing FRANCE with two devices (and a third its push service calls gone)
    api = Api(stack.url)
    _, me = account(api, stack, "Pushy")
    game = api.call("POST", "/games", body={"variant": "classical"}, token=me, expect=201)["game_id"]
    tokens = {"FRANCE": api.call("POST", f"/games/{game}/join", token=me, body={"power": "FRANCE"})["token"]}
    for power in SPRING_1901:
        if power not in tokens:
            tokens[power] = api.call("POST", f"/games/{game}/join", body={"power": power})["token"]
    server_key = api.call("GET", "/me/notifications", token=me)["push_key"]
    assert server_key
    phone, laptop = (Device(f"{push_service.origin}/push/{uuid.uuid4().hex}") for _ in range(2))
    stale = Device(f"{push_service.origin}/gone/{uuid.uuid4().hex}")
    for device, label in ((phone, "phone"), (laptop, "laptop"), (stale, "old tablet")):
        api.call("POST", "/me/push_devices", token=me,
                 body={"subscription": device.subscription(), "label": label})
    listed = api.call("GET", "/me/push_devices", token=me)["devices"]
    assert sorted(d["label"] for d in listed) == ["laptop", "old tablet", "phone"]
    assert "endpoint" not in json.dumps(listed) and "p256dh" not in json.dumps(listed)

    # When the turn is processed
    for power, orders in SPRING_1901.items():
        api.call("POST", f"/games/{game}/orders", token=tokens[power], body={"orders": orders})
    api.call("POST", f"/games/{game}/process_turn", token=me, body={"phase": "S1901M"})

    # Then each live device got one push, VAPID-signed, that only it can read
    def turn_pushes() -> list[tuple[str, dict[str, str], bytes]]:
        return [r for r in push_service.received if not r[0].startswith("/gone/")]

    _wait_for("two pushes", lambda: len(turn_pushes()) >= 2, timeout=20)
    time.sleep(1.0)  # nothing more comes (delivered once)
    by_path = {path: (headers, body) for path, headers, body in turn_pushes()}
    assert len(turn_pushes()) == 2 and len(by_path) == 2
    for device in (phone, laptop):
        headers, body = by_path[device.endpoint.removeprefix(push_service.origin)]
        check_vapid(headers, push_service.origin, server_key)
        assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
        shown = device.decrypt(body)
        assert shown["title"].endswith("S1901M resolved") and shown["url"].endswith(f"#/games/{game}")
        other = laptop if device is phone else phone
        with pytest.raises(Exception):  # noqa: B017 - http_ece raises its own or cryptography's
            other.decrypt(body)
    # the gone device was tried once and dropped
    assert sum(1 for r in push_service.received if r[0].startswith("/gone/")) == 1
    _wait_for("the gone device dropped",
              lambda: len(api.call("GET", "/me/push_devices", token=me)["devices"]) == 2)


def test_a_push_endpoint_that_is_no_push_service_is_refused(stack: LocalStack) -> None:
    api = Api(stack.url)
    _, me = account(api, stack, "Sneaky")
    device = Device("https://metadata.internal.example/latest")
    answer = api.call("POST", "/me/push_devices", token=me, body={"subscription": device.subscription()},
                      expect=422)
    assert answer["code"] == "PUSH_ENDPOINT_NOT_ALLOWED"
    assert api.call("GET", "/me/push_devices", token=me)["devices"] == []
