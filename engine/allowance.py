"""How many units each power may keep, and where it may build (adjustment phases).

Shared by validation, legal-order menus and adjustment resolution so the three
can never disagree. Emergency measures (a generic map rule feature) are applied
here and nowhere else: they change the allowance and the build sites for one
adjustment phase and never touch stored ownership.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.maps.loader import ANY_OWNED_CENTER, MapData
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
    """Provinces where ``power`` may build now, sorted: its build provinces (``_build_provinces``)
    that are vacant and, if a supply centre, owned by it.

    The one build-site rule of the engine: validation, legal menus, adjustment resolution and
    the phase sequence (is there any build to make this winter?) all ask this function.
    """
    owned = state.ownership
    return tuple(sorted(
        prov
        for prov, needs_vacancy in _build_provinces(state, game_map, power).items()
        if (not needs_vacancy or state.unit_at(prov) is None)
        and (prov not in game_map.supply_centers or owned.get(prov) == power)
    ))


def is_build_province(game_map: MapData, state: GameState, power: str, province: str) -> bool:
    """Is ``province`` one of the power's build provinces at all (occupied or not)?"""
    return province in _build_provinces(state, game_map, power)


def _build_provinces(state: GameState, game_map: MapData, power: str) -> dict[str, bool]:
    """Where ``power`` may build in principle, each with whether the site must be vacant.

    ``rules.build_sites`` picks the centres: the power's home centres (the standard rule) or
    every supply centre (``any_owned_center``: Chaos, Modern, Hundred; ``build_sites`` keeps
    the owned ones, so validation can say NOT_OWNED of a centre someone else holds).
    Emergency-measures provinces are added while that rule is active (1900's Siberia).
    """
    if game_map.build_sites_rule == ANY_OWNED_CENTER:
        centres: Iterable[str] = game_map.supply_centers
    else:
        centres = game_map.home_centers(power)
    sites = dict.fromkeys(centres, True)
    for em in game_map.emergency_measures:
        if em.power == power and em.active(state.ownership):
            for prov in em.build_provinces:
                sites.setdefault(prov, em.build_requires_unoccupied)
    return sites
