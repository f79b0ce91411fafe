"""Webhook hosts: internal names refused at creation; every name resolved at send time
and refused when any address is not public (issue 10; a fake resolver, no network)."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from functions.errors import ValidationFailed
from functions.usecases.notifications.notify_targets import check_url
from infra.webhooks import HttpDelivery, HttpSettings, UnsafeUrl
from testkit.api_harness import InProcessApi


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


# Issue 28 item 8: every IPv6 form that carries an IPv4 address is judged by that address
# (functions/ports/addresses.py). 6to4 slipped through: Python 3.11 calls 2002::/16 global.
EMBEDDING_INSIDE = [
    "2002:a9fe:a9fe::1",  # 6to4 of 169.254.169.254 (the metadata service)
    "2002:7f00:1::1",  # 6to4 of 127.0.0.1
    "2002:a00:1::",  # 6to4 of 10.0.0.1
    "::ffff:169.254.169.254",  # IPv4-mapped
    "::ffff:0:a00:1",  # IPv4-translated (SIIT) of 10.0.0.1
    "::127.0.0.1",  # IPv4-compatible
    "64:ff9b::a9fe:a9fe",  # NAT64 well-known prefix
    "64:ff9b:1::a9fe:a9fe",  # NAT64 local-use, /96 layout
    "64:ff9b:1:a9fe:a9:fe00::",  # NAT64 local-use, /48 layout
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, client 127.0.0.1
    "2600::5efe:a00:1",  # ISATAP interface id of 10.0.0.1
]


@pytest.mark.parametrize("address", EMBEDDING_INSIDE)
def test_an_ipv6_literal_embedding_an_inside_ipv4_address_is_refused_at_creation(address: str) -> None:
    with pytest.raises(ValidationFailed):
        check_url(f"https://[{address}]/hook", allow_loopback=False)


@pytest.mark.parametrize("address", EMBEDDING_INSIDE)
def test_a_name_resolving_to_an_ipv6_address_embedding_an_inside_ipv4_address_is_refused_at_send(
    monkeypatch: pytest.MonkeyPatch, address: str
) -> None:
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: pytest.fail("connected"))
    delivery = HttpDelivery(HttpSettings(), resolver=FlippingResolver(address))
    with pytest.raises(UnsafeUrl):
        delivery.send_webhook("https://hooks.example.com/x", "secret", {"kind": "X"}, "d1")


@pytest.mark.parametrize("address", ["2002:808:808::1", "64:ff9b::808:808", "2606:4700:4700::1111"])
def test_ipv6_addresses_embedding_a_public_ipv4_address_are_judged_by_it(
    monkeypatch: pytest.MonkeyPatch, address: str
) -> None:
    calls: list[Any] = []

    def fake_connect(target: Any, *_: Any, **__: Any) -> Any:
        calls.append(target)
        raise OSError("no network in tests")

    monkeypatch.setattr(socket, "create_connection", fake_connect)
    assert check_url(f"https://[{address}]/hook", allow_loopback=False)
    delivery = HttpDelivery(HttpSettings(), resolver=FlippingResolver(address))
    with pytest.raises(Exception) as failed:
        delivery.send_webhook("https://hooks.example.com/x", "secret", {"kind": "X"}, "d1")
    assert not isinstance(failed.value, UnsafeUrl) and calls == [(address, 443)]


def test_many_names_for_one_address_share_its_connection_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28 item 7: per-host limits were dodged with many host names. Whatever the names
    (and their registrable domains), one resolved address gets PER_ADDRESS connections at once."""
    import threading

    from infra.webhooks import PER_ADDRESS, AddressGates

    connected, release = threading.Semaphore(0), threading.Event()
    open_now: list[int] = [0]
    most: list[int] = [0]
    lock = threading.Lock()

    def hanging_connect(address: Any, *_: Any, **__: Any) -> Any:
        with lock:
            open_now[0] += 1
            most[0] = max(most[0], open_now[0])
        connected.release()
        release.wait(timeout=20)
        with lock:
            open_now[0] -= 1
        raise OSError("no network in tests")

    monkeypatch.setattr(socket, "create_connection", hanging_connect)
    delivery = HttpDelivery(HttpSettings(timeout_seconds=30), resolver=FlippingResolver("93.184.216.34"),
                            gates=AddressGates())
    names = ["hooks.alpha.example", "hooks.beta.example", "www.gamma.example", "x.delta.example"]
    sends = [threading.Thread(target=_quietly, args=(delivery.send_discord, f"https://{n}/x", "hi"))
             for n in names]
    for send in sends:
        send.start()
    for _ in range(PER_ADDRESS):
        assert connected.acquire(timeout=20)
    assert not connected.acquire(timeout=0.5)  # the others wait for the address, not connected
    release.set()
    for send in sends:
        send.join(timeout=30)
    assert most[0] == PER_ADDRESS


def _quietly(call: Any, *args: Any) -> None:
    try:
        call(*args)
    except Exception:
        return
