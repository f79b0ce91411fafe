"""The explanation of every movement result, read off the final verdicts.

Nothing here judges: each explanation is made of what a decision of
engine/movement/rules.py returned (its reason, the strengths it compared, the units
it found) and of the final answers of the decisions those name (whose support was cut
by whom, who moved in, who dislodged whom). A decision nobody's answer needed yet is
asked once more through the resolver, which answers it by the same rules.

Which decision explains which order:

* a move: its move decision (strengths: its attack, then what opposed it), or the
  convoy path it needed, or the backup rule that settled it (circular movement, the
  Szykman rule);
* a support: its support decision (cut by whom), or the dislodgement of the supporter;
* a hold, or a unit without orders: the dislodgement decision, told by the attacks on
  it (each attacker's attack and the hold strength it met);
* a convoy: the convoy path of its army (and what became of the army), or its own
  dislodgement;
* a void order: legality, or the matching of supports and convoys to orders.
"""

from __future__ import annotations

from dataclasses import replace

from engine.explain import explanation, move_predicate
from engine.movement.board import Board
from engine.movement.rules import Rules
from engine.movement.verdicts import Verdict
from engine.reasons import (
    AttackOutcome,
    ConvoyOutcome,
    Decision,
    Explanation,
    Role,
    Strength,
    StrengthKind,
    SupportOutcome,
    Units,
)
from engine.types import Build, Convoy, Move, Order, Reason, ResultCode, SupportHold, SupportMove, Waive

Parts = tuple[Decision, tuple[Strength, ...], Units]
MATCHING_CODES = frozenset(
    {ConvoyOutcome.NOT_MATCHED, ConvoyOutcome.ARMY_GOES_BY_LAND, SupportOutcome.NOT_MATCHED}
)


class Explainer:
    """Explanations for one adjudicated movement phase (the board, the final verdicts,
    who moved into where and who was dislodged by whom)."""

    def __init__(
        self, board: Board, rules: Rules, entered: dict[str, str], dislodged_by: dict[str, str]
    ) -> None:
        self.b = board
        self.r = rules
        self.entered = entered  # destination -> origin of the move that got there
        self.dislodged_by = dislodged_by  # province -> origin of the move that dislodged it
        self.names = {p: str(u) for p, u in board.units.items()}
        self._moves: dict[str, tuple[Parts, str]] = {}
        self._asking: set[str] = set()  # moves whose explanation is being made (a chain's guard)

    def explain(
        self, order: Order, code: ResultCode, reason: Reason | None, disbanded: bool = False
    ) -> Explanation:
        """``disbanded``: the unit was dislodged with nowhere to retreat (gone at once)."""
        if code is ResultCode.VOID:
            matching = reason is not None and reason.code in MATCHING_CODES
            decision = Decision.MATCHING if matching else Decision.LEGALITY
            return explanation(order, code, reason, decision, names=self.names, disbanded=disbanded)
        assert not isinstance(order, Build | Waive), "an adjustment order is no movement order"
        province = order.unit.province
        because = ""
        cls = type(order)
        if cls is Move:
            (decision, strengths, units), because = self._move(province)
        elif cls is SupportHold or cls is SupportMove:
            decision, strengths, units = self._support(province)
            if code is ResultCode.OK:
                because = self._uncut(province)
        elif cls is Convoy:
            (decision, strengths, units), because = self._convoy(province)
        else:
            decision, strengths, units = self._hold(province)
        return explanation(order, code, reason, decision, strengths, units, self.names, because, disbanded)

    # --- moves ----------------------------------------------------------------------------------
    def _move(self, origin: str) -> tuple[Parts, str]:
        """The parts of a move's explanation, and the clause its chain of units that did not
        leave ends with (cached: convoys and chains ask again)."""
        known = self._moves.get(origin)
        if known is None:
            self._asking.add(origin)
            known = self._moves[origin] = self._move_parts(origin)
            self._asking.discard(origin)
        return known

    def _move_parts(self, origin: str) -> tuple[Parts, str]:
        verdict = self._verdict(("M", origin))
        dest = self.b.dest_of[origin]
        path = self._verdict(("P", origin)) if origin in self.b.convoy_intent else None
        units: list[tuple[Role, tuple[str, ...]]] = []
        because = ""
        if not verdict.strengths and verdict.decision is None:  # stopped by its convoy path
            decision = (path.decision if path is not None else None) or Decision.CONVOY_PATH
            units += list(path.units if path is not None else ())
        elif verdict.decision is not None:  # a backup rule settled it
            decision = verdict.decision
            units += list(verdict.units)
        else:
            decision = Decision.MOVE
            opponents = tuple(
                s.unit for s in verdict.strengths[1:] if s.unit != dest or s.unit in self.b.units
            )
            if opponents:
                units.append((Role.OPPONENTS, opponents))
            if path is not None and path.ok and self.r.convoyed(origin):
                units += list(path.units)
            if verdict.reason is not None and verdict.reason.code is AttackOutcome.OCCUPANT_STAYED:
                chain, ring, because = self._chain(dest)
                units += [(Role.CHAIN, chain), (Role.CYCLE, ring)]
        if not verdict.ok and dest in self.entered:
            units.append((Role.ENTERED, (self.entered[dest],)))
        if origin in self.dislodged_by:
            units.append((Role.DISLODGED_BY, (self.dislodged_by[origin],)))
        return (decision, self._with_cutters(verdict.strengths), _ordered(units)), because

    def _chain(self, first: str) -> tuple[tuple[str, ...], tuple[str, ...], str]:
        """The units that did not leave, from the one in the way back to the one whose move
        failed for another reason, and that failure as a clause (DATC 6.C.8). When the chain
        closes into a ring of moves that all failed (DATC 6.C.3), the ring too, and why it
        could not move: what the resolver found the ring's moves would meet had they gone."""
        chain = [first]
        verdict = self._verdict(("M", first))
        while verdict.reason is not None and verdict.reason.code is AttackOutcome.OCCUPANT_STAYED:
            there = verdict.reason.units[0]
            if there in chain or there in self._asking:
                return tuple(chain), self._ring(chain, there), self._ring_clause(chain, there)
            chain.append(there)
            verdict = self._verdict(("M", there))
        root = chain[-1]
        parts, root_because = self._move(root)
        clause = move_predicate(verdict.reason, Explanation(*parts), self.names, root_because)
        return tuple(chain), (), f"{self.names[root]}'s move to {self.b.dest_of[root]} {clause}"

    def _ring(self, chain: list[str], closing: str) -> tuple[str, ...]:
        if closing in chain:
            return tuple(sorted(chain[chain.index(closing):]))
        ring = [closing]  # the chain led back to the move being explained
        while ring[-1] != chain[-1]:
            ring.append(self.b.dest_of[ring[-1]])
        return tuple(sorted(ring))

    def _ring_clause(self, chain: list[str], closing: str) -> str:
        last = chain[-1]
        text = (f"{self.names[last]}'s move to {self.b.dest_of[last]} failed because "
                f"{self.names[closing]} did not leave")
        for origin in self._ring(chain, closing):
            other = self.r.resolver.otherwise.get(("M", origin))
            if other is None or other.ok or other.reason is None:
                continue
            if other.reason.code is AttackOutcome.OCCUPANT_STAYED:
                continue
            said = move_predicate(other.reason, Explanation(Decision.MOVE, other.strengths), self.names)
            return (f"{text}; these units could not all leave together, for even then "
                    f"{self.names[origin]}'s move to {self.b.dest_of[origin]} {said}")
        return text

    # --- supports, holds, convoys ---------------------------------------------------------------
    def _support(self, province: str) -> Parts:
        order = self.b.orders[province]
        target = order.target.province if isinstance(order, SupportHold) else order.origin.province  # type: ignore[union-attr]
        attacker = self.dislodged_by.get(province)
        if attacker is not None:
            return (
                Decision.DISLODGEMENT,
                self._attack_on(province, attacker),
                ((Role.DISLODGED_BY, (attacker,)), (Role.SUPPORTED, (target,))),
            )
        verdict = self._verdict(("S", province))
        units = list(verdict.units) + [(Role.SUPPORTED, (target,))]
        if verdict.reason is not None:
            units.append((Role.CUT_BY, verdict.reason.units))
        return Decision.SUPPORT, (), _ordered(units)

    def _uncut(self, province: str) -> str:
        """Why each attack on a support that stood did not cut it (the support decision's rules)."""
        into = self.r.support_target(province)
        said = []
        for attacker in self._verdict(("S", province)).named_units(Role.OPPONENTS):
            who = self.names[attacker]
            if attacker in self.b.convoy_intent and not self.r.arrives(attacker):
                said.append(f"{who} attacked it, but its convoy failed and cut nothing")
            elif attacker == into:
                said.append(f"{who} attacked from where the support goes and did not dislodge it")
            else:
                said.append(f"{who} attacked across an edge whose moves do not cut support")
        return "; ".join(said)

    def _hold(self, province: str) -> Parts:
        strengths: list[Strength] = []
        hold: Strength | None = None
        opponents = []
        for origin in sorted(self.b.moves_into.get(province, ())):
            compared = self._verdict(("M", origin)).strengths
            if not compared:
                continue  # a convoy that never arrived
            opponents.append(origin)
            strengths.append(compared[0])
            hold = hold or next(
                (s for s in compared if s.kind is StrengthKind.HOLD and s.unit == province), None
            )
        units: list[tuple[Role, tuple[str, ...]]] = [(Role.OPPONENTS, tuple(opponents))] if opponents else []
        if province in self.dislodged_by:
            units.append((Role.DISLODGED_BY, (self.dislodged_by[province],)))
        held = [hold] if hold is not None else []
        return Decision.DISLODGEMENT, self._with_cutters(tuple(held + strengths)), _ordered(units)

    def _convoy(self, province: str) -> tuple[Parts, str]:
        order = self.b.orders[province]
        assert isinstance(order, Convoy)
        army = order.origin.province
        attacker = self.dislodged_by.get(province)
        if attacker is not None:
            return (
                Decision.DISLODGEMENT,
                self._attack_on(province, attacker),
                ((Role.DISLODGED_BY, (attacker,)), (Role.SUPPORTED, (army,))),
            ), ""
        path = self._verdict(("P", army))
        units = _ordered([*path.units, (Role.SUPPORTED, (army,))])
        verdict = self._verdict(("M", army))
        if verdict.ok:
            return (Decision.CONVOY_PATH, (), units), ""
        parts, because = self._move(army)
        return (Decision.CONVOY_PATH, (), units), move_predicate(
            verdict.reason, Explanation(*parts), self.names, because
        )

    def _attack_on(self, province: str, attacker: str) -> tuple[Strength, ...]:
        """The dislodging move's attack and the hold strength it beat."""
        compared = self._verdict(("M", attacker)).strengths
        hold = [s for s in compared if s.kind is StrengthKind.HOLD and s.unit == province]
        return self._with_cutters(tuple(hold + list(compared[:1])))

    # --- reading decisions ------------------------------------------------------------------------
    def _verdict(self, key: tuple[str, str]) -> Verdict:
        verdicts = self.r.resolver.verdicts
        known = verdicts.get(key)
        if known is None:
            self.r.resolve(key)  # not asked yet: made final now, by the same rules
            known = verdicts[key]
        return known

    def _with_cutters(self, strengths: tuple[Strength, ...]) -> tuple[Strength, ...]:
        """Each cut support with the units whose attacks cut it (its support decision)."""
        if not any(s.cut for s in strengths):
            return strengths
        out = []
        for s in strengths:
            if s.cut:
                cut = tuple((p, self._cutters(p)) for p, _ in s.cut)
                s = replace(s, cut=cut)
            out.append(s)
        return tuple(out)

    def _cutters(self, supporter: str) -> tuple[str, ...]:
        reason = self._verdict(("S", supporter)).reason
        return reason.units if reason is not None else ()


ROLE_ORDER = {role: n for n, role in enumerate(Role)}


def _ordered(units: list[tuple[Role, tuple[str, ...]]] | Units) -> Units:
    """Roles in their fixed order, each once, empty ones left out."""
    seen: dict[Role, tuple[str, ...]] = {}
    for role, provinces in units:
        if provinces and role not in seen:
            seen[role] = provinces
    return tuple(sorted(seen.items(), key=lambda item: ROLE_ORDER[item[0]]))
