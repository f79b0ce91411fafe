"""Background pumps: callables the local stack runs every few seconds.

The extension point for work AWS would trigger on its own (EventBridge Scheduler
firing deadlines, the DynamoDB stream feeding the relay, SQS feeding the notifier).
Add one with ``register(pump)`` before the stack starts, or name an installer in
``PUMP_MODULES``: ``"package.module"`` is imported (it may call ``register`` at import)
and ``"package.module:function"`` is imported and ``function()`` is called once the
emulator and the API are up (e.g. ``"local_stack.notification_pumps:install"``).
A pump must be quick and must not raise for routine conditions; exceptions are
logged and the loop goes on.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

Pump = Callable[[], None]

PUMPS: list[Pump] = []
# Pumps that run on a thread of their own, not in turn with the others: one that may take
# seconds (the notifier's deliveries wait on receivers) must not hold up the rest (deadlines).
SEPARATE: set[Pump] = set()
# Installers run when the stack starts ("module" or "module:function"). Kept as strings
# so local_stack does not depend on them at import time.
PUMP_MODULES: list[str] = ["local_stack.notification_pumps:install"]


def install_all() -> None:
    import importlib

    for spec in PUMP_MODULES:
        module_name, _, function = spec.partition(":")
        module = importlib.import_module(module_name)
        if function:
            getattr(module, function)()

log = logging.getLogger("convoy.local.pumps")


def register(pump: Pump, *, separate: bool = False) -> Pump:
    """Add ``pump``; ``separate``: on a thread of its own (issue 28 item 7: a slow webhook
    receiver held the notifier's batch, and with it every deadline, for seconds)."""
    if pump not in PUMPS:
        PUMPS.append(pump)
    if separate:
        SEPARATE.add(pump)
    return pump


def _run(pump: Pump) -> None:
    try:
        pump()
    except Exception:  # a pump's failure must not stop the others or the server
        log.exception("pump %s failed", getattr(pump, "__name__", pump))


def run_once() -> None:
    for pump in list(PUMPS):
        if pump not in SEPARATE:
            _run(pump)


class PumpLoop(threading.Thread):
    def __init__(self, interval: float = 1.0) -> None:
        super().__init__(name="convoy-pumps", daemon=True)
        self.interval = interval
        self._stop_event = threading.Event()

    def run(self) -> None:
        for pump in [p for p in PUMPS if p in SEPARATE]:
            threading.Thread(target=self._run_alone, args=(pump,), daemon=True,
                             name=f"convoy-pump-{getattr(pump, '__name__', 'pump')}").start()
        while not self._stop_event.wait(self.interval):
            run_once()

    def _run_alone(self, pump: Pump) -> None:
        while not self._stop_event.wait(self.interval):
            _run(pump)

    def stop(self) -> None:
        self._stop_event.set()
