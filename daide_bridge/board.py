"""The MDF (map definition) of the standard map, read from Convoy's engine map data.

``MDF (powers) (provinces) (adjacencies)`` as "DAIDE Message Syntax" defines it: the
powers; the supply centres grouped by the power whose home they are (``UNO`` for the
rest) and then the other provinces; and per province its army neighbours ``(AMY ...)``
and, for each coast a fleet may stand on, ``(FLT ...)`` or ``((FLT NCS) ...)``. The map
is the engine's (a pure library, no I/O): the bridge speaks to the Convoy *server* only
through its REST API, but reads the rules' map data as any bot may.
"""

from __future__ import annotations

from functools import cache

import engine
from daide_bridge.grammar import TO_DAIDE_COAST, TO_DAIDE_POWER, daide_location, daide_province
from daide_bridge.messages import Message, Node
from daide_bridge.tokens import POWERS


def _fleet_key(province: str, coast: str | None) -> Node:
    return ("FLT", TO_DAIDE_COAST[coast]) if coast else "FLT"


@cache
def map_definition(variant: str = "classical") -> Message:
    the_map = engine.load_map(variant)
    homes = {
        TO_DAIDE_POWER[p]: sorted(daide_province(c) for c in the_map.home_centers(p))
        for p in the_map.power_ids
    }
    homed = {c for centres in homes.values() for c in centres}
    unowned = sorted(daide_province(c) for c in the_map.supply_centers if daide_province(c) not in homed)
    centres: list[Node] = [(p, *homes[p]) for p in POWERS]
    centres.append(("UNO", *unowned))
    others = sorted(daide_province(p) for p in the_map.provinces if p not in the_map.supply_centers)
    adjacencies: list[Node] = []
    for province in sorted(the_map.provinces, key=daide_province):
        entry: list[Node] = [daide_province(province)]
        if province in the_map.army_provinces:
            entry.append(("AMY", *sorted(daide_province(p) for p in the_map.army_adjacent[province])))
        for where in sorted(loc for loc in the_map.fleet_adjacent if loc.province == province):
            near = sorted((daide_location(str(loc)) for loc in the_map.fleet_adjacent[where]), key=str)
            entry.append((_fleet_key(province, where.coast), *near))
        adjacencies.append(tuple(entry))
    return ("MDF", tuple(POWERS), (tuple(centres), tuple(others)), tuple(adjacencies))


@cache
def fits_standard(variant: str) -> bool:
    """Can a game of ``variant`` be played over DAIDE as ``MAP ('STANDARD')``?

    DAIDE's standard tokens name the classical map's seven powers and 75 provinces; the bridge
    sends no variant tokens (RM), so a game fits when its map has exactly the classical
    powers, provinces, coasts and adjacencies. Its starting position may differ (Fleet Rome):
    bots read positions from NOW and SCO, never from the map definition. Every other packaged
    variant (1900, Chaos' 34 powers, Pure, Ancient Mediterranean, Hundred, Modern, World,
    Youngstown Redux) names provinces or powers DAIDE's standard tokens do not have.
    """
    try:
        board = engine.load_map(variant)
    except KeyError:
        return False
    standard = engine.load_map("classical")
    return (board.power_ids == standard.power_ids and board.army_adjacent == standard.army_adjacent
            and board.fleet_adjacent == standard.fleet_adjacent)
