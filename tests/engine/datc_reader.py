"""Reader for the jDip-style DATC block files in tests/engine/datc/ (FORMAT.md there).

Reads text into plain records; it interprets nothing about the rules. The runner
(test_datc.py) turns the records into engine calls through the public API.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

DATC_DIR = Path(__file__).parent / "datc"

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
