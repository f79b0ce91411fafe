from __future__ import annotations

from collections.abc import Iterator

import pytest

from testkit.api_harness import InProcessApi, in_process_api
from tests.notifications.fakes import MemoryTelegramStore


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> Iterator[InProcessApi]:
    from composition.factories import telegram

    chats = MemoryTelegramStore()
    monkeypatch.setattr(telegram, "telegram_store", lambda: chats)
    yield from in_process_api()
