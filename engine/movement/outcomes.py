"""From the final verdicts to what players see: results with the reasons the
decisions gave and their explanations (engine/movement/explanations.py), the new
board, dislodged units with their retreat sets, and standoff provinces. Nothing here
judges: every answer is a verdict read off."""

from __future__ import annotations

from engine.movement.board import Board, MovementOrder
from engine.movement.explanations import Explainer
from engine.movement.rules import Rules
from engine.reasons import AttackOutcome, ConvoyOutcome, HoldOutcome, SupportOutcome
from engine.types import (
    ARMY,
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
)

# Members as globals (see engine.types: an Enum class attribute is slow to read).
OK, BOUNCE, CUT, VOID = ResultCode.OK, ResultCode.BOUNCE, ResultCode.CUT, ResultCode.VOID
NO_CONVOY, DISLODGED = ResultCode.NO_CONVOY, ResultCode.DISLODGED
NO_ORDER = Reason(HoldOutcome.NO_ORDER, (), "no order: the unit held")
NO_CONVOY_CODES = frozenset({AttackOutcome.NO_CONVOY_ROUTE, AttackOutcome.CONVOY_PARADOX})


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
        self.explainer = Explainer(board, rules, self.entered, self.dislodged_by)

    # --- the board after movement ------------------------------------------------------------
    def units_after(self, before: frozenset[Unit]) -> frozenset[Unit]:
        """``before`` less the units that moved or were dislodged, plus the movers at their
        destinations."""
        units, moves = self.b.units, self.b.moves
        gone = [units[p] for p in self.moved]
        gone += [units[p] for p in self.dislodged_by]
        arrived = [Unit(units[p].kind, units[p].power, moves[p].dest) for p in self.moved]
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
        if unit.kind is ARMY:
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
        read, result = self._read, self._result
        for given, effective, reason in self.b.given:
            if effective is None:
                province = self._own_province(given)
                if province is not None:
                    voided.add(province)
                out.append(result(given, VOID, reason, province, retreats))
                continue
            code, why = read(effective)
            out.append(result(effective, code, why, effective.unit.province, retreats))
        for province in sorted(self.b.units.keys() - self.b.orders.keys() - voided):
            unit = self.b.units[province]
            hold = Hold(unit.power, unit.location, unit.kind)
            code, why = read(hold)
            out.append(result(hold, code, why or NO_ORDER, province, retreats))
        return tuple(out)

    def _read(self, order: MovementOrder) -> tuple[ResultCode, Reason | None]:
        """The result code and reason of an order the adjudicator carried out."""
        province = order.unit.province
        cls = type(order)
        if cls is Move:
            verdict = self.r.resolver.verdicts[("M", province)]
            if verdict.ok:
                return OK, None
            assert verdict.reason is not None
            code = NO_CONVOY if verdict.reason.code in NO_CONVOY_CODES else BOUNCE
            return code, verdict.reason
        supports = cls is SupportHold or cls is SupportMove
        unmatched = self.b.unmatched.get(province)
        if unmatched is not None:
            return VOID, unmatched
        attacker = self.dislodged_by.get(province)
        if attacker is not None:
            outcome = SupportOutcome if supports else HoldOutcome if cls is Hold else ConvoyOutcome
            return CUT if supports else DISLODGED, Reason(outcome.DISLODGED_BY, (attacker,))
        if supports:
            self.r.resolve(("S", province))  # a support nobody's strength asked for is final now
            verdict = self.r.resolver.verdicts[("S", province)]
            return (OK, None) if verdict.ok else (CUT, verdict.reason)
        return OK, None  # a hold or a convoy that was not dislodged

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
        if province is None or province not in self.dislodged_by:
            return OrderResult(order, code, False, (), reason, self.explainer.explain(order, code, reason))
        options = retreats.get(province, ())
        explained = self.explainer.explain(order, code, reason, disbanded=not options)
        return OrderResult(order, code, True, options, reason, explained)
