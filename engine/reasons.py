"""Why an order ended as it did: the closed set of reason codes and the explanation values.

A result carries a ``Reason`` (a code, the units it names, a detail) and an
``Explanation``: the decision that settled the order, the strengths that decision
compared, the units on each side, and one English sentence made of them. Both are read
off the adjudicator's own decisions (engine/movement/rules.py), never judged again.

The codes are a closed set, one enum per kind of outcome, as an adjudicator's outcome
types are (TedDriggs/diplomacy's ``AttackOutcome``, ``SupportOutcome``): a client can
switch on them, and a code this module does not list is refused when read back.
Strengths follow Kruijswijk's definitions (DATC section 5): ATTACK, HOLD, DEFEND and
PREVENT strength.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias


class _Code(StrEnum):
    """A StrEnum hashed like the string it equals, so a code read back from JSON (a str)
    and the member it names are interchangeable in sets and dicts."""

    __hash__ = str.__hash__


class AttackOutcome(_Code):
    """Why a move failed (the move decision, or the convoy path it needed)."""

    STOOD_OFF = "STOOD_OFF"  # a rival move into the same province had equal strength: a stand-off
    PREVENTED = "PREVENTED"  # a rival move into the same province was stronger
    HEAD_TO_HEAD_STANDOFF = "HEAD_TO_HEAD_STANDOFF"  # the unit coming the other way was as strong
    LOST_HEAD_TO_HEAD = "LOST_HEAD_TO_HEAD"  # the unit coming the other way was stronger
    HELD = "HELD"  # the unit there held: the attack did not beat its hold strength
    OCCUPANT_STAYED = "OCCUPANT_STAYED"  # the unit there tried to leave and failed
    OWN_UNIT = "OWN_UNIT"  # the unit there belongs to the mover's power and stayed
    NO_CONVOY_ROUTE = "NO_CONVOY_ROUTE"  # no unbroken chain of convoying fleets
    CONVOY_PARADOX = "CONVOY_PARADOX"  # the convoy is in a paradox: Szykman rule


class SupportOutcome(_Code):
    """Why a support was not given."""

    CUT_BY = "CUT_BY"  # attacked from somewhere other than where the support goes
    DISLODGED_BY = "DISLODGED_BY"  # the supporting unit was dislodged
    NOT_MATCHED = "NOT_MATCHED"  # the supported unit was not ordered so


class HoldOutcome(_Code):
    """Why a unit that stayed (hold, convoy) ended as it did."""

    DISLODGED_BY = "DISLODGED_BY"
    NO_ORDER = "NO_ORDER"  # the unit had no order and held


class ConvoyOutcome(_Code):
    """Why a convoy order did nothing."""

    DISLODGED_BY = "DISLODGED_BY"
    NOT_MATCHED = "NOT_MATCHED"  # no army was ordered to make that move
    ARMY_GOES_BY_LAND = "ARMY_GOES_BY_LAND"  # the army was ordered so but does not go by convoy


class OrderOutcome(_Code):
    """Why an order was not carried out at all (any phase)."""

    ILLEGAL = "ILLEGAL"  # detail: the validation code and its sentence
    DUPLICATE = "DUPLICATE"  # the unit already had an order


class RetreatOutcome(_Code):
    """Why a dislodged unit did not retreat."""

    RETREAT_STANDOFF = "RETREAT_STANDOFF"  # two or more units retreated to one province
    CONTESTED_WEAK_EDGE = "CONTESTED_WEAK_EDGE"  # a contested retreat across a weak edge (variants)
    NO_ORDER = "NO_ORDER"  # no valid retreat order: disbanded


class AdjustmentOutcome(_Code):
    """Why a build or removal happened without an order."""

    NOT_ORDERED = "NOT_ORDERED"  # a build due was not ordered: waived
    CIVIL_DISORDER = "CIVIL_DISORDER"  # a removal due was not ordered: the rulebook chose the unit


ReasonCode: TypeAlias = (
    AttackOutcome
    | SupportOutcome
    | HoldOutcome
    | ConvoyOutcome
    | OrderOutcome
    | RetreatOutcome
    | AdjustmentOutcome
)
OUTCOME_ENUMS: tuple[type[_Code], ...] = (
    AttackOutcome,
    SupportOutcome,
    HoldOutcome,
    ConvoyOutcome,
    OrderOutcome,
    RetreatOutcome,
    AdjustmentOutcome,
)
# Every code by its text (a text shared by two enums means the same thing in both).
REASON_CODES: dict[str, ReasonCode] = {
    member.value: member  # type: ignore[misc]  # every member is of one of ReasonCode's enums
    for enum in reversed(OUTCOME_ENUMS)
    for member in enum
}


def reason_code(text: str) -> ReasonCode:
    """The code named ``text``; ValueError for a code outside the closed set."""
    code = REASON_CODES.get(text)
    if code is None:
        raise ValueError(f"unknown reason code {text!r}")
    return code


class Decision(_Code):
    """The decision that settled an order (Kruijswijk's decisions, the backup rules, and the
    steps of the other phases)."""

    MOVE = "MOVE"  # the move decision: attack against hold / defend and every prevent
    SUPPORT = "SUPPORT"  # the support decision: cut or given
    DISLODGEMENT = "DISLODGEMENT"  # did any attack on a unit that stayed succeed?
    CONVOY_PATH = "CONVOY_PATH"  # is there an unbroken chain of convoying fleets?
    CIRCULAR_MOVEMENT = "CIRCULAR_MOVEMENT"  # backup rule: a ring of moves all succeed
    SZYKMAN_RULE = "SZYKMAN_RULE"  # backup rule: a convoy paradox; the convoyed army has no effect
    LEGALITY = "LEGALITY"  # the order was illegal, or a second order for a unit
    MATCHING = "MATCHING"  # a support or convoy matched no order it could help
    RETREAT = "RETREAT"  # the retreat phase: where the dislodged units went
    ADJUSTMENT = "ADJUSTMENT"  # the adjustment phase: builds, waives, removals


class StrengthKind(_Code):
    """Kruijswijk's strengths (DATC section 5)."""

    ATTACK = "ATTACK"  # of a move into its destination
    HOLD = "HOLD"  # of the unit in a province against attacks (0 if empty or it left)
    DEFEND = "DEFEND"  # of a unit in a head-to-head battle
    PREVENT = "PREVENT"  # of a move against other moves into the same province


class Role(_Code):
    """The part a unit named in an explanation played (JSON keys, so lower case)."""

    OPPONENTS = "opponents"  # units whose strength opposed the order's
    ENTERED = "entered"  # the unit that moved into the province in question
    DISLODGED_BY = "dislodged_by"  # the unit that dislodged the ordered unit
    CUT_BY = "cut_by"  # the units whose attacks cut a support
    SUPPORTED = "supported"  # the unit a support or convoy was for
    CONVOYS = "convoys"  # the convoying fleets that carried the army
    CONVOYS_DISLODGED = "convoys_dislodged"  # convoying fleets that were dislodged
    CHAIN = "chain"  # units that stayed, each because its own move failed, in order
    CYCLE = "cycle"  # the units whose decisions formed a cycle a backup rule settled


@dataclass(frozen=True, slots=True)
class Strength:
    """One strength a decision compared, in units of one army (a variant's half-strength
    edge gives halves). ``supporters`` counted; ``cut`` were given but cut, each with the
    units that cut it; ``excluded`` were given by the power whose unit is attacked, and
    a power's support never helps dislodge its own unit."""

    kind: StrengthKind
    unit: str  # the province of the unit (for HOLD: of the province held)
    value: float
    supporters: tuple[str, ...] = ()
    cut: tuple[tuple[str, tuple[str, ...]], ...] = ()
    excluded: tuple[str, ...] = ()


Units: TypeAlias = tuple[tuple[Role, tuple[str, ...]], ...]


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why an order ended as it did, in structure and in words.

    ``units`` pairs a role with the provinces of the units that played it, roles in a
    fixed order; ``text`` is ``engine.explain.render`` of the rest, made once."""

    decision: Decision
    strengths: tuple[Strength, ...] = ()
    units: Units = ()
    text: str = ""

    def named(self, role: Role) -> tuple[str, ...]:
        for r, provinces in self.units:
            if r is role or r == role:
                return provinces
        return ()
