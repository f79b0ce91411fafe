"""The live socket's keepalive (issue 29 item 2): a ``ping`` frame reaches no function and gets
no answer, on AWS (template.yaml: a MOCK integration, no route response) as under the local
stack (local_stack/live_socket.py), so a page's keepalive costs one WebSocket message instead of
a subscribe's invocation, game read and view."""

from __future__ import annotations

import json
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
    assert set(routes) - {"$connect", "$disconnect"} == set(ROUTES) | set(MOCK_ROUTES)
    mocked = {key for key, route in routes.items()
              if "LivePingIntegration" in str(route.get("Target"))}
    assert mocked == set(MOCK_ROUTES)
    assert route_of(json.dumps({"action": "ping"})) == "ping"
    assert route_of(json.dumps({"action": "nothing"})) == "$default"


@pytest.fixture()
def socket_and_calls() -> Any:
    calls: list[str] = []

    def function(event: dict[str, Any], _: Any) -> dict[str, Any]:
        route = event["requestContext"]["routeKey"]
        calls.append(route)
        if route == "subscribe":
            return {"statusCode": 200, "body": json.dumps({"type": "subscribed"})}
        return {"statusCode": 200}

    live = LiveSocket(function).start()
    yield live, calls
    live.stop()


def test_a_ping_invokes_nothing_and_is_not_answered(socket_and_calls: Any) -> None:
    live, calls = socket_and_calls
    with connect(live.url, subprotocols=[Subprotocol("convoy")]) as client:
        client.send(json.dumps({"action": "ping"}))
        client.send(json.dumps({"action": "subscribe", "game_id": "g"}))
        # the first frame back answers the subscribe: the ping before it got nothing
        assert json.loads(client.recv(timeout=5)) == {"type": "subscribed"}
        with pytest.raises(TimeoutError):
            client.recv(timeout=0.3)
    assert calls[:2] == ["$connect", "subscribe"]
