"""Observability: Powertools' Logger, Metrics and Tracer, set up once for Convoy (issue 27).

Every function logs through ``get_logger()``: Powertools' structured JSON (``level``,
``location``, ``message``, ``timestamp`` in UTC RFC 3339, ``service``, ``cold_start``,
``function_name``, ``function_memory_size``, ``function_request_id``, ``correlation_id``,
``xray_trace_id`` and whatever ``extra=`` a call adds),
service ``POWERTOOLS_SERVICE_NAME`` or ``convoy``, level ``POWERTOOLS_LOG_LEVEL``.

What is ours, and why:

- ``Logger.inject_lambda_context`` puts the invocation's keys in Powertools' *thread-safe*
  keys (one set per thread) instead of the formatter's shared ones: the local stack serves
  invocations on several threads of one process, and Powertools' own decorator (structure_logs,
  set_correlation_id) would let one request's ids leak onto another's lines. It also takes
  any context (the local stack and the tests pass None or a partial one) and never logs the
  event, whatever ``POWERTOOLS_LOGGER_LOG_EVENT`` says: events carry tokens and passwords.
- Lines go to whatever ``sys.stdout`` is when they are written (Lambda's, or a test's capture).

``get_metrics()`` is Powertools' EMF Metrics (namespace Convoy, dimension service=convoy:
template.yaml's alarms read exactly that). ``get_tracer()`` is Powertools' Tracer; outside
Lambda (no ``LAMBDA_TASK_ROOT``: the local stack, the tests) or with
``POWERTOOLS_TRACE_DISABLED=true`` it is a no-op that patches nothing and sends nothing. On
Lambda (``Tracing: Active``) it patches botocore and boto3 only, never ``http.client``:
webhook URLs carry their receivers' tokens in the path, and a trace must not hold them.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger as PowertoolsLogger
from aws_lambda_powertools import Metrics, Tracer
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities import jmespath_utils

SERVICE = "convoy"
NAMESPACE = "Convoy"
API_GATEWAY_HTTP = correlation_paths.API_GATEWAY_HTTP  # "requestContext.requestId"
TRACED_MODULES = ("botocore",)  # boto3 clients are botocore clients: patching it covers both

Handler = Callable[[Any, Any], Any]


class _CurrentStdout:
    """A stream that writes to whatever ``sys.stdout`` is at the time of writing."""

    def write(self, text: str) -> int:
        return sys.stdout.write(text)

    def flush(self) -> None:
        sys.stdout.flush()


class Logger(PowertoolsLogger):
    """Powertools' Logger whose Lambda decorator keeps each invocation's keys to its thread."""

    def __init__(self, service: str | None = None, **options: Any) -> None:
        options.setdefault("stream", _CurrentStdout())
        super().__init__(service=service or _service(), utc=True, use_rfc3339=True, **options)
        self._first_invocation = threading.Lock()
        self._cold = os.environ.get("AWS_LAMBDA_INITIALIZATION_TYPE") != "provisioned-concurrency"

    def inject_lambda_context(  # type: ignore[override]
        self,
        lambda_handler: Handler | None = None,
        log_event: bool | None = None,
        correlation_id_path: str | None = None,
        clear_state: bool = True,
    ) -> Any:
        """Decorate a Lambda handler: each line it logs names the invocation (and its request).

        As Powertools' decorator, usable bare or with arguments, but ``log_event`` is ignored
        (the event is never logged) and ``clear_state`` defaults to True, as it always did
        here: with it, this thread's keys are dropped before and after the invocation."""
        if lambda_handler is None:
            return functools.partial(self.inject_lambda_context, correlation_id_path=correlation_id_path,
                                     clear_state=clear_state)
        handler = lambda_handler

        @functools.wraps(handler)
        def invoke(event: Any, context: Any) -> Any:
            if clear_state:
                self.thread_safe_clear_keys()
            cold = self._take_cold_start()
            if self.sampling_rate and not cold:  # as Powertools: each invocation is sampled anew
                self.refresh_sample_rate_calculation()
            self.thread_safe_append_keys(cold_start=cold, **_context_keys(context))
            if correlation_id_path:
                self.set_correlation_id(_correlation_id(event, correlation_id_path))
            try:
                return handler(event, context)
            finally:
                if clear_state:
                    self.thread_safe_clear_keys()

        return invoke

    def set_correlation_id(self, value: str | None) -> None:
        """This thread's correlation id (Powertools keeps it among the shared keys)."""
        self.thread_safe_append_keys(correlation_id=value)

    def get_correlation_id(self) -> str | None:
        value = self.thread_safe_get_current_keys().get("correlation_id")
        return None if value is None else str(value)

    def _take_cold_start(self) -> bool:
        """True for this logger's first invocation only (a Lambda process serves one function)."""
        with self._first_invocation:
            cold, self._cold = self._cold, False
        return cold


def _service() -> str:
    return os.environ.get("POWERTOOLS_SERVICE_NAME") or SERVICE


def _context_keys(context: Any) -> dict[str, Any]:
    """Powertools' context fields, from whatever context there is (None locally), but not
    ``function_arn``: it only adds the account id to the function's name, and a log line
    needs neither that nor one more long number to mistake for a code or a token."""
    return {
        "function_name": getattr(context, "function_name", None),
        "function_memory_size": getattr(context, "memory_limit_in_mb", None),
        "function_request_id": getattr(context, "aws_request_id", None),
    }


def _correlation_id(event: Any, path: str) -> str | None:
    if not isinstance(event, dict):
        return None
    found = jmespath_utils.query(data=event, envelope=path)
    return None if found is None else str(found)


def get_logger() -> Logger:
    """The service's logger (all instances share one stdlib logger and its handler)."""
    return Logger(service=_service())


@functools.cache
def get_metrics() -> Metrics:
    """The service's EMF metrics; a handler decorated with ``log_metrics`` flushes them."""
    return Metrics(namespace=NAMESPACE, service=SERVICE)


@functools.cache
def get_tracer() -> Tracer:
    """The service's tracer: a no-op outside Lambda (see the module docstring)."""
    return Tracer(service=SERVICE, patch_modules=TRACED_MODULES)
