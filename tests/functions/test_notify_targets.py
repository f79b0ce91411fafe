"""Delivery targets given at game creation: https only, no private literals, one secret per game."""

from __future__ import annotations

import pytest

from functions.errors import ValidationFailed
from functions.usecases.games import CreateGame, create_game
from functions.usecases.notifications.notify_targets import check_url, validate_targets
from testkit.fakes import FakeClock, InMemoryGameStore


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/hook",
        "ftp://example.com/hook",
        "https://user:pw@example.com/hook",
        "https://10.0.0.5/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/hook",
        "https://127.0.0.1:8080/hook",
        "https://localhost/hook",
        "https:///nohost",
    ],
)
def test_unsafe_urls_are_refused(url: str) -> None:
    with pytest.raises(ValidationFailed):
        check_url(url, allow_loopback=False)


def test_loopback_only_with_the_local_setting() -> None:
    assert check_url("http://127.0.0.1:9000/h", allow_loopback=True)
    with pytest.raises(ValidationFailed):
        check_url("http://10.1.2.3/h", allow_loopback=True)


def test_each_webhook_target_gets_its_own_secret() -> None:
    # issue 11: one secret shared by all targets of a game let one receiver forge another's notices
    stored, made = validate_targets(
        [
            {"type": "webhook", "url": "https://example.com/a"},
            {"type": "webhook", "url": "https://example.org/b"},
            {"type": "discord", "url": "https://discord.com/api/webhooks/1/x"},
            {"type": "telegram", "chat_id": -1001234},
        ],
        allow_loopback=False,
    )
    assert len(made) == 2 and made[0] != made[1]
    assert [t.get("secret") for t in stored] == [made[0], made[1], None, None]
    with pytest.raises(ValidationFailed):
        validate_targets([{"type": "telegram", "chat_id": "nope nope"}], allow_loopback=False)
    with pytest.raises(ValidationFailed):
        validate_targets([{"type": "carrier-pigeon"}], allow_loopback=False)


def test_create_game_stores_targets_and_returns_the_secret_once() -> None:
    store = InMemoryGameStore()
    created = create_game(
        store, FakeClock(), CreateGame(notify=({"type": "webhook", "url": "https://example.com/h"},))
    )
    assert created.webhook_secret
    assert store.load(created.game_id).settings["notify"] == [
        {"type": "webhook", "url": "https://example.com/h", "secret": created.webhook_secret}
    ]
    assert create_game(store, FakeClock(), CreateGame()).webhook_secret is None
    with pytest.raises(ValidationFailed):
        create_game(store, FakeClock(), CreateGame(phase_seconds={"MOVEMENT": 0}))


def test_a_game_has_at_most_five_targets_with_a_stable_code() -> None:
    # issue 11: limits on targets per game
    from functions.errors import TooManyTargets

    six = [{"type": "telegram", "chat_id": -1000 - n} for n in range(6)]
    with pytest.raises(TooManyTargets) as refused:
        validate_targets(six, allow_loopback=False)
    assert refused.value.code == "TOO_MANY_TARGETS" and refused.value.status == 422


def test_at_most_two_targets_may_name_one_host() -> None:
    # issue 11: five targets on one host, each retried five times, flooded a third party
    from functions.errors import TooManyTargetsPerHost

    assert validate_targets(
        [{"type": "webhook", "url": "https://hooks.example.com/a"},
         {"type": "discord", "url": "https://HOOKS.example.com./b"},
         {"type": "webhook", "url": "https://other.example.org/c"}],
        allow_loopback=False,
    )
    with pytest.raises(TooManyTargetsPerHost) as refused:
        validate_targets(
            [{"type": "webhook", "url": f"https://hooks.example.com/{n}"} for n in range(3)],
            allow_loopback=False,
        )
    assert refused.value.code == "TOO_MANY_TARGETS_PER_HOST" and refused.value.status == 422
