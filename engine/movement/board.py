"""The orders of one movement phase, checked and indexed once so no rule scans.

Every order goes through ``engine.validation.check`` (the one legality check, in
this adjudication's ``Position``);
illegal orders are kept aside to be reported VOID and the unit holds (DATC v3.0,
issue 4.E.1). Supports and convoys are matched statically against the order the
supported/convoyed unit actually received; unmatched ones are void too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.maps.loader import MapData
from engine.position import Position
from engine.reasons import ConvoyOutcome, OrderOutcome, SupportOutcome
from engine.rulebook import AdjacentConvoy, Rulebook, SupportCoast
from engine.types import (
    ARMY,
    Convoy,
    GameState,
    Hold,
    Move,
    Order,
    Reason,
    SupportHold,
    SupportMove,
    Unit,
)
from engine.validation import ValidationResult, check, illegal_reason

MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy


@dataclass
class Board:
    """Indexed orders of one movement phase; read-only once built."""

    map: MapData
    rules: Rulebook
    units: dict[str, Unit]
    orders: dict[str, MovementOrder] = field(default_factory=dict)  # province -> order in effect
    given: list[tuple[Order, MovementOrder | None, Reason | None]] = field(default_factory=list)
    moves: dict[str, Move] = field(default_factory=dict)  # origin -> move
    moves_into: dict[str, list[str]] = field(default_factory=dict)  # dest province -> origins
    convoy_intent: set[str] = field(default_factory=set)  # origins of moves that go by convoy
    may_fall_back: set[str] = field(default_factory=set)  # of those, may go by land if it fails
    convoyers: dict[str, set[str]] = field(default_factory=dict)  # origin -> matched fleets
    hold_supports: dict[str, list[str]] = field(default_factory=dict)  # target -> supporters
    move_supports: dict[str, list[str]] = field(default_factory=dict)  # origin -> supporters
    unmatched: dict[str, Reason] = field(default_factory=dict)  # supports/convoys matching nothing
    supporting: list[str] = field(default_factory=list)  # provinces of matched supports
    dest_of: dict[str, str] = field(default_factory=dict)  # origin -> destination province
    assisting: list[str] = field(default_factory=list)  # provinces of supports and convoys


def build_board(state: GameState, orders: Iterable[Order], game_map: MapData, rules: Rulebook) -> Board:
    board = Board(map=game_map, rules=rules, units=state.units_by_province)  # read-only
    pos = Position(state, game_map)
    for order in orders:
        _admit(board, pos, order)
    for origin, move in board.moves.items():
        board.dest_of[origin] = move.dest.province
        board.moves_into.setdefault(move.dest.province, []).append(origin)
    _mark_convoy_intent(board)
    _match_supports_and_convoys(board)
    return board


def _admit(board: Board, pos: Position, order: Order) -> None:
    legality = check(order, pos)
    if type(legality) is ValidationResult:
        board.given.append((order, None, illegal_reason(legality)))
        return
    effective: MovementOrder = legality  # type: ignore[assignment]  # movement phase
    province = effective.unit.province
    if province in board.orders:
        duplicate = Reason(OrderOutcome.DUPLICATE, (province,), "the unit already has an order")
        board.given.append((order, None, duplicate))
        return
    board.orders[province] = effective
    board.given.append((order, effective, None))
    cls = type(effective)
    if cls is Move:
        board.moves[province] = effective  # type: ignore[assignment]
    elif cls is not Hold:
        board.assisting.append(province)  # supports and convoys, matched afterwards


def _mark_convoy_intent(board: Board) -> None:
    """DATC 4.A.3 (2023): a move goes by convoy when it must (not adjacent), when it is
    ordered VIA, or when a fleet of the mover's own power is ordered to convoy it."""
    policy = board.rules.adjacent_convoy
    anyone = policy is AdjacentConvoy.ANY_CONVOY
    fall_back = policy is AdjacentConvoy.INTENT_WITH_FALLBACK
    own_convoys: set[tuple[str, str, str]] = set()
    for province in board.assisting:
        order = board.orders[province]
        if isinstance(order, Convoy):
            # Under ANY_CONVOY a convoy counts whoever gives it: key it by no power.
            power = "" if anyone else order.power
            own_convoys.add((power, order.origin.province, order.dest.province))
    for origin, move in board.moves.items():
        unit = board.units[origin]
        if unit.kind is not ARMY:
            continue
        dest = move.dest.province
        adjacent = dest in board.map.army_adjacent[origin]
        intent_power = "" if anyone else unit.power
        if not adjacent or move.via_convoy or (intent_power, origin, dest) in own_convoys:
            board.convoy_intent.add(origin)
            if adjacent and fall_back:
                board.may_fall_back.add(origin)


def _match_supports_and_convoys(board: Board) -> None:
    for province in board.assisting:
        order = board.orders[province]
        if isinstance(order, SupportHold):
            if order.target.province in board.moves:
                board.unmatched[province] = _not_so(board, order.target.province, "not to hold")
            else:
                board.hold_supports.setdefault(order.target.province, []).append(province)
                board.supporting.append(province)
        elif isinstance(order, SupportMove):
            if _support_matches(board, order):
                board.move_supports.setdefault(order.origin.province, []).append(province)
                board.supporting.append(province)
            else:
                board.unmatched[province] = _not_so(board, order.origin.province, f"not to {order.dest}")
        elif isinstance(order, Convoy):
            origin = order.origin.province
            move = board.moves.get(origin)
            if move and origin in board.convoy_intent and move.dest.province == order.dest.province:
                board.convoyers.setdefault(origin, set()).add(province)
            elif move and move.dest.province == order.dest.province:
                board.unmatched[province] = _by_land(board, origin)
            else:
                reason = _not_so(board, origin, f"not to {order.dest}")
                board.unmatched[province] = Reason(ConvoyOutcome.NOT_MATCHED, reason.units, reason.detail)


def _not_so(board: Board, province: str, instead: str) -> Reason:
    """A support (or convoy) that matches nothing: what the unit it names was ordered."""
    unit = board.units.get(province)
    move = board.moves.get(province)
    if unit is None:
        said = f"there is no unit in {province}"
    elif move is not None:
        said = f"{unit} was ordered to move to {move.dest}, {instead}"
    elif province in board.orders:
        said = f"{unit} was not ordered to move"
    else:
        said = f"{unit} had no order in effect and held"
    return Reason(SupportOutcome.NOT_MATCHED, (province,), said)


def _by_land(board: Board, origin: str) -> Reason:
    """DATC 4.A.3 (2023): a convoy of an army that goes to an adjacent province over land
    matches nothing; the army was ordered so, and simply walks (6.G.2)."""
    unit, move = board.units[origin], board.moves[origin]
    said = (f"{unit} goes to {move.dest} over land: it was not ordered via convoy and no fleet "
            f"of its own power convoys it")
    return Reason(ConvoyOutcome.ARMY_GOES_BY_LAND, (origin,), said)


def _support_matches(board: Board, order: SupportMove) -> bool:
    """The supported unit must be ordered to exactly that move; a coast named in the
    support must be the coast moved to, a support without one matches either (4.B.4)."""
    move = board.moves.get(order.origin.province)
    if move is None or move.dest.province != order.dest.province:
        return False
    if order.dest.coast is None:
        return move.dest.coast is None or board.rules.support_coast is SupportCoast.EITHER_COAST
    return order.dest == move.dest
