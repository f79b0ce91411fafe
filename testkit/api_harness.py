"""The API Lambda in process: API Gateway HTTP API (v2) events straight into
``composition.api.lambda_handler``, over in-memory fakes of the ports.

Cheaper than the local stack (no moto, no HTTP), so the defect tests of issue 10, the
authorization matrix and the bounded fuzz can run many requests inside ``make test``.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from composition import wiring
from composition.settings import load_settings
from functions.api.services import Services
from local_stack.http_adapter import LocalContext, to_event
from testkit.account_fakes import FakeUserPool, MemoryAccountStore
from testkit.community_fakes import MemoryCommunityStore
from testkit.fakes import FakeClock, InMemoryGameStore, InMemoryPressStore
from testkit.reach_fakes import MemoryReachStore

OPERATOR_TOKEN = "operator-token-for-api-tests"
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


@dataclass
class Answer:
    status: int
    body: Any
    raw: str
    headers: dict[str, str]


@dataclass
class InProcessApi:
    store: InMemoryGameStore = field(default_factory=InMemoryGameStore)
    clock: FakeClock = field(default_factory=FakeClock)
    pool: FakeUserPool = field(default_factory=FakeUserPool)  # accounts (issue 15)
    accounts: MemoryAccountStore = field(default_factory=MemoryAccountStore)

    def raw(self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None,
            source: str = "127.0.0.1") -> Answer:
        from composition import api as handler

        event = to_event(method, path, dict(headers or {}), body, source)
        result = handler.lambda_handler(event, LocalContext())
        text = result.get("body") or ""
        if result.get("isBase64Encoded"):
            text = base64.b64decode(text).decode("utf-8", "replace")
        try:
            parsed = json.loads(text) if text else None
        except ValueError:
            parsed = None
        return Answer(int(result["statusCode"]), parsed, text, dict(result.get("headers") or {}))

    def call(self, method: str, path: str, body: Any = None, token: str | None = None,
             headers: dict[str, str] | None = None, source: str = "127.0.0.1") -> Answer:
        sent = {"content-type": "application/json", **(headers or {})}
        if token:
            sent["authorization"] = f"Bearer {token}"
        data = b"" if body is None else json.dumps(body).encode()
        return self.raw(method, path, data, sent, source)

    def new_game(self, **settings: Any) -> tuple[str, str, dict[str, str]]:
        """(game id, creator token, {power: token}) of a full classical game."""
        created = self.call("POST", "/games", {"variant": "classical", **settings})
        assert created.status == 201, created.raw
        game_id = created.body["game_id"]
        tokens = {}
        for power in POWERS:
            joined = self.call("POST", f"/games/{game_id}/join", {"power": power})
            assert joined.status == 200, joined.raw
            tokens[power] = joined.body["token"]
        return game_id, created.body["token"], tokens


def in_process_api() -> Iterator[InProcessApi]:
    """Wire the API to fresh fakes for one test, and put the real wiring back after."""
    api = InProcessApi()
    settings = load_settings()
    settings = settings._replace(operator_token=OPERATOR_TOKEN)
    wiring.override(Services(settings=settings, store=api.store, clock=api.clock, idempotency=None,
                             press=InMemoryPressStore(), accounts=api.accounts, identity=api.pool,
                             verifier=api.pool.verifier(), reach=MemoryReachStore(),
                             community=MemoryCommunityStore()))
    try:
        yield api
    finally:
        wiring.reset()
