"""Webhook hosts: internal names refused at creation; every name resolved at send time
and refused when any address is not public (issue 10; a fake resolver, no network)."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from functions.errors import ValidationFailed
from functions.usecases.notify_targets import check_url
from infra.webhooks import HttpDelivery, HttpSettings, UnsafeUrl
from tests.api.harness import InProcessApi


class FlippingResolver:
    """Answers each lookup from a script: public at first, then an inside address
    (DNS rebinding between creation and send, or between two sends)."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.lookups: list[str] = []

    def __call__(self, host: str, port: int, **_: Any) -> list[tuple[Any, ...]]:
        self.lookups.append(host)
        address = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        return [(family, socket.SOCK_STREAM, 6, "", (address, port))]


@pytest.mark.parametrize("host", [
    "metadata.google.internal", "169.254.169.254.nip.io", "10-0-0-1.sslip.io", "app.127.0.0.1.xip.io",
    "0a000001.nip.io", "metadata", "printer.local", "router.home.arpa", "db.corp", "x.localhost",
    "1.0.0.127.in-addr.arpa",
])
def test_internal_webhook_names_are_refused_at_creation(host: str) -> None:
    with pytest.raises(ValidationFailed):
        check_url(f"https://{host}/hook", allow_loopback=False)


@pytest.mark.parametrize("host", ["hooks.example.com", "8.8.8.8.nip.io", "discord.com", "a-1-2.example.org"])
def test_public_looking_names_pass_creation_and_wait_for_send_time(host: str) -> None:
    assert check_url(f"https://{host}/hook", allow_loopback=False)


def test_the_api_refuses_an_internal_webhook_name(api: InProcessApi) -> None:
    answer = api.call("POST", "/games", {"notify": [{"type": "webhook", "url": "https://metadata.google.internal/x"}]})
    assert (answer.status, answer.body["code"]) == (422, "VALIDATION_ERROR")


@pytest.mark.parametrize("inside", ["169.254.169.254", "10.1.2.3", "127.0.0.1", "::1", "fe80::1", "fd00::1"])
def test_a_name_is_resolved_at_send_time_and_refused_when_it_turns_private(
    monkeypatch: pytest.MonkeyPatch, inside: str
) -> None:
    # Given a name that passed creation (it looks public), now resolving inside
    assert check_url("https://hooks.example.com/x", allow_loopback=False)
    resolver = FlippingResolver(inside)
    opened: list[Any] = []
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: opened.append(a))
    # When a delivery is sent
    delivery = HttpDelivery(HttpSettings(), resolver=resolver)
    with pytest.raises(UnsafeUrl):
        delivery.send_webhook("https://hooks.example.com/x", "secret", {"kind": "X"}, "d1")
    # Then the name was looked up at send time and no connection was opened
    assert resolver.lookups == ["hooks.example.com"]
    assert opened == []


def test_every_send_resolves_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # public for the first send, inside for the second: the second is refused
    resolver = FlippingResolver("93.184.216.34", "10.0.0.7")
    calls: list[Any] = []

    def fake_connect(address: Any, *_: Any, **__: Any) -> Any:
        calls.append(address)
        raise OSError("no network in tests")

    monkeypatch.setattr(socket, "create_connection", fake_connect)
    delivery = HttpDelivery(HttpSettings(), resolver=resolver)
    with pytest.raises(Exception) as first:
        delivery.send_discord("https://hooks.example.com/x", "hello")
    assert not isinstance(first.value, UnsafeUrl)  # vetted, then the (fake) network failed
    assert calls == [("93.184.216.34", 443)]  # pinned to the vetted address
    with pytest.raises(UnsafeUrl):
        delivery.send_discord("https://hooks.example.com/x", "hello")
    assert resolver.lookups == ["hooks.example.com", "hooks.example.com"] and len(calls) == 1


def test_one_private_address_among_public_ones_refuses_the_send(monkeypatch: pytest.MonkeyPatch) -> None:
    def resolver(host: str, port: int, **_: Any) -> list[tuple[Any, ...]]:
        addresses = ("93.184.216.34", "192.168.1.1")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in addresses]

    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: pytest.fail("connected"))
    with pytest.raises(UnsafeUrl):
        HttpDelivery(HttpSettings(), resolver=resolver).send_webhook("https://x.example.com/", "s", {}, "d")
