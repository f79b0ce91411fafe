"""vDiplomacy's own 1900 test cases, run as data through the public engine API.

The cases (tests/engine/variants/1900_testcases_vdiplomacy.json, a copy of
shared/maps/1900_testcases_vdiplomacy.json so the tests never read outside the
project) are vDiplomacy's Baron1900 DATC page converted to our province ids.
Each is one movement phase: every ordered unit is also the whole position,
centres are the map's starting ownership, and each order's ``expected`` is
judged by webDiplomacy's criteria:

* ``success``   the move arrived: the unit now stands in the destination;
* ``hold``      the unit is still where it was and was not dislodged (a move failed);
* ``dislodged`` the unit was dislodged.

An order marked ``legal: false`` must be refused by ``engine.validate``, come
back VOID from adjudication, and the unit holds. Seven cases have no orders in
vDiplomacy's source (only a title) and are skipped saying so.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import (
    Build,
    Convoy,
    GameState,
    Hold,
    Location,
    Move,
    Order,
    ResultCode,
    SupportHold,
    SupportMove,
    Unit,
    UnitKind,
    Waive,
)

CASES_FILE = Path(__file__).with_name("1900_testcases_vdiplomacy.json")
DATA: dict[str, Any] = json.loads(CASES_FILE.read_text(encoding="utf-8"))
MAP = engine.load_map("1900")
NO_ORDERS = "no orders in vDiplomacy's source; title only"

# Where our legality check deliberately differs from vDiplomacy's (docs/variants.md,
# "Where we differ"). A fleet that is only ever a detour of a convoy route (every
# route through it has a shortcut) is not convoying anything, so its convoy order is
# illegal (the engine's reading of DATC 6.G.19 / 2023 rules, shared with Classical).
# vDiplomacy accepts any convoy order on some path. F GIB convoying A SPA: SPA
# itself borders both of GIB's seas (MAO, WES). The unit holds either way, so the
# case's ``expected`` outcomes are still checked unchanged.
LEGALITY_DIFFERS = {
    ("X.S1", "GIB"): "detour convoy (SPA borders MAO and WES): NO_CONVOY_ROUTE",
    ("X.S2", "GIB"): "detour convoy (SPA borders MAO and WES): NO_CONVOY_ROUTE",
}


def _kind(line: dict[str, Any]) -> UnitKind:
    return UnitKind.ARMY if line["unit"] == "army" else UnitKind.FLEET


def _order(line: dict[str, Any]) -> Order:
    """The order object the line describes, built from its fields (no text parsing)."""
    power, at, kind = line["power"], Location.parse(line["at"]), _kind(line)
    what = line["order"]
    if what == "hold":
        return Hold(power, at, kind)
    if what == "move":
        return Move(power, at, Location.parse(line["to"]), bool(line["via_convoy"]), kind)
    if what == "support_hold":
        return SupportHold(power, at, Location.parse(line["to"]), kind)
    if what == "support_move":
        return SupportMove(power, at, Location.parse(line["from"]), Location.parse(line["to"]), kind)
    if what == "convoy":
        return Convoy(power, at, Location.parse(line["from"]), Location.parse(line["to"]), kind)
    raise AssertionError(f"unknown order kind {what!r}")


def _province(order: Order) -> str:
    """Where the unit ``order`` commands stands: a movement phase orders units only."""
    assert not isinstance(order, Build | Waive), order
    return order.unit.province


def _position(case: dict[str, Any]) -> GameState:
    units = frozenset(Unit(_kind(o), o["power"], Location.parse(o["at"])) for o in case["orders"])
    return GameState(
        MAP.start_year, engine.Season.SPRING, engine.PhaseType.MOVEMENT, units, MAP.starting_ownership
    )


def _params() -> list[Any]:
    out = []
    for case in DATA["cases"]:
        marks = [pytest.mark.skip(reason=NO_ORDERS)] if not case["orders"] else []
        out.append(pytest.param(case, id=f"{case['id']} {case['title']}", marks=marks))
    return out


def test_the_copy_holds_all_34_cases_27_with_orders() -> None:
    """The copy in the repo is the whole converted set, not a subset."""
    assert len(DATA["cases"]) == 34
    assert sum(1 for c in DATA["cases"] if c["orders"]) == 27
    assert DATA["map_id"] == "1900"


@pytest.mark.parametrize("case", _params())
def test_vdiplomacy_1900_case(case: dict[str, Any]) -> None:
    state = _position(case)
    lines = case["orders"]
    orders = [_order(line) for line in lines]
    legal = [
        line["legal"] and (case["id"], Location.parse(line["at"]).province) not in LEGALITY_DIFFERS
        for line in lines
    ]
    for line, order, ok in zip(lines, orders, legal, strict=True):
        check = engine.validate(order, state, MAP)
        assert check.ok is ok, f"{engine.format_order(order)}: legal={ok} ({check.reason})"
        if ok is not line["legal"]:
            assert check.code is engine.ErrorCode.NO_CONVOY_ROUTE

    given: dict[str, list[Order]] = {}
    for order in orders:
        given.setdefault(order.power, []).append(order)
    game, resolution = engine.Game(map=MAP, state=state).adjudicate(given)
    after = game.current

    by_unit = {_province(r.order): r for r in resolution.results}
    # from the results: a unit dislodged with nowhere to retreat is gone at once
    dislodged = {_province(r.order) for r in resolution.results if r.dislodged}
    failures = []
    for line, order, ok in zip(lines, orders, legal, strict=True):
        unit = Unit(_kind(line), line["power"], Location.parse(line["at"]))
        result = by_unit[unit.province]
        moved = isinstance(result.order, Move) and result.result is ResultCode.OK
        if not ok and result.result is not ResultCode.VOID:
            failures.append(f"{order}: illegal but reported {result.result}")
        expected = line["expected"]
        if expected == "success":
            arrived = after.unit_at(Location.parse(line["to"]).province)
            ok = moved and arrived is not None and (arrived.power, arrived.kind) == (unit.power, unit.kind)
        elif expected == "hold":
            ok = not moved and after.unit_at(unit.province) == unit and unit.province not in dislodged
        else:
            assert expected == "dislodged"
            ok = not moved and unit.province in dislodged
        if not ok:
            failures.append(f"{engine.format_order(order)}: expected {expected}, got {result.result}")
    assert not failures, failures
