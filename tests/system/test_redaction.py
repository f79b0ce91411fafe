"""Redaction: before adjudication no response any player can get shows another power's orders.

Every GET route in the OpenAPI document is called by every player (and anonymously), so a
new route is covered as soon as it exists.
"""

from __future__ import annotations

import pytest

from functions.api.handler import openapi_document
from local_stack.stack import LocalStack
from tests.functions.openings import SPRING_1901
from tests.system.client import Api

pytestmark = pytest.mark.system


def test_no_response_leaks_pending_orders(stack: LocalStack) -> None:
    api = Api(stack.url)
    created = api.call("POST", "/games", body={"variant": "classical"}, expect=201)
    game_id = created["game_id"]
    tokens = {p: api.call("POST", f"/games/{game_id}/join", body={"power": p})["token"] for p in SPRING_1901}
    answers = {
        p: api.call("POST", f"/games/{game_id}/orders", token=tokens[p], body={"orders": o})
        for p, o in SPRING_1901.items()
    }
    gets = [p for p, ops in openapi_document()["paths"].items() if "get" in ops]
    viewers = [*sorted(tokens), None]
    for viewer in viewers:
        token = tokens[viewer] if viewer else None
        seen = [answers[viewer]] if viewer else []
        for path in gets:
            body = _answer(api, path.replace("{game_id}", game_id), token)
            if isinstance(body, dict):
                body = {k: v for k, v in body.items() if k != "legal_orders"}  # the caller's own menu
            seen.append(body)
        text = str(seen)
        leaked = [o for p, given in SPRING_1901.items() if p != viewer for o in given if o in text]
        assert leaked == [], (viewer, leaked)


def _answer(api: Api, path: str, token: str | None) -> object:
    """The decoded answer of one GET: JSON as data, any other text (an SVG map) as text."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = api.session.get(api.base + path, headers=headers, timeout=30)
    # 404 is an answer too (no resolution map before the first adjudication): read it all
    assert response.status_code in (200, 404), (path, response.status_code, response.text[:200])
    if response.headers.get("content-type", "").startswith("application/json"):
        return response.json()
    return response.text
