"""Bounded fuzz of every operation with schemathesis, in process (issue 10, item 5).

Every generated request (valid and invalid by the OpenAPI document) goes through the
real handler over in-memory fakes. Checks: no 5xx, status codes documented, content
type and body valid against the document. Path ``game_id`` is pointed at a real game
(and requests carry one of its tokens) half of the time, so the fuzz reaches the use
cases and not only 404s. ``FUZZ_EXAMPLES`` (default 12 per operation) bounds it;
``make fuzz`` runs it long, and bench/fuzz_remote.sh against a running ``make run``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from requests.structures import CaseInsensitiveDict
from schemathesis.specs.openapi.checks import (
    ignored_auth,
    missing_required_header,
    positive_data_acceptance,
    unsupported_method,
)

from testkit.api_harness import OPERATOR_TOKEN, InProcessApi, in_process_api
from tests.api.wsgi import wsgi_app
from tests.notifications.fakes import MemoryTelegramStore

if TYPE_CHECKING:  # the alias exists for type checkers only
    from schemathesis.specs.openapi.schemas import OpenApiCase

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))
BASE_URL = os.environ.get("FUZZ_BASE_URL")  # a running `make run`, e.g. http://127.0.0.1:8000

EXCLUDED = [unsupported_method, positive_data_acceptance, ignored_auth, missing_required_header]
schema = (
    schemathesis.openapi.from_url(f"{BASE_URL}/openapi.json") if BASE_URL
    else schemathesis.openapi.from_wsgi("/openapi.json", wsgi_app)
)


def _remote_table() -> tuple[None, str, list[str]]:
    """A full game on the running server, over HTTP."""
    import requests

    created = requests.post(f"{BASE_URL}/games", json={"phase_seconds": {"MOVEMENT": 3600}}, timeout=30)
    game = created.json()
    tokens = [game["token"]]
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        joined = requests.post(f"{BASE_URL}/games/{game['game_id']}/join", json={"power": power}, timeout=30)
        tokens.append(joined.json()["token"])
    operator = os.environ.get("CONVOY_OPERATOR_TOKEN")
    return None, game["game_id"], tokens + ([operator] if operator else [])


@pytest.fixture
def fuzz_table(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[InProcessApi | None, str, list[str]]]:
    if BASE_URL:
        yield _remote_table()
        return
    from composition.factories import telegram

    monkeypatch.setattr(telegram, "telegram_store", MemoryTelegramStore)
    for api in in_process_api():
        game_id, creator, tokens = api.new_game(phase_seconds={"MOVEMENT": 3600})
        yield api, game_id, [creator, OPERATOR_TOKEN, *tokens.values()]


_counter = iter(range(10**9))


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
def test_no_operation_answers_5xx_or_off_schema(
    case: OpenApiCase, fuzz_table: tuple[InProcessApi | None, str, list[str]]
) -> None:
    _, game_id, tokens = fuzz_table
    turn = next(_counter)
    if case.path_parameters and "game_id" in case.path_parameters and turn % 2 == 0:
        case.path_parameters["game_id"] = game_id
    if turn % 3 != 2:
        headers = CaseInsensitiveDict(case.headers or {})
        headers["Authorization"] = f"Bearer {tokens[turn % len(tokens)]}"
        case.headers = headers
    # Four of schemathesis' checks are left out, on purpose:
    # - unsupported_method: 404 (not 405) for a method a path does not have is API Gateway's
    #   answer and our documented one (docs/api.md, NOT_FOUND);
    # - positive_data_acceptance: a schema-valid request may still be refused by the rules
    #   with a documented 4xx (UNKNOWN_POWER for "power": "", UNKNOWN_VARIANT, ...);
    # - ignored_auth, missing_required_header: they take the real tokens injected above for
    #   generated ones (and resend them when "removing" the header); who may
    #   call what is proven by tests/api/test_authorization_matrix.py instead.
    case.call_and_validate(base_url=BASE_URL, excluded_checks=EXCLUDED)
