"""Order legality: the one check used by order entry, menus and the adjudicator.

``validate`` answers whether an order may be given in this position, with a
stable machine code and a reason a player can act on. It also returns the order
as the engine will carry it out (``ValidationResult.order``): the DATC v3.0
preferences ignore a wrong unit letter (4.C.1/4.C.2), a coast written for an
army or a wrong coast for the ordered unit (4.B.5/4.B.6), and infer a fleet's
coast when only one is reachable (4.B.2).

It does not look at other orders (whether a support is matched, whether the
convoy is ordered): that is adjudication.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from operator import attrgetter
from typing import Any

from engine.allowance import adjustment_balance, is_build_province
from engine.maps.loader import MapData
from engine.position import Position
from engine.reasons import OrderOutcome
from engine.types import (
    ACTIVE,
    ADJUSTMENT,
    ARMY,
    FLEET,
    MOVEMENT,
    ORDERS_BY_PHASE,
    RETREAT,
    Build,
    Convoy,
    Disband,
    GameState,
    Hold,
    Location,
    Move,
    Order,
    PhaseType,
    Reason,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)


class ErrorCode(StrEnum):
    WRONG_PHASE = "WRONG_PHASE"
    UNKNOWN_POWER = "UNKNOWN_POWER"
    UNKNOWN_PROVINCE = "UNKNOWN_PROVINCE"
    NO_SUCH_UNIT = "NO_SUCH_UNIT"
    NOT_YOUR_UNIT = "NOT_YOUR_UNIT"
    MOVE_TO_SELF = "MOVE_TO_SELF"
    NOT_ADJACENT = "NOT_ADJACENT"
    BAD_COAST = "BAD_COAST"
    COAST_REQUIRED = "COAST_REQUIRED"
    NO_CONVOY_ROUTE = "NO_CONVOY_ROUTE"
    CANNOT_BE_CONVOYED = "CANNOT_BE_CONVOYED"
    CANNOT_SUPPORT = "CANNOT_SUPPORT"
    SUPPORT_SELF = "SUPPORT_SELF"
    NOTHING_TO_SUPPORT = "NOTHING_TO_SUPPORT"
    CANNOT_CONVOY = "CANNOT_CONVOY"
    NOTHING_TO_CONVOY = "NOTHING_TO_CONVOY"
    NOT_DISLODGED = "NOT_DISLODGED"
    RETREAT_NOT_ALLOWED = "RETREAT_NOT_ALLOWED"
    NOT_A_HOME_CENTRE = "NOT_A_HOME_CENTRE"
    NOT_OWNED = "NOT_OWNED"
    OCCUPIED = "OCCUPIED"
    CANNOT_BUILD_HERE = "CANNOT_BUILD_HERE"
    NO_BUILDS_LEFT = "NO_BUILDS_LEFT"
    NO_DISBANDS_DUE = "NO_DISBANDS_DUE"
    GAME_OVER = "GAME_OVER"


@dataclass(frozen=True, slots=True)
class ValidationResult:
    ok: bool
    code: ErrorCode | None = None
    reason: str = ""
    order: Order | None = None  # the order as it will be carried out (when ok)

    def __bool__(self) -> bool:
        return self.ok


def illegal_reason(check: ValidationResult) -> Reason:
    """The reason reported with the VOID result of an order ``validate`` refused: its
    stable code and its sentence (the same words order entry answered with)."""
    code = check.code.value if check.code is not None else "ILLEGAL"
    return Reason(OrderOutcome.ILLEGAL, detail=f"{code}: {check.reason}")


def _fail(code: ErrorCode, reason: str) -> ValidationResult:
    return ValidationResult(False, code, reason)


PHASE_WORDS = {
    MOVEMENT: "hold, move, support and convoy",
    RETREAT: "retreat and disband (for dislodged units)",
    ADJUSTMENT: "build, disband and waive",
}


def validate(order: Order, state: GameState, map: MapData) -> ValidationResult:
    """Is ``order`` legal in ``state``? ``check`` in a position of its own, its answer as a
    ``ValidationResult`` (order entry, one order at a time)."""
    verdict = check(order, Position(state, map))
    return verdict if isinstance(verdict, ValidationResult) else ValidationResult(True, None, "", verdict)


Checked = Order | ValidationResult  # the order as it will be carried out, or the refusal


def check(order: Order, pos: Position) -> Checked:
    """The one legality check, within a request's position (the adjudicator and menus check
    many orders of one position and share its convoy answers; ``validate`` makes one of its
    own). The game, the phase and the power first, then the provinces, then the unit and
    geometry. It answers the order as it will be carried out, or a refusal (a
    ``ValidationResult`` that is not ok)."""
    state, game_map = pos.state, pos.map
    if state.status is not ACTIVE:
        return _fail(ErrorCode.GAME_OVER, "the game is over; no more orders are taken")
    if type(order) not in _PHASE_CLASSES[state.phase_type]:
        name = type(order).__name__.lower()
        return _fail(
            ErrorCode.WRONG_PHASE,
            f"a {name} order is not accepted during the {state.phase_type.value.lower()} "
            f"phase ({state.phase_name}); only {PHASE_WORDS[state.phase_type]} orders are",
        )
    if order.power not in game_map.powers:
        return _fail(ErrorCode.UNKNOWN_POWER, f"{order.power} is not a power on this map")
    if state.phase_type is MOVEMENT:  # the phase test above let only movement orders through
        verdict = _check_movement(order, pos)  # type: ignore[arg-type]
        # The movement rules refuse every order that names a province the map lacks (no
        # unit stands there, no unit reaches it), so which province is unknown is asked
        # only of a refusal: that is said first, as for the other phases.
        if type(verdict) is ValidationResult:
            unknown = _unknown_province(order, game_map)
            return verdict if unknown is None else unknown
        return verdict
    unknown = _unknown_province(order, game_map)
    if unknown is not None:
        return unknown
    if state.phase_type is RETREAT:
        return _validate_retreat(order, state, game_map)
    return _validate_adjustment(order, state, game_map)


def _unknown_province(order: Order, game_map: MapData) -> ValidationResult | None:
    """The refusal of an order that names a province the map lacks, or None."""
    provinces = game_map.provinces
    unknown = next((p for p in _PROVINCES_NAMED[type(order)](order) if p not in provinces), None)
    return None if unknown is None else _fail(ErrorCode.UNKNOWN_PROVINCE, f"there is no province {unknown}")


# The provinces each kind of order names, read in one C call (a field named twice
# makes a one-field getter return a tuple too).
_PROVINCES_NAMED: dict[type, Callable[[Order], tuple[str, ...]]] = {
    Hold: attrgetter("unit.province", "unit.province"),
    Move: attrgetter("unit.province", "dest.province"),
    SupportHold: attrgetter("unit.province", "target.province"),
    SupportMove: attrgetter("unit.province", "origin.province", "dest.province"),
    Convoy: attrgetter("unit.province", "origin.province", "dest.province"),
    Retreat: attrgetter("unit.province", "dest.province"),
    Disband: attrgetter("unit.province", "unit.province"),
    Build: attrgetter("location.province", "location.province"),
    Waive: lambda order: (),
}


_PHASE_CLASSES: dict[PhaseType, frozenset[type]] = {
    phase: frozenset(classes) for phase, classes in ORDERS_BY_PHASE.items()
}


def _own_unit(order: Hold | Move | SupportHold | SupportMove | Convoy | Disband,
              state: GameState) -> Unit | ValidationResult:
    unit = state.unit_at(order.unit.province)
    if unit is None:
        return _fail(ErrorCode.NO_SUCH_UNIT, f"there is no unit in {order.unit.province}")
    if unit.power != order.power:
        return _fail(
            ErrorCode.NOT_YOUR_UNIT,
            f"the unit in {unit.province} belongs to {unit.power}, not {order.power}",
        )
    return unit


def _check_movement(order: Hold | Move | SupportHold | SupportMove | Convoy, pos: Position) -> Checked:
    """``check``'s movement-phase part, once its request-level tests have passed (the game
    is on, the phase is movement, the power and provinces are the map's)."""
    unit = pos.units.get(order.unit.province)
    if unit is None:
        return _fail(ErrorCode.NO_SUCH_UNIT, f"there is no unit in {order.unit.province}")
    if unit.power != order.power:
        return _fail(ErrorCode.NOT_YOUR_UNIT, f"the unit in {unit.province} belongs to {unit.power}, "
                     f"not {order.power}")
    # The engine acts on the unit on the board, whatever letter or coast was written: an
    # order that names the unit exactly as it stands is carried out as given, otherwise
    # each branch builds the order it will carry out from the unit itself.
    exact = order.kind is unit.kind and (order.unit is unit.location or order.unit == unit.location)
    return _MOVEMENT_CHECKS[type(order)](order, unit, exact, pos)


def _validate_hold(order: Hold, unit: Unit, exact: bool, pos: Position) -> Checked:
    return order if exact else Hold(order.power, unit.location, unit.kind)


def fleet_destination(
    unit: Unit, dest: Location, map: MapData
) -> Location | ValidationResult:
    """The exact coast a fleet at ``unit`` would reach for ``dest`` (DATC 4.B.2/4.B.3)."""
    options = map.fleet_moves[unit.location].get(dest.province, ())
    if not options:
        return _fail(
            ErrorCode.NOT_ADJACENT, f"a fleet in {unit.location} cannot reach {dest.province}"
        )
    if dest.coast is None:
        if len(options) == 1:
            return options[0]
        coasts = ", ".join(str(o) for o in sorted(options))
        return _fail(ErrorCode.COAST_REQUIRED, f"name the coast: {coasts}")
    if dest not in options:
        return _fail(
            ErrorCode.BAD_COAST,
            f"a fleet in {unit.location} cannot reach {dest}; it can reach "
            + ", ".join(str(o) for o in sorted(options)),
        )
    return dest


def army_can_move(unit: Unit, dest: str, pos: Position) -> ValidationResult | None:
    """None when an army may try to move to ``dest``, over land or by a possible convoy."""
    map = pos.map
    if dest in map.army_adjacent[unit.province]:
        return None
    if dest in map.provinces and map.provinces[dest].is_sea:
        return _fail(ErrorCode.NOT_ADJACENT, f"an army cannot move to the sea ({dest})")
    if pos.convoy_possible(unit.province, dest):
        return None
    if not map.can_be_convoyed(unit.province) or not map.can_be_convoyed(dest):
        return _fail(ErrorCode.NOT_ADJACENT, f"{unit.province} is not next to {dest}")
    return _fail(
        ErrorCode.NO_CONVOY_ROUTE,
        f"{dest} is not next to {unit.province} and no chain of fleets could convoy the army",
    )


def _validate_move(order: Move, unit: Unit, exact: bool, pos: Position) -> Checked:
    if order.dest.province == unit.province:
        return _fail(ErrorCode.MOVE_TO_SELF, "a unit cannot move to the province it is in")
    if unit.kind is ARMY:
        problem = army_can_move(unit, order.dest.province, pos)
        if problem is not None:
            return problem
        if order.dest.coast is None and exact:
            return order
        return Move(order.power, unit.location, order.dest.bare, order.via_convoy, unit.kind)
    if order.via_convoy:
        return _fail(ErrorCode.CANNOT_BE_CONVOYED, "only armies can be convoyed")
    dest = fleet_destination(unit, order.dest, pos.map)
    if isinstance(dest, ValidationResult):
        return dest
    if dest is order.dest and exact:
        return order
    return Move(order.power, unit.location, dest, False, unit.kind)


def _validate_support_hold(order: SupportHold, unit: Unit, exact: bool, pos: Position) -> Checked:
    there = order.target.province
    if there == unit.province:
        return _fail(ErrorCode.SUPPORT_SELF, "a unit cannot support itself")
    target = pos.units.get(there)
    if target is None:
        return _fail(ErrorCode.NOTHING_TO_SUPPORT, f"there is no unit in {there} to support")
    if there not in pos.map.support_reach(unit):
        return _fail(ErrorCode.CANNOT_SUPPORT, f"{unit} cannot reach {there}, so cannot support there")
    if exact and order.target_kind is target.kind and (
            order.target is target.location or order.target == target.location):
        return order  # it names the supported unit exactly: letter and location
    return SupportHold(order.power, unit.location, target.location, unit.kind, target.kind)


def _validate_support_move(order: SupportMove, unit: Unit, exact: bool, pos: Position) -> Checked:
    origin, into = order.origin.province, order.dest.province
    if origin == unit.province:
        return _fail(ErrorCode.SUPPORT_SELF, "a unit cannot support its own move")
    if into == unit.province:
        return _fail(ErrorCode.CANNOT_SUPPORT, "a unit cannot support a move into its own province")
    if origin == into:
        return _fail(ErrorCode.MOVE_TO_SELF, "the supported move goes nowhere")
    target = pos.units.get(origin)
    if target is None:
        return _fail(ErrorCode.NOTHING_TO_SUPPORT, f"there is no unit in {origin} to support")
    if into not in pos.map.support_reach(unit):
        return _fail(ErrorCode.CANNOT_SUPPORT, f"{unit} cannot reach {into}, so cannot support a move there")
    # A coast on the destination is kept only for a supported fleet: it must match (4.B.4).
    dest = order.dest if target.kind is FLEET or order.dest.coast is None else order.dest.bare
    if dest is order.dest and exact and order.target_kind is target.kind and (
            order.origin is target.location or order.origin == target.location):
        return order  # as given, naming the supported unit exactly
    return SupportMove(order.power, unit.location, target.location, dest, unit.kind, target.kind)


def _validate_convoy(order: Convoy, unit: Unit, exact: bool, pos: Position) -> Checked:
    map = pos.map
    if unit.kind is not FLEET or not map.is_convoy_node(unit.province):
        return _fail(ErrorCode.CANNOT_CONVOY, f"{unit} cannot convoy: only fleets at sea convoy")
    target = pos.units.get(order.origin.province)
    if target is None or target.kind is not ARMY:
        return _fail(
            ErrorCode.NOTHING_TO_CONVOY, f"there is no army in {order.origin.province} to convoy"
        )
    into = order.dest.province
    if into not in map.convoy_shores or into == target.province:
        return _fail(ErrorCode.CANNOT_CONVOY, f"an army cannot be convoyed to {into}")
    if unit.province not in pos.necessary_links(target.province, into):
        return _fail(
            ErrorCode.NO_CONVOY_ROUTE,
            f"{unit} cannot be part of any chain of fleets from {target.province} to {into}",
        )
    dest = order.dest.bare
    if dest is order.dest and exact and order.target_kind is ARMY and (
            order.origin is target.location or order.origin == target.location):
        return order  # as given, naming the convoyed army exactly
    return Convoy(order.power, unit.location, target.location, dest, unit.kind, ARMY)


# The movement part of the check for each order class (one dict read, not an if-chain).
_MOVEMENT_CHECKS: dict[type, Callable[[Any, Unit, bool, Position], Checked]] = {
    Hold: _validate_hold, Move: _validate_move, SupportHold: _validate_support_hold,
    SupportMove: _validate_support_move, Convoy: _validate_convoy,
}


def check_state(state: GameState, map: MapData) -> None:
    """Raise ValueError unless every unit stands where its kind may stand on ``map``
    (``MapData.unit_can_stand``: what a value type alone cannot know), belongs to a power
    of the map, and every owned province is a supply centre."""
    units = (*state.units, *(d.unit for d in state.dislodged))
    problems = [f"{u.power} {u} cannot stand there on the {map.map_id} map"
                for u in units if not map.unit_can_stand(u.kind, u.location)]
    problems += [f"unknown power {u.power}" for u in units if u.power not in map.powers]
    problems += [f"{p} is not a supply centre" for p in state.ownership.keys() - map.supply_centers]
    if problems:
        raise ValueError("; ".join(sorted(problems)))


# --- retreats ---------------------------------------------------------------------------------


def _validate_retreat(order: Order, state: GameState, map: MapData) -> Checked:
    assert isinstance(order, (Retreat, Disband))
    dislodged = state.dislodged_at(order.unit.province)
    if dislodged is None:
        return _fail(ErrorCode.NOT_DISLODGED, f"no unit was dislodged in {order.unit.province}")
    unit = dislodged.unit
    if unit.power != order.power:
        return _fail(
            ErrorCode.NOT_YOUR_UNIT,
            f"the unit dislodged in {unit.province} belongs to {unit.power}, not {order.power}",
        )
    if isinstance(order, Disband):
        return replace(order, unit=unit.location, kind=unit.kind)
    options = [loc for loc in dislodged.retreats if loc.province == order.dest.province]
    if unit.kind is FLEET and order.dest.coast is not None:
        options = [loc for loc in options if loc == order.dest]
    if len(options) != 1:
        allowed = ", ".join(str(r) for r in dislodged.retreats) or "nowhere (it must disband)"
        code = ErrorCode.COAST_REQUIRED if len(options) > 1 else ErrorCode.RETREAT_NOT_ALLOWED
        return _fail(code, f"{unit} cannot retreat to {order.dest}; it may retreat to {allowed}")
    return replace(order, unit=unit.location, dest=options[0], kind=unit.kind)


# --- adjustments ------------------------------------------------------------------------------


def _validate_adjustment(order: Order, state: GameState, map: MapData) -> Checked:
    balance = adjustment_balance(state, map, order.power)
    if isinstance(order, Waive):
        if balance <= 0:
            return _fail(ErrorCode.NO_BUILDS_LEFT, f"{order.power} has no builds to waive")
        return order
    if isinstance(order, Disband):
        unit = _own_unit(order, state)
        if isinstance(unit, ValidationResult):
            return unit
        if balance >= 0:
            return _fail(ErrorCode.NO_DISBANDS_DUE, f"{order.power} has no units to remove")
        return replace(order, unit=unit.location, kind=unit.kind)
    assert isinstance(order, Build)
    return _validate_build(order, balance, state, map)


def _validate_build(order: Build, balance: int, state: GameState, map: MapData) -> Checked:
    prov = order.location.province
    if not is_build_province(map, state, order.power, prov):
        return _fail(ErrorCode.NOT_A_HOME_CENTRE, f"{prov} is not a home centre of {order.power}")
    if map.provinces[prov].supply_center and state.ownership.get(prov) != order.power:
        return _fail(ErrorCode.NOT_OWNED, f"{order.power} does not own {prov}")
    if state.unit_at(prov) is not None:
        return _fail(ErrorCode.OCCUPIED, f"{prov} is occupied")
    if balance <= 0:
        return _fail(ErrorCode.NO_BUILDS_LEFT, f"{order.power} has no builds left")
    if order.kind is ARMY:
        if map.provinces[prov].is_sea:
            return _fail(ErrorCode.CANNOT_BUILD_HERE, f"an army cannot be built at sea ({prov})")
        return replace(order, location=order.location.bare)
    spots = map.fleet_locations(prov)
    if not spots:
        return _fail(ErrorCode.CANNOT_BUILD_HERE, f"a fleet cannot be built inland ({prov})")
    if order.location.coast is None and len(spots) > 1:
        coasts = ", ".join(str(s) for s in spots)
        return _fail(ErrorCode.COAST_REQUIRED, f"name the coast for a fleet in {prov}: {coasts}")
    location = spots[0] if order.location.coast is None else order.location
    if location not in spots:
        return _fail(ErrorCode.BAD_COAST, f"{prov} has no coast {order.location.coast}")
    return replace(order, location=location)
