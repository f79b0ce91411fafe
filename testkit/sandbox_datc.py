"""DATC cases as ``POST /adjudicate`` requests (issue 19), for any way of sending them.

The same data and the same rules as the engine's runner (tests/engine/test_datc.py): the
position is the case's PRESTATE as the engine's JSON state, the orders are sent as written,
and the answer's next state must hold the case's POSTSTATE units and dislodged units.
Retreat cases (6.H) send the movement phase before them first, then the answer's next state
(with its retreat options) with the retreat orders: two requests, as a client would chain them.

``send(body) -> (status, answer)`` is the transport: the in-process handler or real HTTP.
Dislodged units are read from the answer's results (``dislodged``): a unit with nowhere to
retreat is disbanded at once and never stands in the next state (docs/rules.md, "Phases
nobody orders in"); when that leaves no retreat phase (6.H.15), the movement phase's answer
is the case's result. Cases played under a custom rulebook (tags ``1971`` and ``strict``:
one DATC option switched on the 2023 rulebook) are not offered by the API, which names only
the editions in GET /variants; ``api_rules`` returns None for them and the callers skip them,
saying so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import engine
from testkit.datc import RULES_FOR_TAG, Case, UnitLine

Send = Callable[[dict[str, Any]], tuple[int, Any]]
MAP = engine.load_map("classical")


def api_rules(case: Case) -> str | None:
    """The rulebook name the API is asked for, or None when the case needs a custom one."""
    rules = RULES_FOR_TAG.get(case.tag, "2023")
    return rules if isinstance(rules, str) else None


def _unit(line: UnitLine) -> dict[str, str]:
    return {"kind": line.kind, "power": line.power, "location": line.location}


def _key(unit: dict[str, Any]) -> tuple[str, str, str]:
    return unit["power"], unit["kind"], unit["location"]


def _state(case: Case, units: list[UnitLine], phase_type: str) -> dict[str, Any]:
    owners = {u.location.split("/")[0]: u.power for u in case.owners} or dict(MAP.starting_ownership)
    return {
        "year": case.year,
        "season": case.season,
        "phase_type": phase_type,
        "units": [_unit(u) for u in units],
        "ownership": owners,
    }


def _orders(lines: list[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for power, text in lines:
        out.setdefault(power, []).append(text)
    return out


def _retreat_phase_state(case: Case, rules: str, send: Send) -> dict[str, Any]:
    """Play the movement phase the case's PRESTATE_RESULTS describe; its answer's next state."""
    moved_to: dict[str, str] = {}
    for line in case.prior_results:
        words = line.order.split()
        if line.success and len(words) >= 4 and words[2] == "-":
            moved_to[words[3].upper()] = words[1].upper()
    before = [UnitLine(u.power, u.kind, moved_to.get(u.location, u.location)) for u in case.prestate]
    before += list(case.dislodged)
    body: dict[str, Any] = {
        "rules": rules,
        "state": {**_state(case, before, "MOVEMENT"), "ownership": dict(MAP.starting_ownership)},
        "orders": _orders([(r.power, r.order) for r in case.prior_results]),
    }
    status, answer = send(body)
    assert status == 200, answer
    state = answer["next"]["state"]
    assert {_key(u) for u in state["units"]} == {_key(_unit(u)) for u in case.prestate}
    assert dislodged_in(answer, body["state"]) == {_key(_unit(u)) for u in case.dislodged}
    return dict(state)


def dislodged_in(answer: dict[str, Any], before: dict[str, Any]) -> set[tuple[str, str, str]]:
    """The units of ``before`` the answer's results report dislodged."""
    results = answer["resolution"]["results"]
    hit = {r["order"].get("unit", "").split("/")[0] for r in results if r["dislodged"]}
    return {_key(u) for u in before["units"] if u["location"].split("/")[0] in hit}


def run_case_over_api(case: Case, send: Send) -> dict[str, Any]:
    """Send ``case`` to POST /adjudicate and check the next state against the DATC's; the answer."""
    rules = api_rules(case)
    assert rules is not None, f"{case.id} needs a custom rulebook"
    if case.phase == "RETREAT":
        state = _retreat_phase_state(case, rules, send)
        if state["phase_type"] != "RETREAT":  # every dislodged unit was disbanded at once
            expected = case.prestate if case.poststate is None else case.poststate
            assert {_key(u) for u in state["units"]} == {_key(_unit(u)) for u in expected}
            return {"next": {"state": state}}
    else:
        state = _state(case, case.prestate, case.phase)
    # Given
    body = {"rules": rules, "state": state, "orders": _orders(case.orders)}
    # When
    status, answer = send(body)
    # Then
    assert status == 200, answer
    after = answer["next"]["state"]
    expected = case.prestate if case.poststate is None else case.poststate
    got, want = {_key(u) for u in after["units"]}, {_key(_unit(u)) for u in expected}
    assert got == want, f"{case.id}: missing {want - got}, unexpected {got - want}"
    if case.phase == "MOVEMENT":
        assert dislodged_in(answer, state) == {_key(_unit(u)) for u in case.post_dislodged}
    assert len(answer["orders"]) == len(case.orders), "every order gets its validation answer"
    return dict(answer)
