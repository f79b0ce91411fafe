"""Delivery targets given at game creation: https only, no private literals, one secret per game."""

from __future__ import annotations

import pytest

from functions.errors import ValidationFailed
from functions.usecases.create_game import CreateGame, create_game
from functions.usecases.notify_targets import check_url, validate_targets
from tests.functions.fakes import FakeClock, InMemoryGameStore


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


def test_targets_share_one_generated_secret() -> None:
    stored, secret = validate_targets(
        [
            {"type": "webhook", "url": "https://example.com/a"},
            {"type": "webhook", "url": "https://example.org/b"},
            {"type": "discord", "url": "https://discord.com/api/webhooks/1/x"},
            {"type": "telegram", "chat_id": -1001234},
        ],
        allow_loopback=False,
    )
    assert secret and [t.get("secret") for t in stored] == [secret, secret, None, None]
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
