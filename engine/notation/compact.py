"""Compact notation (to be written)."""
from __future__ import annotations

from typing import Any


def parse_compact_state(text: str, **kw: Any) -> Any:
    raise NotImplementedError


def format_compact_state(state: Any, **kw: Any) -> str:
    raise NotImplementedError


def parse_compact_order(text: str, **kw: Any) -> Any:
    raise NotImplementedError


def format_compact_order(order: Any, **kw: Any) -> str:
    raise NotImplementedError
