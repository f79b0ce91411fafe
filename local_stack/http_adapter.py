"""A stdlib HTTP server that turns requests into API Gateway HTTP API (payload v2) events
and hands them to a Lambda handler, exactly as API Gateway would.

One request at a time reaches the handler (a lock), like one Lambda container;
connections are still accepted concurrently.
"""

from __future__ import annotations

import base64
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

Handler = Callable[[dict[str, Any], Any], dict[str, Any]]


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


def make_server(host: str, port: int, handler: Handler) -> ThreadingHTTPServer:
    lock = threading.Lock()

    class LambdaHTTPRequestHandler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms stall

        def _dispatch(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = dict(self.headers.items())
            event = to_event(self.command, self.path, headers, body, self.client_address[0])
            with lock:
                result = handler(event, LocalContext())
            payload = result.get("body") or ""
            data = base64.b64decode(payload) if result.get("isBase64Encoded") else payload.encode()
            self.send_response(int(result.get("statusCode", 200)))
            for name, value in (result.get("headers") or {}).items():
                if name.lower() not in ("content-length", "connection"):
                    self.send_header(name, str(value))
            for name, values in (result.get("multiValueHeaders") or {}).items():
                for value in values:
                    self.send_header(name, str(value))
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = _dispatch

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
            return  # the Lambda handler logs; keep the console readable

    server = ThreadingHTTPServer((host, port), LambdaHTTPRequestHandler)
    server.daemon_threads = True
    return server
