"""DATC v3.0 chapter 6, every case, order by order: the result and the reason of each order.

tests/engine/datc/datc_v3.0_results.txt states, for each order of each of the 165 cases, the
result code, the reason code the deciding rule gives and the units it names, authored from the
DATC's own text (issue 17: reasons come from the decisions; issue 31: every case, and the words
right: a stand-off only of equal strength, 6.C.3's ring that holds because of the stand-off in
Constantinople, 6.G.2's convoy of an army that goes over land). Each case is played through the
public API as test_datc.py plays it (a 6.H case from the movement phase before it, whose
SUCCESS/FAILURE marks are checked too), and every order's result is found by its power and unit.
In retreat and adjustment phases the results no order asked for (a disband, a waive, a removal in
civil disorder) are listed too, and must be exactly those.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

import engine
from testkit.datc import DATC_DIR, MAIN, RULES_FOR_TAG, Case
from tests.engine.test_datc import MAP, _movement_state, replay_movement

RESULTS_FILE = DATC_DIR / "datc_v3.0_results.txt"
NOT_PLAYED = "NOT_PLAYED"
Line = tuple[str, str, str]  # (power, order text, outcome)


@dataclass
class Expected:
    case_id: str
    lines: list[Line] = field(default_factory=list)
    added: list[Line] = field(default_factory=list)  # "* " lines: results the rules added


def read_expected() -> list[Expected]:
    out: list[Expected] = []
    for raw in RESULTS_FILE.read_text(encoding="ascii").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("CASE "):
            out.append(Expected(line.split()[1]))
        elif line and line != "END":
            added = line.startswith("* ")
            given, outcome = line.removeprefix("* ").split("=>")
            power, order = given.split(":", 1)
            target = out[-1].added if added else out[-1].lines
            target.append((power.strip().upper(), order.strip(), outcome.strip()))
    return out


EXPECTED = read_expected()
CASES = {c.id: c for c in MAIN}


def _place(order: engine.Order) -> str | None:
    location = getattr(order, "unit", None) or getattr(order, "location", None)
    return location.province if isinstance(location, engine.Location) else None


def describe(result: engine.OrderResult) -> str:
    """The outcome in the data file's notation."""
    words = [result.result.value]
    reason = result.reason
    if reason is not None:
        code = str(reason.code)
        if code == "ILLEGAL":
            code += ":" + reason.detail.split(":", 1)[0]
        words.append(code)
        if reason.units:
            words.append(",".join(reason.units))
    if result.dislodged:
        words.append("+DISLODGED")
    return " ".join(words)


def added_text(order: engine.Order, phase: str) -> str:
    """How the data file writes an order the rules added."""
    if isinstance(order, engine.Waive):
        return "Waive"
    assert isinstance(order, engine.Disband) and order.kind is not None
    verb = "Disband" if phase == "RETREAT" else "Remove"
    return f"{verb} {order.kind.value} {str(order.unit).lower()}"


def _take(results: list[engine.OrderResult], power: str, order: engine.Order) -> engine.OrderResult:
    """The result of ``order``: the one for that very order, else the one for its unit."""
    index = next((i for i, r in enumerate(results) if r.order == order), None)
    if index is None:
        index = next(i for i, r in enumerate(results)
                     if r.order.power == power and _place(r.order) == _place(order))
    return results.pop(index)


def check_prior_marks(case: Case, before: engine.GameState, resolution: engine.Resolution) -> None:
    """A 6.H case's movement phase: every SUCCESS/FAILURE mark agrees with the result
    (FORMAT.md: a hold succeeds if not dislodged; a support if given and not cut; a convoy if
    its army arrived)."""
    results = list(resolution.results)
    arrived = {r.order.unit.province for r in results
               if isinstance(r.order, engine.Move) and r.result is engine.ResultCode.OK}
    for mark in case.prior_results:
        order = engine.parse_order(mark.order, power=mark.power, state=before, map=MAP)
        result = _take(results, mark.power, order)
        if isinstance(order, engine.Convoy):
            succeeded = order.origin.province in arrived and not result.dislodged
        elif isinstance(order, engine.Hold):
            succeeded = not result.dislodged
        else:
            succeeded = result.result is engine.ResultCode.OK
        assert succeeded == mark.success, f"{case.id}: {mark.power} {mark.order} marked {mark.success}"


def play(case: Case) -> tuple[engine.GameState, engine.Resolution | None, engine.Resolution | None]:
    """The position the case's orders are given in, their resolution (None when that retreat
    phase is never opened), and the resolution of the movement phase before a 6.H case."""
    rules = RULES_FOR_TAG.get(case.tag, "2023")
    movement = None
    if case.phase == "RETREAT":
        state, before, movement = replay_movement(case, rules)
        check_prior_marks(case, before, movement)
        if state.phase_type is not engine.PhaseType.RETREAT:
            return state, None, movement
    else:
        state = _movement_state(case)
    orders: dict[str, list[engine.Order]] = {}
    for power, text in case.orders:
        orders.setdefault(power, []).append(engine.parse_order(text, power=power, state=state, map=MAP))
    _, resolution = engine.Game(map=MAP, state=state, rules=rules).adjudicate(orders)
    return state, resolution, movement


@pytest.mark.parametrize("expected", [pytest.param(e, id=e.case_id) for e in EXPECTED])
def test_results(expected: Expected) -> None:
    # Given the case's position and orders
    case = CASES[expected.case_id]
    # When it is adjudicated
    state, resolution, movement = play(case)
    # Then every order ends as the DATC says
    if resolution is None:  # every dislodged unit had nowhere to go: no retreat phase (6.H.15)
        assert movement is not None and all(o == NOT_PLAYED for _, _, o in expected.lines)
        gone = [r for r in movement.results if r.dislodged]
        assert gone and all(not r.retreat_options for r in gone)
        assert {n.kind for n in movement.notes} == {engine.NoteKind.DISBANDED, engine.NoteKind.PHASE_SKIPPED}
        return
    results = list(resolution.results)
    got = []
    for power, text, _ in expected.lines:
        order = engine.parse_order(text, power=power, state=state, map=MAP)
        got.append((power, text, describe(_take(results, power, order))))
    assert got == expected.lines
    if case.phase != "MOVEMENT":
        added = [(r.order.power, added_text(r.order, case.phase), describe(r)) for r in results]
        assert added == expected.added


def test_every_datc_case_and_order_has_its_result() -> None:
    """All 165 cases, in the cases file's order, each with every one of its orders."""
    assert [e.case_id for e in EXPECTED] == [c.id for c in MAIN]
    assert len(EXPECTED) == 165
    for e in EXPECTED:
        assert [(p, t) for p, t, _ in e.lines] == list(CASES[e.case_id].orders)


def test_every_movement_result_has_an_explanation() -> None:
    """ARCHITECTURE §8: the resolution of every DATC case carries an explanation per result."""
    for case in MAIN:
        _, resolution, movement = play(case)
        for r in (*(resolution.results if resolution else ()), *(movement.results if movement else ())):
            assert r.explanation is not None and r.explanation.text, (case.id, r.order)
