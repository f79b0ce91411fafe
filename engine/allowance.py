"""How many units each power may keep, and where it may build (adjustment phases).

Shared by validation, legal-order menus and adjustment resolution so the three
can never disagree. Emergency measures (a generic map rule feature) are applied
here and nowhere else: they change the allowance and the build sites for one
adjustment phase and never touch stored ownership.
"""

from __future__ import annotations

from engine.maps.loader import MapData
from engine.types import GameState


def unit_allowance(state: GameState, game_map: MapData, power: str) -> int:
    """Units ``power`` may keep: its centres, plus any active emergency-measures bonus."""
    allowance = state.center_counts.get(power, 0)
    for em in game_map.emergency_measures:
        if em.power == power and em.active(state.ownership):
            allowance += em.extra_units
    return allowance


def adjustment_balance(state: GameState, game_map: MapData, power: str) -> int:
    """Builds due (positive) or removals due (negative) for ``power``."""
    return unit_allowance(state, game_map, power) - state.unit_counts.get(power, 0)


def balances(state: GameState, game_map: MapData) -> dict[str, int]:
    return {p: adjustment_balance(state, game_map, p) for p in game_map.power_ids}


def build_sites(state: GameState, game_map: MapData, power: str) -> tuple[str, ...]:
    """Provinces where ``power`` may build now: owned, vacant home centres, plus
    emergency-measures sites while that rule is active. Sorted."""
    sites = {
        c
        for c in game_map.home_centers(power)
        if state.ownership.get(c) == power and state.unit_at(c) is None
    }
    for em in game_map.emergency_measures:
        if em.power == power and em.active(state.ownership):
            for prov in em.build_provinces:
                if not em.build_requires_unoccupied or state.unit_at(prov) is None:
                    sites.add(prov)
    return tuple(sorted(sites))


def is_build_province(game_map: MapData, state: GameState, power: str, province: str) -> bool:
    """Is ``province`` one of the power's build provinces at all (occupied or not)?"""
    if province in game_map.home_centers(power):
        return True
    return any(
        em.power == power and em.active(state.ownership) and province in em.build_provinces
        for em in game_map.emergency_measures
    )
