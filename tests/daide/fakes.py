"""A stand-in for Convoy's REST API (daide_bridge/rest.py's calls, answered from memory) and
the bridge running on its own event loop thread, for tests of the bridge's own rules (seats,
IAM, syntax) without the local stack. The end-to-end tests (tests/system) use the real API."""

from __future__ import annotations

import asyncio
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from daide_bridge.grammar import CONVOY_POWERS
from daide_bridge.rest import ApiError
from daide_bridge.server import Bridge

START_UNITS = [
    {"kind": "A", "power": "FRANCE", "location": "PAR"},
    {"kind": "A", "power": "FRANCE", "location": "MAR"},
    {"kind": "F", "power": "FRANCE", "location": "BRE"},
    {"kind": "A", "power": "GERMANY", "location": "MUN"},
]


@dataclass
class FakeConvoy:
    """One game, ``G``, at Spring 1901. Orders are accepted unless their unit is not the
    power's (NOT_YOUR_UNIT) or they are ``A PAR - MUN`` (NOT_ADJACENT)."""

    players: dict[str, str] = field(default_factory=dict)  # power -> token
    orders: dict[str, list[str]] = field(default_factory=dict)
    calls: list[tuple[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    fog: bool = False  # a fog-of-war game: its view carries a fog block (the bridge declines it)

    def join(self, game_id: str) -> dict[str, str]:
        with self.lock:
            self.calls.append(("join", game_id))
            free = [p for p in CONVOY_POWERS if p not in self.players]
            if not free:
                raise ApiError(409, "GAME_FULL", "every power is taken")
            token = secrets.token_urlsafe(32)
            self.players[free[0]] = token
            return {"power": free[0], "token": token}

    def leave(self, game_id: str, token: str) -> dict[str, Any]:
        with self.lock:
            self.calls.append(("leave", game_id))
            power = self._power(token)
            del self.players[power]
            return {"power": power, "status": "left", "open_seats": []}

    def _power(self, token: str | None) -> str:
        for power, held in self.players.items():
            if secrets.compare_digest(held, token or ""):
                return power
        raise ApiError(401, "INVALID_TOKEN", "no such seat")

    def view(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        with self.lock:
            self.calls.append(("view", game_id))
            seen = self.orders.get(self._power(token), []) if token else []
            return {
                "variant": "classical", "phase": "S1901M", "year": 1901, "season": "SPRING",
                "phase_type": "MOVEMENT",
                "status": "ACTIVE", "units": START_UNITS, "dislodged": [],
                "ownership": {"PAR": "FRANCE", "MAR": "FRANCE", "BRE": "FRANCE", "MUN": "GERMANY"},
                "open_seats": [p for p in CONVOY_POWERS if p not in self.players],
                "deadline": None, "orders": {self._power(token): seen} if token else {},
                "fog": {"visible": [], "centres": {}} if self.fog else None,
            }

    def add_orders(self, game_id: str, token: str, orders: list[str], phase: str) -> dict[str, Any]:
        with self.lock:
            self.calls.append(("add_orders", game_id))
            power = self._power(token)
            units = {f"{u['kind']} {u['location']}": u["power"] for u in START_UNITS}
            rejected = []
            for text in orders:
                unit = " ".join(text.split()[:2])
                if units.get(unit) != power:
                    rejected.append({"order": text, "code": "ILLEGAL_ORDER", "engine_code": "NOT_YOUR_UNIT"})
                elif text == "A PAR - MUN":
                    rejected.append({"order": text, "code": "ILLEGAL_ORDER", "engine_code": "NOT_ADJACENT"})
                else:
                    self.orders.setdefault(power, []).append(text)
            return {"rejected": rejected}

    def history(self, game_id: str) -> list[dict[str, Any]]:
        return []

    def vote_draw(self, game_id: str, token: str, draw: bool) -> dict[str, Any]:
        self._power(token)
        return {"draw": draw}


class Clock:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class RunningBridge:
    """The bridge's asyncio server on its own event loop thread, as ``python -m daide_bridge``
    runs it, serving game ``G`` of ``convoy``."""

    def __init__(self, convoy: Any, seats_per_host: int = 1, clock: Clock | None = None) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="daide-bridge", daemon=True)
        self.thread.start()
        self.clock = clock or Clock()
        self.bridge = Bridge(
            convoy, ["G"], poll_seconds=0.05, seats_per_host=seats_per_host, clock=self.clock
        )
        self.port = asyncio.run_coroutine_threadsafe(self.bridge.start("127.0.0.1", 0), self.loop).result(30)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.bridge.stop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=30)
        self.loop.close()
