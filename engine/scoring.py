"""Scoring systems: the points each power takes from a finished game (issue 34).

A scoring system is a game rule (it decides what a player plays *for*), so it lives here,
beside ``conclusion.py``, as pure arithmetic over a game's outcome: no I/O, stdlib only.
A game's settings name one system (``SCORING_SYSTEMS``); tournaments add the same points
up over rounds.

The outcome is Convoy's result record (functions/usecases/game/results.py, docs/rules.md "How a
game ends"): ``kind`` is ``solo``, ``concession``, ``draw``, ``year_limit`` or
``abandoned``; ``winners`` the soloist or the draw's members (every survivor: draws
include all survivors); ``centers`` every power of the map with its final centre count.
A concession is scored as a solo of the one power left standing, a year-limit ending as
a draw of the survivors, an abandoned game as nothing for anyone.

The systems, and where each is defined (the tests reproduce the worked figures there):

- ``draw_size``: a solo scores 100; a draw splits 100 equally among its members (DIAS
  draw-size scoring; The Embassy, "Tournament Scoring - Part 3: Draw Size Scoring").
- ``sum_of_squares``: a solo scores 100; in a draw each member scores 100 * c² / Σ c².
  World Diplomacy Wiki, "Sum of Square Scoring System".
- ``c_diplo``: C-Diplo as Toby Harris described it ("C-Diplo – Saint or Sinner?",
  diplom.org) and Diplomaticon's "C-Diplo scoring system" (2022-01-23): a solo scores 100,
  everyone else 0; otherwise 1 point for playing, 1 per centre, and 38/14/7 for the first,
  second and third centre counts, tied places sharing the points of the places they cover.
- ``c_diplo_73``: the same, with the solo worth 73 (38 + 34 + 1), the variant French
  tournaments use (diplomania-gen's C-Diplo page, "C-Diplo 73 official system").
- ``tribute``: Tribute (Windy City Weasels; World Diplomacy Wiki "Tribute Scoring
  System"): a solo scores 100; otherwise 1 point per centre, 66 points split equally among
  the survivors, and each survivor not topping the board pays the topper 1 point per centre
  the topper holds over 6, never more than its share of the 66; tied toppers split it.
- ``open_tribute``: OpenTribute (windycityweasels.org "OpenTribute Variant", 3 points per
  centre): a solo scores 340; otherwise everyone starts from 34 plus 3 per centre and pays
  the topper 1 point per centre behind; an eliminated power pays too and keeps nothing;
  n toppers sharing the top each receive 1/n² of the tribute (the rest is spoiled).

Not built: the other knobs of these families (Half-Tribute, OpenTribute with another
points-per-centre C, C-Diplo Namur's centre table). A system is a function and a table
entry, so adding one is small.

Ranks for C-Diplo are by centre count over every power of the map, eliminated ones
included (a two-way draw leaves third place to the five eliminated powers, who share its 7
points): the definitions rank "positions", and rank by centres only.

Points are computed exactly (``Fraction``) and given as floats rounded to 3 places,
as the API's scores are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

KINDS = ("solo", "concession", "draw", "year_limit", "abandoned")
SOLE_WINNER = frozenset({"solo", "concession"})
DRAWN = frozenset({"draw", "year_limit"})

Points = dict[str, Fraction]


@dataclass(frozen=True)
class Outcome:
    """How a game ended, as scoring reads it: the kind, the winners, every power's centres."""

    kind: str
    winners: tuple[str, ...]
    centers: tuple[tuple[str, int], ...]  # every power of the map, sorted by power

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown outcome kind {self.kind!r}; one of {', '.join(KINDS)}")
        powers = {p for p, _ in self.centers}
        if not set(self.winners) <= powers:
            raise ValueError(f"winners {sorted(set(self.winners) - powers)} are not powers of the game")
        if self.kind in SOLE_WINNER and len(self.winners) != 1:
            raise ValueError(f"a {self.kind} has exactly one winner")
        if any(c < 0 for _, c in self.centers):
            raise ValueError("centre counts are not negative")

    @classmethod
    def of(cls, kind: str, winners: Iterable[str], centers: Mapping[str, int]) -> Outcome:
        return cls(kind, tuple(sorted(winners)), tuple(sorted((p, int(c)) for p, c in centers.items())))

    @classmethod
    def from_result(cls, result: Mapping[str, Any]) -> Outcome:
        """The outcome of a stored result record (``{"kind", "winners", "centers", ...}``)."""
        return cls.of(str(result["kind"]), result.get("winners") or (), dict(result.get("centers") or {}))

    @property
    def counts(self) -> dict[str, int]:
        return dict(self.centers)

    @property
    def survivors(self) -> tuple[str, ...]:
        """A draw's members are its survivors (draws include all survivors); after a solo,
        the powers that kept a centre."""
        if self.kind in DRAWN:
            return self.winners
        return tuple(p for p, c in self.centers if c > 0 or p in self.winners)


@dataclass(frozen=True)
class ScoringSystem:
    """A named system: ``points(outcome)`` gives every power of the game its exact points."""

    name: str
    title: str
    source: str  # where the definition this follows is published
    solo: Fraction  # what a solo is worth, for display and for tournament tables
    drawn: Callable[[Outcome], Points]  # the points of a game that did not end in a solo

    def points(self, outcome: Outcome) -> Points:
        zero = {p: Fraction(0) for p, _ in outcome.centers}
        if outcome.kind == "abandoned":
            return zero
        if outcome.kind in SOLE_WINNER:
            return {**zero, outcome.winners[0]: self.solo}
        return {**zero, **self.drawn(outcome)}

    def score(self, outcome: Outcome) -> dict[str, float]:
        """The points as the API shows them: floats rounded to 3 places."""
        return {p: round(float(v), 3) for p, v in self.points(outcome).items()}


# --- the systems --------------------------------------------------------------------------


def _draw_size(outcome: Outcome) -> Points:
    share = Fraction(100, len(outcome.winners)) if outcome.winners else Fraction(0)
    return {p: share for p in outcome.winners}


def _sum_of_squares(outcome: Outcome) -> Points:
    counts = outcome.counts
    squares = sum(counts[p] ** 2 for p in outcome.winners)
    if not squares:
        return _draw_size(outcome)
    return {p: Fraction(100 * counts[p] ** 2, squares) for p in outcome.winners}


def _place_points(counts: Mapping[str, int], prizes: tuple[int, ...]) -> Points:
    """Prizes for the first places by centre count; tied powers share the prizes of the
    places they cover (two tied for first share first and second)."""
    order = sorted(counts.items(), key=lambda item: -item[1])
    out: Points = {p: Fraction(0) for p in counts}
    place = 0
    while place < len(order):
        tied = [p for p, c in order if c == order[place][1]]
        covered = prizes[place: place + len(tied)]
        for p in tied:
            out[p] = Fraction(sum(covered), len(tied))
        place += len(tied)
    return out


def _c_diplo(outcome: Outcome) -> Points:
    counts = outcome.counts
    places = _place_points(counts, (38, 14, 7))
    return {p: 1 + c + places[p] for p, c in counts.items()}


def _toppers(counts: Mapping[str, int]) -> tuple[int, list[str]]:
    top = max(counts.values(), default=0)
    return top, [p for p, c in counts.items() if c == top]


def _tribute(outcome: Outcome) -> Points:
    counts = outcome.counts
    survivors = outcome.survivors
    if not survivors:
        return {}
    share = Fraction(66, len(survivors))
    top, toppers = _toppers(counts)
    due = min(share, Fraction(max(top - 6, 0)))
    out = {p: counts[p] + share for p in survivors}
    payers = [p for p in survivors if p not in toppers]
    for p in payers:
        out[p] -= due
    for p in toppers:
        out[p] = out.get(p, Fraction(0)) + due * len(payers) / len(toppers)
    return out


def _open_tribute(outcome: Outcome) -> Points:
    counts = outcome.counts
    survivors = set(outcome.survivors)
    top, toppers = _toppers(counts)
    out: Points = {}
    collected = 0
    for p, c in counts.items():
        collected += top - c
        out[p] = Fraction(34 + 3 * c - (top - c)) if p in survivors else Fraction(0)
    for p in toppers:
        out[p] += Fraction(collected, len(toppers) ** 2)
    return out


_SYSTEMS = (
    ScoringSystem("draw_size", "Draw size",
                  "The Embassy, Tournament Scoring - Part 3: Draw Size Scoring (DSS), 2020-03",
                  Fraction(100), _draw_size),
    ScoringSystem("sum_of_squares", "Sum of squares",
                  "World Diplomacy Wiki, Sum of Square Scoring System", Fraction(100), _sum_of_squares),
    ScoringSystem("c_diplo", "C-Diplo (solo 100)",
                  "Toby Harris, C-Diplo - Saint or Sinner? (diplom.org)", Fraction(100), _c_diplo),
    ScoringSystem("c_diplo_73", "C-Diplo (solo 73)",
                  "diplomania-gen.fr C-Diplo page: C-Diplo 73 official system", Fraction(73), _c_diplo),
    ScoringSystem("tribute", "Tribute",
                  "World Diplomacy Wiki, Tribute Scoring System", Fraction(100), _tribute),
    ScoringSystem("open_tribute", "OpenTribute",
                  "windycityweasels.org, OpenTribute Variant", Fraction(340), _open_tribute),
)
SCORING_SYSTEMS: Mapping[str, ScoringSystem] = MappingProxyType({s.name: s for s in _SYSTEMS})
DEFAULT_SYSTEM = "draw_size"


def scoring_system(name: str) -> ScoringSystem:
    """The system called ``name``; KeyError naming the known ones otherwise."""
    try:
        return SCORING_SYSTEMS[name]
    except KeyError:
        raise KeyError(f"unknown scoring system {name!r}; one of {', '.join(SCORING_SYSTEMS)}") from None


def score(name: str, result: Mapping[str, Any]) -> dict[str, float]:
    """Points per power of a stored result record under the system called ``name``."""
    return scoring_system(name).score(Outcome.from_result(result))
