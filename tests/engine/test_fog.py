"""Fog of war's rule (engine/fog.py; issue 35 item 3; docs/variants.md "Fog of war"), as properties
over any position of the classical board (tests/engine/strategies.py).

The rule in words: a power sees the provinces of its units (dislodged ones too) and of its
centres, and every province adjacent to one of them; of the position it sees exactly what
stands in those provinces; an observer sees nothing.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.fog import seen_position, sources_of_sight, visible_provinces
from engine.maps import load_map
from engine.types import GameState, Location, Ownership, Unit, UnitKind
from tests.engine.strategies import CLASSICAL, POWERS, states

powers = st.sampled_from(POWERS)


def _edges_of(province: str) -> set[str]:
    """The provinces one edge away, read from the map's edges directly (either kind, any coast)."""
    near = set(CLASSICAL.army_adjacent.get(province, ()))
    for src, dests in CLASSICAL.fleet_adjacent.items():
        if src.province == province:
            near.update(d.province for d in dests)
    return near


@settings(max_examples=150, deadline=None)
@given(states(), powers)
def test_a_power_sees_its_own_provinces_and_their_neighbours_only(state: GameState, power: str) -> None:
    """Issue 35 item 3: "in or adjacent to its own units and supply centres"."""
    sources = {u.province for u in state.units if u.power == power}
    sources |= {d.unit.province for d in state.dislodged if d.unit.power == power}
    sources |= {p for p, owner in state.ownership.items() if owner == power}
    expected = set(sources)
    for province in sources:
        expected |= _edges_of(province)
    assert sources_of_sight(state, power) == sources
    assert visible_provinces(state, CLASSICAL, power) == expected


@settings(max_examples=150, deadline=None)
@given(states(), states(), powers)
def test_what_a_power_sees_depends_only_on_what_stands_where_it_sees(
    state: GameState, other: GameState, power: str
) -> None:
    """Replace everything of other powers outside the seen provinces with anything at all: the
    power sees the same provinces and the same position (no leak from the fog, by construction)."""
    seen = visible_provinces(state, CLASSICAL, power)
    inside = {u for u in state.units if u.province in seen or u.power == power}
    outside = {u for u in other.units if u.province not in seen and u.power != power
               and u.province not in {i.province for i in inside}}
    owners = {p: o for p, o in state.ownership.items() if p in seen or o == power}
    owners |= {p: o for p, o in other.ownership.items() if p not in seen and o != power and p not in owners}
    dislodged = tuple(d for d in state.dislodged if d.unit.province in seen or d.unit.power == power)
    dislodged += tuple(d for d in other.dislodged if d.unit.province not in seen and d.unit.power != power
                       and d.unit.province not in {x.unit.province for x in dislodged})
    changed = replace(state, units=frozenset(inside | outside), ownership=Ownership(owners),
                      dislodged=dislodged, contested=frozenset(p for p in state.contested if p in seen)
                      | frozenset(p for p in other.contested if p not in seen))
    assert visible_provinces(changed, CLASSICAL, power) == seen
    assert seen_position(changed, seen) == seen_position(state, seen)


@settings(max_examples=100, deadline=None)
@given(states(), powers)
def test_the_seen_position_keeps_the_power_s_own_and_only_seen_things(state: GameState, power: str) -> None:
    seen = visible_provinces(state, CLASSICAL, power)
    position = seen_position(state, seen)
    assert {u for u in state.units if u.power == power} <= position.units
    assert all(u.province in seen for u in position.units)
    assert set(position.ownership) <= seen and position.contested <= seen
    assert all(r.province in seen for d in position.dislodged for r in d.retreats)
    assert all(d.attacker_origin in (None, *seen) for d in position.dislodged)
    assert (position.year, position.season, position.phase_type) == (
        state.year, state.season, state.phase_type)


@settings(max_examples=50, deadline=None)
@given(states())
def test_an_observer_sees_nothing_and_everything_seen_is_the_whole_position(state: GameState) -> None:
    """docs/variants.md: observers of a fog game see nothing until it ends."""
    assert visible_provinces(state, CLASSICAL, None) == frozenset()
    nothing = seen_position(state, frozenset())
    assert not nothing.units and not nothing.ownership and not nothing.dislodged
    everything = frozenset(CLASSICAL.provinces)
    assert seen_position(state, everything) == state


def test_england_at_the_start_sees_its_home_waters_and_no_foreign_unit() -> None:
    """A worked example for the docs: the opening position, England."""
    board = load_map("classical")
    from engine import initial_state

    start = initial_state(board)
    seen = visible_provinces(start, board, "ENGLAND")
    assert seen == {"CLY", "EDI", "ENG", "IRI", "LON", "LVP", "NAO", "NTH", "NWG", "WAL", "YOR"}
    assert {u.power for u in seen_position(start, seen).units} == {"ENGLAND"}
    # a fleet one step off a coast sees that coast's other neighbours too (any coast's edge)
    stp = replace(start, units=frozenset({Unit(UnitKind.FLEET, "RUSSIA", Location("STP", "SC"))}),
                  ownership=Ownership({}))
    assert {"BAR", "BOT", "FIN", "LVN", "MOS", "NWY"} <= visible_provinces(stp, board, "RUSSIA")
