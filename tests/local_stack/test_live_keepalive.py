"""The live socket's keepalive (issue 29 item 2): a ``ping`` frame reaches no function and gets
no answer, on AWS (template.yaml: a MOCK integration, no route response) as under the local
stack (local_stack/live_socket.py), so a page's keepalive costs one WebSocket message instead of
a subscribe's invocation, game read and view."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from websockets.sync.client import connect
from websockets.typing import Subprotocol

from local_stack.live_socket import MOCK_ROUTES, ROUTES, LiveSocket, route_of
from local_stack.template import load_template, resources_of


def _live_routes() -> dict[str, dict[str, Any]]:
    routes = resources_of(load_template(), "AWS::ApiGatewayV2::Route")
    return {r["RouteKey"]: r for r in routes.values() if r["ApiId"] == {"Ref": "LiveApi"}}


def test_the_template_routes_ping_to_a_mock_without_an_answer() -> None:
    template = load_template()
    routes = _live_routes()
    ping = routes["ping"]
    integration_id = ping["Target"]["Fn::Sub"].removeprefix("integrations/${").removesuffix("}")
    integration = resources_of(template, "AWS::ApiGatewayV2::Integration")[integration_id]
    assert integration["IntegrationType"] == "MOCK"  # no function behind it
    assert "RouteResponseSelectionExpression" not in ping  # one-way: nothing is sent back
    responses = resources_of(template, "AWS::ApiGatewayV2::RouteResponse").values()
    answered = {r["RouteId"]["Ref"] for r in responses}
    assert "LivePingRoute" not in answered


def test_the_local_socket_routes_as_the_template_does() -> None:
    routes = _live_routes()
    # no $connect, no $disconnect (issue 29): the local socket invokes nothing on either
    assert set(routes) == set(ROUTES) | set(MOCK_ROUTES)
    mocked = {key for key, route in routes.items()
              if "LivePingIntegration" in str(route.get("Target"))}
    assert mocked == set(MOCK_ROUTES)
    assert route_of(json.dumps({"action": "ping"})) == "ping"
    assert route_of(json.dumps({"action": "nothing"})) == "$default"


@pytest.fixture()
def socket_and_calls() -> Any:
    calls: list[dict[str, Any]] = []  # the events the function was invoked with

    def function(event: dict[str, Any], _: Any) -> dict[str, Any]:
        calls.append(event)
        if event["requestContext"]["routeKey"] == "subscribe":
            return {"statusCode": 200, "body": json.dumps({"type": "subscribed"})}
        return {"statusCode": 200}

    live = LiveSocket(function).start()
    yield live, calls
    live.stop()


def test_a_ping_invokes_nothing_and_is_not_answered(socket_and_calls: Any) -> None:
    live, calls = socket_and_calls
    with connect(live.url) as client:
        client.send(json.dumps({"action": "ping"}))
        client.send(json.dumps({"action": "subscribe", "game_id": "g"}))
        # the first frame back answers the subscribe: the ping before it got nothing
        assert json.loads(client.recv(timeout=5)) == {"type": "subscribed"}
        with pytest.raises(TimeoutError):
            client.recv(timeout=0.3)
    assert [c["requestContext"]["routeKey"] for c in calls] == ["subscribe"]


def test_the_handshake_and_the_close_invoke_nothing_and_no_subprotocol_is_selected(
    socket_and_calls: Any,
) -> None:
    """As API Gateway without $connect/$disconnect routes: the socket opens with nothing invoked
    and no subprotocol chosen (a client that insists on one fails, as a browser does), every
    frame's event carries the connection's ``connectedAt``, and a close invokes nothing."""
    live, calls = socket_and_calls
    with connect(live.url) as client:
        assert client.subprotocol is None
        client.send(json.dumps({"action": "subscribe", "game_id": "g"}))
        client.recv(timeout=5)
    with connect(live.url, subprotocols=[Subprotocol("convoy")]) as offered:
        assert offered.subprotocol is None  # not selected: a browser would fail the handshake
    time.sleep(0.3)  # both closes are handled
    (event,) = calls
    assert event["requestContext"]["eventType"] == "MESSAGE"
    assert abs(event["requestContext"]["connectedAt"] / 1000 - time.time()) < 10
