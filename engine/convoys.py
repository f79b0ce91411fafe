"""The convoy graph, searched one way for legality, menus and adjudication alike.

A convoy carries an army from one coastal province to another through a chain of
fleets standing at convoy nodes (seas, and any coast a variant marks as one), each
fleet next to the one before over water. ``fleets`` is always the set of provinces
whose fleets may take part (only ever asked ``in``): every fleet on the board for
legality and menus, the matched convoying fleets not dislodged for adjudication.

* ``reach``: the fleets a convoy from ``src`` could pass through (a flood fill);
* ``destinations``: where such a chain could land the army;
* ``last_links``: the fleets of those chains that stand next to ``dest`` (the
  adjudicator reads the strength of the last step from them, an edge feature);
  ``route`` gives the reached fleets with them (the fleets that carry the army);
* ``necessary_links``: the fleets that are a link no route could leave out of some
  route: the fleets of the induced (chordless) chains. A fleet that is only ever a
  detour convoys nothing (DATC 6.G.19).
"""

from __future__ import annotations

from collections.abc import Container

from engine.maps.loader import MapData


def reach(game_map: MapData, src: str, fleets: Container[str]) -> frozenset[str]:
    """The fleets (at convoy nodes) joined to ``src`` through one another."""
    water = game_map.convoy_water
    frontier = [f for f in water[src] if f in fleets]
    seen = set(frontier)
    while frontier:
        for nxt in water[frontier.pop()]:
            if nxt not in seen and nxt in fleets:
                seen.add(nxt)
                frontier.append(nxt)
    return frozenset(seen)


def destinations(game_map: MapData, src: str, fleets: Container[str]) -> frozenset[str]:
    """Coastal provinces an army in ``src`` could be convoyed to by ``fleets``."""
    if src not in game_map.convoy_shores:
        return frozenset()
    return landings(game_map, src, reach(game_map, src, fleets))


def landings(game_map: MapData, src: str, reached: frozenset[str]) -> frozenset[str]:
    """Where the fleets ``reach`` found from ``src`` could land its army (``destinations``
    once the reach is known)."""
    if not reached or src not in game_map.convoy_shores:
        return frozenset()
    shores = game_map.convoy_landings
    return frozenset().union(*[shores[f] for f in reached]) - {src}


def last_links(game_map: MapData, src: str, dest: str, fleets: Container[str]) -> frozenset[str]:
    """The fleets that could make the last step of a convoy from ``src`` to ``dest``."""
    return route(game_map, src, dest, fleets)[1]


def route(
    game_map: MapData, src: str, dest: str, fleets: Container[str]
) -> tuple[frozenset[str], frozenset[str]]:
    """The fleets a convoy from ``src`` reaches, and of those the ones next to ``dest``
    (both empty when src or dest is no shore). The reached fleets carry the army when
    some of them touch ``dest``: they are one chain of fleets joined to both ends."""
    shores = game_map.convoy_shores
    if src == dest or src not in shores or dest not in shores:
        return frozenset(), frozenset()
    water = game_map.water_neighbours
    reached = reach(game_map, src, fleets)
    return reached, frozenset(f for f in reached if dest in water[f])


def necessary_links(game_map: MapData, src: str, dest: str, fleets: Container[str]) -> frozenset[str]:
    """The fleets on some induced chain from ``src`` to ``dest`` (see the module text)."""
    if not last_links(game_map, src, dest, fleets):
        return frozenset()
    water, convoy_water = game_map.water_neighbours, game_map.convoy_water
    found: set[str] = set()

    def extend(path: list[str]) -> None:
        last = path[-1]
        if len(path) > 1 and dest in water[last]:
            found.update(path[1:])
            return  # going further would leave out this fleet's own step to dest
        for nxt in convoy_water[last]:
            if nxt in fleets and nxt not in path and not any(nxt in water[p] for p in path[:-1]):
                path.append(nxt)
                extend(path)
                path.pop()

    extend([src])
    return frozenset(found)
