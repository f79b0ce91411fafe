"""The API Lambda as a WSGI app, so tools that speak WSGI (schemathesis) can call it in
process: environ -> the same API Gateway v2 event the local stack builds -> handler."""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterable
from typing import Any

from local_stack.http_adapter import LocalContext, to_event

_REASONS = {200: "OK", 201: "Created", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden",
            404: "Not Found", 405: "Method Not Allowed", 409: "Conflict", 413: "Payload Too Large",
            415: "Unsupported Media Type", 422: "Unprocessable Entity", 500: "Internal Server Error",
            503: "Service Unavailable"}


def wsgi_app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    from composition import api as handler

    length = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(length) if length else b""
    headers = {key[5:].replace("_", "-").lower(): value for key, value in environ.items()
               if key.startswith("HTTP_")}
    if environ.get("CONTENT_TYPE"):
        headers["content-type"] = environ["CONTENT_TYPE"]
    query = environ.get("QUERY_STRING", "")
    path = environ.get("PATH_INFO", "/") + (f"?{query}" if query else "")
    event = to_event(environ["REQUEST_METHOD"], path, headers, body, "127.0.0.1")
    result = handler.lambda_handler(event, LocalContext())
    payload = result.get("body") or ""
    data = base64.b64decode(payload) if result.get("isBase64Encoded") else payload.encode()
    status = int(result.get("statusCode", 200))
    out = [(k, str(v)) for k, v in (result.get("headers") or {}).items() if k.lower() != "content-length"]
    start_response(f"{status} {_REASONS.get(status, 'Status')}", [*out, ("Content-Length", str(len(data)))])
    return [data]
