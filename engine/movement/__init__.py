"""Movement-phase adjudication (work in progress: being written in this session)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.maps.loader import MapData
from engine.rulebook import Rulebook
from engine.types import DislodgedUnit, GameState, Order, OrderResult, Unit


@dataclass(frozen=True)
class MovementOutcome:
    results: tuple[OrderResult, ...]
    units: frozenset[Unit]  # the board after movement, dislodged units removed
    dislodged: tuple[DislodgedUnit, ...]
    contested: frozenset[str]  # standoff provinces left empty


def resolve_movement(
    state: GameState, orders: Iterable[Order], map: MapData, rules: Rulebook  # noqa: A002
) -> MovementOutcome:
    raise NotImplementedError
