"""Serve the built web client (``web/dist``, issue 16) beside the API, as CloudFront does on AWS.

Only three kinds of path are the client's: ``/`` (and ``/index.html``), ``/assets/<file>``
(Vite's hashed bundles), and ``/favicon.svg`` and ``/sw.js`` (the web push service worker, which
must be served from the root to control the whole client). Every other path goes to the API untouched, so
the client can never shadow a route: the client's own screens live after ``#`` (hash routes,
``/#/games/<id>``), which never reaches a server. Files are read from the build directory
only (no ``..``, no symlinks out of it); hashed assets may be cached for a year, the page
itself is always revalidated so a new build shows up on reload. Every file carries the
security headers CloudFront adds on AWS (``local_stack/security_headers.py``).
"""

from __future__ import annotations

import mimetypes
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from local_stack.security_headers import security_headers, with_live_origin

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_BUILD = ROOT / "web" / "dist"

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml",
          ".html": "text/html; charset=utf-8", ".map": "application/json", ".png": "image/png"}


def client_file(build: Path, path: str) -> Path | None:
    """The build's file for a request path, or None when the path is the API's."""
    if path in ("/", "/index.html"):
        name = "index.html"
    elif path.startswith("/assets/") or path in ("/favicon.svg", "/sw.js"):  # sw.js: web push (issue 33)
        name = path.lstrip("/")
    else:
        return None
    candidate = (build / name).resolve()
    if not candidate.is_relative_to(build.resolve()) or not candidate.is_file():
        return None
    return candidate


def with_client(api: WsgiApp, build: Path | None = DEFAULT_BUILD) -> WsgiApp:
    """``api`` with the client's files served in front of it, if the client has been built."""
    if build is None or not (build / "index.html").is_file():
        return api
    # CloudFront's WebSecurityHeaders: the CSP, HSTS, nosniff... (and the local live socket's origin)
    headers = with_live_origin(security_headers(), os.environ.get("LIVE_URL", ""))

    def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        found = None
        if environ.get("REQUEST_METHOD") in ("GET", "HEAD"):
            found = client_file(build, environ.get("PATH_INFO") or "/")
        if found is None:
            return api(environ, start_response)
        data = found.read_bytes()
        kind = _TYPES.get(found.suffix) or mimetypes.guess_type(found.name)[0] or "application/octet-stream"
        cache = "public, max-age=31536000, immutable" if "/assets/" in found.as_posix() else "no-cache"
        start_response("200 OK", [("Content-Type", kind), ("Content-Length", str(len(data))),
                                  ("Cache-Control", cache), *headers.items()])
        return [b"" if environ["REQUEST_METHOD"] == "HEAD" else data]

    return app
