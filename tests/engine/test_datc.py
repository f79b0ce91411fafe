"""DATC v3.0 chapter 6, run as data through the public engine API.

Every CASE block of tests/engine/datc/datc_v3.0_cases.txt (the DATC v3.0
preferences, i.e. the 2023 rulebook) and of datc_extra_and_alternative_cases.txt
(alternative rule options and jDip's extra cases) is one parametrized test:
set up the position, parse the orders with ``engine.parse_order``, adjudicate
with ``engine.Game``, and compare positions and dislodged units as sets.

Retreat-phase cases (6.H) are played from the movement phase before them: the
position is rebuilt from PRESTATE_RESULTS, adjudicated, checked against the
stated PRESTATE/PRESTATE_DISLODGED, and then the retreats are adjudicated.

Dislodged units are read from the resolution (``OrderResult.dislodged``): a unit with
nowhere to retreat is disbanded at once and never stands in a retreat phase
(docs/rules.md, "Phases nobody orders in"), but the DATC lists it as dislodged.
When every dislodged unit of a 6.H case is such a unit, there is no retreat phase to
adjudicate: the position after the movement phase is the case's result.
"""

from __future__ import annotations

import pytest

import engine
from engine import GameState, Location, Unit, UnitKind
from testkit.datc import EXTRA, MAIN, RULES_FOR_TAG, Case, UnitLine

MAP = engine.load_map("classical")

def _unit(line: UnitLine) -> Unit:
    kind = UnitKind(line.kind)
    return Unit(kind, line.power, Location.parse(line.location))


def _units(lines: list[UnitLine]) -> set[Unit]:
    return {_unit(line) for line in lines}


def _phase(case: Case) -> tuple[engine.Season, engine.PhaseType]:
    season = engine.Season[case.season]
    phase = {"MOVEMENT": engine.PhaseType.MOVEMENT, "RETREAT": engine.PhaseType.RETREAT,
             "ADJUSTMENT": engine.PhaseType.ADJUSTMENT}[case.phase]
    return season, phase


def _orders(state: GameState, lines: list[tuple[str, str]]) -> dict[str, list[engine.Order]]:
    """Parse every order as written; an order the grammar rejects is simply not given."""
    out: dict[str, list[engine.Order]] = {}
    for power, text in lines:
        try:
            order = engine.parse_order(text, power=power, state=state, map=MAP)
        except engine.OrderSyntaxError:
            continue
        out.setdefault(power, []).append(order)
    return out


def _movement_state(case: Case) -> GameState:
    season, phase = _phase(case)
    owners = {u.location.split("/")[0]: u.power for u in case.owners} or dict(MAP.starting_ownership)
    return GameState(case.year, season, phase, frozenset(_units(case.prestate)),
                     engine.Ownership(owners))


def _replay_movement_before_retreats(case: Case, game_rules: str | engine.Rulebook) -> GameState:
    """Rebuild the position before the movement phase whose results are given, play it,
    and check it yields the case's stated retreat-phase position."""
    return replay_movement(case, game_rules)[0]


def replay_movement(
    case: Case, game_rules: str | engine.Rulebook
) -> tuple[GameState, GameState, engine.Resolution]:
    """``_replay_movement_before_retreats``' position after the movement phase, with the
    position before it and that phase's resolution."""
    moved_to: dict[str, str] = {}
    for line in case.prior_results:
        words = line.order.split()
        if line.success and len(words) >= 4 and words[2] == "-":
            moved_to[words[3].upper()] = words[1].upper()
    before = [
        UnitLine(u.power, u.kind, moved_to.get(u.location, u.location)) for u in case.prestate
    ] + list(case.dislodged)
    season, _ = _phase(case)
    state = GameState(case.year, season, engine.PhaseType.MOVEMENT, frozenset(_units(before)),
                      engine.Ownership(MAP.starting_ownership))
    orders = _orders(state, [(r.power, r.order) for r in case.prior_results])
    game, resolution = engine.Game(map=MAP, state=state, rules=game_rules).adjudicate(orders)
    assert game.state is not None
    assert set(game.state.units) == _units(case.prestate), "replayed movement phase differs"
    assert dislodged_units(state, resolution) == _units(case.dislodged)
    return game.state, state, resolution


def dislodged_units(before: GameState, resolution: engine.Resolution) -> set[Unit]:
    """The units the resolution reports dislodged (with or without somewhere to retreat)."""
    out = set()
    for result in resolution.results:
        location = getattr(result.order, "unit", None)
        unit = before.unit_at(location.province) if isinstance(location, Location) else None
        if result.dislodged and unit is not None:
            out.add(unit)
    return out


def run_case(case: Case) -> None:
    rules = RULES_FOR_TAG.get(case.tag, "2023")
    if case.phase == "RETREAT":
        state = _replay_movement_before_retreats(case, rules)
        if state.phase_type is not engine.PhaseType.RETREAT:  # nobody could retreat: no phase
            assert set(state.units) == _units(case.poststate or case.prestate)
            return
    else:
        state = _movement_state(case)
    # Given
    orders = _orders(state, case.orders)
    # When
    game, resolution = engine.Game(map=MAP, state=state, rules=rules).adjudicate(orders)
    # Then
    after = game.state
    assert after is not None
    expected = _units(case.prestate) if case.poststate is None else _units(case.poststate)
    got = set(after.units)
    assert got == expected, f"missing {expected - got}, unexpected {got - expected}"
    if case.phase == "MOVEMENT":
        assert dislodged_units(state, resolution) == _units(case.post_dislodged)
        assert {d.unit for d in after.dislodged} <= _units(case.post_dislodged)
    assert len(resolution.results) >= len([o for os in orders.values() for o in os])


def _params(cases: list[Case]) -> list[object]:
    return [pytest.param(case, id=case.id) for case in cases]


@pytest.mark.parametrize("case", _params(MAIN))
def test_datc_v3(case: Case) -> None:
    """DATC v3.0 §6 (preferred options, 2023 rulebook): case id in the test id."""
    run_case(case)


@pytest.mark.parametrize("case", _params(EXTRA))
def test_datc_alternatives_and_extras(case: Case) -> None:
    """Alternative rule options (@tag, OPTIONS.md) and jDip's extra cases."""
    run_case(case)


def test_every_datc_case_is_read() -> None:
    """The data file holds 165 CASE blocks for 164 DATC cases (6.J.9 has two scenarios)."""
    assert len(MAIN) == 165
    assert len({c.id for c in MAIN}) == 165
