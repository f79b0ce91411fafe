from __future__ import annotations

from collections.abc import Iterator

import pytest

from testkit.api_harness import InProcessApi, in_process_api


@pytest.fixture
def api() -> Iterator[InProcessApi]:
    yield from in_process_api()
