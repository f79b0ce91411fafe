"""The one function that puts an explanation into English: ``render``.

Every result's ``Explanation.text`` is made here, from the structured explanation and
nothing else (the decision, the strengths compared, the units named, the reason), so
the words can never say more or other than the structure. ``explanation`` builds the
value with its text. Units are named as players write them ("A PAR"), through a
province -> name table the caller passes; numbers are strengths as players count them.

Words chosen so a result is never called what it was not: "stood off" only when the
rivals were exactly as strong and nobody got in; "was beaten" when a stronger move
won; "did not leave" when the unit in the way tried to move and failed (DATC 6.C.3),
walking that chain back to the move that failed first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.reasons import (
    AdjustmentOutcome,
    AttackOutcome,
    ConvoyOutcome,
    Decision,
    Explanation,
    OrderOutcome,
    RetreatOutcome,
    Role,
    Strength,
    StrengthKind,
    SupportOutcome,
    Units,
)
from engine.types import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Reason,
    ResultCode,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)

Names = Mapping[str, str]  # province -> "A PAR"


def explanation(
    order: Order,
    result: ResultCode,
    reason: Reason | None,
    decision: Decision,
    strengths: tuple[Strength, ...] = (),
    units: Units = (),
    names: Names | None = None,
    because: str = "",
    disbanded: bool = False,
) -> Explanation:
    """The explanation of one result, its text rendered from the rest."""
    bare = Explanation(decision, strengths, units)
    text = render(order, result, reason, bare, names or {}, because, disbanded)
    return Explanation(decision, strengths, units, text)


def render(
    order: Order,
    result: ResultCode,
    reason: Reason | None,
    explained: Explanation,
    names: Names,
    because: str = "",
    disbanded: bool = False,
) -> str:
    """One sentence (or two) saying what happened to ``order`` and why.

    ``because`` is the clause a chain of units that did not leave ends with (the failed
    move at its root, made by ``move_predicate``), or what became of a convoyed army.
    ``disbanded``: the unit was dislodged with nowhere to retreat, and is gone at once."""
    text = _sentence(order, result, reason, explained, names, because)
    if disbanded:
        text += " It had nowhere to retreat and was disbanded at once."
    return text


def _sentence(
    order: Order,
    result: ResultCode,
    reason: Reason | None,
    explained: Explanation,
    names: Names,
    because: str,
) -> str:
    code = reason.code if reason is not None else None
    if result is ResultCode.VOID or explained.decision in (Decision.LEGALITY, Decision.MATCHING):
        return _void(order, reason, names)
    if isinstance(order, Move):
        return _move(order, result, reason, explained, names, because)
    if isinstance(order, SupportHold | SupportMove):
        return _support(order, result, code, explained, names, because)
    if isinstance(order, Convoy):
        return _convoy(order, result, explained, names, because)
    if isinstance(order, Hold):
        return _hold(order, code, explained, names)
    if isinstance(order, Retreat | Disband) and explained.decision is Decision.RETREAT:
        return _retreat(order, result, reason, names)
    return _adjustment(order, result, code, names)


# --- movement ---------------------------------------------------------------------------------


def _move(
    order: Move, result: ResultCode, reason: Reason | None, e: Explanation, names: Names, because: str
) -> str:
    me = _name(order.unit.province, names)
    if result is ResultCode.OK:
        text = f"{me} moved to {order.dest}{_by_convoy(e, names)}: {_success(e, names)}"
    else:
        text = f"{me}'s move to {order.dest} {move_predicate(reason, e, names, because)}"
    entered = e.named(Role.ENTERED)
    if result is not ResultCode.OK and entered:
        text += f"; {_name(entered[0], names)} moved in"
    return text + _dislodged(e, names) + "."


def _by_convoy(e: Explanation, names: Names) -> str:
    fleets = e.named(Role.CONVOYS)
    return f" by convoy ({_list(fleets, names)})" if fleets else ""


def _success(e: Explanation, names: Names) -> str:
    if e.decision is Decision.CIRCULAR_MOVEMENT:
        ring = _list(e.named(Role.CYCLE), names)
        return f"it is one of a ring of moves ({ring}) that all succeed together (circular movement)"
    attack, opposed = e.strengths[0], [s for s in e.strengths[1:] if s.value > 0]
    if not opposed:
        return f"unopposed, with strength {_strength(attack, names)}"
    beaten = _list([_opposing(s, names) for s in opposed])
    text = f"its attack of {_strength(attack, names)} beat {beaten}"
    held = [s for s in opposed if s.kind is StrengthKind.HOLD or s.kind is StrengthKind.DEFEND]
    if held:
        text += f", and {_name(held[0].unit, names)} was dislodged"
    return text


def move_predicate(reason: Reason | None, e: Explanation, names: Names, because: str = "") -> str:
    """What became of a failed move, as the rest of a sentence about it ("... stood off with A VEN")."""
    code = reason.code if reason is not None else None
    attack = e.strengths[0] if e.strengths else None
    a = _strength(attack, names) if attack is not None else "0"
    others = e.strengths[1:]
    named = set(reason.units) if reason is not None else set()
    rivals = [s for s in others if s.unit in named and s.kind is StrengthKind.PREVENT]
    if code is AttackOutcome.STOOD_OFF:
        equal = f"{_num(attack)} against {_num(rivals[0])}"
        return f"stood off with {_list([s.unit for s in rivals], names)} ({equal})"
    if code is AttackOutcome.PREVENTED:
        return f"was beaten by {_list([_opposing(s, names) for s in rivals])}, against its attack of {a}"
    if code is AttackOutcome.HEAD_TO_HEAD_STANDOFF:
        opponent = next(s for s in others if s.kind is StrengthKind.DEFEND)
        return (
            f"met {_name(opponent.unit, names)} coming the other way with equal strength, "
            f"{_strength(attack, names)} against {_strength(opponent, names)}, so neither moved"
        )
    if code is AttackOutcome.LOST_HEAD_TO_HEAD:
        opponent = next(s for s in others if s.kind is StrengthKind.DEFEND)
        return (
            f"lost the head-to-head battle with {_name(opponent.unit, names)}: "
            f"{_strength(opponent, names)} against its attack of {a}"
        )
    if code is AttackOutcome.HELD:
        hold = next(s for s in others if s.kind is StrengthKind.HOLD)
        return (
            f"did not beat {_name(hold.unit, names)} holding ({_inner(hold, names)}) with its attack of {a}"
        )
    if code is AttackOutcome.OWN_UNIT:
        unit = _name(next(iter(named)), names) if named else "a unit of its own power"
        if any(s.kind is StrengthKind.DEFEND for s in others):
            return (f"was blocked by {unit}, a unit of its own power moving the other way: "
                    "a power never dislodges its own unit")
        return (f"was blocked by {unit}, a unit of its own power that stayed: "
                "a power never dislodges its own unit")
    if code is AttackOutcome.OCCUPANT_STAYED:
        return _stayed(e, names, because)
    if code is AttackOutcome.CONVOY_PARADOX:
        ring = _list(e.named(Role.CYCLE), names)
        return (
            f"had no effect: its convoy is part of a paradox ({ring}), and by the Szykman rule "
            f"a convoyed army in a paradox stays where it is"
        )
    sunk = e.named(Role.CONVOYS_DISLODGED)
    if sunk:
        return f"failed: no unbroken chain of convoying fleets was left ({_list(sunk, names)} dislodged)"
    return "failed: no unbroken chain of fleets ordered to convoy it reached there"


def _stayed(e: Explanation, names: Names, because: str) -> str:
    chain = e.named(Role.CHAIN)
    if not chain:
        return "failed because the unit there did not leave"
    text = f"failed because {_name(chain[0], names)} did not leave"
    for here, there in zip(chain, chain[1:], strict=False):
        text += f": {_name(here, names)}'s move to {there} failed because {_name(there, names)} did not leave"
    return text + (f", and {because}" if because else "")


def _support(
    order: SupportHold | SupportMove, result: ResultCode, code: object, e: Explanation, names: Names,
    because: str,
) -> str:
    me = _name(order.unit.province, names)
    what = _supported(order, names)
    if code is SupportOutcome.DISLODGED_BY:
        by = _list(e.named(Role.DISLODGED_BY), names)
        return f"{me} was dislodged by {by}, so its support of {what} was cut."
    if result is ResultCode.CUT:
        return f"{me}'s support of {what} was cut by the attack of {_list(e.named(Role.CUT_BY), names)}."
    if because:  # attacked, and why each attack did not cut it
        return f"{me} supported {what}; {because}."
    return f"{me} supported {what}; nobody cut the support."


def _supported(order: SupportHold | SupportMove, names: Names) -> str:
    if isinstance(order, SupportHold):
        return f"{_name(order.target.province, names)} holding"
    return f"{_name(order.origin.province, names)}'s move to {order.dest}"


def _convoy(order: Convoy, result: ResultCode, e: Explanation, names: Names, because: str) -> str:
    me, army = _name(order.unit.province, names), _name(order.origin.province, names)
    if result is ResultCode.DISLODGED:
        return f"{me} was dislodged by {_list(e.named(Role.DISLODGED_BY), names)}, so it convoyed nothing."
    if because:
        return f"{me} was not dislodged, but {army}'s move to {order.dest} {because}."
    return f"{me} convoyed {army} to {order.dest}."


def _hold(order: Hold, code: object, e: Explanation, names: Names) -> str:
    me = _name(order.unit.province, names)
    unordered = " (it had no order)" if code is not None and code == "NO_ORDER" else ""
    hold = next((s for s in e.strengths if s.kind is StrengthKind.HOLD), None)
    attacks = [s for s in e.strengths if s.kind is StrengthKind.ATTACK]
    by = e.named(Role.DISLODGED_BY)
    if by:
        attack = next((s for s in attacks if s.unit == by[0]), None)
        beat = (
            f": attack {_strength(attack, names)} against its hold of {_strength(hold, names)}"
            if attack and hold
            else ""
        )
        return f"{me}{unordered} was dislodged by {_name(by[0], names)}{beat}."
    if not attacks:
        return f"{me} held{unordered}; nobody attacked it."
    against = _list([f"{_name(s.unit, names)} ({_inner(s, names)})" for s in attacks])
    kept = f" with its hold of {_strength(hold, names)}" if hold is not None else ""
    return f"{me} held{unordered}{kept} against the attack of {against}."


def _void(order: Order, reason: Reason | None, names: Names) -> str:
    place = _place(order)
    why = reason.detail if reason is not None and reason.detail else "it could not be carried out"
    if reason is not None and reason.code is OrderOutcome.ILLEGAL:
        why = why.split(": ", 1)[-1]  # the validation code, then its sentence
    if reason is not None and reason.code is OrderOutcome.DUPLICATE:
        why = "the unit already had an order"
    power = order.power.title()
    if isinstance(order, Build):
        return f"{power}'s build of {order.kind.value} {order.location} was void: {why}."
    if isinstance(order, Waive) or place is None:
        return f"{power}'s order was void: {why}."
    if place not in names:
        return f"{power}'s order for {place} was void: {why}."
    me = names[place]
    if isinstance(order, SupportHold | SupportMove):
        return f"{me}'s support of {_supported(order, names)} was void: {why}."
    if isinstance(order, Convoy):
        army = _name(order.origin.province, names)
        if reason is not None and reason.code is ConvoyOutcome.ARMY_GOES_BY_LAND:
            return f"{me}'s convoy was void: {why} (2023 rules, DATC 4.A.3)."
        return f"{me}'s convoy of {army} to {order.dest} was void: {why}."
    held = "; the unit held" if isinstance(order, Move | Hold) else ""
    return f"{me}'s order was void: {why}{held}."


def _dislodged(e: Explanation, names: Names) -> str:
    by = e.named(Role.DISLODGED_BY)
    return f"; it was dislodged by {_name(by[0], names)}" if by else ""


def _opposing(s: Strength, names: Names) -> str:
    who, value = _name(s.unit, names), _inner(s, names)
    if s.kind is StrengthKind.PREVENT:
        return f"{who} moving there too ({value})"
    if s.kind is StrengthKind.DEFEND:
        return f"{who} coming the other way ({value})"
    return f"{who} holding ({value})"


# --- retreats and adjustments ----------------------------------------------------------------


def _retreat(order: Retreat | Disband, result: ResultCode, reason: Reason | None, names: Names) -> str:
    me = _name(order.unit.province, names)
    code = reason.code if reason is not None else None
    if isinstance(order, Retreat):
        if result is ResultCode.OK:
            return f"{me} retreated to {order.dest}."
        others = _list(reason.units, names) if reason is not None else "another unit"
        if code is RetreatOutcome.CONTESTED_WEAK_EDGE:
            return (
                f"{me} did not retreat to {order.dest}: {others} retreated there too, and a retreat "
                f"across this edge gives way; {me} was disbanded."
            )
        return f"{me} did not retreat to {order.dest}: {others} retreated there too, so all were disbanded."
    if code is RetreatOutcome.NO_ORDER:
        return f"{me} had no valid retreat order and was disbanded."
    return f"{me} was disbanded, as ordered."


def _adjustment(order: Order, result: ResultCode, code: object, names: Names) -> str:
    power = order.power.title()
    if isinstance(order, Build):
        return f"{power} built {order.kind.value} {order.location}."
    if isinstance(order, Waive):
        if code is AdjustmentOutcome.NOT_ORDERED:
            return f"{power} did not order a build it was due; the build is waived."
        return f"{power} waived a build."
    place = _place(order)
    me = _name(place, names) if place else "a unit"
    if code is AdjustmentOutcome.CIVIL_DISORDER:
        return (
            f"{power} did not order a removal it owed; {me} was removed, as the rulebook's "
            f"civil-disorder rule chooses (farthest from its supply centres)."
        )
    return (
        f"{me} was removed, as ordered." if result is ResultCode.DISBAND else f"{me}: {result.value.lower()}."
    )


# --- words -------------------------------------------------------------------------------------


def _place(order: Order) -> str | None:
    location = getattr(order, "unit", None) or getattr(order, "location", None)
    return getattr(location, "province", None)


def _name(province: str, names: Names) -> str:
    return names.get(province, province)


def _num(s: Strength | None) -> str:
    if s is None:
        return "0"
    return f"{s.value:g}"


def _strength(s: Strength | None, names: Names) -> str:
    """``2 (supported by A MAR; A BUR's support was cut by A MUN)``: a strength and what made it."""
    notes = _notes(s, names)
    return _num(s) + (f" ({notes})" if notes else "")


def _inner(s: Strength | None, names: Names) -> str:
    """The same, for inside parentheses: ``2, supported by A MAR``."""
    notes = _notes(s, names)
    return _num(s) + (f", {notes}" if notes else "")


def _notes(s: Strength | None, names: Names) -> str:
    if s is None:
        return ""
    notes = []
    if s.supporters:
        notes.append(f"supported by {_list(s.supporters, names)}")
    for supporter, cutters in s.cut:
        by = f" by {_list(cutters, names)}" if cutters else ""
        notes.append(f"{_name(supporter, names)}'s support cut{by}")
    if s.excluded:
        notes.append(f"{_list(s.excluded, names)}'s support not counted against a unit of its own power")
    return "; ".join(notes)


def _list(items: Sequence[str], names: Names | None = None) -> str:
    words = [_name(i, names) if names is not None else i for i in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
