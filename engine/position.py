"""The per-request context: one position on its map, and what its checks share.

Built once per adjudication, per menu request or per ``validate`` call, and dropped
after it. It answers the convoy questions the orders of a position ask (is there a
chain of fleets from here to there, which fleets are its necessary links) once each,
through the map's memo of convoy answers. It is not part of the ``GameState`` value
and is never stored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import convoys
from engine.maps.loader import MapData
from engine.types import GameState, Unit
from engine.values import shared


class Position:
    __slots__ = ("state", "map", "units", "fleets", "_reach", "_landings", "_links")

    def __init__(self, state: GameState, game_map: MapData) -> None:
        self.state = state
        self.map = game_map
        self.units: dict[str, Unit] = state.units_by_province
        self.fleets: frozenset[str] = state.fleet_provinces  # the convoy graph of this position
        # This request's answers by army province (and destination): a menu asks the same
        # question hundreds of times, and a str key is found faster than the map's memo key.
        self._reach: dict[str, frozenset[str]] = {}
        self._landings: dict[str, frozenset[str]] = {}
        self._links: dict[tuple[str, str], frozenset[str]] = {}

    def convoy_reach(self, src: str) -> frozenset[str]:
        """The fleets a convoy of an army in ``src`` could pass through."""
        known = self._reach.get(src)
        if known is None:
            known = self._reach[src] = self._answer(
                ("reach", src), self.fleets, convoys.reach, self.map, src, self.fleets)
        return known

    def convoy_destinations(self, src: str) -> frozenset[str]:
        known = self._landings.get(src)
        if known is None:
            reached = self.convoy_reach(src)
            known = self._landings[src] = self._answer(
                ("landings", src), reached, convoys.landings, self.map, src, reached)
        return known

    def convoy_possible(self, src: str, dest: str) -> bool:
        return dest in self.convoy_destinations(src)

    def necessary_links(self, src: str, dest: str) -> frozenset[str]:
        known = self._links.get((src, dest))
        if known is None:
            reached = self.convoy_reach(src)
            known = self._links[src, dest] = self._answer(
                ("links", src, dest), reached, convoys.necessary_links, self.map, src, dest, reached)
        return known

    def _answer(
        self, question: tuple[str, ...], fleets: frozenset[str], work: Callable[..., frozenset[str]],
        *args: Any,
    ) -> frozenset[str]:
        """A convoy answer depends on the map, the question and the fleets it can use
        only: worked out once and shared by every position with those fleets there (order
        entry, menus and the adjudicator ask the same questions of one phase). The reach
        depends on every fleet on the board; what follows from it (landings, necessary
        links) only on the fleets the reach found, since a chain passes through no other
        (engine/convoys.py): keyed so, a later phase whose other fleets have moved shares it."""
        return shared(self.map.convoy_answers, (question, fleets), CONVOY_MEMO_SIZE, work, *args)


CONVOY_MEMO_SIZE = 20_000
