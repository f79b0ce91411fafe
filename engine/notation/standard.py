"""Standard order text (to be written)."""
from __future__ import annotations

from typing import Any


class OrderSyntaxError(ValueError):
    pass


def parse_order(text: str, power: str | None = None, state: Any = None, map: Any = None) -> Any:  # noqa: A002
    raise NotImplementedError


def format_order(order: Any) -> str:
    raise NotImplementedError
