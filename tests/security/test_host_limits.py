"""One host cannot be made the webhook target of unboundedly many games (issue 11: targets
as a way to flood third parties), counted per host and day across games."""

from __future__ import annotations

from datetime import timedelta

from composition import wiring
from functions.usecases.notifications.notify_targets import DAY_SECONDS, HOST_GAMES_PER_DAY
from testkit.api_harness import InProcessApi
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
    assert _create(api, "https://other.example.org/hook")[0] == 201
    assert api.call("POST", "/games", {"notify": [{"type": "telegram", "chat_id": -1001}]}).status == 201
    api.clock.at += timedelta(seconds=DAY_SECONDS)
    assert _create(api, "https://victim.example.com/hook")[0] == 201


def test_many_names_under_one_domain_are_one_host(api: InProcessApi) -> None:
    """Issue 28 item 7: the per-host limits counted exact host names, so x1.victim.example.com,
    x2.victim.example.com, ... each started afresh. They count per registrable domain now."""
    wiring.services().attempts = MemoryCounter()
    for n in range(HOST_GAMES_PER_DAY):
        assert _create(api, f"https://x{n}.victim.co.uk/hook")[0] == 201
    status, body = _create(api, "https://deep.x999.victim.co.uk/hook")
    assert (status, body["code"]) == (429, "HOST_TARGET_LIMIT")
    assert _create(api, "https://x1.someone-else.co.uk/hook")[0] == 201  # another domain under co.uk


def test_a_game_names_one_domain_at_most_twice_whatever_its_host_names(api: InProcessApi) -> None:
    status, body = _create(api, "https://a.victim.example.com/1", "https://b.victim.example.com/2",
                           "https://victim.example.com/3")
    assert (status, body["code"]) == (422, "TOO_MANY_TARGETS_PER_HOST")
