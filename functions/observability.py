"""Structured logging: one JSON line per record, with the request's correlation id.

Our own small layer over the standard ``logging`` module rather than Powertools'
Logger, whose package import cost ~25 ms of every cold start (issue 9): the same fields
CloudWatch Logs Insights queries use (``level``, ``message``, ``timestamp``, ``service``,
``cold_start``, ``function_request_id``, ``correlation_id``, and whatever ``extra=`` a
call adds). The level comes from ``POWERTOOLS_LOG_LEVEL`` (template.yaml) or ``LOG_LEVEL``.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

SERVICE = "convoy"
API_GATEWAY_HTTP = "requestContext.requestId"  # where an HTTP API event carries its request id
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


class _JsonFormatter(logging.Formatter):
    def __init__(self, logger: Logger) -> None:
        super().__init__()
        self._logger = logger

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "level": record.levelname,
            "location": f"{record.funcName}:{record.lineno}",
            "message": record.getMessage(),
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "service": self._logger.service,
            **self._logger.context(),
        }
        line.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


class _Stdout(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stdout`` is at the time (Lambda's, or a test's capture)."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stdout
        super().emit(record)


class Logger:
    """A service logger; ``inject_lambda_context`` adds the invocation's keys to every line."""

    def __init__(self, service: str = SERVICE) -> None:
        self.service = os.environ.get("POWERTOOLS_SERVICE_NAME") or service
        self._log = logging.getLogger(f"convoy.{service}")
        self._log.propagate = False
        if not self._log.handlers:
            handler = _Stdout()
            handler.setFormatter(_JsonFormatter(self))
            self._log.addHandler(handler)
        level = os.environ.get("POWERTOOLS_LOG_LEVEL") or os.environ.get("LOG_LEVEL") or "INFO"
        self._log.setLevel(level.upper())
        self._local = threading.local()  # the local stack serves invocations on several threads
        self._cold = True

    @property
    def log_level(self) -> int:
        return self._log.level

    def setLevel(self, level: int | str) -> None:  # noqa: N802 - the logging (and Powertools) name
        self._log.setLevel(level.upper() if isinstance(level, str) else level)

    def context(self) -> dict[str, Any]:
        return dict(getattr(self._local, "keys", {}))

    def debug(self, message: str, **kwargs: Any) -> None:
        self._log.debug(message, **kwargs)

    def info(self, message: str, **kwargs: Any) -> None:
        self._log.info(message, **kwargs)

    def warning(self, message: str, **kwargs: Any) -> None:
        self._log.warning(message, **kwargs)

    def error(self, message: str, **kwargs: Any) -> None:
        self._log.error(message, **kwargs)

    def exception(self, message: str, **kwargs: Any) -> None:
        self._log.exception(message, **kwargs)

    def inject_lambda_context(
        self, correlation_id_path: str | None = None, clear_state: bool = True
    ) -> Callable[[Callable[[Any, Any], Any]], Callable[[Any, Any], Any]]:
        """Decorate a Lambda handler: each line of the invocation names it (and its request)."""

        def decorate(handler: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
            @functools.wraps(handler)
            def invoke(event: Any, context: Any) -> Any:
                keys: dict[str, Any] = {} if clear_state else self.context()
                keys.update(
                    cold_start=self._cold,
                    function_name=getattr(context, "function_name", None),
                    function_request_id=getattr(context, "aws_request_id", None),
                )
                self._cold = False
                if correlation_id_path:
                    keys["correlation_id"] = _dig(event, correlation_id_path)
                self._local.keys = keys
                try:
                    return handler(event, context)
                finally:
                    if clear_state:
                        self._local.keys = {}

            return invoke

        return decorate


def _dig(event: Any, path: str) -> Any:
    found = event
    for part in path.split("."):
        found = found.get(part) if isinstance(found, dict) else None
    return found


def get_logger() -> Logger:
    return Logger(service=SERVICE)
