"""DATC v3.0 6.A-6.E: the reason of every order's result, not only the final position.

tests/engine/datc/datc_v3.0_reasons.txt states, for each order of each case, the result
code, the reason code the deciding rule gives and the units it names (issue 17: reasons
come from the decisions). Each case is played through the public API as in
test_datc.py, and every order's result is found by its power and unit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

import engine
from tests.engine.datc_reader import DATC_DIR
from tests.engine.test_datc import MAIN, MAP, RULES_FOR_TAG, _movement_state

REASONS_FILE = DATC_DIR / "datc_v3.0_reasons.txt"


@dataclass
class Expected:
    case_id: str
    lines: list[tuple[str, str, str]] = field(default_factory=list)  # (power, order, outcome)


def read_expected() -> list[Expected]:
    out: list[Expected] = []
    for raw in REASONS_FILE.read_text(encoding="ascii").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("CASE "):
            out.append(Expected(line.split()[1]))
        elif line and line != "END":
            given, outcome = line.split("=>")
            power, order = given.split(":", 1)
            out[-1].lines.append((power.strip().upper(), order.strip(), outcome.strip()))
    return out


EXPECTED = read_expected()
CASES = {c.id: c for c in MAIN}


def _place(order: engine.Order) -> str:
    location = getattr(order, "unit", None) or getattr(order, "location", None)
    assert isinstance(location, engine.Location)
    return location.province


def describe(result: engine.OrderResult) -> str:
    """The outcome in the data file's notation."""
    words = [result.result.value]
    reason = result.reason
    if reason is not None:
        code = reason.code
        if code == "ILLEGAL":
            code += ":" + reason.detail.split(":", 1)[0]
        words.append(code)
        if reason.units:
            words.append(",".join(reason.units))
    if result.dislodged:
        words.append("+DISLODGED")
    return " ".join(words)


@pytest.mark.parametrize("expected", [pytest.param(e, id=e.case_id) for e in EXPECTED])
def test_reasons(expected: Expected) -> None:
    case = CASES[expected.case_id]
    state = _movement_state(case)
    given: list[tuple[str, str, engine.Order]] = []
    orders: dict[str, list[engine.Order]] = {}
    for power, text, _ in expected.lines:
        order = engine.parse_order(text, power=power, state=state, map=MAP)
        given.append((power, text, order))
        orders.setdefault(power, []).append(order)
    _, resolution = engine.Game(map=MAP, state=state, rules=RULES_FOR_TAG.get(case.tag, "2023")).adjudicate(
        orders
    )
    results = list(resolution.results)
    got = []
    for power, text, order in given:
        index = next(i for i, r in enumerate(results) if r.order.power == power
                     and _place(r.order) == _place(order))
        got.append((power, text, describe(results.pop(index))))
    assert got == expected.lines


def test_every_case_of_6a_to_6e_has_reasons() -> None:
    """Every DATC case of sections A-E, with every one of its orders, is in the file."""
    wanted = [c.id for c in MAIN if c.id[:3] in ("6.A", "6.B", "6.C", "6.D", "6.E")]
    assert [e.case_id for e in EXPECTED] == wanted
    for e in EXPECTED:
        assert [(p, t) for p, t, _ in e.lines] == list(CASES[e.case_id].orders)
