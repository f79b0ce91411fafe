"""Rule editions as values: the named policies a game is played under.

A ``Rulebook`` is chosen per game (``engine.Game(..., rules="2000")``). Each field
is one DATC rule choice (shared/datc/OPTIONS.md, docs/rules.md); the adjudicator
reads the policy, never an edition name.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class AdjacentConvoy(StrEnum):
    """DATC 4.A.3: when does a move to an adjacent province go by convoy?"""

    # 2023 / DATC v3.0: when ordered VIA, or when a fleet of the mover's own power is
    # ordered to convoy it; a failed convoy never falls back to the land route.
    INTENT_NO_FALLBACK = "INTENT_NO_FALLBACK"
    # DATC v2.4 / 2000 as read by jDip, godip, webDiplomacy, MILA: a convoy route is
    # used as above, but if it fails the army still moves over land.
    INTENT_WITH_FALLBACK = "INTENT_WITH_FALLBACK"
    # 1971: any convoy order matching the move is used, whoever gives it (an army can be
    # "kidnapped" by a foreign fleet), with no fallback. Not a named edition here; a
    # custom Rulebook may choose it (DATC 6.G.2@1971, 6.G.7@1971, 6.G.19@1971).
    ANY_CONVOY = "ANY_CONVOY"


class SupportCoast(StrEnum):
    """DATC 4.B.4: must a support name the coast of the move it supports?"""

    # DATC v3.0 preference: a support without a coast matches a move to either coast;
    # a support naming the wrong coast does not match.
    EITHER_COAST = "EITHER_COAST"
    # Strict: a support without a coast does not match a move to a named coast (6.B.15@strict).
    EXACT_COAST = "EXACT_COAST"


class CivilDisorder(StrEnum):
    """DATC 4.D.8: which units go when a power does not order its removals."""

    # 2023: greatest distance to an owned supply centre, through land and sea for both
    # kinds; ties: fleets first, then alphabetical by province name.
    OWNED_CENTERS_ANY_ROUTE = "OWNED_CENTERS_ANY_ROUTE"
    # 1971-2000 (DATC v2.4): distance to a home supply centre, armies counted through land
    # and sea (DATC 6.J.10), fleets through sea only; ties: fleets first, then alphabetical.
    HOME_CENTERS_BY_KIND = "HOME_CENTERS_BY_KIND"


@dataclass(frozen=True)
class Rulebook:
    name: str
    adjacent_convoy: AdjacentConvoy
    civil_disorder: CivilDisorder
    support_coast: SupportCoast = SupportCoast.EITHER_COAST


RULEBOOKS: dict[str, Rulebook] = {
    "2023": Rulebook("2023", AdjacentConvoy.INTENT_NO_FALLBACK, CivilDisorder.OWNED_CENTERS_ANY_ROUTE),
    "2000": Rulebook("2000", AdjacentConvoy.INTENT_WITH_FALLBACK, CivilDisorder.HOME_CENTERS_BY_KIND),
}
DEFAULT_RULES = "2023"


def get_rulebook(rules: str | Rulebook | None) -> Rulebook:
    """A rulebook by name (``"2023"``, ``"2000"``) or passed through; KeyError if unknown."""
    if isinstance(rules, Rulebook):
        return rules
    name = DEFAULT_RULES if rules is None else str(rules)
    if name not in RULEBOOKS:
        raise KeyError(f"unknown rulebook {name!r}; known: {', '.join(sorted(RULEBOOKS))}")
    return RULEBOOKS[name]
