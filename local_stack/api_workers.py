"""API "containers": how the local stack runs the API Lambda handler concurrently.

On AWS each Lambda container handles one request at a time and concurrency comes from
more containers, each its own process with its own module globals (caches, clients,
the composition root). The local stack does the same: ``workers`` spawned processes,
each a container importing the handlers once and serving one event at a time; the
HTTP server hands events to whichever is free. Processes, not threads, also because
the adjudicator is CPU-bound: on two cores two workers really run in parallel.
``workers=0`` runs the handler in the caller's process under a lock (one container),
which in-process tests and ``bench/api_bench.py`` use to observe the handler directly.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from local_stack.http_adapter import Handler, LocalContext

_route: Handler | None = None


def routes() -> Handler:
    """API Gateway's routing of template.yaml: the Telegram webhook has its own function."""
    from composition.api import lambda_handler
    from composition.telegram import handler as telegram_handler

    def route(event: dict[str, Any], context: Any) -> dict[str, Any]:
        method = event["requestContext"]["http"]["method"]
        if event.get("rawPath") == "/webhooks/telegram" and method == "POST":
            return telegram_handler(event, context)
        answer: dict[str, Any] = lambda_handler(event, context)  # Powertools' decorator is untyped
        return answer

    return route


def _warm() -> None:
    """Worker initializer: import the handlers before the first request (a warm container),
    and leave when the server does (a kill -9 of the server must not leave workers behind)."""
    global _route
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="convoy-parent-watch", daemon=True).start()
    _route = routes()


def _ready() -> int:
    return os.getpid()


def _invoke(event: dict[str, Any]) -> dict[str, Any]:
    assert _route is not None
    return _route(event, LocalContext())


BROKEN = {
    "statusCode": 502,
    "headers": {"content-type": "application/json"},
    "body": '{"code": "WORKER_FAILED", "message": "the API worker process died; retry"}',
}


class Containers:
    """A handler callable that runs each event in one of ``workers`` processes."""

    def __init__(self, workers: int, handler: Handler | None = None) -> None:
        self.workers = workers
        self._lock = threading.Lock()
        self._local = handler
        self._pool: ProcessPoolExecutor | None = None
        if workers == 0 and handler is None:
            self._local = routes()
        if workers > 0:
            self._pool = self._new_pool()
            for _ in range(workers):  # start every container now, not on the first requests
                self._pool.submit(_ready)

    def _new_pool(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("spawn")  # the parent has threads: never fork
        return ProcessPoolExecutor(self.workers, mp_context=context, initializer=_warm)

    def __call__(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        if self._pool is None:
            assert self._local is not None
            with self._lock:
                return self._local(event, context)
        pool = self._pool
        try:
            return pool.submit(_invoke, event).result()
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = self._new_pool()
            return BROKEN

    def pids(self) -> list[int]:
        """Worker process ids (for RSS measurement)."""
        processes = (self._pool._processes or {}).values() if self._pool else []
        return [p.pid for p in processes if p.pid is not None]

    def stop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
