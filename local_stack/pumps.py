"""Background pumps: callables the local stack runs every few seconds.

The extension point for work AWS would trigger on its own (EventBridge Scheduler
firing deadlines, the DynamoDB stream feeding the relay, SQS feeding the notifier).
Add one with ``register(pump)`` before the stack starts, or name an installer in
``PUMP_MODULES``: ``"package.module"`` is imported (it may call ``register`` at import)
and ``"package.module:function"`` is imported and ``function()`` is called once the
emulator and the API are up (e.g. ``"local_stack.notification_pumps:install"``).
A pump must be quick and must not raise for routine conditions; exceptions are
logged and the loop goes on.

Two lanes, each its own thread: ``PUMPS`` every second (the stream, the sweeper) and
``TIMER_PUMPS`` every ``TIMER_INTERVAL`` (the due schedules: EventBridge fires a schedule at
its time, so a deadline must not wait behind a second's poll; issue 28, every deadline by its
schedule within 2 s). A pump registered ``separate`` (the queue's deliveries, which wait on
webhook receivers for seconds: issue 28 item 7) runs on a thread of its own beside the lanes.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

Pump = Callable[[], object]  # what a pump returns (a count, say) is not looked at

PUMPS: list[Pump] = []
TIMER_PUMPS: list[Pump] = []
TIMER_INTERVAL = 0.2  # seconds between two looks at the due schedules (O(1) when none is due)
# Pumps that run on a thread of their own, not in turn with the others: one that may take
# seconds (the notifier's deliveries wait on receivers) must not hold up the rest (deadlines).
SEPARATE: set[Pump] = set()
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


def register(pump: Pump, *, timer: bool = False, separate: bool = False) -> Pump:
    """Add ``pump`` to a lane (``timer``: the due-schedule lane); ``separate``: on a thread of
    its own (issue 28 item 7: a slow webhook receiver held the notifier's batch, and with it
    every deadline, for seconds)."""
    lane = TIMER_PUMPS if timer else PUMPS
    if pump not in lane:
        lane.append(pump)
    if separate:
        SEPARATE.add(pump)
    return pump


def unregister(pump: Pump) -> None:
    for lane in (PUMPS, TIMER_PUMPS):
        if pump in lane:
            lane.remove(pump)
    SEPARATE.discard(pump)


def _run(pump: Pump) -> None:
    try:
        pump()
    except Exception:  # a pump's failure must not stop the others or the server
        log.exception("pump %s failed", getattr(pump, "__name__", pump))


def run_once(lane: list[Pump] | None = None) -> None:
    """One round of a lane's pumps (``PUMPS`` by default), but those on threads of their own."""
    for pump in list(PUMPS if lane is None else lane):
        if pump not in SEPARATE:
            _run(pump)


class PumpLoop(threading.Thread):
    """Runs one lane's pumps every ``interval`` seconds until stopped; the main lane's loop
    also starts a thread for each of its ``separate`` pumps."""

    def __init__(self, interval: float = 1.0, lane: list[Pump] | None = None,
                 name: str = "convoy-pumps") -> None:
        super().__init__(name=name, daemon=True)
        self.interval = interval
        self.lane = PUMPS if lane is None else lane
        self._stop_event = threading.Event()

    def run(self) -> None:
        for pump in [p for p in self.lane if p in SEPARATE]:
            threading.Thread(target=self._run_alone, args=(pump,), daemon=True,
                             name=f"convoy-pump-{getattr(pump, '__name__', 'pump')}").start()
        while not self._stop_event.wait(self.interval):
            run_once(self.lane)

    def _run_alone(self, pump: Pump) -> None:
        while not self._stop_event.wait(self.interval):
            _run(pump)

    def stop(self) -> None:
        self._stop_event.set()
