"""Counts for docs/reliability.md: what the suites send to each surface and what comes back.

A pytest plugin, off unless ``RELIABILITY_COUNTS=<file.json>`` is set (tests/conftest.py loads
it). At the start of the session, before any test module is imported, it wraps the entry
points every suite goes through, and at the end writes the counts as JSON (one file per
xdist worker: ``<file>.<pid>``; ``python -m tests.reliability_counts <file>`` adds them up):

- the API handler (``composition.api.lambda_handler``): requests and 5xx answers, by
  surface: ``import`` (``/games/import``), ``accounts`` (``/auth/*``, ``/me*``), ``REST`` (the
  rest); the in-process harness, the fuzz and the in-process local stacks all call it;
- the Telegram webhook handlers (``functions.telegram.handler.make_handler``'s): updates and 5xx;
- the notifier's deliveries (``functions.usecases.notifications.notifications.deliver_batch``): messages
  and targets sent, failed, deferred (webhooks, Discord, Telegram sends);
- the DAIDE bridge: messages answered (``Session.answer``) and its REST calls refused with a 5xx.

It measures; it asserts nothing (the suites do).
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

COUNTS: Counter[str] = Counter()
# the session-long wrappers of methods (a class attribute is patched, not assigned, so that the
# type checker sees a wrapper of the same shape; nothing undoes them: they count until the end)
_METHODS = pytest.MonkeyPatch()


def _surface(event: dict[str, Any]) -> str:
    path = str(event.get("rawPath") or "")
    if path.rstrip("/") == "/games/import":
        return "import"
    if path.startswith(("/auth/", "/me")):
        return "accounts"
    if path == "/webhooks/telegram":
        return "telegram"
    return "REST"


def _status(answer: Any) -> int:
    try:
        return int(answer.get("statusCode", 0))
    except (AttributeError, TypeError, ValueError):
        return 0


def _five_xx(surface: str, status: int) -> None:
    """Count a 5xx, by status, with the test that got it (a 503 is the honest answer to an
    injected storage outage: the fault-injection suites provoke those on purpose)."""
    COUNTS[f"{surface} 5xx"] += status >= 500
    if status >= 500:
        test = os.environ.get("PYTEST_CURRENT_TEST", "?").split(" ")[0]
        COUNTS[f"{surface} {status} in {test}"] += 1


def install() -> None:
    from composition import api
    from composition import telegram as telegram_entry
    from composition.factories.telegram import telegram_dependencies
    from functions.telegram import handler as telegram
    from functions.usecases.notifications import notifications

    original_api = api.lambda_handler

    def counted_api(event: dict[str, Any], context: Any) -> Any:
        answer = original_api(event, context)
        surface = _surface(event)
        COUNTS[f"{surface} requests"] += 1
        _five_xx(surface, _status(answer))
        return answer

    api.lambda_handler = counted_api
    original_make = telegram.make_handler

    def counted_make(*args: Any, **kwargs: Any) -> Any:
        made = original_make(*args, **kwargs)

        def counted(event: dict[str, Any], context: Any) -> Any:
            answer = made(event, context)
            COUNTS["telegram requests"] += 1
            _five_xx("telegram", _status(answer))
            return answer

        return counted

    telegram.make_handler = counted_make
    telegram_entry.handler = counted_make(telegram_dependencies)
    original_batch = notifications.deliver_batch

    def counted_batch(messages: Any, **kwargs: Any) -> Any:
        reports = original_batch(messages, **kwargs)
        COUNTS["webhooks messages"] += len(reports)
        for report in reports:
            COUNTS["webhooks sent"] += len(report.sent)
            COUNTS["webhooks failed"] += len(report.failed)
            COUNTS["webhooks deferred"] += len(report.deferred)
        return reports

    notifications.deliver_batch = counted_batch
    _install_daide()


def _install_daide() -> None:
    from daide_bridge import rest, server

    original_answer = server.Session.answer

    async def answer(self: Any, message: Any) -> None:
        COUNTS["DAIDE messages"] += 1
        await original_answer(self, message)

    _METHODS.setattr(server.Session, "answer", answer)
    original_call = rest.Convoy.call

    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        COUNTS["DAIDE requests"] += 1
        try:
            return original_call(self, *args, **kwargs)
        except rest.ApiError as error:
            COUNTS["DAIDE 5xx"] += error.status >= 500
            raise

    _METHODS.setattr(rest.Convoy, "call", call)


def write(path: str) -> None:
    Path(f"{path}.{os.getpid()}").write_text(json.dumps(dict(COUNTS), sort_keys=True))


def add_up(path: str) -> dict[str, int]:
    total: Counter[str] = Counter()
    for part in Path(path).parent.glob(Path(path).name + ".*"):
        total.update(json.loads(part.read_text()))
    return dict(sorted(total.items()))


if __name__ == "__main__":
    print(json.dumps(add_up(sys.argv[1]), indent=2))
