"""The local stack's settings reach its API worker processes (issue 28 item 10).

``make run`` serves the API from spawned worker processes (local_stack/api_workers.py), which
copy the environment as it is when they start. The stack's own defaults (loopback webhooks
allowed, the deadline function's ARN, ...) were set only after the workers had started, so
the README's ``http://127.0.0.1`` webhook receiver was refused with 422 under ``make run``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import requests

from local_stack.notification_pumps import LOCAL_DEFAULTS
from local_stack.stack import LocalStack


@pytest.fixture
def unset_defaults() -> Iterator[None]:
    """A process that has not set the stack's defaults yet, as ``make run`` starts."""
    saved = {name: os.environ.pop(name, None) for name in LOCAL_DEFAULTS}
    yield
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.mark.usefixtures("unset_defaults")
def test_a_loopback_webhook_is_accepted_by_the_api_workers_of_the_local_stack() -> None:
    stack = LocalStack(port=0, api_workers=1).start()
    try:
        answer = requests.post(f"{stack.url}/games", timeout=60, json={
            "variant": "classical", "notify": [{"type": "webhook", "url": "http://127.0.0.1:9/hook"}],
        })
        assert answer.status_code == 201, answer.text
        assert answer.json()["webhook_secret"]
    finally:
        stack.stop()
