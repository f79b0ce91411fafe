"""Hypothesis strategies for engine values on the Classical map, for any test to reuse.

Everything drawn here is a value the types accept and the map knows (real
provinces, real coasts, armies never on a coast), but not necessarily a legal
position or a legal order: use them for notation, serialization and other
shape-level properties.

    from tests.engine.strategies import orders, states, resolutions
"""

from __future__ import annotations

from hypothesis import strategies as st

from engine.maps import load_map
from engine.reasons import REASON_CODES, Decision, Explanation, Role, Strength, StrengthKind
from engine.types import (
    Build,
    Convoy,
    Disband,
    DislodgedUnit,
    GameState,
    GameStatus,
    Hold,
    Location,
    Move,
    NoteKind,
    Order,
    OrderResult,
    Ownership,
    PhaseNote,
    PhaseType,
    Reason,
    Resolution,
    ResultCode,
    Retreat,
    Season,
    SupportHold,
    SupportMove,
    Unit,
    UnitKind,
    Waive,
)

CLASSICAL = load_map("classical")
PROVINCES: tuple[str, ...] = tuple(sorted(CLASSICAL.provinces))
SUPPLY_CENTERS: tuple[str, ...] = tuple(sorted(CLASSICAL.supply_centers))
POWERS: tuple[str, ...] = CLASSICAL.power_ids
ALL_LOCATIONS: tuple[Location, ...] = tuple(
    Location(p, c) for p in PROVINCES for c in (None, *CLASSICAL.provinces[p].coasts)
)
ARMY_LOCATIONS: tuple[Location, ...] = tuple(
    Location(p) for p in PROVINCES if not CLASSICAL.provinces[p].is_sea
)
FLEET_LOCATIONS: tuple[Location, ...] = tuple(sorted(CLASSICAL.fleet_adjacent))

powers = st.sampled_from(POWERS)
provinces = st.sampled_from(PROVINCES)
locations = st.sampled_from(ALL_LOCATIONS)
unit_kinds = st.sampled_from(list(UnitKind))
optional_kinds = st.none() | unit_kinds


@st.composite
def units(draw: st.DrawFn, power: str | None = None) -> Unit:
    """A unit standing where its kind may stand (armies on land or coast, fleets at sea or on a coast)."""
    kind = draw(unit_kinds)
    where = ARMY_LOCATIONS if kind is UnitKind.ARMY else FLEET_LOCATIONS
    return Unit(kind, power or draw(powers), draw(st.sampled_from(where)))


def _orders(power: st.SearchStrategy[str], kinds: st.SearchStrategy[UnitKind | None],
            via: st.SearchStrategy[bool]) -> st.SearchStrategy[Order]:
    return st.one_of(
        st.builds(Hold, power, locations, kinds),
        st.builds(Move, power, locations, locations, via, kinds),
        st.builds(SupportHold, power, locations, locations, kinds, kinds),
        st.builds(SupportMove, power, locations, locations, locations, kinds, kinds),
        st.builds(Convoy, power, locations, locations, locations, kinds, kinds),
        st.builds(Retreat, power, locations, locations, kinds),
        st.builds(Disband, power, locations, kinds),
        st.builds(Build, power, locations, unit_kinds),
    )


#: Every order class, any real locations, unit letters present or missing.
orders: st.SearchStrategy[Order] = _orders(powers, optional_kinds, st.booleans()) | st.builds(Waive, powers)

#: Orders the compact notation can write: unit letters present, no via-convoy, no Waive.
compact_orders: st.SearchStrategy[Order] = _orders(powers, unit_kinds, st.just(False))


@st.composite
def states(draw: st.DrawFn, *, compact: bool = False) -> GameState:
    """A GameState with at most one unit per province.

    ``compact=True`` leaves out what the compact notation does not carry (retreat
    sets, standoffs, status, winner); dislodged units are then in a retreat phase.
    """
    board = draw(st.lists(units(), max_size=20, unique_by=lambda u: u.province))
    dislodged_units = draw(st.lists(units(), max_size=4, unique_by=lambda u: u.province))
    origins = st.none() | provinces
    # one location per province: Location's ordering cannot compare a coast with None
    # (DislodgedUnit sorts its retreats), and a real retreat set never mixes them
    retreat_sets = st.lists(locations, max_size=4, unique_by=lambda loc: loc.province).map(tuple)
    retreats = st.just(()) if compact else retreat_sets
    dislodged = tuple(DislodgedUnit(u, draw(origins), draw(retreats)) for u in dislodged_units)
    ownership = Ownership(draw(st.dictionaries(st.sampled_from(SUPPLY_CENTERS), powers, max_size=34)))
    if compact:
        return GameState(
            year=draw(st.integers(1901, 2100)),
            season=draw(st.sampled_from(list(Season))),
            phase_type=PhaseType.RETREAT if dislodged else draw(st.sampled_from(list(PhaseType))),
            units=frozenset(board),
            ownership=ownership,
            dislodged=dislodged,
        )
    return GameState(
        year=draw(st.integers(1, 3000)),
        season=draw(st.sampled_from(list(Season))),
        phase_type=draw(st.sampled_from(list(PhaseType))),
        units=frozenset(board),
        ownership=ownership,
        dislodged=dislodged,
        contested=draw(st.frozensets(provinces, max_size=4)),
        status=draw(st.sampled_from(list(GameStatus))),
        winner=draw(st.none() | powers),
    )


reasons: st.SearchStrategy[Reason | None] = st.none() | st.builds(
    Reason,
    st.sampled_from(sorted(REASON_CODES.values())),
    st.lists(provinces, max_size=3, unique=True).map(lambda ps: tuple(sorted(ps))),
    st.text(max_size=30),
)

unit_lists = st.lists(provinces, max_size=3, unique=True).map(lambda ps: tuple(sorted(ps)))
strengths: st.SearchStrategy[Strength] = st.builds(
    Strength,
    st.sampled_from(list(StrengthKind)),
    provinces,
    st.integers(0, 40).map(lambda halves: halves // 2 if halves % 2 == 0 else halves / 2),
    unit_lists,
    st.lists(st.tuples(provinces, unit_lists), max_size=2).map(tuple),
    unit_lists,
)
explanations: st.SearchStrategy[Explanation | None] = st.none() | st.builds(
    Explanation,
    st.sampled_from(list(Decision)),
    st.lists(strengths, max_size=4).map(tuple),
    st.dictionaries(st.sampled_from(list(Role)), unit_lists.filter(bool), max_size=3).map(
        lambda roles: tuple(sorted(roles.items()))
    ),
    st.text(max_size=40),
)

order_results: st.SearchStrategy[OrderResult] = st.builds(
    OrderResult,
    orders,
    st.sampled_from(list(ResultCode)),
    st.booleans(),
    st.lists(locations, max_size=4, unique=True).map(tuple),
    reasons,
    explanations,
)

notes: st.SearchStrategy[PhaseNote] = st.builds(
    PhaseNote,
    st.sampled_from(list(NoteKind)),
    st.sampled_from(["S1901R", "F1905R", "W1903A"]),
    st.lists(powers, max_size=2, unique=True).map(tuple),
    st.lists(st.sampled_from(["A MUN", "F NTH"]), max_size=2, unique=True).map(tuple),
    st.text(max_size=40),
)

resolutions: st.SearchStrategy[Resolution] = st.builds(
    Resolution, st.lists(order_results, max_size=8).map(tuple), st.lists(notes, max_size=2).map(tuple)
)
