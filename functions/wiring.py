"""The composition root: the one place that builds real adapters, lazily.

Nothing here runs at import time; ``services()`` builds the store, clock and the
idempotency persistence layer on first use and caches them. Tests swap them with
``override(...)`` and put things back with ``reset()``.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Any

from functions.notification_ports import DeadlineScheduler
from functions.ports import Clock, GameStore, PressStore, SystemClock
from functions.settings import Settings, load_settings


@dataclass
class Services:
    settings: Settings
    store: GameStore
    clock: Clock
    idempotency: Any | None  # a Powertools BasePersistenceLayer, or None to disable
    # EventBridge deadline schedules (functions.notification_ports.DeadlineScheduler); None when
    # DEADLINE_FUNCTION_ARN is unset: deadlines are then kept in META only (and the sweeper's job)
    scheduler: DeadlineScheduler | None = None
    # press (issue 13): messages, channels and ledgers in the same table; None: built on first use
    press: PressStore | None = None

    @property
    def press_store(self) -> PressStore:
        if self.press is None:
            from infra.dynamodb.press_store import DynamoPressStore

            self.press = DynamoPressStore(self.settings.game_table)
        return self.press


_lock = threading.Lock()
_services: Services | None = None


def services() -> Services:
    global _services
    if _services is None:
        with _lock:
            if _services is None:
                _services = _build()
    return _services


def _build() -> Services:
    from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer

    from infra import aws_clients
    from infra.dynamodb.game_store import DynamoGameStore
    from infra.dynamodb.press_store import DynamoPressStore

    settings = load_settings()
    client = aws_clients.dynamodb()
    scheduler: DeadlineScheduler | None = None
    if os.environ.get("DEADLINE_FUNCTION_ARN"):
        from functions.notification_wiring import deadline_scheduler

        scheduler = deadline_scheduler()
    return Services(
        settings=settings,
        store=DynamoGameStore(settings.game_table, client=client),
        clock=SystemClock(),
        idempotency=DynamoDBPersistenceLayer(table_name=settings.idempotency_table, boto3_client=client),
        scheduler=scheduler,
        press=DynamoPressStore(settings.game_table, client=client),
    )


def override(replacement: Services) -> None:
    global _services
    with _lock:
        _services = replacement


def reset() -> None:
    global _services
    with _lock:
        _services = None
