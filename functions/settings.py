"""Configuration from the environment, with local defaults (``make run``, tests)."""

from __future__ import annotations

import os
from dataclasses import dataclass

DEFAULT_GAME_TABLE = "convoy-games"
DEFAULT_IDEMPOTENCY_TABLE = "convoy-idempotency"


@dataclass(frozen=True)
class Settings:
    game_table: str
    idempotency_table: str
    operator_token: str | None
    idempotency_ttl_seconds: int = 24 * 3600
    allow_loopback_webhooks: bool = False  # CONVOY_ALLOW_LOOPBACK_WEBHOOKS=1: local runs and tests only


def load_settings() -> Settings:
    return Settings(
        game_table=os.environ.get("GAME_TABLE", DEFAULT_GAME_TABLE),
        idempotency_table=os.environ.get("IDEMPOTENCY_TABLE", DEFAULT_IDEMPOTENCY_TABLE),
        operator_token=os.environ.get("CONVOY_OPERATOR_TOKEN") or None,
        allow_loopback_webhooks=os.environ.get("CONVOY_ALLOW_LOOPBACK_WEBHOOKS", "") in ("1", "true", "yes"),
    )
