"""The local stack serves the web client's build beside the API without shadowing a route (issue 16)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from local_stack.web_static import client_file, with_client


def _build(tmp_path: Path) -> Path:
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text("<!doctype html><title>Convoy</title>")
    (tmp_path / "assets" / "index-abc.js").write_text("console.log(1)")
    (tmp_path.parent / "secret.txt").write_text("not for the web")
    return tmp_path


def _get(app: Any, path: str, method: str = "GET") -> tuple[str, dict[str, str], bytes]:
    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        seen["status"], seen["headers"] = status, dict(headers)

    body = b"".join(app({"REQUEST_METHOD": method, "PATH_INFO": path}, start_response))
    return seen["status"], seen["headers"], body


def _api(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    start_response("404 Not Found", [("Content-Type", "application/json")])
    return [b'{"code": "NOT_FOUND"}']


def test_the_page_and_hashed_assets_come_from_the_build(tmp_path: Path) -> None:
    app = with_client(_api, _build(tmp_path))
    status, headers, body = _get(app, "/")
    assert status == "200 OK" and b"Convoy" in body and headers["Cache-Control"] == "no-cache"
    status, headers, _ = _get(app, "/assets/index-abc.js")
    assert headers["Content-Type"] == "text/javascript" and "immutable" in headers["Cache-Control"]


def test_every_other_path_and_method_goes_to_the_api(tmp_path: Path) -> None:
    app = with_client(_api, _build(tmp_path))
    for path in ("/games", "/games/abc", "/variants", "/assets/missing.js", "/index.htm"):
        assert _get(app, path)[0] == "404 Not Found", path
    assert _get(app, "/", method="POST")[0] == "404 Not Found"


def test_no_path_leaves_the_build_directory(tmp_path: Path) -> None:
    build = _build(tmp_path)
    assert client_file(build, "/assets/../../secret.txt") is None
    assert client_file(build, "/assets/%2e%2e/index.html") is None


def test_without_a_build_the_api_is_served_alone(tmp_path: Path) -> None:
    assert with_client(_api, tmp_path / "nothing") is _api
    assert with_client(_api, None) is _api
