"""Refuse a malformed request body before routing, with a stable 4xx code (issue 10).

The API answers JSON only, and only small JSON: the largest legitimate body (64 orders
of at most 120 characters, or a game's settings) is a few kilobytes. So, in this order:

- more than ``MAX_BODY_BYTES`` (64 KiB): 413 ``PAYLOAD_TOO_LARGE`` — nothing of it is
  read or echoed (API Gateway itself would take 10 MB). ``POST /games/import`` (and its two
  siblings for other programs' files, ``/games/import/mila`` and ``/games/import/cicero``,
  issue 34) are the routes whose body is a whole game (every phase's state and orders: a long
  game is a few MB), so they may send up to ``MAX_IMPORT_BYTES`` (4 MiB, under Lambda's 6 MB request limit);
- not UTF-8 (also one ``\\xff`` inside an order), or base64 that is not base64:
  400 ``INVALID_ENCODING``;
- a ``Content-Type`` other than ``application/json`` (or ``*/*+json``) on a non-empty
  body: 415 ``UNSUPPORTED_MEDIA_TYPE``. A body without a Content-Type is read as JSON:
  it cannot be mistaken for anything else, and some clients omit the header. We refuse
  rather than guess because a form-encoded or text body that happens to parse as JSON
  means the client is confused about what it sends;
- JSON nested more than ``MAX_DEPTH`` (32) levels: 400 ``JSON_TOO_DEEP`` (no request of
  ours nests more than four; Python's parser would otherwise raise RecursionError).

A body that passes is handed on as plain text (``isBase64Encoded`` false) with
``content-type: application/json``, so the routes see one shape; an empty body is handed
on as ``{}``, so a route whose body model has no required field (``process_turn`` without a
phase) may be called without one, as it always could. Syntax errors in
the JSON are left to the routes' validation (422 ``VALIDATION_ERROR``), which names
the position.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

MAX_BODY_BYTES = 64 * 1024
MAX_IMPORT_BYTES = 4 * 1024 * 1024
IMPORT_PATH = "/games/import"
IMPORT_PATHS = frozenset({IMPORT_PATH, "/games/import/mila", "/games/import/cicero"})  # issue 34
# RFC 8058: a mail client's one-click unsubscribe POSTs ``List-Unsubscribe=One-Click`` as a form
# (issue 33). The route reads only its query's signed token, so such a body is dropped unread
# (at most MAX_BODY_BYTES of it), never parsed.
BODILESS_PATHS = frozenset({"/mail/unsubscribe"})
MAX_DEPTH = 32


def _refusal(status: int, code: str, message: str) -> dict[str, Any]:
    return {
        "statusCode": status,
        "headers": {"Content-Type": "application/json"},
        "body": json.dumps({"code": code, "message": message}),
        "isBase64Encoded": False,
    }


def _raw_bytes(event: dict[str, Any]) -> bytes | None:
    body = event.get("body")
    if not body:
        return b""
    if event.get("isBase64Encoded"):
        try:
            return base64.b64decode(body, validate=True)
        except (binascii.Error, ValueError):
            return None
    return str(body).encode("utf-8", "surrogatepass")


def _is_json_type(value: str) -> bool:
    media = value.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` outside JSON strings (a linear scan)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return text.count("[") + text.count("{")
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _limit(event: dict[str, Any]) -> int:
    path = event.get("rawPath") or ((event.get("requestContext") or {}).get("http") or {}).get("path")
    return MAX_IMPORT_BYTES if str(path or "").rstrip("/") in IMPORT_PATHS else MAX_BODY_BYTES


def refuse(event: dict[str, Any]) -> dict[str, Any] | None:
    """A Lambda proxy answer refusing ``event``'s body, or None (and the body made plain text)."""
    raw = _raw_bytes(event)
    if raw is None:
        return _refusal(400, "INVALID_ENCODING", "the body is marked base64 but is not")
    limit = _limit(event)
    if len(raw) > limit:
        return _refusal(413, "PAYLOAD_TOO_LARGE", f"the body may be at most {limit} bytes")
    path = event.get("rawPath") or ((event.get("requestContext") or {}).get("http") or {}).get("path")
    if str(path or "").rstrip("/") in BODILESS_PATHS:  # read as no body at all
        event["headers"] = {**{str(k).lower(): str(v) for k, v in (event.get("headers") or {}).items()},
                            "content-type": "application/json"}
        raw = b""
    if not raw:
        event["body"], event["isBase64Encoded"] = "{}", False
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _refusal(400, "INVALID_ENCODING", f"the body is not UTF-8 (byte {exc.start})")
    headers = {str(k).lower(): str(v) for k, v in (event.get("headers") or {}).items()}
    content_type = headers.get("content-type")
    if content_type is not None and not _is_json_type(content_type):
        return _refusal(415, "UNSUPPORTED_MEDIA_TYPE", "send the body as Content-Type: application/json")
    if nesting_depth(text) > MAX_DEPTH:
        return _refusal(400, "JSON_TOO_DEEP", f"the JSON body may nest at most {MAX_DEPTH} levels")
    event["body"], event["isBase64Encoded"] = text, False
    # the routes read the body as JSON whatever JSON media type was named (``+json``, a charset)
    event["headers"] = {**headers, "content-type": "application/json"}
    return None
