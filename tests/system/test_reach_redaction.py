"""Redaction over WebSocket, mail and push (issue 33, "Done when"): 0 leaks across all seven powers.

Seven accounts each hold a power, follow the game over a live socket (four with the seat token,
three with the ID token), and have a push device on a loopback push service. Every power orders
and sends private press, each message marked with a unique word, to one neighbour and one
message to everyone; then the sockets close and a second round of press goes out while everyone
is away (their subscriptions are forgotten when its frames meet the closed sockets), so it
reaches them as batched mail and push; then the turn is processed.

A leak is: a frame, mail or decrypted push that a power received and that shows another power's
pending order before adjudication, or the marker of a private message of a channel that power is
not in. The count must be 0 — and each power must have received the markers of its own channels
over each way that carries text (the check can fail).
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import connect

from composition import wiring
from local_stack.stack import LocalStack
from testkit.openings import SPRING_1901
from tests.system.client import Api
from tests.system.test_games_run_by_themselves import _wait_for
from tests.system.test_redaction import _seat_accounts
from tests.system.test_web_push import Device, PushService

pytestmark = pytest.mark.system
POWERS = sorted(SPRING_1901)
NEIGHBOUR = {p: POWERS[(i + 1) % len(POWERS)] for i, p in enumerate(POWERS)}


@pytest.fixture()
def quick_press_mail(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Press received while away is mailed after 1 s instead of 10 minutes (the notifier runs in
    this process under the local stack: its settings are read again after the reset)."""
    monkeypatch.setenv("PRESS_MAIL_DELAY_SECONDS", "1")
    wiring.reset()
    yield
    monkeypatch.undo()
    wiring.reset()


class Listener:
    """One power's live socket: every frame it receives, kept."""

    def __init__(self, url: str, token: str, game_id: str) -> None:
        self.frames: list[dict[str, Any]] = []
        self.socket = connect(url).__enter__()  # no subprotocol: the token rides in the frame
        self.socket.send(json.dumps({"action": "subscribe", "game_id": game_id, "token": token}))
        self.first = json.loads(self.socket.recv(timeout=10))
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for frame in self.socket:
                self.frames.append(json.loads(frame))
        except Exception:
            return

    def close(self) -> None:
        self.socket.close()
        self._thread.join(timeout=5)


def _marker(sender: str, channel: str, round_: str) -> str:
    return f"mk-{round_}-{sender}-{channel.replace(',', '+')}-{uuid.uuid4().hex[:6]}"


def test_no_socket_mail_or_push_shows_one_power_what_belongs_to_another(
    stack: LocalStack, quick_press_mail: None,
) -> None:
    api = Api(stack.url)
    created = api.call("POST", "/games", body={"variant": "classical"}, expect=201)
    game, creator = created["game_id"], created["token"]
    tokens, jwts = _seat_accounts(api, stack, game)
    users = {p: api.call("GET", "/me", token=jwts[p])["user_id"] for p in POWERS}
    service = PushService()
    devices = _register_push_devices(api, jwts, service)
    url = api.call("GET", f"/games/{game}/live")["url"]
    listeners = {p: Listener(url, jwts[p] if i % 2 else tokens[p], game) for i, p in enumerate(POWERS)}
    private: dict[str, tuple[str, tuple[str, ...]]] = {}  # marker -> (channel, members)
    try:
        # orders and the first round of press, everyone on the page
        for p in POWERS:
            api.call("POST", f"/games/{game}/orders", token=tokens[p], body={"orders": SPRING_1901[p]})
        _press_each_neighbour(api, game, tokens, "live", private)
        public = f"mk-public-{uuid.uuid4().hex[:6]}"
        api.call("POST", f"/games/{game}/messages", token=tokens["FRANCE"],
                 body={"to": "ALL", "text": public}, expect=201)
        _wait_for("every socket saw the public message", lambda: all(
            any(f.get("type") == "message" and f["message"]["text"] == public for f in listeners[p].frames)
            for p in POWERS), timeout=30)
    finally:
        for listener in listeners.values():
            listener.close()
    # the second round while everyone is away: batched into one mail and one push each
    # the socket server has seen the closes; nothing told the function (no $disconnect route): the
    # subscriptions stay until this round's frames meet 410, so the powers count as away
    time.sleep(1.0)
    _press_each_neighbour(api, game, tokens, "away", private)
    addresses = {p: _address(stack, users[p]) for p in POWERS}
    _wait_for("press mail for everyone",
              lambda: all(_mails(stack, addresses[p], "new message") for p in POWERS), timeout=40)
    api.call("POST", f"/games/{game}/process_turn", token=creator, body={"phase": "S1901M"})
    _wait_for("turn results for everyone",
              lambda: all(_mails(stack, addresses[p], "resolved") for p in POWERS), timeout=40)
    _wait_for("pushes for everyone", lambda: all(len(_pushes(service, devices, p)) >= 2 for p in POWERS))
    service.stop()

    leaks: list[str] = []
    for p in POWERS:
        frames = [json.dumps({k: v for k, v in (f.get("view") or {}).items() if k != "legal_orders"})
                  if f.get("type") == "view" else json.dumps(f) for f in listeners[p].frames]
        mails = [m.as_string() for m in stack.emulator.mailbox.mails_for(addresses[p])]
        pushes = [json.dumps(body) for body in _pushes(service, devices, p)]
        leaks += _leaks_to(p, (("socket", frames), ("mail", mails), ("push", pushes)), private)
        for f in listeners[p].frames:
            if f.get("type") == "view":
                assert set(f["view"]["orders"]) <= {p} and f["view"]["power"] == p
        # the checks can fail: each power got its own channels' words where text travels
        mine = [m for m, (_, members) in private.items() if p in members and m.split("-")[2] != p]
        assert any(m in frame for frame in frames for m in mine if "-live-" in m), p
        assert all(any(m in mail for mail in mails) for m in mine if "-away-" in m), p
        assert all(m not in push for push in pushes for m in mine), p  # a push says who, never what
    assert leaks == []


def _register_push_devices(api: Api, jwts: dict[str, str], service: PushService) -> dict[str, Device]:
    """One push device per power's account, each at its own path of the push service."""
    devices = {p: Device(f"{service.origin}/push/{p}") for p in POWERS}
    for p in POWERS:
        api.call("POST", "/me/push_devices", token=jwts[p],
                 body={"subscription": devices[p].subscription()})
    return devices


def _press_each_neighbour(api: Api, game: str, tokens: dict[str, str], round_: str,
                          private: dict[str, tuple[str, tuple[str, ...]]]) -> None:
    """Every power writes to its neighbour on their private channel; each text is a marker kept
    in ``private`` with its channel and members, so any copy of it outside them is a leak."""
    for p in POWERS:
        members = tuple(sorted((p, NEIGHBOUR[p])))
        text = _marker(p, ",".join(members), round_)
        sent = api.call("POST", f"/games/{game}/messages", token=tokens[p],
                        body={"to": [NEIGHBOUR[p]], "text": text}, expect=201)
        private[text] = (sent["channel"], members)


def _leaks_to(p: str, ways: tuple[tuple[str, list[str]], ...],
              private: dict[str, tuple[str, tuple[str, ...]]]) -> list[str]:
    """What reached ``p`` by each way that is not its: another power's order, or a marker of a
    private channel ``p`` is not a member of."""
    leaks: list[str] = []
    for way, seen in ways:
        leaks += [f"{way} to {p}: {other}'s order {order!r}" for text in seen for other in POWERS
                  if other != p for order in SPRING_1901[other] if order in text]
        leaks += [f"{way} to {p}: press of {channel}" for text in seen
                  for marker, (channel, members) in private.items()
                  if p not in members and marker in text]
    return leaks


def _address(stack: LocalStack, user_id: str) -> str:
    from infra import aws_clients

    pool = stack.emulator.resources["COGNITO_USER_POOL_ID"]
    user = aws_clients.client("cognito-idp").admin_get_user(UserPoolId=pool, Username=user_id)
    address: str = next(a["Value"] for a in user["UserAttributes"] if a["Name"] == "email")
    return address


def _mails(stack: LocalStack, address: str, words: str) -> list[Any]:
    return [m for m in stack.emulator.mailbox.mails_for(address) if words in str(m["Subject"])]


def _pushes(service: PushService, devices: dict[str, Device], power: str) -> list[dict[str, Any]]:
    return [devices[power].decrypt(body) for path, _, body in service.received if path == f"/push/{power}"]
