"""The movement rules in Kruijswijk's terms, one short function each.

Decisions (resolved by ``Resolver``): ``("M", origin)`` the move from origin
succeeds; ``("S", province)`` the support given there is not cut; ``("P",
origin)`` the convoyed army from origin has an unbroken convoy route. Each decision
returns a ``Verdict`` whose reason names what decided it (the rival that prevented
the move, the unit that cut the support...): the results players read are these.
Strengths are doubled integers so a variant's half-strength edge is exact: a unit
counts 2 (1 across a half-strength edge), each support 2.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from engine import convoys
from engine.movement.board import Board
from engine.movement.resolver import Resolver, Verdict
from engine.types import Reason, SupportHold, SupportMove

Decision = tuple[str, str]  # ("M" | "S" | "P", province)
UNIT = 2
SUPPORT = 2

YES = Verdict(True)
NO_ROUTE = Verdict(False, Reason("NO_CONVOY_ROUTE", (), "no unbroken chain of convoys"))
PARADOX = Verdict(False, Reason("CONVOY_PARADOX", (), "a convoy paradox: the convoy fails (Szykman rule)"))


class Rules:
    def __init__(self, board: Board) -> None:
        self.b = board
        self.resolver: Resolver[Decision] = Resolver(self.adjudicate, backup_rule)
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
        """Beat the defence (head to head) or the hold, and every other unit's prevent."""
        if not self.arrives(origin):
            return self.resolver.verdicts.get(("P", origin), NO_ROUTE)
        dest = self.b.dest_of[origin]
        attack = self.attack_strength(origin)
        opponent = self.head_to_head(origin)
        if opponent is not None and attack <= self.defend_strength(opponent):
            return Verdict(False, Reason("LOST_HEAD_TO_HEAD", (opponent,)))
        moving_in = self.b.moves_into[dest]  # origin's own move is one of them
        if len(moving_in) > 1:
            rivals = [o for o in moving_in if o != origin and attack <= self.prevent_strength(o)]
            if rivals:
                return Verdict(False, Reason("PREVENTED", tuple(sorted(rivals))))
        if opponent is None and attack <= self.hold_strength(dest):
            if attack == 0:
                return Verdict(False, Reason("OWN_UNIT", (dest,), "a power cannot dislodge its own unit"))
            return Verdict(False, Reason("HELD", (dest,)))
        return YES

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
            return Verdict(False, Reason("CUT_BY", tuple(sorted(cutters))))
        for attacker in attackers:
            if attacker in intent and not self.arrives(attacker):
                continue  # a convoy that does not arrive cuts nothing
            if not self.spares(attacker, province, into) or self.resolve(("M", attacker)):
                return Verdict(False, Reason("CUT_BY", (attacker,)))
        return YES

    def path(self, origin: str) -> Verdict:
        return YES if self.best_route(origin) > 0 else NO_ROUTE

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
        return bool(moving_in) and any(self.resolve(("M", a)) for a in moving_in)

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

    def supports_given(self, supporters: Sequence[str], exclude_power: str | None = None) -> int:
        if not supporters:
            return 0  # the common case, without building the count below
        units = self.b.units
        return sum(1 for s in supporters if units[s].power != exclude_power and self.resolve(("S", s)))

    def hold_strength(self, province: str) -> int:
        if province not in self.b.units:
            return 0
        if province in self.b.moves:
            return 0 if self.resolve(("M", province)) else UNIT
        return UNIT + SUPPORT * self.supports_given(self.b.hold_supports.get(province, ()))

    def attack_strength(self, origin: str) -> int:
        if not self.arrives(origin):
            return 0
        dest = self.b.dest_of[origin]
        supporters = self.b.move_supports.get(origin, ())
        defender = self.b.units.get(dest)
        if defender is None or (
            dest in self.b.moves and self.head_to_head(origin) is None and self.resolve(("M", dest))
        ):
            return self.base_strength(origin) + SUPPORT * self.supports_given(supporters)
        if defender.power == self.b.units[origin].power:
            return 0  # no power may dislodge its own unit
        return self.base_strength(origin) + SUPPORT * self.supports_given(supporters, defender.power)

    def defend_strength(self, origin: str) -> int:
        return self.base_strength(origin) + SUPPORT * self.supports_given(
            self.b.move_supports.get(origin, ())
        )

    def prevent_strength(self, origin: str) -> int:
        if not self.arrives(origin):
            return 0
        opponent = self.head_to_head(origin)
        if opponent is not None and self.resolve(("M", opponent)):
            return 0
        return self.base_strength(origin) + SUPPORT * self.supports_given(
            self.b.move_supports.get(origin, ())
        )

    def support_target(self, province: str) -> str:
        order = self.b.orders[province]
        if isinstance(order, SupportHold):
            return order.target.province
        assert isinstance(order, SupportMove)
        return order.dest.province


class _Afloat:
    """The convoying fleets of one move that are not dislodged, asked lazily so a
    route depends only on the fleets it could pass through."""

    __slots__ = ("rules", "fleets")

    def __init__(self, rules: Rules, fleets: Set[str]) -> None:
        self.rules = rules
        self.fleets = fleets

    def __contains__(self, province: object) -> bool:
        return province in self.fleets and not self.rules.dislodged(str(province))


def backup_rule(cycle: Sequence[Decision]) -> dict[Decision, Verdict]:
    """Settle a cycle with no single answer.

    A cycle through a convoy route is a convoy paradox: the Szykman rule (DATC
    4.A.2, the v3.0 preference) makes the convoyed moves in it fail. Otherwise it
    is circular movement and every move in it succeeds (rulebook; DATC 6.C).
    """
    paths = [k for k in cycle if k[0] == "P"]
    if paths:
        return dict.fromkeys(paths, PARADOX)
    moves = [k for k in cycle if k[0] == "M"]
    if moves:
        return dict.fromkeys(moves, YES)
    return dict.fromkeys(cycle, Verdict(False))
