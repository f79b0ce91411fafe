"""One embedded local stack (moto server + API over HTTP) per test session (per xdist worker)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from local_stack.stack import LocalStack

OPERATOR_TOKEN = "operator-secret-for-tests-0123456789"  # >= 32 characters (infra/secrets.py)


@pytest.fixture(scope="session")
def stack() -> Iterator[LocalStack]:
    os.environ["CONVOY_OPERATOR_TOKEN"] = OPERATOR_TOKEN
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    running = LocalStack(port=0, pump_interval=0.5).start()
    yield running
    running.stop()
