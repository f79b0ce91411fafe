"""Outgoing webhooks: the documented signature recipe verifies; the SSRF guard refuses inside addresses.

Only loopback servers started here are ever contacted; every other address is a
mocked `getaddrinfo` answer and is refused before any connection is attempted.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest

from functions.adapters import HttpDeliverer
from functions.ports.notifications import DiscordTarget, OutboxMessage, TelegramTarget, WebhookTarget
from infra.webhooks import (
    DeliveryRejected,
    HttpDelivery,
    HttpSettings,
    UnsafeUrl,
    is_public_address,
    verify_signature,
    vet_url,
)


def resolving_to(*addresses: str) -> Any:
    def resolver(host: str, port: int, **_: Any) -> list[tuple[Any, ...]]:
        family = socket.AF_INET6 if ":" in addresses[0] else socket.AF_INET
        return [(family, socket.SOCK_STREAM, 6, "", (a, port)) for a in addresses]

    return resolver


class Capture(BaseHTTPRequestHandler):
    received: list[tuple[str, dict[str, str], bytes]] = []
    status = 204

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        Capture.received.append((self.path, dict(self.headers.items()), body))
        self.send_response(Capture.status)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    Capture.received = []
    Capture.status = 204
    httpd = HTTPServer(("127.0.0.1", 0), Capture)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


MESSAGE = OutboxMessage(dedupe_key="g1:3", kind="PHASE_PROCESSED", game_id="g1", payload={"phase": "S1901M"})


def test_a_signed_webhook_verifies_with_the_documented_recipe(server: str) -> None:
    # Given a local receiver and a game secret
    http = HttpDelivery(HttpSettings(allow_loopback=True), clock=lambda: 1_900_000_000)
    deliverer = HttpDeliverer(http)

    # When a notice is delivered
    deliverer.deliver(WebhookTarget(f"{server}/hook?x=1", "s3cret"), MESSAGE, "hello")

    # Then the receiver can check it exactly as docs/notifications.md says
    path, headers, body = Capture.received[0]
    timestamp, signature = headers["X-Convoy-Timestamp"], headers["X-Convoy-Signature"]
    delivery = headers["X-Convoy-Delivery"]
    material = timestamp.encode() + b"." + delivery.encode() + b"." + body
    expected = hmac.new(b"s3cret", material, hashlib.sha256).hexdigest()
    assert path == "/hook?x=1"
    assert hmac.compare_digest(signature, expected)
    assert delivery == "g1:3"
    assert json.loads(body)["text"] == "hello" and json.loads(body)["kind"] == "PHASE_PROCESSED"
    assert verify_signature("s3cret", timestamp, body, signature, delivery_id=delivery, now=1_900_000_100)
    assert not verify_signature("wrong", timestamp, body, signature, delivery_id=delivery, now=1_900_000_100)
    assert not verify_signature("s3cret", timestamp, body + b" ", signature, delivery_id=delivery,
                                now=1_900_000_100)
    assert not verify_signature("s3cret", timestamp, body, signature, delivery_id=delivery,
                                now=1_900_001_000)  # replayed late


def test_the_delivery_id_is_signed(server: str) -> None:
    # issue 11: a receiver that drops repeats by X-Convoy-Delivery cannot be fed a replay
    # under a fresh delivery id, because the id is inside the signed material
    HttpDeliverer(HttpDelivery(HttpSettings(allow_loopback=True), clock=lambda: 1_900_000_000)).deliver(
        WebhookTarget(f"{server}/hook", "s3cret"), MESSAGE, "hello"
    )
    _, headers, body = Capture.received[0]
    timestamp, signature = headers["X-Convoy-Timestamp"], headers["X-Convoy-Signature"]
    assert verify_signature("s3cret", timestamp, body, signature, delivery_id="g1:3", now=1_900_000_000)
    assert not verify_signature("s3cret", timestamp, body, signature, delivery_id="g1:4", now=1_900_000_000)


def test_during_a_rotation_both_secrets_sign_and_after_it_only_the_new(server: str) -> None:
    # issue 11: per-target rotation; the receiver may hold the old or the new secret in the window
    delivery = HttpDelivery(HttpSettings(allow_loopback=True), clock=lambda: 1_900_000_000)
    rotated = WebhookTarget(f"{server}/hook", "new-secret", previous_secret="old-secret",
                            previous_until=1_900_000_500)
    HttpDeliverer(delivery, wall_clock=lambda: 1_900_000_000).deliver(rotated, MESSAGE, "hello")
    HttpDeliverer(delivery, wall_clock=lambda: 1_900_000_501).deliver(rotated, MESSAGE, "hello")
    (_, during, body), (_, after, _) = Capture.received
    for secret in ("new-secret", "old-secret"):
        assert verify_signature(secret, during["X-Convoy-Timestamp"], body, during["X-Convoy-Signature"],
                                delivery_id="g1:3", now=1_900_000_000)
    assert during["X-Convoy-Signature"].count(",") == 1
    assert verify_signature("new-secret", after["X-Convoy-Timestamp"], body, after["X-Convoy-Signature"],
                            delivery_id="g1:3", now=1_900_000_000)
    assert not verify_signature("old-secret", after["X-Convoy-Timestamp"], body, after["X-Convoy-Signature"],
                                delivery_id="g1:3", now=1_900_000_000)


class DrippingReceiver:
    """A loopback receiver that answers 200 one byte every ``gap`` seconds (issue 11's 1 byte/s)."""

    def __init__(self, gap: float) -> None:
        self.gap = gap
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.bytes_sent = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        import time

        connection, _ = self.listener.accept()
        with connection:
            connection.recv(65536)
            answer = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
            try:
                for byte in answer:
                    connection.sendall(bytes([byte]))
                    self.bytes_sent += 1
                    time.sleep(self.gap)
            except OSError:
                return  # the client hung up: what the deadline is for

    def close(self) -> None:
        self.listener.close()
        self.thread.join(timeout=10)


def test_a_dripping_receiver_is_cut_off_at_the_wall_clock_deadline() -> None:
    # issue 11: the per-read timeout (here 5 s) never fires when each byte comes within it;
    # the delivery's wall-clock deadline must end it anyway, long before the answer is complete
    import time

    from infra.webhooks import DeliveryTimedOut

    receiver = DrippingReceiver(gap=0.05)  # ~65 bytes: >3 s for the whole answer
    try:
        delivery = HttpDelivery(HttpSettings(allow_loopback=True, timeout_seconds=5.0))
        with pytest.raises(DeliveryTimedOut):
            delivery.send_discord(f"http://127.0.0.1:{receiver.port}/hook", "hello",
                                  deadline=time.monotonic() + 0.5)
    finally:
        receiver.close()
    assert 0 < receiver.bytes_sent < 60  # it was cut off mid-answer, not served to the end


def test_discord_and_telegram_payloads(server: str) -> None:
    settings = HttpSettings(allow_loopback=True, telegram_bot_token="123:ABC", telegram_api_base=server)
    deliverer = HttpDeliverer(HttpDelivery(settings))

    deliverer.deliver(DiscordTarget(f"{server}/api/webhooks/1/t"), MESSAGE, "x" * 2500)
    deliverer.deliver(TelegramTarget(-1001), MESSAGE, "hi @everyone")

    (dpath, _, dbody), (tpath, _, tbody) = Capture.received
    assert dpath == "/api/webhooks/1/t"
    discord = json.loads(dbody)
    assert len(discord["content"]) == 2000 and discord["allowed_mentions"] == {"parse": []}
    assert tpath == "/bot123:ABC/sendMessage"
    assert json.loads(tbody) == {"chat_id": -1001, "text": "hi @everyone"}


def test_non_2xx_answers_are_delivery_failures(server: str) -> None:
    Capture.status = 500
    deliverer = HttpDeliverer(HttpDelivery(HttpSettings(allow_loopback=True)))
    with pytest.raises(DeliveryRejected) as error:
        deliverer.deliver(WebhookTarget(f"{server}/hook", "s"), MESSAGE, "hello")
    assert error.value.status == 500


@pytest.mark.parametrize(
    "address",
    [
        "10.1.2.3",
        "127.0.0.1",
        "169.254.169.254",
        "::1",
        "fc00::1",
        "192.168.0.1",
        "172.16.5.4",
        "100.64.0.1",
        "0.0.0.0",
        "224.0.0.1",
        "::ffff:10.0.0.1",
        "fe80::1",
    ],
)
def test_the_ssrf_guard_refuses_inside_addresses(address: str) -> None:
    assert not is_public_address(address)
    with pytest.raises(UnsafeUrl):
        vet_url("https://hooks.example/x", resolver=resolving_to(address))


def test_one_bad_address_among_good_ones_is_enough_to_refuse() -> None:
    with pytest.raises(UnsafeUrl):
        vet_url("https://hooks.example/x", resolver=resolving_to("93.184.216.34", "10.0.0.1"))


def test_https_to_a_public_address_passes_and_plain_http_does_not() -> None:
    vetted = vet_url("https://hooks.example:8443/a?b=c", resolver=resolving_to("93.184.216.34"))
    assert (vetted.address, vetted.port, vetted.path) == ("93.184.216.34", 8443, "/a?b=c")
    for bad in ("http://hooks.example/x", "ftp://hooks.example/x", "https://user:pw@hooks.example/x"):
        with pytest.raises(UnsafeUrl):
            vet_url(bad, resolver=resolving_to("93.184.216.34"))


def test_allow_loopback_admits_loopback_only() -> None:
    assert (
        vet_url("http://localhost:9/x", allow_loopback=True, resolver=resolving_to("127.0.0.1")).scheme
        == "http"
    )
    for address in ("10.0.0.1", "169.254.169.254", "fc00::1"):
        with pytest.raises(UnsafeUrl):
            vet_url("https://x.example/", allow_loopback=True, resolver=resolving_to(address))
    with pytest.raises(UnsafeUrl):  # without the setting loopback is refused too
        vet_url("http://localhost:9/x", resolver=resolving_to("127.0.0.1"))


def test_a_refused_url_never_opens_a_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_connections(*_: Any, **__: Any) -> Any:
        raise AssertionError("a connection was attempted")

    monkeypatch.setattr(socket, "create_connection", no_connections)
    delivery = HttpDelivery(HttpSettings(), resolver=resolving_to("169.254.169.254"))
    with pytest.raises(UnsafeUrl):
        delivery.send_webhook("https://metadata.example/", "s", {"a": 1}, "k")
