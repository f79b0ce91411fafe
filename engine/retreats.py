"""Retreat-phase resolution (to be written)."""
from __future__ import annotations

from collections.abc import Iterable

from engine.maps.loader import MapData
from engine.rulebook import Rulebook
from engine.types import GameState, Order, OrderResult, Unit


def resolve_retreats(
    state: GameState, orders: Iterable[Order], map: MapData, rules: Rulebook  # noqa: A002
) -> tuple[frozenset[Unit], tuple[OrderResult, ...]]:
    raise NotImplementedError
