"""The committed OpenAPI document (docs/openapi.json) must match what the routes generate."""

from __future__ import annotations

import json
from pathlib import Path

from functions.api.handler import openapi_document

DOC = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"
CORE_ROUTES = {
    ("/games", "post"), ("/games", "get"), ("/games/{game_id}", "get"), ("/games/{game_id}/join", "post"),
    ("/games/{game_id}/orders", "post"), ("/games/{game_id}/orders_status", "get"),
    ("/games/{game_id}/process_turn", "post"), ("/games/{game_id}/last_resolution", "get"),
    ("/games/{game_id}/history", "get"), ("/games/{game_id}/events", "get"), ("/variants", "get"),
}


def render() -> str:
    return json.dumps(openapi_document(), indent=2, sort_keys=True) + "\n"


def test_committed_openapi_has_not_drifted() -> None:
    assert DOC.read_text() == render(), (
        "docs/openapi.json is out of date: regenerate with "
        "`.venv/bin/python -m tests.contracts.test_openapi`"
    )


def test_core_routes_of_the_architecture_are_present() -> None:
    paths = openapi_document()["paths"]
    present = {(path, method) for path, ops in paths.items() for method in ops}
    assert present >= CORE_ROUTES


if __name__ == "__main__":
    DOC.write_text(render())
    print(f"wrote {DOC}")
