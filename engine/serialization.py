"""JSON serialization (to be written)."""
from __future__ import annotations

from typing import Any


def _todo(*a: Any, **k: Any) -> Any:
    raise NotImplementedError


location_to_str = location_from_str = state_to_dict = state_from_dict = _todo
order_to_dict = order_from_dict = resolution_to_dict = resolution_from_dict = _todo
to_json = state_from_json = order_from_json = resolution_from_json = _todo
