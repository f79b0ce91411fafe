"""A scripted classical year that uses every order kind and every result colour.

Fall 1901 movement (moves, a convoy, supports to hold and to move, a cut support, a void
support, a failed convoy, two standoffs, a dislodgement), its retreat phase (a retreat and a
disband), and a winter of builds, a removal and a waived build. Played by the engine itself, so
every result shown is the adjudicator's. Used by the golden-file test, bench/render_bench.py and
the pictures in docs/img/ (render/tools/make_pictures.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import engine
from engine import GameState, MapData, OrderResult, Ownership, PhaseType, Season, Unit, UnitKind
from engine.types import Location


@dataclass(frozen=True)
class Played:
    """One phase: the state it was played from, and the adjudicated results."""

    state: GameState
    results: tuple[OrderResult, ...]


FALL_UNITS = {
    "ENGLAND": ["F NTH", "F NWG", "A YOR"],
    "FRANCE": ["A BUR", "A GAS", "F MAO", "A PAR"],
    "GERMANY": ["A MUN", "A RUH", "F DEN", "A KIE"],
    "ITALY": ["A VEN", "A TYR", "F ION", "A APU"],
    "AUSTRIA": ["A VIE", "A SER", "F ALB", "A GAL"],
    "RUSSIA": ["A WAR", "F SEV", "A UKR", "F BOT"],
    "TURKEY": ["F BLA", "A BUL", "A ARM"],
}

FALL_ORDERS = {
    "ENGLAND": ["F NWG - NWY", "F NTH C A YOR - BEL", "A YOR - BEL VIA"],
    "FRANCE": ["A BUR H", "A GAS - SPA", "F MAO - POR", "A PAR - GAS"],
    "GERMANY": ["A RUH - BUR", "A MUN S A RUH - BUR", "F DEN - SWE", "A KIE - HOL"],
    "ITALY": ["A TYR - BOH", "F ION H", "A APU - GRE VIA", "A VEN H"],
    "AUSTRIA": ["A VIE S A GAL", "A GAL H", "F ALB - GRE", "A SER - TRI"],
    "RUSSIA": ["A WAR - GAL", "F SEV S A UKR - RUM", "A UKR - RUM", "F BOT - SWE"],
    "TURKEY": ["F BLA S A BUL", "A BUL - RUM", "A ARM - SEV"],
}

RETREAT_ORDERS = {"FRANCE": ["A BUR R PIC"]}

WINTER_UNITS = {
    "ENGLAND": ["F NWY", "F NTH", "A BEL"],
    "FRANCE": ["A PIC", "A SPA", "F POR", "A PAR", "A MAR"],
    "GERMANY": ["A BUR", "A MUN", "F DEN", "A HOL"],
    "ITALY": ["A VEN", "A BOH", "F ION", "A APU"],
    "AUSTRIA": ["A VIE", "A TRI", "F GRE", "A GAL"],
    "RUSSIA": ["A WAR", "F SEV", "A UKR", "F BOT"],
    "TURKEY": ["F BLA", "A BUL", "A ARM"],
}
WINTER_OWNERS = {
    "ENGLAND": ["LON", "EDI", "LVP", "NWY", "BEL"],
    "FRANCE": ["BRE", "PAR", "SPA", "POR"],
    "GERMANY": ["BER", "KIE", "MUN", "DEN", "HOL"],
    "ITALY": ["ROM", "NAP", "VEN"],
    "AUSTRIA": ["VIE", "BUD", "TRI", "GRE", "SER"],
    "RUSSIA": ["MOS", "SEV", "STP", "WAR", "SWE"],
    "TURKEY": ["ANK", "CON", "SMY", "BUL", "RUM", "MAR"],
}
WINTER_ORDERS = {
    "ENGLAND": ["BUILD F LON", "BUILD A LVP"],
    "FRANCE": ["A MAR D"],
    "GERMANY": ["BUILD A BER"],
    "ITALY": ["A BOH D"],
    "AUSTRIA": ["BUILD A BUD"],
    "RUSSIA": ["BUILD A MOS"],
    "TURKEY": ["BUILD F SMY", "WAIVE"],
}


def _units(spec: dict[str, list[str]]) -> frozenset[Unit]:
    return frozenset(
        Unit(UnitKind(text[0]), power, Location.parse(text[2:]))
        for power, texts in spec.items()
        for text in texts
    )


def _play(board: MapData, state: GameState, orders: dict[str, list[str]]) -> tuple[Played, GameState]:
    parsed = {
        p: [engine.parse_order(t, power=p, state=state, map=board) for t in ts] for p, ts in orders.items()
    }
    game, resolution = engine.Game(map=board, state=state).adjudicate(parsed)
    return Played(state, resolution.results), game.current


def showcase_year() -> tuple[Played, Played, Played]:
    """Fall 1901 movement, its retreats, and a winter of adjustments (classical)."""
    board = engine.load_map("classical")
    fall = GameState(
        1901, Season.FALL, PhaseType.MOVEMENT, units=_units(FALL_UNITS), ownership=board.starting_ownership
    )
    movement, retreat_state = _play(board, fall, FALL_ORDERS)
    retreat, _ = _play(board, retreat_state, RETREAT_ORDERS)
    owners = Ownership({sc: power for power, scs in WINTER_OWNERS.items() for sc in scs})
    winter = GameState(
        1901, Season.WINTER, PhaseType.ADJUSTMENT, units=_units(WINTER_UNITS), ownership=owners
    )
    adjustment, _ = _play(board, winter, WINTER_ORDERS)
    return movement, retreat, adjustment
