"""Background pumps: callables the local stack runs every few seconds.

The extension point for work AWS would trigger on its own (EventBridge Scheduler
firing deadlines, the DynamoDB stream feeding the relay, SQS feeding the notifier).
Add one with ``register(pump)`` before the stack starts, or name an installer in
``PUMP_MODULES``: ``"package.module"`` is imported (it may call ``register`` at import)
and ``"package.module:function"`` is imported and ``function()`` is called once the
emulator and the API are up (e.g. ``"local_stack.notification_pumps:install"``).
A pump must be quick and must not raise for routine conditions; exceptions are
logged and the loop goes on.

Two lanes, each its own thread: ``PUMPS`` every second (the stream, the queue, the sweeper)
and ``TIMER_PUMPS`` every ``TIMER_INTERVAL`` (the due schedules: EventBridge fires a schedule
at its time, so a deadline must not wait behind a slow webhook delivery or a second's poll;
issue 28, every deadline by its schedule within 2 s).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

Pump = Callable[[], None]

PUMPS: list[Pump] = []
TIMER_PUMPS: list[Pump] = []
TIMER_INTERVAL = 0.2  # seconds between two looks at the due schedules (O(1) when none is due)
# Installers run when the stack starts ("module" or "module:function"). Kept as strings
# so local_stack does not depend on them at import time.
PUMP_MODULES: list[str] = ["local_stack.notification_pumps:install", "local_stack.expiry_pump:install"]


def install_all() -> None:
    import importlib

    for spec in PUMP_MODULES:
        module_name, _, function = spec.partition(":")
        module = importlib.import_module(module_name)
        if function:
            getattr(module, function)()

log = logging.getLogger("convoy.local.pumps")


def register(pump: Pump, *, timer: bool = False) -> Pump:
    lane = TIMER_PUMPS if timer else PUMPS
    if pump not in lane:
        lane.append(pump)
    return pump


def unregister(pump: Pump) -> None:
    for lane in (PUMPS, TIMER_PUMPS):
        if pump in lane:
            lane.remove(pump)


def run_once(lane: list[Pump] | None = None) -> None:
    for pump in list(PUMPS if lane is None else lane):
        try:
            pump()
        except Exception:  # a pump's failure must not stop the others or the server
            log.exception("pump %s failed", getattr(pump, "__name__", pump))


class PumpLoop(threading.Thread):
    """Runs one lane's pumps every ``interval`` seconds until stopped."""

    def __init__(self, interval: float = 1.0, lane: list[Pump] | None = None,
                 name: str = "convoy-pumps") -> None:
        super().__init__(name=name, daemon=True)
        self.interval = interval
        self.lane = PUMPS if lane is None else lane
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.wait(self.interval):
            run_once(self.lane)

    def stop(self) -> None:
        self._stop_event.set()
