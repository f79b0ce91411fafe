"""The local stack's settings reach its API worker processes (issue 28 item 10).

``make run`` serves the API from spawned worker processes (local_stack/api_workers.py), which
copy the environment as it is when they start. The stack's own defaults (loopback webhooks
allowed, the deadline function's ARN, ...) were set only after the workers had started, so
the README's ``http://127.0.0.1`` webhook receiver was refused with 422 under ``make run``.
The stack runs in a process of its own here, as under ``make run``, started without them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from local_stack.notification_pumps import LOCAL_DEFAULTS

ROOT = Path(__file__).resolve().parents[2]
CHILD = textwrap.dedent(
    """
    import requests
    from local_stack.stack import LocalStack

    stack = LocalStack(port=0, api_workers=1).start()
    try:
        answer = requests.post(f"{stack.url}/games", timeout=60, json={
            "variant": "classical", "notify": [{"type": "webhook", "url": "http://127.0.0.1:9/hook"}]})
        print(answer.status_code, answer.json().get("code", ""), flush=True)
    finally:
        stack.stop()
    """
)


def test_a_loopback_webhook_is_accepted_by_the_api_workers_of_the_local_stack() -> None:
    env = {k: v for k, v in os.environ.items() if k not in LOCAL_DEFAULTS and k != "AWS_ENDPOINT_URL"}
    env["POWERTOOLS_LOG_LEVEL"] = "ERROR"
    done = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.stdout.split()[:1] == ["201"], (done.stdout, done.stderr[-2000:])
