"""Fog of war (issue 35 item 3): what one power can see of a position, as a set of provinces.

The rule (docs/variants.md "Fog of war"), pure and the only place it is written:

* a power sees every province where it has a unit (a dislodged unit in a retreat phase
  included) or owns a supply centre, and every province adjacent to one of those by any
  edge (army or fleet, any coast);
* in a seen province it sees everything: the unit there, the centre's owner, a standoff, a
  dislodged unit and where that unit may retreat to;
* an order or a result is seen only when every province it names is seen (a support of a
  unit in the fog would show that unit) - except the power's own orders, which it wrote;
* an observer (no power) sees nothing; once the game has ended everything is public (the
  callers decide when that is: functions/usecases/players/fog_of_war.py).

Each power's number of centres stays public: builds and disbands, the victory condition and
the draw all turn on it, and every fog server shows it (vDiplomacy's "Fog of war" shows the
counts beside the board).

Why provinces and not units: the whole redaction (views, history, maps, events, mail) then
asks one question, "is this province seen?", and a property test can state the rule in a
line: what is seen of a position depends only on what stands in the seen provinces.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.maps.loader import MapData
from engine.types import GameState, Ownership

__all__ = ["neighbourhood", "seen_position", "sources_of_sight", "visible_provinces"]


def sources_of_sight(state: GameState, power: str) -> frozenset[str]:
    """The provinces ``power`` sees from: its units (dislodged ones too) and its centres."""
    own = {u.province for u in state.units if u.power == power}
    own.update(d.unit.province for d in state.dislodged if d.unit.power == power)
    own.update(p for p, owner in state.ownership.items() if owner == power)
    return frozenset(own)


def neighbourhood(board: MapData, provinces: Iterable[str]) -> frozenset[str]:
    """``provinces`` and every province adjacent to one of them by an army or a fleet edge
    (a fleet edge from any of a province's coasts)."""
    sources = frozenset(provinces)
    seen = set(sources)
    for province in sources:
        seen.update(board.army_adjacent.get(province, ()))
    for src, dests in board.fleet_adjacent.items():
        if src.province in sources:
            seen.update(d.province for d in dests)
    return frozenset(seen)


def visible_provinces(state: GameState, board: MapData, power: str | None) -> frozenset[str]:
    """What ``power`` sees of ``state`` (nothing for ``None``, an observer)."""
    if power is None:
        return frozenset()
    return neighbourhood(board, sources_of_sight(state, power))


def seen_position(state: GameState, seen: frozenset[str]) -> GameState:
    """``state`` with only what stands in ``seen``: units, centres' owners, dislodged units
    (their retreat options cut to ``seen``) and standoffs. Phase, status and winner stay.

    This is the position a fogged power orders against: its menu, its order checks and its
    what-if previews read nothing from the fog."""
    return GameState(
        year=state.year,
        season=state.season,
        phase_type=state.phase_type,
        units=frozenset(u for u in state.units if u.province in seen),
        ownership=Ownership({p: o for p, o in state.ownership.items() if p in seen}),
        dislodged=tuple(
            type(d)(unit=d.unit, attacker_origin=d.attacker_origin if d.attacker_origin in seen else None,
                    retreats=tuple(r for r in d.retreats if r.province in seen))
            for d in state.dislodged if d.unit.province in seen
        ),
        contested=frozenset(p for p in state.contested if p in seen),
        status=state.status,
        winner=state.winner,
    )
