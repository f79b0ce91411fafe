"""Session-wide: the counting plugin for docs/reliability.md, on only with RELIABILITY_COUNTS set
(tests/reliability_counts.py)."""

from __future__ import annotations

import os

import pytest

COUNTS_FILE = os.environ.get("RELIABILITY_COUNTS")


def pytest_sessionstart(session: pytest.Session) -> None:
    if COUNTS_FILE:
        from tests import reliability_counts

        reliability_counts.install()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if COUNTS_FILE:
        from tests import reliability_counts

        reliability_counts.write(COUNTS_FILE)
