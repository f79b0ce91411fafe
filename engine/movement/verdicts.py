"""What one decision of the movement rules answered, and what it read to answer so.

A ``Verdict`` is the resolver's answer (``ok``) plus what players are later told of it:
the reason that decided it, the strengths it compared, the units it found (convoying
fleets, a cycle) and, when a backup rule settled it, which rule. The explanations of
the results (engine/movement/explanations.py) are read off these and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.reasons import AttackOutcome, Decision, Role, Strength, Units
from engine.types import Reason


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    reason: Reason | None = None
    strengths: tuple[Strength, ...] = ()
    units: Units = ()
    decision: Decision | None = None  # None: the decision of its kind; else the backup rule

    def named_units(self, role: Role) -> tuple[str, ...]:
        return next((provinces for r, provinces in self.units if r is role), ())


YES = Verdict(True)
NO_ROUTE = Verdict(False, Reason(AttackOutcome.NO_CONVOY_ROUTE, (), "no unbroken chain of convoys"))


def paradox(cycle: tuple[str, ...]) -> Verdict:
    """A convoy path in a paradox: the Szykman rule (DATC 4.A.2) makes it fail."""
    reason = Reason(AttackOutcome.CONVOY_PARADOX, (), "a convoy paradox: the convoy fails (Szykman rule)")
    return Verdict(False, reason, (), ((Role.CYCLE, cycle),), Decision.SZYKMAN_RULE)


def circular(cycle: tuple[str, ...]) -> Verdict:
    """A move in a ring of moves with no single answer: all of them succeed (rulebook)."""
    return Verdict(True, None, (), ((Role.CYCLE, cycle),), Decision.CIRCULAR_MOVEMENT)
