"""The movement rules in Kruijswijk's terms, one short function each.

Decisions (resolved by ``Resolver``): ``("M", origin)`` the move from origin
succeeds; ``("S", province)`` the support given there is not cut; ``("P",
origin)`` the convoyed army from origin has an unbroken convoy route.
Strengths are doubled integers so a variant's half-strength edge is exact:
a unit counts 2 (1 across a half-strength edge), each support 2.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.movement.board import Board
from engine.movement.resolver import Resolver
from engine.types import SupportHold, SupportMove

Decision = tuple[str, str]  # ("M" | "S" | "P", province)
UNIT = 2
SUPPORT = 2


class Rules:
    def __init__(self, board: Board) -> None:
        self.b = board
        self.resolver: Resolver[Decision] = Resolver(self.adjudicate, backup_rule)
        self.resolve = self.resolver.resolve

    def settle_obvious(self) -> None:
        """Decide up front what depends on nothing: a support nobody attacks is given; a
        move over land into an empty province nobody else enters succeeds; an unsupported
        land move against an unsupported unit that stays fails. (The same answers the
        rules below would give; this only spares the resolver's bookkeeping.)"""
        b, resolved = self.b, self.resolver.resolved
        moves_into = b.moves_into
        for province in b.supporting:
            if province not in moves_into:
                resolved[("S", province)] = True
        for origin, move in b.moves.items():
            if origin in b.convoy_intent:
                continue
            dest = move.dest.province
            if dest not in b.units:
                if len(moves_into[dest]) == 1:
                    resolved[("M", origin)] = True
            elif (dest not in b.moves and dest not in b.hold_supports
                    and origin not in b.move_supports):
                # An unsupported attack on a unit that stays and has no support: at most
                # 2 against 2, so it fails, whoever else comes (DATC 6.A.x basics).
                resolved[("M", origin)] = False

    # --- decisions ------------------------------------------------------------------------
    def adjudicate(self, key: Decision) -> bool:
        kind, province = key
        if kind == "M":
            return self.move_succeeds(province)
        if kind == "S":
            return self.support_given(province)
        return self.path_exists(province)

    def move_succeeds(self, origin: str) -> bool:
        if origin in self.b.convoy_intent and not self.arrives(origin):
            return False
        dest = self.b.dest_of[origin]
        attack = self.attack_strength(origin)
        opponent = self.head_to_head(origin)
        if opponent is not None:
            if attack <= self.defend_strength(opponent):
                return False
        elif attack <= self.hold_strength(dest):
            return False
        return all(
            attack > self.prevent_strength(other) for other in self.b.moves_into[dest] if other != origin
        )

    def support_given(self, province: str) -> bool:
        """Cut by any attack except one from where the support goes (that one must
        dislodge), by a failed convoy, by the supporter's own power, or across an edge
        whose move does not cut support (a variant feature)."""
        supporter = self.b.units[province]
        into = self.support_target(province)
        for attacker in self.b.moves_into.get(province, ()):
            if self.b.units[attacker].power == supporter.power or (
                attacker in self.b.convoy_intent and not self.arrives(attacker)
            ):
                continue
            spares = attacker == into or (
                not self.convoyed(attacker) and self.b.map.edge(attacker, province).move_does_not_cut_support
            )
            if not spares or self.resolve(("M", attacker)):
                return False
        return True

    def path_exists(self, origin: str) -> bool:
        return self.best_route(origin) > 0

    # --- convoys ----------------------------------------------------------------------------
    def best_route(self, origin: str) -> int:
        """0 when no route of undislodged convoying fleets joins origin and destination;
        else the strength of the best last convoy step (an edge feature: 2 or 1)."""
        fleets = self.b.convoyers.get(origin, set())
        dest = self.b.dest_of[origin]
        water = self.b.map.water_neighbours
        frontier = [f for f in water[origin] if f in fleets]
        seen = set(frontier)
        best = 0
        while frontier:
            fleet = frontier.pop()
            if self.dislodged(fleet):
                continue
            if dest in water[fleet]:
                best = max(best, self.b.map.edge(fleet, dest).strength)
                if best == UNIT:
                    return best
            for nxt in water[fleet]:
                if nxt in fleets and nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
        return best

    def dislodged(self, province: str) -> bool:
        """For a unit that does not move (convoying fleets): did any attack succeed?"""
        return any(self.resolve(("M", a)) for a in self.b.moves_into.get(province, ()))

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
        back = self.b.moves.get(dest)
        if back is None or back.dest.province != origin:
            return None
        if self.convoyed(origin) or self.convoyed(dest):
            return None
        return dest

    def supports_given(self, supporters: Sequence[str], exclude_power: str | None = None) -> int:
        count = 0
        for s in supporters:
            if exclude_power is not None and self.b.units[s].power == exclude_power:
                continue
            if self.resolve(("S", s)):
                count += 1
        return count

    def hold_strength(self, province: str) -> int:
        if province not in self.b.units:
            return 0
        if province in self.b.moves:
            return 0 if self.resolve(("M", province)) else UNIT
        return UNIT + SUPPORT * self.supports_given(self.b.hold_supports.get(province, ()))

    def attack_strength(self, origin: str) -> int:
        if origin in self.b.convoy_intent and not self.arrives(origin):
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
        if origin in self.b.convoy_intent and not self.arrives(origin):
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


def backup_rule(cycle: Sequence[Decision]) -> dict[Decision, bool]:
    """Settle a cycle with no single answer.

    A cycle through a convoy route is a convoy paradox: the Szykman rule (DATC
    4.A.2, the v3.0 preference) makes the convoyed moves in it fail. Otherwise it
    is circular movement and every move in it succeeds (rulebook; DATC 6.C).
    """
    paths = [k for k in cycle if k[0] == "P"]
    if paths:
        return dict.fromkeys(paths, False)
    moves = [k for k in cycle if k[0] == "M"]
    if moves:
        return dict.fromkeys(moves, True)
    return dict.fromkeys(cycle, False)
