"""The WebSocket API under ``make run`` (issue 33): a real WebSocket server in front of the live
function, as API Gateway's WebSocket API is on AWS, and its Management API.

Why ``websockets`` (17.4, pinned in pyproject.toml's dev extras): the protocol implementation
the Python world relies on (RFC 6455 framing, the handshake, subprotocol selection, close codes,
ping/pong and size limits, all tested against the Autobahn suite), maintained for a decade,
pure Python with an optional C speed-up, and it has a *threaded* server
(``websockets.sync.server``): the live function is synchronous like every Lambda handler, so
a thread per connection calls it directly with no event loop in between, and ``send`` may be
called from any thread (the notifier's pump posts from its own). aiohttp or uvicorn would add
an HTTP framework the local stack already has (waitress) and an event loop it does not need.
The server is on its own port beside waitress: waitress is WSGI and cannot upgrade a connection.

What it does, as API Gateway does:

- a handshake is accepted with nothing invoked and no subprotocol selected: the template has
  no ``$connect`` route, and API Gateway then accepts every connection itself (a browser that
  offered a subprotocol fails the handshake, as it would on AWS); the connection gets a fresh
  ``connectionId`` and its ``connectedAt``;
- a text frame becomes a ``MESSAGE`` event (``requestContext`` with the ``connectionId`` and
  ``connectedAt``) routed by its JSON ``action`` (the template's route selection expression
  ``$request.body.action``) to ``subscribe``; the answer's body is sent back (a two-way route);
  ``ping`` (the keepalive) goes to the template's MOCK integration: nothing is invoked and
  nothing sent back; any other action is answered ``{"message": "Forbidden"}``, as API Gateway
  answers a message no route takes;
- a close invokes nothing: the template has no ``$disconnect`` route (the connection's
  subscriptions stay until a post meets 410, below, or their TTL);
- the Management API: the emulator's ``PostToConnection`` (moto's ``apigatewaymanagementapi``,
  patched here) sends the data on the open socket and answers 410 ``GoneException`` for a
  connection that is not open, which is how the notifier's real boto3 adapter finds a closed one.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import string
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

from local_stack.patching import replace, replaced

Handler = Callable[[dict[str, Any], Any], dict[str, Any]]
log = logging.getLogger("convoy.local.live")
ROUTES = ("subscribe",)  # template.yaml's LiveApi routes to the function (no $connect, no $disconnect)
MOCK_ROUTES = ("ping",)  # template.yaml's LiveApi routes to a MOCK integration without a response
STAGE = "live"
MAX_MESSAGE_BYTES = 128 * 1024  # API Gateway's WebSocket message limit


def _context(connection_id: str, route: str, event_type: str, connected_at: float, source_ip: str,
             user_agent: str, host: str, **extra: Any) -> dict[str, Any]:
    now = time.time()
    return {
        "routeKey": route, "eventType": event_type, "messageDirection": "IN",
        "extendedRequestId": uuid.uuid4().hex[:16], "requestId": uuid.uuid4().hex[:16],
        "requestTime": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(now)),
        "requestTimeEpoch": int(now * 1000), "connectedAt": int(connected_at * 1000),
        "stage": STAGE, "domainName": host, "apiId": "local", "connectionId": connection_id,
        "identity": {"sourceIp": source_ip, "userAgent": user_agent}, **extra,
    }


def message_event(connection_id: str, body: str, route: str, connected_at: float,
                  source_ip: str = "127.0.0.1", host: str = "127.0.0.1") -> dict[str, Any]:
    """A ``MESSAGE`` event of one text frame routed to ``route``."""
    return {
        "body": body, "isBase64Encoded": False,
        "requestContext": _context(connection_id, route, "MESSAGE", connected_at, source_ip, "", host,
                                   messageId=uuid.uuid4().hex[:16]),
    }


def route_of(body: str) -> str:
    """The route a frame goes to (``$request.body.action``); ``$default`` when none matches."""
    try:
        action = json.loads(body).get("action")
    except (ValueError, AttributeError):
        return "$default"
    return action if action in ROUTES or action in MOCK_ROUTES else "$default"


def new_connection_id() -> str:
    """An id shaped like API Gateway's (``L0SM9cOFvHcCIhw=``: 15 letters and digits and a ``=``;
    never ``/`` or ``+``, which the Management API's path could not carry)."""
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(15)) + "="


class LiveSocket:
    """The local WebSocket API: ``url`` for clients, ``post``/``close`` for the Management API."""

    def __init__(self, handler: Handler, host: str = "127.0.0.1", port: int = 0) -> None:
        self._handler = handler
        self._host, self._port = host, port
        self._open: dict[str, Any] = {}  # connection id -> websockets ServerConnection
        self._lock = threading.Lock()
        self._server: Any = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"ws://{self._host}:{self._port}"

    def start(self) -> LiveSocket:
        from websockets.sync.server import serve

        logging.getLogger("websockets").setLevel(logging.WARNING)
        # subprotocols=None: none is ever selected, as API Gateway selects none without $connect
        self._server = serve(self._serve, self._host, self._port, subprotocols=None,
                             max_size=MAX_MESSAGE_BYTES, compression=None,
                             server_header="convoy-local-live", ping_interval=30, ping_timeout=30)
        self._port = int(self._server.socket.getsockname()[1])
        self._thread = threading.Thread(target=self._server.serve_forever, name="convoy-live", daemon=True)
        self._thread.start()
        install_management_api(self)
        return self

    def stop(self) -> None:
        uninstall_management_api(self)
        if self._server is not None:
            self._server.shutdown()
            self._server = None
        with self._lock:
            connections = list(self._open.values())
        for connection in connections:
            connection.close()

    # --- frames (the handshake and the close invoke nothing) ----------------------------

    def _serve(self, connection: Any) -> None:
        """One open connection (the handshake is done): its frames, until it closes."""
        from websockets.exceptions import ConnectionClosed

        connection_id, at, ip = new_connection_id(), time.time(), _ip(connection)
        with self._lock:
            self._open[connection_id] = connection
        try:
            with contextlib.suppress(ConnectionClosed):  # a broken connection ends as a closed one
                for frame in connection:
                    text = frame if isinstance(frame, str) else frame.decode("utf-8", "replace")
                    self._frame(connection, connection_id, text, at, ip)
        finally:
            with self._lock:
                self._open.pop(connection_id, None)

    def _frame(self, connection: Any, connection_id: str, text: str, at: float, ip: str) -> None:
        route = route_of(text)
        if route == "$default":
            connection.send(json.dumps({"message": "Forbidden", "connectionId": connection_id}))
        elif route not in MOCK_ROUTES:  # a ping (the keepalive) invokes nothing, is not answered
            answer = self._invoke(message_event(connection_id, text, route, at, ip))
            if answer.get("body"):
                connection.send(str(answer["body"]))

    def _invoke(self, event: dict[str, Any]) -> dict[str, Any]:
        try:
            return self._handler(event, None) or {}
        except Exception:  # a crashed function: API Gateway answers 500 (and drops the frame)
            log.exception("live function failed on %s", event["requestContext"]["routeKey"])
            return {"statusCode": 500}

    # --- the Management API -------------------------------------------------------------

    def post(self, connection_id: str, data: bytes) -> bool:
        """Send ``data`` on the connection; False if it is not open (the API's 410)."""
        with self._lock:
            connection = self._open.get(connection_id)
        if connection is None:
            return False
        try:
            connection.send(data.decode("utf-8"))
        except Exception:
            return False
        return True

    def close(self, connection_id: str) -> bool:
        with self._lock:
            connection = self._open.get(connection_id)
        if connection is not None:
            connection.close()
        return connection is not None


def _ip(connection: Any) -> str:
    try:
        return str(connection.remote_address[0])
    except (AttributeError, IndexError, TypeError, OSError):
        return "127.0.0.1"


# --- moto's apigatewaymanagementapi, answering for the open sockets ------------------------------

_sockets: list[LiveSocket] = []


def install_management_api(socket: LiveSocket) -> None:
    """Route the emulator's PostToConnection/DeleteConnection to ``socket`` (idempotent patch)."""
    from moto.apigatewaymanagementapi.models import ApiGatewayManagementApiBackend
    from moto.core.exceptions import JsonRESTError

    _sockets[:] = [socket]
    if replaced(ApiGatewayManagementApiBackend, "post_to_connection"):
        return
    original_post = ApiGatewayManagementApiBackend.post_to_connection
    original_delete = ApiGatewayManagementApiBackend.delete_connection

    class GoneException(JsonRESTError):
        code = 410

        def __init__(self, connection_id: str) -> None:
            super().__init__("GoneException", f"connection {connection_id} is gone")

    def post_to_connection(self: Any, data: bytes, connection_id: str) -> None:
        if not _sockets:  # no local socket server (the deploy rehearsal): moto's own behaviour
            return original_post(self, data, connection_id)
        connection_id = unquote(connection_id)  # moto hands over the path's "%3D" for "="
        if not any(s.post(connection_id, data) for s in _sockets):
            raise GoneException(connection_id)
        return None

    def delete_connection(self: Any, connection_id: str) -> None:
        if not _sockets:
            return original_delete(self, connection_id)
        if not any(s.close(unquote(connection_id)) for s in _sockets):
            raise GoneException(connection_id)
        return None

    replace(ApiGatewayManagementApiBackend, "post_to_connection", post_to_connection)
    replace(ApiGatewayManagementApiBackend, "delete_connection", delete_connection)


def uninstall_management_api(socket: LiveSocket) -> None:
    if socket in _sockets:
        _sockets.remove(socket)
