"""The movement rules in Kruijswijk's terms, one short function each.

Decisions (resolved by ``Resolver``): ``("M", origin)`` the move from origin
succeeds; ``("S", province)`` the support given there is not cut; ``("P",
origin)`` the convoyed army from origin has an unbroken convoy route. Each decision
returns a ``Verdict`` whose reason names what decided it (the rival that prevented
the move, the unit that cut the support...) and which keeps the strengths it
compared, each with the supports that counted, were cut or did not count: the
results and explanations players read are these (engine/movement/explanations.py).
Strengths are counted in doubled integers so a variant's half-strength edge is exact
(a unit counts 2, 1 across a half-strength edge, each support 2) and kept in a
``Strength`` as players count them.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from engine import convoys
from engine.movement.board import Board
from engine.movement.resolver import Resolver
from engine.movement.verdicts import NO_ROUTE, YES, Verdict, circular, paradox
from engine.reasons import AttackOutcome, Role, Strength, StrengthKind, SupportOutcome
from engine.types import Reason, SupportHold, SupportMove

Decision = tuple[str, str]  # ("M" | "S" | "P", province)
UNIT = 2
SUPPORT = 2
ATTACK, HOLD = StrengthKind.ATTACK, StrengthKind.HOLD
DEFEND, PREVENT = StrengthKind.DEFEND, StrengthKind.PREVENT
Supports = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]  # counted, cut, excluded
NO_SUPPORTS: Supports = ((), (), ())


class Rules:
    def __init__(self, board: Board) -> None:
        self.b = board
        self.resolver: Resolver[Decision, Verdict] = Resolver(self.adjudicate, backup_rule)
        self.resolve = self.resolver.resolve

    # --- decisions ------------------------------------------------------------------------
    def adjudicate(self, key: Decision) -> Verdict:
        kind, province = key
        if kind == "M":
            return self.move(province)
        if kind == "S":
            return self.support(province)
        return self.path(province)

    def move(self, origin: str) -> Verdict:
        """Beat the defence (head to head) or the hold, and every other unit's prevent.
        The verdict keeps every strength compared, in the order compared."""
        if not self.arrives(origin):
            return self.resolver.verdicts.get(("P", origin), NO_ROUTE)
        dest = self.b.dest_of[origin]
        attack = self.attack_strength(origin)
        compared = [attack]
        opponent = self.head_to_head(origin)
        if opponent is not None:
            defend = self.defend_strength(opponent)
            compared.append(defend)
            if attack.value <= defend.value:
                code = AttackOutcome.LOST_HEAD_TO_HEAD
                if attack.value == defend.value:
                    code = AttackOutcome.HEAD_TO_HEAD_STANDOFF
                return self._failed(origin, code, (opponent,), compared)
        moving_in = self.b.moves_into[dest]  # origin's own move is one of them
        if len(moving_in) > 1:
            prevents = [self.prevent_strength(o) for o in moving_in if o != origin]
            compared += sorted(prevents, key=_by_unit)
            rivals = sorted(p.unit for p in prevents if attack.value <= p.value)
            if rivals:
                equal = all(p.value == attack.value for p in prevents if p.unit in rivals)
                code = AttackOutcome.STOOD_OFF if equal else AttackOutcome.PREVENTED
                return self._failed(origin, code, tuple(rivals), compared)
        if opponent is None:
            hold = self.hold_strength(dest)
            compared.append(hold)
            if attack.value <= hold.value:
                code = AttackOutcome.OCCUPANT_STAYED if dest in self.b.moves else AttackOutcome.HELD
                return self._failed(origin, code, (dest,), compared)
        return Verdict(True, None, tuple(compared))

    def _failed(
        self, origin: str, code: AttackOutcome, units: tuple[str, ...], compared: list[Strength]
    ) -> Verdict:
        """A failed move's verdict. An attack of no strength met a unit of its own power
        (the only way an arriving attack has none): that, not the rival or the hold it
        lost to, is what stopped it, unless that unit itself tried to leave and failed."""
        dest = self.b.dest_of[origin]
        if compared[0].value == 0:
            stayed = dest in self.b.moves and self.head_to_head(origin) is None
            if stayed:
                code, units = AttackOutcome.OCCUPANT_STAYED, (dest,)
            else:
                own = Reason(AttackOutcome.OWN_UNIT, (dest,), "a power cannot dislodge its own unit")
                return Verdict(False, own, tuple(compared))
        return Verdict(False, Reason(code, units), tuple(compared))

    def support(self, province: str) -> Verdict:
        """Cut by any attack except one from where the support goes (that one must
        dislodge), by a failed convoy, by the supporter's own power, or across an edge
        whose move does not cut support (a variant feature). Attacks over land that cut
        outright are read first: they need no other decision."""
        moving_in = self.b.moves_into.get(province)
        if not moving_in:
            return YES  # nobody moves there: nothing can cut it
        units, intent = self.b.units, self.b.convoy_intent
        power, into = units[province].power, self.support_target(province)
        # Sorted, so the reason named does not depend on the order orders were given in.
        attackers = sorted(a for a in moving_in if units[a].power != power)
        cutters = [a for a in attackers if a not in intent and not self.spares(a, province, into)]
        if cutters:
            return Verdict(False, Reason(SupportOutcome.CUT_BY, tuple(sorted(cutters))))
        for attacker in attackers:
            if attacker in intent and not self.arrives(attacker):
                continue  # a convoy that does not arrive cuts nothing
            if not self.spares(attacker, province, into) or self.resolve(("M", attacker)):
                return Verdict(False, Reason(SupportOutcome.CUT_BY, (attacker,)))
        return Verdict(True, None, (), ((Role.OPPONENTS, tuple(attackers)),) if attackers else ())

    def path(self, origin: str) -> Verdict:
        """An unbroken chain of undislodged convoying fleets from origin to destination."""
        afloat = _Afloat(self, self.b.convoyers.get(origin, set()))
        reached, last = convoys.route(self.b.map, origin, self.b.dest_of[origin], afloat)
        if last:
            return Verdict(True, None, (), ((Role.CONVOYS, tuple(sorted(reached))),))
        if not afloat.sunk:
            return NO_ROUTE
        return Verdict(False, NO_ROUTE.reason, (), ((Role.CONVOYS_DISLODGED, tuple(sorted(afloat.sunk))),))

    # --- what the decisions ask -----------------------------------------------------------
    def spares(self, attacker: str, province: str, into: str) -> bool:
        return attacker == into or (
            not self.convoyed(attacker) and self.b.map.edge(attacker, province).move_does_not_cut_support
        )

    def best_route(self, origin: str) -> int:
        """0 when no route of undislodged convoying fleets joins origin and destination;
        else the strength of the best last convoy step (an edge feature: 2 or 1)."""
        dest = self.b.dest_of[origin]
        afloat = _Afloat(self, self.b.convoyers.get(origin, set()))
        last = convoys.last_links(self.b.map, origin, dest, afloat)
        return max((self.b.map.edge(f, dest).strength for f in last), default=0)

    def dislodged(self, province: str) -> bool:
        """For a unit that does not move (convoying fleets): did any attack succeed?"""
        moving_in = self.b.moves_into.get(province)
        if not moving_in:
            return False  # nobody enters: nothing to resolve
        return any(self.resolve(("M", a)) for a in moving_in)

    def convoyed(self, origin: str) -> bool:
        """Does this move actually travel by convoy? (A fallback move whose convoy
        failed goes over land, 2000 rules.)"""
        if origin not in self.b.convoy_intent:
            return False
        return origin not in self.b.may_fall_back or self.resolve(("P", origin))

    def arrives(self, origin: str) -> bool:
        """Can the move reach its destination at all (route-wise)?"""
        if origin not in self.b.convoy_intent or origin in self.b.may_fall_back:
            return True
        return self.resolve(("P", origin))

    # --- strengths ----------------------------------------------------------------------------
    def base_strength(self, origin: str) -> int:
        if not self.b.map.edge_rules:
            return UNIT
        if self.convoyed(origin):
            return max(self.best_route(origin), 1)
        return self.b.map.edge(origin, self.b.dest_of[origin]).strength

    def head_to_head(self, origin: str) -> str | None:
        """The unit moving the other way along the same border, both over land."""
        dest = self.b.dest_of[origin]
        if self.b.dest_of.get(dest) != origin or self.convoyed(origin) or self.convoyed(dest):
            return None
        return dest

    def supports(self, supporters: Sequence[str], exclude_power: str | None = None) -> Supports:
        """The supports that count, those cut, and those ``exclude_power`` gave (sorted)."""
        if not supporters:
            return NO_SUPPORTS  # the common case, without building the lists below
        units = self.b.units
        counted, cut, excluded = [], [], []
        for s in supporters:
            if units[s].power == exclude_power:
                excluded.append(s)
            elif self.resolve(("S", s)):
                counted.append(s)
            else:
                cut.append(s)
        return tuple(sorted(counted)), tuple(sorted(cut)), tuple(sorted(excluded))

    def strength(
        self, kind: StrengthKind, unit: str, base: int, supporters: Sequence[str],
        exclude_power: str | None = None,
    ) -> Strength:
        counted, cut, excluded = self.supports(supporters, exclude_power)
        return Strength(kind, unit, _value(base + SUPPORT * len(counted)), counted,
                        tuple((s, ()) for s in cut), excluded)

    def hold_strength(self, province: str) -> Strength:
        if province not in self.b.units:
            return Strength(HOLD, province, 0)
        if province in self.b.moves:
            return Strength(HOLD, province, 0 if self.resolve(("M", province)) else _value(UNIT))
        return self.strength(HOLD, province, UNIT, self.b.hold_supports.get(province, ()))

    def attack_strength(self, origin: str) -> Strength:
        if not self.arrives(origin):
            return Strength(ATTACK, origin, 0)
        dest = self.b.dest_of[origin]
        supporters = self.b.move_supports.get(origin, ())
        defender = self.b.units.get(dest)
        if defender is None or (
            dest in self.b.moves and self.head_to_head(origin) is None and self.resolve(("M", dest))
        ):
            return self.strength(ATTACK, origin, self.base_strength(origin), supporters)
        if defender.power == self.b.units[origin].power:
            return Strength(ATTACK, origin, 0)  # no power may dislodge its own unit
        return self.strength(ATTACK, origin, self.base_strength(origin), supporters, defender.power)

    def defend_strength(self, origin: str) -> Strength:
        return self.strength(DEFEND, origin, self.base_strength(origin), self.b.move_supports.get(origin, ()))

    def prevent_strength(self, origin: str) -> Strength:
        if not self.arrives(origin):
            return Strength(PREVENT, origin, 0)
        opponent = self.head_to_head(origin)
        if opponent is not None and self.resolve(("M", opponent)):
            return Strength(PREVENT, origin, 0)
        supporters = self.b.move_supports.get(origin, ())
        return self.strength(PREVENT, origin, self.base_strength(origin), supporters)

    def support_target(self, province: str) -> str:
        order = self.b.orders[province]
        if isinstance(order, SupportHold):
            return order.target.province
        assert isinstance(order, SupportMove)
        return order.dest.province


class _Afloat:
    """The convoying fleets of one move that are not dislodged, asked lazily so a
    route depends only on the fleets it could pass through; ``sunk`` records those
    found dislodged (what a broken convoy is explained by)."""

    __slots__ = ("rules", "fleets", "sunk")

    def __init__(self, rules: Rules, fleets: Set[str]) -> None:
        self.rules = rules
        self.fleets = fleets
        self.sunk: set[str] = set()

    def __contains__(self, province: object) -> bool:
        if province not in self.fleets:
            return False
        if self.rules.dislodged(str(province)):
            self.sunk.add(str(province))
            return False
        return True


def _value(halves: int) -> float:
    """A doubled strength as players count it: whole units, or halves on a variant's edge."""
    return halves // 2 if halves % 2 == 0 else halves / 2


def _by_unit(strength: Strength) -> str:
    return strength.unit


def backup_rule(cycle: Sequence[Decision]) -> dict[Decision, Verdict]:
    """Settle a cycle with no single answer.

    A cycle through a convoy route is a convoy paradox: the Szykman rule (DATC
    4.A.2, the v3.0 preference) makes the convoyed moves in it fail. Otherwise it
    is circular movement and every move in it succeeds (rulebook; DATC 6.C).
    The verdicts name the units whose decisions formed the cycle.
    """
    units = tuple(sorted({province for _, province in cycle}))
    paths = [k for k in cycle if k[0] == "P"]
    if paths:
        return dict.fromkeys(paths, paradox(units))
    moves = [k for k in cycle if k[0] == "M"]
    if moves:
        return dict.fromkeys(moves, circular(units))
    return dict.fromkeys(cycle, Verdict(False))
