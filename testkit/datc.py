"""The DATC cases: a reader for the jDip-style block files in tests/engine/datc/ (FORMAT.md
there), the cases read, and the rulebook each case's tag is played under.

Reads text into plain records; it interprets nothing about the rules. The runner
(tests/engine/test_datc.py) and bench/sandbox_bench.py turn the records into engine calls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import engine
from engine.rulebook import AdjacentConvoy, SupportCoast

DATC_DIR = Path(__file__).resolve().parents[1] / "tests" / "engine" / "datc"

BLOCKS = {
    "PRESTATE_SUPPLYCENTER_OWNERS", "PRESTATE", "PRESTATE_DISLODGED", "PRESTATE_RESULTS",
    "ORDERS", "POSTSTATE", "POSTSTATE_DISLODGED",
}


@dataclass(frozen=True)
class UnitLine:
    power: str  # upper case
    kind: str  # "A" | "F"
    location: str  # "SPA/SC"


@dataclass(frozen=True)
class ResultLine:
    success: bool
    power: str
    order: str


@dataclass
class Case:
    id: str
    title: str = ""
    season: str = ""
    year: int = 1901
    phase: str = ""
    owners: list[UnitLine] = field(default_factory=list)
    prestate: list[UnitLine] = field(default_factory=list)
    dislodged: list[UnitLine] = field(default_factory=list)
    prior_results: list[ResultLine] = field(default_factory=list)
    orders: list[tuple[str, str]] = field(default_factory=list)  # (power, order text)
    poststate: list[UnitLine] | None = None  # None: POSTSTATE_SAME
    post_dislodged: list[UnitLine] = field(default_factory=list)

    @property
    def tag(self) -> str | None:
        return self.id.split("@", 1)[1] if "@" in self.id else None


def _unit(text: str) -> UnitLine:
    power, rest = text.split(":", 1)
    kind, loc = rest.split()
    return UnitLine(power.strip().upper(), kind.upper(), loc.upper())


def _order(text: str) -> tuple[str, str]:
    power, rest = text.split(":", 1)
    return power.strip().upper(), rest.strip()


def read_cases(path: Path) -> list[Case]:
    cases: list[Case] = []
    case: Case | None = None
    block = ""
    title = ""
    for raw in path.read_text(encoding="ascii").splitlines():
        stripped = raw.strip()
        if stripped.startswith("#"):
            match = re.match(r"#\s*(6\.[A-Z]\.\d+\.?\s.*)", stripped)
            if match:
                title = match.group(1)
            continue
        line = stripped.split("#", 1)[0].strip()
        if not line:
            continue
        word = line.split()[0]
        if word == "CASE":
            case = Case(id=line.split(None, 1)[1], title=title)
            block = ""
        elif case is None or word == "VARIANT_ALL":
            continue
        elif word == "PRESTATE_SETPHASE":
            season_year, phase = line.split(None, 1)[1].split(",")
            season, year = season_year.split()
            case.season, case.year, case.phase = season.upper(), int(year), phase.strip().upper()
        elif word == "POSTSTATE_SAME":
            case.poststate = None
            block = ""
        elif word == "END":
            cases.append(case)
            case = None
        elif word in BLOCKS:
            block = word
            if word == "POSTSTATE":
                case.poststate = []
        else:
            _add_line(case, block, line)
    return cases


def _add_line(case: Case, block: str, line: str) -> None:
    if block == "ORDERS":
        case.orders.append(_order(line))
    elif block == "PRESTATE_RESULTS":
        verdict, rest = line.split(":", 1)
        power, order = _order(rest)
        case.prior_results.append(ResultLine(verdict.strip() == "SUCCESS", power, order))
    elif block == "POSTSTATE":
        assert case.poststate is not None
        case.poststate.append(_unit(line))
    else:
        target = {
            "PRESTATE_SUPPLYCENTER_OWNERS": case.owners,
            "PRESTATE": case.prestate,
            "PRESTATE_DISLODGED": case.dislodged,
            "POSTSTATE_DISLODGED": case.post_dislodged,
        }[block]
        target.append(_unit(line))


# Which rulebook a case tag is played under (OPTIONS.md): the named editions, or the
# 2023 rulebook with the one DATC option the tag names switched (a custom Rulebook).
_2023 = engine.get_rulebook("2023")
RULES_FOR_TAG: dict[str | None, str | engine.Rulebook] = {
    None: "2023", "fallback": "2000", "v2.4": "2000", "v2.4.part1": "2000",
    "v2.4.part2": "2000", "pre2023": "2000",
    # DATC 4.A.3, 1971 rulebook: any convoy to an adjacent province is used ("kidnapping").
    "1971": replace(_2023, name="2023+any-convoy", adjacent_convoy=AdjacentConvoy.ANY_CONVOY),
    # DATC 4.B.4, strict option: a support must name the coast of the move it supports.
    "strict": replace(_2023, name="2023+exact-coast", support_coast=SupportCoast.EXACT_COAST),
}

MAIN = read_cases(DATC_DIR / "datc_v3.0_cases.txt")
EXTRA = read_cases(DATC_DIR / "datc_extra_and_alternative_cases.txt")
