"""The per-request context: one position on its map, and what its checks share.

Built once per adjudication, per menu request or per ``validate`` call, and dropped
after it. It answers the convoy questions several orders of one position ask (is
there a chain of fleets from here to there, which fleets are its necessary links)
once each. It is not part of the ``GameState`` value and is never stored.
"""

from __future__ import annotations

from engine import convoys
from engine.maps.loader import MapData
from engine.types import GameState, Unit, UnitKind


class Position:
    __slots__ = ("state", "map", "units", "_fleets", "_reach", "_destinations", "_links")

    def __init__(self, state: GameState, game_map: MapData) -> None:
        self.state = state
        self.map = game_map
        self.units: dict[str, Unit] = state.units_by_province
        self._fleets: frozenset[str] | None = None
        self._reach: dict[str, frozenset[str]] = {}
        self._destinations: dict[str, frozenset[str]] = {}
        self._links: dict[tuple[str, str], frozenset[str]] = {}

    @property
    def fleets(self) -> frozenset[str]:
        """Where the fleets stand: the convoy graph of this position."""
        if self._fleets is None:
            self._fleets = frozenset(u.province for u in self.units.values() if u.kind is UnitKind.FLEET)
        return self._fleets

    def convoy_reach(self, src: str) -> frozenset[str]:
        """The fleets a convoy of an army in ``src`` could pass through."""
        known = self._reach.get(src)
        if known is None:
            known = self._reach[src] = convoys.reach(self.map, src, self.fleets)
        return known

    def convoy_destinations(self, src: str) -> frozenset[str]:
        known = self._destinations.get(src)
        if known is None:
            known = self._destinations[src] = convoys.landings(self.map, src, self.convoy_reach(src))
        return known

    def convoy_possible(self, src: str, dest: str) -> bool:
        return dest in self.convoy_destinations(src)

    def necessary_links(self, src: str, dest: str) -> frozenset[str]:
        known = self._links.get((src, dest))
        if known is None:
            known = self._links[(src, dest)] = convoys.necessary_links(self.map, src, dest, self.fleets)
        return known
