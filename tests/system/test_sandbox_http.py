"""The sandbox over real HTTP against the local stack (issue 19, "Done when"): a sample of the
DATC cases through POST /adjudicate, bad positions answered 4xx, and the per-caller limit
kept by the real counter (moto's DynamoDB behind the same adapter as on AWS)."""

from __future__ import annotations

import http.client
import json
from typing import Any

import pytest

from local_stack.stack import LocalStack
from testkit.datc import EXTRA, MAIN
from testkit.sandbox_datc import api_rules, run_case_over_api
from tests.system.client import Api

pytestmark = pytest.mark.system

# Every 6th playable case, in file order: all chapters of DATC §6 (6.A ... 6.J) and the
# alternative-rule cases, ~35 requests — well inside one caller's 60 a minute.
PLAYABLE = [c for c in MAIN + EXTRA if api_rules(c) is not None]
SAMPLE = PLAYABLE[::6]


def test_a_sample_of_the_datc_through_post_adjudicate(stack: LocalStack) -> None:
    api = Api(stack.url)

    def send(body: dict[str, Any]) -> tuple[int, Any]:
        response = api.session.post(f"{stack.url}/adjudicate", json=body, timeout=30)
        return response.status_code, response.json()

    chapters = {case.id[:3] for case in SAMPLE}
    assert chapters >= {"6.A", "6.B", "6.C", "6.D", "6.E", "6.F", "6.G", "6.H", "6.I", "6.J"}
    for case in SAMPLE:
        run_case_over_api(case, send)
    bad = api.call("POST", "/adjudicate", body={"compact": "France:FPar"}, expect=422)
    assert bad["code"] == "BAD_POSITION"


def _post_from(stack: LocalStack, source: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, str]]:
    """POST from another loopback address: the limit is per source address."""
    connection = http.client.HTTPConnection(stack.host, stack.port, timeout=30, source_address=(source, 0))
    try:
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}
    finally:
        connection.close()


def test_one_caller_is_held_to_its_limit(stack: LocalStack) -> None:
    # Given a caller on its own loopback address
    body = {"compact": "France:APar|Par"}
    # When it sends more sandbox requests in a minute than the limit (60)
    statuses = []
    for _ in range(130):  # two windows at most: a window boundary mid-way cannot hide the limit
        status, headers = _post_from(stack, "127.0.0.2", "/adjudicate/legal_orders", body)
        statuses.append(status)
        if status == 429:
            break
    # Then it is refused with a Retry-After, while another caller is still served
    assert statuses[-1] == 429 and statuses.count(200) >= 1 and set(statuses) <= {200, 429}
    assert 1 <= int(headers["retry-after"]) <= 60
    assert _post_from(stack, "127.0.0.3", "/adjudicate/legal_orders", body)[0] == 200
