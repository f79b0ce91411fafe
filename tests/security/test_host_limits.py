"""One host cannot be made the webhook target of unboundedly many games (issue 11: targets
as a way to flood third parties), counted per host and day across games."""

from __future__ import annotations

from datetime import timedelta

from functions import wiring
from functions.usecases.notify_targets import DAY_SECONDS, HOST_GAMES_PER_DAY
from tests.api.harness import InProcessApi
from tests.security.test_join_attempts import MemoryCounter


def _create(api: InProcessApi, *urls: str) -> tuple[int, dict[str, object]]:
    answer = api.call("POST", "/games", {"notify": [{"type": "webhook", "url": u} for u in urls]})
    return answer.status, answer.body


def test_a_webhook_host_takes_a_bounded_number_of_new_games_a_day(api: InProcessApi) -> None:
    # Given the API counting webhook hosts
    wiring.services().attempts = MemoryCounter()

    # When HOST_GAMES_PER_DAY games name one host, the next is refused with a stable code
    for _ in range(HOST_GAMES_PER_DAY):
        assert _create(api, "https://victim.example.com/hook")[0] == 201
    status, body = _create(api, "https://VICTIM.example.com./other")
    assert (status, body["code"]) == (429, "HOST_TARGET_LIMIT")

    # Then other hosts, and games without webhooks, are not affected, and the next day it may again
    assert _create(api, "https://other.example.com/hook")[0] == 201
    assert api.call("POST", "/games", {"notify": [{"type": "telegram", "chat_id": -1001}]}).status == 201
    api.clock.at += timedelta(seconds=DAY_SECONDS)
    assert _create(api, "https://victim.example.com/hook")[0] == 201
