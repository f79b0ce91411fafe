"""Start and stop the whole local stack in-process (used by ``make run``, tests, the bench)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from local_stack import emulator as emulators
from local_stack import pumps
from local_stack.api_workers import Containers
from local_stack.emulator import LOCAL_ENV, Emulator, free_port
from local_stack.http_adapter import Handler, HttpServer
from local_stack.live_socket import LiveSocket

__all__ = ["LOCAL_ENV", "Emulator", "LocalStack", "free_port"]
_ours = [""]  # the CONVOY_PUBLIC_URL this process's last stack set (a user's own setting wins)


@dataclass
class LocalStack:
    host: str = "127.0.0.1"
    port: int = 8000
    pump_interval: float = 1.0
    api_workers: int = 0
    emulator: Emulator = field(default_factory=Emulator)
    _http: HttpServer | None = None
    _containers: Containers | None = None
    _loop: pumps.PumpLoop | None = None
    _live: LiveSocket | None = None
    _timer: pumps.PumpLoop | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, handler: Handler | None = None) -> LocalStack:
        self.emulator.start()
        emulators.set_current(self.emulator)
        os.environ.setdefault("POWERTOOLS_SERVICE_NAME", "convoy")
        os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # as template.yaml's Globals
        from composition import wiring
        from composition.live import handler as live_handler
        from local_stack.notification_pumps import apply_local_defaults

        # before the API workers are spawned: they copy the environment then (the deadline
        # settings: the join that fills a game schedules its first deadline, issue 28; the
        # loopback webhook setting, issue 28 item 10)
        apply_local_defaults()
        wiring.reset()
        # the WebSocket API (issue 33), started first: the API workers read LIVE_URL when spawned
        self._live = LiveSocket(live_handler, self.host).start()
        os.environ["LIVE_URL"] = self._live.url
        self._containers = Containers(self.api_workers if handler is None else 0, handler)
        self._http = HttpServer(self.host, self.port, self._containers).start()
        self.port = self._http.port
        if not os.environ.get("CONVOY_PUBLIC_URL") or os.environ.get("CONVOY_PUBLIC_URL") == _ours[0]:
            os.environ["CONVOY_PUBLIC_URL"] = _ours[0] = self.url  # links in mail: this stack
        pumps.install_all()
        self._loop = pumps.PumpLoop(self.pump_interval)
        self._loop.start()
        self._timer = pumps.PumpLoop(min(pumps.TIMER_INTERVAL, self.pump_interval), pumps.TIMER_PUMPS,
                                     name="convoy-timers")
        self._timer.start()
        return self

    def stop(self) -> None:
        for loop in (self._loop, self._timer):
            if loop is not None:
                loop.stop()
                loop.join(timeout=30)  # a pump run in progress finishes before the emulator stops
        if self._http is not None:
            self._http.stop()
        if self._live is not None:
            self._live.stop()
        if self._containers is not None:
            self._containers.stop()
        self.emulator.stop()
        emulators.set_current(None)
