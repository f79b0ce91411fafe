"""Movement-phase adjudication: index the orders, resolve the decisions, read outcomes.

``resolve_movement`` never raises on an order: illegal ones are reported VOID and
the unit holds, as DATC v3.0 prescribes (issue 4.E.1). A dislodged unit with no
province to retreat to is disbanded at once (``disbanded``): it never waits for a
retreat phase in which it could only be disbanded (docs/rules.md, "Phases nobody
orders in").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.maps.loader import MapData
from engine.movement.board import build_board
from engine.movement.outcomes import Outcome
from engine.movement.rules import Rules
from engine.rulebook import Rulebook
from engine.types import DislodgedUnit, GameState, Order, OrderResult, Unit


@dataclass(frozen=True, slots=True)
class MovementOutcome:
    results: tuple[OrderResult, ...]
    units: frozenset[Unit]  # the board after movement, dislodged units removed
    dislodged: tuple[DislodgedUnit, ...]  # those with somewhere to retreat: the retreat phase's
    contested: frozenset[str]  # standoff provinces left empty
    disbanded: tuple[DislodgedUnit, ...] = ()  # dislodged with nowhere to retreat: gone at once


def resolve_movement(
    state: GameState, orders: Iterable[Order], map: MapData, rules: Rulebook
) -> MovementOutcome:
    board = build_board(state, orders, map, rules)
    rules_ = Rules(board)
    outcome = Outcome(board, rules_)
    units = outcome.units_after(state.units)
    occupied = {u.province for u in units}
    contested = outcome.contested(occupied)
    dislodged = outcome.dislodged_units(occupied, contested)
    retreats = {d.unit.province: d.retreats for d in dislodged}
    staying = tuple(d for d in dislodged if d.retreats)
    gone = tuple(d for d in dislodged if not d.retreats)
    return MovementOutcome(outcome.results(retreats), units, staying, contested, gone)
