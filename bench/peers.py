"""The two peer engines the benchmark times beside Convoy: pydip 0.1.8 and MILA 1.1.2.

Both are optional (the ``bench`` extra) and never imported by the engine or the tests.
Each adapter splits its work the way a server would: what can be prepared once per
process (the peer's map; a table from our location names to the peer's territory
names; one reused MILA ``Game``) is done outside the clock; what a server pays per
phase (building the peer's position and orders from stored data, then resolving)
is what ``run`` does and the benchmark times.

* pydip has no text orders: ``prepare`` turns our order values into plain tuples of
  pydip territory names (the equivalent of our parse step, untimed: pydip is given
  the benefit); ``run`` builds its ``Player``/``Unit``/command objects and calls
  ``resolve_turn``. An order pydip refuses (its commands assert legality) holds.
* MILA reads our canonical order text (its syntax is ours); ``run`` loads the
  position into one reused ``Game`` (phase, units, centres), sets the orders and
  calls ``process()``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.random_play import PlayedPhase
from engine import Convoy, GameState, Location, MapData, Move, Order, SupportHold, SupportMove, UnitKind

COAST_WORDS = {"NC": "North Coast", "SC": "South Coast", "EC": "North Coast", "WC": "West Coast"}
# pydip calls Bulgaria's east coast its north coast; no other split coast differs.


@dataclass(frozen=True)
class Peer:
    name: str
    version: str
    prepare: Callable[[PlayedPhase], Any]  # untimed, once per phase
    run: Callable[[Any], Any]  # timed: the peer's whole per-phase work


# --- pydip ---------------------------------------------------------------------------------


def pydip_peer(game_map: MapData) -> Peer | None:
    try:
        from pydip.map.predefined import vanilla_dip
        from pydip.player.command import command as commands
        from pydip.player.player import Player
        from pydip.player.unit import UnitTypes
        from pydip.turn.resolve import resolve_turn
    except Exception:
        return None
    pmap = vanilla_dip.generate_map()
    names = _pydip_names(game_map, set(pmap.name_map))
    kinds = {UnitKind.ARMY: UnitTypes.TROOP, UnitKind.FLEET: UnitTypes.FLEET}

    def place(location: Location, kind: UnitKind) -> str:
        if kind is UnitKind.ARMY:
            return names[location.province]
        if location.coast is not None:
            return f"{names[location.province]} {COAST_WORDS[location.coast]}"
        coast = f"{names[location.province]} Coast"
        return coast if coast in pmap.name_map else names[location.province]

    def prepare(phase: PlayedPhase) -> Any:
        state = phase.state
        units = {p: [(kinds[u.kind], place(u.location, u.kind)) for u in state.units_of(p)]
                 for p in game_map.power_ids}
        moves = {o.unit.province: o for given in phase.orders.values() for o in given if isinstance(o, Move)}
        given = [_pydip_order(o, state, moves, place, game_map.army_adjacent)
                 for os in phase.orders.values() for o in os]
        return units, [g for g in given if g is not None]

    def run(prepared: Any) -> Any:
        units, given = prepared
        players: dict[str, Any] = {}
        unit_at: dict[str, Any] = {}
        for power, spots in units.items():
            player = Player(power, pmap, [{"territory_name": t, "unit_type": k} for k, t in spots])
            players[power] = player
            for unit in player.units:
                unit_at[unit.position] = (player, unit)
        ordered: dict[str, Any] = {}
        for verb, power, at, *rest in given:
            player, unit = unit_at[at]
            if at in ordered or player.name != power:
                continue
            try:
                ordered[at] = _pydip_command(commands, verb, player, unit, rest, unit_at)
            except AssertionError:
                continue  # pydip refuses the order: the unit holds
        for at, (player, unit) in unit_at.items():
            if at not in ordered:
                ordered[at] = commands.HoldCommand(player, unit)
        return resolve_turn(pmap, list(ordered.values()))

    return Peer("pydip", "0.1.8", prepare, run)


def _pydip_names(game_map: MapData, known: set[str]) -> dict[str, str]:
    """Our province ids to pydip's territory names, matched by name."""
    def key(text: str) -> str:
        return re.sub(r"[^a-z]", "", text.lower())
    by_key = {key(n): n for n in known}
    out = {}
    for pid, province in game_map.provinces.items():
        name = by_key.get(key(province.name)) or by_key.get(key(province.name) + "sea")
        if name is not None:
            out[pid] = name
    return out


def _pydip_order(
    order: Order, state: GameState, moves: dict[str, Move], place: Callable[[Location, UnitKind], str],
    army_adjacent: dict[str, frozenset[str]],
) -> tuple[Any, ...] | None:
    unit = state.unit_at(order.unit.province) if hasattr(order, "unit") else None
    if unit is None:
        return None
    at = place(unit.location, unit.kind)
    if isinstance(order, Move):
        by_sea = unit.kind is UnitKind.ARMY and (
            order.via_convoy or order.dest.province not in army_adjacent[unit.province])
        return ("convoy_move" if by_sea else "move", order.power, at, place(order.dest, unit.kind))
    if isinstance(order, (SupportHold, SupportMove, Convoy)):
        origin = order.target if isinstance(order, SupportHold) else order.origin
        other = state.unit_at(origin.province)
        if other is None:
            return None
        there = place(other.location, other.kind)
        if isinstance(order, SupportHold):
            return ("support", order.power, at, there, there)
        move = moves.get(origin.province)
        dest = move.dest if move is not None and move.dest.province == order.dest.province else order.dest
        verb = "support" if isinstance(order, SupportMove) else "transport"
        return (verb, order.power, at, there, place(dest, other.kind))
    return ("hold", order.power, at)


def _pydip_command(commands: Any, verb: str, player: Any, unit: Any, rest: list[str],
                   unit_at: dict[str, Any]) -> Any:
    if verb == "hold":
        return commands.HoldCommand(player, unit)
    if verb == "move":
        return commands.MoveCommand(player, unit, rest[0])
    if verb == "convoy_move":
        return commands.ConvoyMoveCommand(player, unit, rest[0])
    other = unit_at.get(rest[0])
    if other is None:
        raise AssertionError("nothing there")
    if verb == "support":
        return commands.SupportCommand(player, unit, other[1], rest[1])
    return commands.ConvoyTransportCommand(player, unit, other[1], rest[1])


# --- MILA ----------------------------------------------------------------------------------


def mila_peer(game_map: MapData) -> Peer | None:
    try:
        import diplomacy
    except Exception:
        return None
    game = diplomacy.Game(map_name="standard")  # one Game, reused for every phase

    def prepare(phase: PlayedPhase) -> Any:
        state = phase.state
        units = {p: [str(u) for u in state.units_of(p)] for p in game_map.power_ids}
        centres = {p: list(state.centers_of(p)) for p in game_map.power_ids}
        return state.phase_name, units, centres, phase.texts

    def run(prepared: Any) -> Any:
        phase_name, units, centres, texts = prepared
        game.set_current_phase(phase_name)
        game.clear_units()
        game.clear_centers()
        for power, spots in units.items():
            game.set_units(power, spots)
            game.set_centers(power, centres[power])
        for power, given in texts.items():
            game.set_orders(power, given)
        game.process()
        return {(power, unit) for power, us in game.get_units().items() for unit in us}

    return Peer("MILA diplomacy", getattr(diplomacy, "__version__", "1.1.2"), prepare, run)
