"""A tiny HTTP client for the system tests and the benchmark."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import requests


@dataclass
class Api:
    base: str
    session: requests.Session = field(default_factory=requests.Session)
    timings: list[tuple[str, float]] = field(default_factory=list)

    def call(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        body: Any = None,
        route: str | None = None,
        headers: dict[str, str] | None = None,
        expect: int | None = 200,
    ) -> Any:
        sent = dict(headers or {})
        if token:
            sent["Authorization"] = f"Bearer {token}"
        started = time.perf_counter()
        response = self.session.request(method, self.base + path, json=body, headers=sent, timeout=30)
        self.timings.append((route or f"{method} {path}", time.perf_counter() - started))
        if expect is not None:
            assert response.status_code == expect, (method, path, response.status_code, response.text)
        if not response.content:
            return None
        if response.headers.get("content-type", "").startswith("application/json"):
            return response.json()
        return response.text  # a picture (the map routes): SVG text, or PNG bytes decoded as text
