"""The per-request context: one position on its map, and what its checks share.

Built once per adjudication, per menu request or per ``validate`` call, and dropped
after it. It answers the convoy questions the orders of a position ask (is there a
chain of fleets from here to there, which fleets are its necessary links) through one
bounded memo of convoy answers (``_answer``). It is not part of the ``GameState`` value
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
    __slots__ = ("state", "map", "units", "fleets")

    def __init__(self, state: GameState, game_map: MapData) -> None:
        self.state = state
        self.map = game_map
        self.units: dict[str, Unit] = state.units_by_province
        self.fleets: frozenset[str] = state.fleet_provinces  # the convoy graph of this position

    def convoy_reach(self, src: str) -> frozenset[str]:
        """The fleets a convoy of an army in ``src`` could pass through."""
        return _answer(self.map, ("reach", src), self.fleets, convoys.reach, src, self.fleets)

    def convoy_destinations(self, src: str) -> frozenset[str]:
        reached = self.convoy_reach(src)
        return _answer(self.map, ("landings", src), reached, convoys.landings, src, reached)

    def convoy_possible(self, src: str, dest: str) -> bool:
        return dest in self.convoy_destinations(src)

    def necessary_links(self, src: str, dest: str) -> frozenset[str]:
        reached = self.convoy_reach(src)
        return _answer(self.map, ("links", src, dest), reached, convoys.necessary_links, src, dest, reached)


def _answer(
    game_map: MapData, question: tuple[str, ...], fleets: frozenset[str],
    work: Callable[..., frozenset[str]], *args: Any,
) -> frozenset[str]:
    """A convoy answer depends on the map, the question and the fleets it can use only:
    worked out once and shared by every position with those fleets there (order entry,
    menus and the adjudicator ask the same questions of one phase, and the menus ask each
    many times). The reach depends on every fleet on the board; what follows from it
    (landings, necessary links) only on the fleets the reach found, since a chain passes
    through no other (engine/convoys.py): keyed so, a later phase whose other fleets have
    moved shares it. It saves about a quarter of the menus (docs/performance.md)."""
    return shared(_CONVOY_ANSWERS, (game_map, question, fleets), CONVOY_MEMO_SIZE, work, game_map, *args)


CONVOY_MEMO_SIZE = 20_000
# By (map, question, fleets); a map is keyed by identity (``MapData`` compares so).
_CONVOY_ANSWERS: dict[tuple[MapData, tuple[str, ...], frozenset[str]], frozenset[str]] = {}
