"""engine/convoys.py and the per-request answers of engine/position.py.

``Position`` shares a convoy answer between positions by the fleets it depends on: the
reach by every fleet on the board, the landings and the necessary links by the fleets the
reach found (a chain passes through no other fleet; engine/convoys.py). These properties
are what makes that key enough: an answer worked out with only the reach's fleets is the
answer worked out with the whole board's, on any board (DATC 6.F–6.G exercise the answers
themselves)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import engine
from engine import convoys
from engine.position import Position
from engine.types import GameState, Location, PhaseType, Season, Unit, UnitKind

CLASSICAL = engine.load_map("classical")
NODES = sorted(p for p in CLASSICAL.provinces if CLASSICAL.is_convoy_node(p))
SHORES = sorted(CLASSICAL.convoy_shores)
boards = st.frozensets(st.sampled_from(NODES), max_size=len(NODES))


@given(boards, st.sampled_from(SHORES), st.sampled_from(SHORES))
def test_what_follows_from_the_reach_depends_on_the_reach_s_fleets_only(
        fleets: frozenset[str], src: str, dest: str) -> None:
    reached = convoys.reach(CLASSICAL, src, fleets)
    assert reached <= fleets
    assert convoys.landings(CLASSICAL, src, reached) == convoys.destinations(CLASSICAL, src, fleets)
    assert convoys.necessary_links(CLASSICAL, src, dest, reached) == convoys.necessary_links(
        CLASSICAL, src, dest, fleets)
    assert convoys.last_links(CLASSICAL, src, dest, reached) == convoys.last_links(
        CLASSICAL, src, dest, fleets)


def _position(*fleets: str) -> Position:
    units = {Unit(UnitKind.ARMY, "ENGLAND", Location("LON"))} | {
        Unit(UnitKind.FLEET, "ENGLAND", Location(f)) for f in fleets}
    state = GameState(1901, Season.SPRING, PhaseType.MOVEMENT, frozenset(units), CLASSICAL.starting_ownership)
    return Position(state, CLASSICAL)


def test_a_fleet_out_of_reach_asks_the_memo_the_same_question() -> None:
    """F NTH convoys A LON to Norway whether or not a fleet stands in the far Aegean: the
    two positions share one answer (the same object from the map's memo), not two."""
    near, far = _position("NTH"), _position("NTH", "AEG")
    assert near.necessary_links("LON", "NWY") == frozenset({"NTH"})
    assert far.necessary_links("LON", "NWY") is near.necessary_links("LON", "NWY")
    assert far.convoy_destinations("LON") is near.convoy_destinations("LON")
    assert far.convoy_reach("LON") == near.convoy_reach("LON")  # equal, but asked of each board
