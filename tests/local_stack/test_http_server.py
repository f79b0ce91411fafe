"""The local API's HTTP layer (issue 9 item 4): waitress parses and limits, the adapter
only maps requests to payload-v2 events; every refusal is JSON with a stable code."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from local_stack.http_adapter import HttpServer


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[HttpServer, list[dict[str, Any]]]]:
    seen: list[dict[str, Any]] = []
    together = threading.Barrier(4, timeout=10)

    def echo(event: dict[str, Any], context: Any) -> dict[str, Any]:
        seen.append(event)
        if event["rawPath"] == "/together":
            together.wait()  # returns only once four requests are inside the handler at once
        body = {"path": event["rawPath"], "body": event["body"], "query": event["queryStringParameters"]}
        return {"statusCode": 201, "headers": {"content-type": "application/json", "x-a": "1"},
                "cookies": ["c=1"], "body": json.dumps(body)}

    running = HttpServer("127.0.0.1", 0, echo, max_body=1000, max_headers=2000).start()
    yield running, seen
    running.stop()


def _raw(port: int, data: bytes) -> tuple[int, dict[str, Any]]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(data)
        received = b""
        while b"\r\n\r\n" not in received or not received.rstrip().endswith(b"}"):
            chunk = conn.recv(65536)
            if not chunk:
                break
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def test_a_request_becomes_an_event_and_the_reply_a_response(server: Any) -> None:
    running, seen = server
    url = f"http://127.0.0.1:{running.port}"
    response = requests.post(url + "/games/x?a=1", json={"k": "v"}, headers={"X-Y": "z"}, timeout=10)
    assert response.status_code == 201
    assert response.headers["x-a"] == "1" and response.cookies["c"] == "1"
    assert response.json() == {"path": "/games/x", "body": '{"k": "v"}', "query": {"a": "1"}}
    event = seen[-1]
    assert event["version"] == "2.0" and event["requestContext"]["http"]["method"] == "POST"
    assert event["headers"]["x-y"] == "z" and event["rawQueryString"] == "a=1"


@pytest.mark.parametrize("length", [b"abc", b"-1", b"1.5"])
def test_a_bad_content_length_is_a_json_400(server: Any, length: bytes) -> None:
    running, _ = server
    status, body = _raw(running.port, b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: " + length
                        + b"\r\n\r\n{}")
    assert (status, body["code"]) == (400, "BAD_REQUEST")


def test_oversized_headers_are_a_json_431(server: Any) -> None:
    running, _ = server
    status, body = _raw(running.port, b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n")
    assert (status, body["code"]) == (431, "HEADERS_TOO_LARGE")


def test_an_oversized_body_is_a_json_413_before_it_is_read(server: Any) -> None:
    running, seen = server
    before = len(seen)
    status, body = _raw(running.port, b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
    assert (status, body["code"]) == (413, "PAYLOAD_TOO_LARGE")
    assert len(seen) == before  # the handler never saw it


def test_a_short_body_holds_up_only_its_own_connection(server: Any) -> None:
    running, _ = server
    with socket.create_connection(("127.0.0.1", running.port), timeout=10) as stalled:
        stalled.sendall(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        response = requests.get(f"http://127.0.0.1:{running.port}/other", timeout=5)
        assert response.status_code == 201


def test_requests_are_served_concurrently(server: Any) -> None:
    """Four requests meet at a barrier inside the handler: one at a time, none would return."""
    running, _ = server
    url = f"http://127.0.0.1:{running.port}/together"
    statuses: list[int] = []

    def get() -> None:
        statuses.append(requests.get(url, timeout=20).status_code)

    threads = [threading.Thread(target=get) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [201] * 4
