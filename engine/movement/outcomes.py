"""From resolved decisions to what players see: results with reasons, the new board,
dislodged units with their retreat sets, and standoff provinces."""

from __future__ import annotations

from engine.movement.board import Board
from engine.movement.rules import Rules
from engine.types import (
    Convoy,
    DislodgedUnit,
    Hold,
    Location,
    Move,
    Order,
    OrderResult,
    Reason,
    ResultCode,
    SupportHold,
    SupportMove,
    Unit,
    UnitKind,
    trusted_result,
    trusted_unit,
)

NO_ORDER = Reason("NO_ORDER", (), "no order: the unit held")
NO_ARMY_MOVES_SO = Reason("NOT_MATCHED", (), "no army was ordered to make that move")
NOT_ORDERED_SO = Reason("NOT_MATCHED", (), "the supported unit was not ordered so")
NO_ROUTE = Reason("NO_CONVOY_ROUTE", (), "no unbroken chain of convoys")


class Outcome:
    """Reads the final decisions once; every query below is a dictionary read."""

    def __init__(self, board: Board, rules: Rules) -> None:
        self.b = board
        self.r = rules
        self.moved = {o for o in board.moves if rules.resolve(("M", o))}
        self.entered = {board.dest_of[o]: o for o in self.moved}
        self.dislodged_by = {
            p: o for p, o in self.entered.items() if p in board.units and p not in self.moved
        }

    # --- the board after movement ------------------------------------------------------------
    def units_after(self, before: frozenset[Unit]) -> frozenset[Unit]:
        """``before`` less the units that moved or were dislodged, plus the movers at their
        destinations. (Set algebra on ``before`` reuses its stored hashes.)"""
        units, moves = self.b.units, self.b.moves
        gone = [units[p] for p in self.moved]
        gone += [units[p] for p in self.dislodged_by]
        arrived = [trusted_unit(units[p].kind, units[p].power, moves[p].dest) for p in self.moved]
        return before.difference(gone).union(arrived)

    def contested(self, occupied: set[str]) -> frozenset[str]:
        """Empty provinces where two or more moves that reached them bounced."""
        bounced: dict[str, int] = {}
        for origin in self.b.moves:
            if origin not in self.moved and self.r.arrives(origin):
                dest = self.b.dest_of[origin]
                bounced[dest] = bounced.get(dest, 0) + 1
        return frozenset(p for p, n in bounced.items() if n >= 2 and p not in occupied)

    def dislodged_units(self, occupied: set[str], contested: frozenset[str]) -> tuple[DislodgedUnit, ...]:
        out = []
        for province, attacker in sorted(self.dislodged_by.items()):
            unit = self.b.units[province]
            origin = None if self.r.convoyed(attacker) else attacker
            out.append(DislodgedUnit(unit, origin, self._retreats(unit, origin, occupied, contested)))
        return tuple(out)

    def _retreats(
        self, unit: Unit, origin: str | None, occupied: set[str], contested: frozenset[str]
    ) -> tuple[Location, ...]:
        m = self.b.map
        if unit.kind is UnitKind.ARMY:
            spots = [m.locations_by_text[p] for p in m.army_adjacent[unit.province]]
        else:
            spots = list(m.fleet_adjacent[unit.location])
        return tuple(
            sorted(
                s for s in spots
                if s.province not in occupied and s.province not in contested and s.province != origin
            )
        )

    # --- results --------------------------------------------------------------------------------
    def results(self, retreats: dict[str, tuple[Location, ...]]) -> tuple[OrderResult, ...]:
        """One result per order given, in the order given, then a hold for every unit
        that had no order (so every unit's fate is in the resolution)."""
        out = []
        voided = set()  # own units whose only orders were void: they held, and say so
        dislodged_by, moved = self.dislodged_by, self.moved
        for given, effective, reason in self.b.given:
            if effective is None:
                province = self._own_province(given)
                if province is not None:
                    voided.add(province)
                out.append(self._result(given, ResultCode.VOID, reason, province, retreats))
                continue
            province = effective.unit.province
            if province in moved:  # the commonest case, settled without _judge
                out.append(trusted_result(effective, ResultCode.OK, False, (), None))
                continue
            if type(effective) is Hold and province not in dislodged_by:
                out.append(trusted_result(effective, ResultCode.OK, False, (), None))
                continue
            code, why = self._judge(effective)
            if province in dislodged_by:
                out.append(trusted_result(effective, code, True, retreats.get(province, ()), why))
            else:
                out.append(trusted_result(effective, code, False, (), why))
        for province in sorted(self.b.units.keys() - self.b.orders.keys() - voided):
            unit = self.b.units[province]
            hold = Hold(unit.power, unit.location, unit.kind)
            if province in dislodged_by:
                out.append(self._result(hold, ResultCode.DISLODGED, self._dislodged_reason(province),
                                        province, retreats))
            else:
                out.append(trusted_result(hold, ResultCode.OK, False, (), NO_ORDER))
        return tuple(out)

    def _own_province(self, order: Order) -> str | None:
        """The province of the power's own unit an order names, if it names one."""
        location = getattr(order, "unit", None)
        if not isinstance(location, Location):
            return None
        unit = self.b.units.get(location.province)
        return location.province if unit is not None and unit.power == order.power else None

    def _result(
        self,
        order: Order,
        code: ResultCode,
        reason: Reason | None,
        province: str | None,
        retreats: dict[str, tuple[Location, ...]],
    ) -> OrderResult:
        dislodged = province is not None and province in self.dislodged_by
        options = retreats.get(province, ()) if dislodged and province is not None else ()
        return trusted_result(order, code, dislodged, options, reason)

    def _judge(self, order: Order) -> tuple[ResultCode, Reason | None]:
        province = order.unit.province  # type: ignore[union-attr]
        if isinstance(order, Move):
            return self._judge_move(province)
        if isinstance(order, (SupportHold, SupportMove)):
            return self._judge_support(province)
        if province in self.b.unmatched:
            return ResultCode.VOID, NO_ARMY_MOVES_SO
        if province in self.dislodged_by:
            return ResultCode.DISLODGED, self._dislodged_reason(province)
        assert isinstance(order, (Hold, Convoy))
        return ResultCode.OK, None

    def _dislodged_reason(self, province: str) -> Reason | None:
        attacker = self.dislodged_by.get(province)
        return None if attacker is None else Reason("DISLODGED_BY", (attacker,))

    def _judge_move(self, origin: str) -> tuple[ResultCode, Reason | None]:
        if origin in self.moved:
            return ResultCode.OK, None
        if not self.r.arrives(origin):
            return ResultCode.NO_CONVOY, NO_ROUTE
        r, dest = self.r, self.b.dest_of[origin]
        attack = r.attack_strength(origin)
        opponent = r.head_to_head(origin)
        if opponent is not None and attack <= r.defend_strength(opponent):
            return ResultCode.BOUNCE, Reason("LOST_HEAD_TO_HEAD", (opponent,))
        rivals = tuple(
            sorted(o for o in self.b.moves_into[dest] if o != origin and r.prevent_strength(o) >= attack)
        )
        if rivals:
            return ResultCode.BOUNCE, Reason("PREVENTED", rivals)
        defender = self.b.units.get(dest)
        if attack == 0 and defender is not None and defender.power == self.b.units[origin].power:
            return ResultCode.BOUNCE, Reason("OWN_UNIT", (dest,), "a power cannot dislodge its own unit")
        return ResultCode.BOUNCE, Reason("HELD", (dest,))

    def _judge_support(self, province: str) -> tuple[ResultCode, Reason | None]:
        if province in self.b.unmatched:
            return ResultCode.VOID, NOT_ORDERED_SO
        if province in self.dislodged_by:
            return ResultCode.CUT, self._dislodged_reason(province)
        if self.r.resolve(("S", province)):
            return ResultCode.OK, None
        power = self.b.units[province].power
        cutters = tuple(
            sorted(
                a for a in self.b.moves_into.get(province, ())
                if self.b.units[a].power != power and self.r.arrives(a)
            )
        )
        return ResultCode.CUT, Reason("CUT_BY", cutters)
