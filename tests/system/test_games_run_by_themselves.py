"""Issue 5 end to end in the embedded stack: deadlines fire through the emulated Scheduler,
notices travel OUTBOX -> relay -> queue -> notifier -> a signed webhook on a loopback server."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from infra.webhooks import verify_signature
from local_stack.stack import LocalStack, free_port
from testkit.openings import SPRING_1901
from tests.system.client import Api

pytestmark = pytest.mark.system
POWERS = sorted(SPRING_1901)


def _wait_for(what: str, check: Callable[[], Any], timeout: float = 40.0) -> Any:
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _seat_everyone(api: Api, game_id: str) -> dict[str, str]:
    return {
        p: api.call("POST", f"/games/{game_id}/join", body={"power": p})["token"] for p in POWERS
    }


def test_a_game_with_short_deadlines_plays_phases_untouched(stack: LocalStack) -> None:
    api = Api(stack.url)
    # Given a game whose every phase type lasts a second or two
    created = api.call(
        "POST", "/games", expect=201,
        body={"phase_seconds": {"MOVEMENT": 2, "RETREAT": 1, "ADJUSTMENT": 1}},
    )
    game_id = created["game_id"]
    assert api.call("GET", f"/games/{game_id}")["deadline"] is None  # not started yet
    tokens = _seat_everyone(api, game_id)
    assert api.call("GET", f"/games/{game_id}")["deadline"] is not None
    # France moves in Spring; nobody ever calls process_turn
    api.call("POST", f"/games/{game_id}/orders", token=tokens["FRANCE"],
             body={"orders": ["A MAR - SPA", "F BRE - MAO"], "phase": "S1901M"})

    # Then the deadlines alone carry the game into 1902
    def reached_1902() -> Any:
        view = api.call("GET", f"/games/{game_id}")
        return view if view["phase"] in ("S1902M", "F1902M") else None

    view = _wait_for("the game to reach 1902", reached_1902)
    assert view["deadline"] is not None and view["status"] == "ACTIVE"
    phases = [p["phase"] for p in api.call("GET", f"/games/{game_id}/history")["phases"]]
    # France took Spain, so there was an adjustment phase (its build waived at the deadline)
    assert phases[:3] == ["S1901M", "F1901M", "W1901A"] and len(phases) == len(set(phases))  # each once
    units = {u["location"]: u["power"] for u in view["units"]}
    assert units.get("SPA") == "FRANCE" and units.get("MAO") == "FRANCE"


class _Receiver(BaseHTTPRequestHandler):
    received: list[tuple[dict[str, str], bytes]]

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.received.append(({k: v for k, v in self.headers.items()}, body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.fixture
def receiver() -> Iterator[tuple[str, list[tuple[dict[str, str], bytes]]]]:
    received: list[tuple[dict[str, str], bytes]] = []
    handler = type("Receiver", (_Receiver,), {"received": received})
    port = free_port()
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}/hook", received
    server.shutdown()
    server.server_close()


def _recipe(secret: bytes, headers: dict[str, str], body: bytes) -> bool:
    """docs/notifications.md's verification recipe, verbatim."""
    ts, delivery = headers["X-Convoy-Timestamp"], headers["X-Convoy-Delivery"]
    if abs(time.time() - int(ts)) > 300:
        return False
    material = ts.encode() + b"." + delivery.encode() + b"." + body
    expected = hmac.new(secret, material, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, s.strip()) for s in headers["X-Convoy-Signature"].split(","))


def test_a_webhook_receives_each_notice_once_signed(
    stack: LocalStack, receiver: tuple[str, list[tuple[dict[str, str], bytes]]]
) -> None:
    url, received = receiver
    api = Api(stack.url)
    refused = api.call("POST", "/games", expect=422,
                       body={"notify": [{"type": "webhook", "url": "https://10.0.0.1/hook"}]})
    assert refused["code"] == "VALIDATION_ERROR"
    created = api.call("POST", "/games", expect=201, body={"notify": [{"type": "webhook", "url": url}]})
    game_id, secret = created["game_id"], created["webhook_secret"]
    assert secret and secret not in json.dumps(api.call("GET", f"/games/{game_id}"))
    _seat_everyone(api, game_id)
    api.call("POST", f"/games/{game_id}/process_turn", token=created["token"], body={"phase": "S1901M"})
    expected = 7 + 1 + 1  # seven PLAYER_JOINED, PHASE_STARTED, PHASE_PROCESSED
    _wait_for("every notice", lambda: len(received) >= expected)
    time.sleep(2.0)  # a few more pump rounds: nothing is delivered twice
    assert len(received) == expected
    ids = [headers["X-Convoy-Delivery"] for headers, _ in received]
    assert len(set(ids)) == expected
    for headers, body in received:
        assert _recipe(secret.encode(), headers, body)
        stamp, signature = headers["X-Convoy-Timestamp"], headers["X-Convoy-Signature"]
        delivery = headers["X-Convoy-Delivery"]
        assert verify_signature(secret, stamp, body, signature, delivery_id=delivery)
        assert not verify_signature("wrong", stamp, body, signature, delivery_id=delivery)
        document = json.loads(body)
        assert document["game_id"] == game_id and document["id"] == headers["X-Convoy-Delivery"]
    kinds = sorted(json.loads(body)["kind"] for _, body in received)
    assert kinds == ["PHASE_PROCESSED", "PHASE_STARTED"] + ["PLAYER_JOINED"] * 7


def test_creator_pauses_resumes_and_extends_over_http(stack: LocalStack) -> None:
    api = Api(stack.url)
    created = api.call("POST", "/games", expect=201, body={"phase_seconds": {"MOVEMENT": 3600}})
    game_id, creator = created["game_id"], created["token"]
    tokens = _seat_everyone(api, game_id)
    refused = api.call("POST", f"/games/{game_id}/pause", token=tokens["FRANCE"], expect=403)
    assert refused["code"] == "FORBIDDEN"
    paused = api.call("POST", f"/games/{game_id}/pause", token=creator)
    assert paused == {"phase": "S1901M", "deadline": None, "paused": True}
    assert api.call("POST", f"/games/{game_id}/extend", token=creator, body={"seconds": 60},
                    expect=409)["code"] == "NO_DEADLINE"
    resumed = api.call("POST", f"/games/{game_id}/resume", token=creator)
    assert resumed["deadline"] is not None and not resumed["paused"]
    moved = api.call("POST", f"/games/{game_id}/extend", token=creator, body={"seconds": 600})
    assert moved["deadline"] > resumed["deadline"]
    assert api.call("GET", f"/games/{game_id}")["deadline"] == moved["deadline"]
    waiting = api.call("POST", f"/games/{game_id}/wait", token=tokens["ITALY"], body={"wait": True})
    assert waiting == {"phase": "S1901M", "wait_flags": ["ITALY"], "auto_processed": False}
    assert api.call("GET", f"/games/{game_id}")["wait_flags"] == ["ITALY"]
    code = api.call("POST", f"/games/{game_id}/telegram/link_code", token=tokens["ITALY"])
    assert len(code["code"]) == 10
    assert api.call("POST", f"/games/{game_id}/telegram/link_code", token=creator, expect=403)


def test_a_bad_telegram_secret_gets_401(stack: LocalStack) -> None:
    api = Api(stack.url)
    answer = api.call(
        "POST", "/webhooks/telegram", expect=401,
        headers={"X-Telegram-Bot-Api-Secret-Token": "guess"},
        body={"update_id": 1, "message": {"text": "/status", "chat": {"id": 1}, "from": {"id": 1}}},
    )
    assert answer["code"] == "BAD_SECRET"
