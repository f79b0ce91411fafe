"""Convoy's public REST API, as the bridge uses it (docs/api.md): the only way it talks to Convoy.

Blocking ``urllib`` calls (the server runs them in a thread, ``asyncio.to_thread``), so the
bridge needs nothing beyond the standard library and works the same against ``make run``
and a deployed stack: it only needs the base URL. A 4xx/5xx answer raises ``ApiError``
with the API's stable ``code``.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


@dataclass(frozen=True)
class Convoy:
    base_url: str
    timeout: float = 30.0

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(
            self.base_url.rstrip("/") + path, data=data, headers=headers, method=method
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                text = response.read().decode()
        except urllib.error.HTTPError as error:
            raw = error.read().decode(errors="replace")
            try:
                answer = json.loads(raw)
            except ValueError:
                answer = {}
            raise ApiError(
                error.code, str(answer.get("code", "HTTP_ERROR")), str(answer.get("message", raw))
            ) from error
        return json.loads(text) if text else None

    # --- the calls the bridge makes -------------------------------------------------------

    def join(self, game_id: str) -> dict[str, str]:
        """Take any free seat: ``{"power", "token"}``."""
        return dict(self.call("POST", f"/games/{game_id}/join", {}))

    def view(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        return dict(self.call("GET", f"/games/{game_id}", token=token))

    def add_orders(self, game_id: str, token: str, orders: list[str], phase: str) -> dict[str, Any]:
        return dict(
            self.call("POST", f"/games/{game_id}/orders/add", {"orders": orders, "phase": phase}, token)
        )

    def history(self, game_id: str) -> list[dict[str, Any]]:
        return list(self.call("GET", f"/games/{game_id}/history")["phases"])

    def leave(self, game_id: str, token: str) -> dict[str, Any]:
        """Give the seat back (its token stops working; the seat opens for join)."""
        return dict(self.call("POST", f"/games/{game_id}/leave", {}, token))

    def vote_draw(self, game_id: str, token: str, draw: bool) -> dict[str, Any]:
        return dict(self.call("POST", f"/games/{game_id}/votes", {"draw": draw}, token))
