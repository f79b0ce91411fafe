"""Legal-order menus (to be written)."""
from __future__ import annotations

from engine.maps.loader import MapData
from engine.types import GameState, Order


def legal_orders(state: GameState, map: MapData, power: str) -> list[Order]:  # noqa: A002
    raise NotImplementedError


def powers_with_orders_to_give(state: GameState, map: MapData) -> tuple[str, ...]:  # noqa: A002
    raise NotImplementedError
