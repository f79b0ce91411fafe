"""The local API's HTTP server: waitress in front of the Lambda handler, as API Gateway is.

Why waitress (3.0.2): a pure-Python, long-maintained (Pylons) WSGI server with no
compiled parts, so ``make install`` needs no toolchain; it parses HTTP itself and
enforces its own limits (malformed or negative ``Content-Length`` -> 400, header block
over ``max_request_header_size`` -> 431, body over ``max_request_body_size`` -> 413,
a short body just waits for the rest until ``channel_timeout`` on that connection
only), and it serves connections from one event loop with a pool of worker threads,
so a slow client never holds up the others. cheroot would do as well; uvicorn would
add an ASGI layer the synchronous Lambda handler does not need.

This module only maps an HTTP request to an API Gateway HTTP API (payload v2) event
and the handler's reply back to HTTP. Waitress's own error pages are plain text; the
two class hooks it offers for them (``HTTPChannel.error_task_class``,
``BaseWSGIServer.channel_class``) turn them into the API's ``{"code", "message"}``.
"""

from __future__ import annotations

import base64
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import create_server
from waitress.task import ErrorTask
from waitress.utilities import Error

from local_stack.web_static import DEFAULT_BUILD, with_client

Handler = Callable[[dict[str, Any], Any], dict[str, Any]]
StartResponse = Callable[..., Any]

# API Gateway HTTP APIs accept at most 10 MB bodies and ~10 KB of headers; the API's own
# requests are a few KB, so the local limits are tighter and still far above real use.
MAX_BODY_BYTES = 5 * 1024 * 1024  # above the API's own 4 MiB import limit (body_guard.py)
MAX_HEADER_BYTES = 16 * 1024
ERROR_CODES = {
    400: "BAD_REQUEST",
    413: "PAYLOAD_TOO_LARGE",
    431: "HEADERS_TOO_LARGE",
    500: "INTERNAL",
    501: "NOT_IMPLEMENTED",
}


@dataclass
class LocalContext:
    """Enough of a LambdaContext for Powertools."""

    function_name: str = "convoy-api-local"
    function_version: str = "$LATEST"
    memory_limit_in_mb: int = 512
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:123456789012:function:convoy-api-local"
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    log_group_name: str = "/aws/lambda/convoy-api-local"
    log_stream_name: str = "local"

    def get_remaining_time_in_millis(self) -> int:
        return 15_000


def to_event(
    method: str, raw_path: str, headers: dict[str, str], body: bytes, source_ip: str
) -> dict[str, Any]:
    parts = urlsplit(raw_path)
    query = parse_qsl(parts.query, keep_blank_values=True)
    now = time.time()
    lowered = {k.lower(): v for k, v in headers.items()}
    request_id = str(uuid.uuid4())
    try:
        text, encoded = body.decode("utf-8"), False
    except UnicodeDecodeError:
        text, encoded = base64.b64encode(body).decode(), True
    return {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": parts.path,
        "rawQueryString": parts.query,
        "cookies": [],
        "headers": lowered,
        "queryStringParameters": {k: v for k, v in query} or None,
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "local",
            "domainName": lowered.get("host", "127.0.0.1"),
            "domainPrefix": "local",
            "http": {
                "method": method,
                "path": parts.path,
                "protocol": "HTTP/1.1",
                "sourceIp": source_ip,
                "userAgent": lowered.get("user-agent", ""),
            },
            "requestId": request_id,
            "routeKey": "$default",
            "stage": "$default",
            "time": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(now)),
            "timeEpoch": int(now * 1000),
        },
        "body": text if body else None,
        "isBase64Encoded": encoded,
    }


def _headers_of(environ: dict[str, Any]) -> dict[str, str]:
    headers = {k[5:].replace("_", "-").lower(): v for k, v in environ.items() if k.startswith("HTTP_")}
    for key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
        if environ.get(key):
            headers[key.replace("_", "-").lower()] = environ[key]
    return headers


def event_from_environ(environ: dict[str, Any]) -> dict[str, Any]:
    """The payload-v2 event for one WSGI request (waitress has already read a valid body)."""
    length = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(length) if length else b""
    raw = environ.get("REQUEST_URI") or environ.get("PATH_INFO", "/")
    return to_event(environ["REQUEST_METHOD"], raw, _headers_of(environ), body,
                    environ.get("REMOTE_ADDR", "127.0.0.1"))


def reply(result: dict[str, Any], start_response: StartResponse) -> list[bytes]:
    """Send a Lambda proxy result as the HTTP response."""
    payload = result.get("body") or ""
    data = base64.b64decode(payload) if result.get("isBase64Encoded") else payload.encode()
    status = int(result.get("statusCode", 200))
    headers = [
        (name, str(value)) for name, value in (result.get("headers") or {}).items()
        if name.lower() not in ("content-length", "connection")
    ]
    for name, values in (result.get("multiValueHeaders") or {}).items():
        headers.extend((name, str(value)) for value in values)
    for cookie in result.get("cookies") or []:
        headers.append(("Set-Cookie", str(cookie)))
    headers.append(("Content-Length", str(len(data))))
    start_response(f"{status} {_reason(status)}", headers)
    return [data]


def _reason(status: int) -> str:
    from http import HTTPStatus

    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


def wsgi_app(handler: Handler) -> Callable[[dict[str, Any], StartResponse], Iterable[bytes]]:
    """A WSGI application that hands every request to ``handler`` as API Gateway would."""

    def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        return reply(handler(event_from_environ(environ), LocalContext()), start_response)

    return app


class JsonErrorTask(ErrorTask):
    """Waitress's parse and limit errors as the API's ``{"code", "message"}`` JSON."""

    def execute(self) -> None:
        error = _error_of(self.request)
        body = json.dumps({
            "code": ERROR_CODES.get(error.code, "BAD_REQUEST"),
            "message": f"{error.reason}: {error.body}",
        }).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers = [*self.response_headers, ("Content-Type", "application/json")]
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


def _error_of(request: object) -> Error:
    """The error an error task answers: waitress hands the task the request parser holding it
    (types-waitress types ``Task.request`` as the error itself)."""
    held = request.error if isinstance(request, HTTPRequestParser) else request
    if not isinstance(held, Error):
        raise TypeError(f"an error task without an error: {request!r}")
    return held


class JsonErrorChannel(HTTPChannel):
    error_task_class = JsonErrorTask


class HttpServer:
    """A waitress server on (host, port) in a background thread; ``port=0`` picks a free one."""

    _server: Any  # types-waitress's servers leave out effective_port and the socket map this reads

    def __init__(self, host: str, port: int, handler: Handler, *, threads: int = 8,
                 max_body: int = MAX_BODY_BYTES, max_headers: int = MAX_HEADER_BYTES,
                 web_build: Path | None = DEFAULT_BUILD) -> None:
        self._server = create_server(
            with_client(wsgi_app(handler), web_build), host=host, port=port, threads=threads,
            ident="convoy-local",
            max_request_body_size=max_body, max_request_header_size=max_headers,
            expose_tracebacks=False, clear_untrusted_proxy_headers=True,
        )
        self._server.channel_class = JsonErrorChannel
        # "Task queue depth is N": requests waiting for a free API worker; normal under load
        logging.getLogger("waitress.queue").setLevel(logging.ERROR)
        self.port: int = int(self._server.effective_port)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="convoy-http", daemon=True)

    def start(self) -> HttpServer:
        self._thread.start()
        return self

    def _serve(self) -> None:
        loop = self._server.asyncore.loop
        while not self._stopping.is_set():
            loop(timeout=0.2, map=self._server._map, use_poll=True, count=1)

    def stop(self) -> None:
        """Stop accepting, let requests in progress finish (up to 5 s), close everything."""
        self._stopping.set()
        self._thread.join(timeout=5)
        self._server.task_dispatcher.shutdown(cancel_pending=False, timeout=5)
        for channel in list(self._server._map.values()):
            channel.close()
