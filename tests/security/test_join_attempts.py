"""Failed joins of a private game are limited per game and caller (issue 11, item 6: password
tries were unlimited), with a conditional-write counter."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from composition import wiring
from functions.usecases.players.join_limits import FAILURES_PER_WINDOW, WINDOW_SECONDS
from infra.attempt_counter import DynamoAttemptCounter
from testkit.api_harness import InProcessApi
from testkit.tables import make_table

PASSWORD = "the-right-password"


class MemoryCounter:
    """`AttemptCounter` with the adapter's rules, in memory."""

    def __init__(self) -> None:
        self.tries: dict[tuple[str, int], int] = {}
        self.lock = threading.Lock()

    def count(self, scope: str, *, now: float, window: int) -> int:
        return self.tries.get((scope, int(now) // window), 0)

    def add(self, scope: str, *, now: float, window: int, limit: int) -> bool:
        with self.lock:
            key = (scope, int(now) // window)
            if self.tries.get(key, 0) >= limit:
                return False
            self.tries[key] = self.tries.get(key, 0) + 1
            return True


@pytest.fixture
def limited(api: InProcessApi) -> Iterator[InProcessApi]:
    wiring.services().attempts = MemoryCounter()
    yield api


def _private_game(api: InProcessApi) -> str:
    created = api.call("POST", "/games", {"private": True, "join_password": PASSWORD})
    return str(created.body["game_id"])


def _join(api: InProcessApi, game_id: str, password: str, token: str | None = None,
          source: str = "127.0.0.1") -> Any:
    """A join, anonymous unless a bearer is given, from the harness's source address by default."""
    return api.call("POST", f"/games/{game_id}/join", {"power": "FRANCE", "password": password},
                    token=token, source=source)


def test_wrong_passwords_are_refused_after_the_limit_with_a_stable_code(limited: InProcessApi) -> None:
    # Given a private game
    game_id = _private_game(limited)

    # When one caller guesses wrong FAILURES_PER_WINDOW times
    codes = [_join(limited, game_id, f"guess-{n}").body["code"] for n in range(FAILURES_PER_WINDOW)]

    # Then each was BAD_PASSWORD, and the next try - even the right password - is 429 with Retry-After
    assert codes == ["BAD_PASSWORD"] * FAILURES_PER_WINDOW
    refused = _join(limited, game_id, PASSWORD)
    assert (refused.status, refused.body["code"]) == (429, "TOO_MANY_JOIN_ATTEMPTS")
    assert 0 < int(refused.headers["Retry-After"]) <= WINDOW_SECONDS
    assert limited.store.load(game_id).players == {}  # nothing changed

    # And the window passing lets the caller in with the right password
    limited.clock.at += timedelta(seconds=WINDOW_SECONDS)
    assert _join(limited, game_id, PASSWORD).status == 200


def test_the_limit_is_per_game(limited: InProcessApi) -> None:
    first, second = _private_game(limited), _private_game(limited)
    for n in range(FAILURES_PER_WINDOW):
        _join(limited, first, f"guess-{n}")
    assert _join(limited, first, PASSWORD).status == 429
    assert _join(limited, second, PASSWORD).status == 200


def test_a_new_bearer_string_per_guess_does_not_dodge_the_limit(limited: InProcessApi) -> None:
    """Issue 28 item 3: 40 wrong passwords, each with ``Bearer junk-<uuid>``, were all 403 and
    never 429, and the right password worked after them: a bearer string is nobody."""
    game_id = _private_game(limited)
    _, _, tokens = limited.new_game()  # a real seat token, of another game, is nobody here either
    bearers = [f"junk-{uuid.uuid4()}" for _ in range(FAILURES_PER_WINDOW - 1)] + [tokens["ENGLAND"]]
    codes = [_join(limited, game_id, f"guess-{n}", token=b).body["code"] for n, b in enumerate(bearers)]
    assert codes == ["BAD_PASSWORD"] * FAILURES_PER_WINDOW
    for bearer in (f"junk-{uuid.uuid4()}", tokens["FRANCE"], None):
        refused = _join(limited, game_id, PASSWORD, token=bearer)
        assert (refused.status, refused.body["code"]) == (429, "TOO_MANY_JOIN_ATTEMPTS")
    assert limited.store.load(game_id).players == {}


def test_an_account_carries_its_tries_from_one_address_to_the_next(limited: InProcessApi) -> None:
    game_id = _private_game(limited)
    _, jwt = limited.pool.user("Mallory")
    for n in range(FAILURES_PER_WINDOW):  # one guess from each of ten addresses
        assert _join(limited, game_id, f"guess-{n}", token=jwt, source=f"198.51.100.{n}").status == 403
    refused = _join(limited, game_id, PASSWORD, token=jwt, source="203.0.113.9")
    assert (refused.status, refused.body["code"]) == (429, "TOO_MANY_JOIN_ATTEMPTS")
    # while another account, and an anonymous caller, at a fresh address still get in
    _, other = limited.pool.user("Olive")
    assert _join(limited, game_id, PASSWORD, token=other, source="203.0.113.10").status == 200


def test_a_used_up_address_refuses_everyone_there_on_that_game(limited: InProcessApi) -> None:
    game_id = _private_game(limited)
    for n in range(FAILURES_PER_WINDOW):
        _join(limited, game_id, f"guess-{n}", source="198.51.100.7")
    _, jwt = limited.pool.user("Sam")
    assert _join(limited, game_id, PASSWORD, token=jwt, source="198.51.100.7").status == 429
    assert _join(limited, game_id, PASSWORD, source="198.51.100.8").status == 200  # another address


def test_the_dynamo_counter_never_lets_concurrent_guesses_past_the_limit(aws: None) -> None:
    client = make_table()
    counter = DynamoAttemptCounter(lambda: client, "games")
    taken = [counter.add("join:g1:c", now=1000, window=900, limit=3) for _ in range(5)]
    assert taken == [True, True, True, False, False]
    assert counter.count("join:g1:c", now=1000, window=900) == 3
    assert counter.count("join:g1:c", now=1800, window=900) == 0  # the next window
    assert counter.count("join:g1:other", now=1000, window=900) == 0
    item = client.scan(TableName="games")["Items"][0]
    assert int(item["expires_at"]["N"]) == 900 + 2 * 900
