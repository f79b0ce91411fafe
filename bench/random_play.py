"""A random-but-legal Diplomacy player, used by the property tests and the benchmark.

Why it exists: the DATC checks hand-made positions; games played by the engine
itself reach positions nobody wrote down. Every order this player gives comes
from ``engine.legal_orders`` (the same menu a client is offered), so any crash or
broken invariant it finds is an engine bug, not a player bug.

Why it is biased: uniformly random legal orders are mostly supports of moves
nobody makes, which the adjudicator voids at once. To exercise the interesting
parts of the resolver (cut supports, head-to-head battles, convoy chains,
paradoxes) the player first decides which units move, then orders convoys for
the convoyed moves and gives most of the remaining units a support that
*matches* a chosen move or hold (of any power). It also sometimes leaves a
power's orders out entirely, or one unit unordered, so the default rules
(hold, disband, waive, civil disorder) are played too.

Not part of the engine (``engine/`` never imports it); it only uses the public
façade. Deterministic for a given ``random.Random`` seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import engine
from engine import (
    Build,
    Convoy,
    Disband,
    GameState,
    GameStatus,
    Hold,
    MapData,
    Move,
    Order,
    PhaseType,
    Resolution,
    Retreat,
    SupportHold,
    SupportMove,
    UnitKind,
    Waive,
)

Orders = dict[str, list[Order]]


@dataclass(frozen=True)
class Style:
    """How the player chooses; probabilities per unit, per power or per phase."""

    omit_power: float = 0.06  # a power submits nothing this phase (defaults apply)
    omit_unit: float = 0.03  # one unit is left without an order (it holds)
    army_convoy: float = 0.5  # an army that could be convoyed tries it
    move: float = 0.45  # a unit (not convoying) moves
    hold: float = 0.05  # ... or holds; the rest help (support/convoy)
    matching_help: float = 0.9  # a helper picks a support/convoy matching a chosen order
    convoy_join: float = 0.9  # a fleet that can carry a chosen convoyed move does so
    via_word: float = 0.7  # a convoyed move to an adjacent province says VIA
    full_adjustment: float = 0.75  # a power orders all its builds/removals
    extra_build: float = 0.05  # ... and sometimes one too many (refused one by one)
    retreat: float = 0.85  # a dislodged unit retreats when it can (else disbands)


DEFAULT_STYLE = Style()


@dataclass(frozen=True)
class PlayedPhase:
    """One adjudicated phase: the position, the orders as given, and what came of them."""

    state: GameState
    orders: Orders
    menus: dict[str, list[Order]]  # legal orders per power, as offered (empty if not kept)
    next_state: GameState
    resolution: Resolution
    texts: dict[str, list[str]] = field(default_factory=dict)  # standard notation of ``orders``


def _unit_province(order: Order) -> str | None:
    location = getattr(order, "unit", None)
    return None if location is None else location.province


def _by_unit(menu: Sequence[Order]) -> dict[str, list[Order]]:
    out: dict[str, list[Order]] = {}
    for order in menu:
        province = _unit_province(order)
        if province is not None:
            out.setdefault(province, []).append(order)
    return out


def movement_orders(
    state: GameState, menus: dict[str, list[Order]], rng: random.Random, style: Style = DEFAULT_STYLE
) -> Orders:
    """One order per unit from its menu: moves first, then convoys and matching supports."""
    options: dict[str, list[Order]] = {}
    for menu in menus.values():
        options.update(_by_unit(menu))
    provinces = sorted(options)
    rng.shuffle(provinces)
    chosen: dict[str, Order] = {}
    helpers: list[str] = []
    convoyed: list[Move] = []
    for province in provinces:
        unit = state.unit_at(province)
        assert unit is not None
        moves = [o for o in options[province] if isinstance(o, Move)]
        via = [m for m in moves if m.via_convoy]
        if unit.kind is UnitKind.ARMY and via and rng.random() < style.army_convoy:
            move = rng.choice(via)
            plain = Move(move.power, move.unit, move.dest, False, move.kind)
            if plain in options[province] and rng.random() > style.via_word:
                move = plain  # adjacent: the own-power convoy alone shows intent (DATC 4.A.3)
            chosen[province] = move
            convoyed.append(move)
            continue
        roll = rng.random()
        land = [m for m in moves if not m.via_convoy]
        if land and roll < style.move:
            chosen[province] = rng.choice(land)
        elif roll < style.move + style.hold:
            chosen[province] = Hold(unit.power, unit.location, unit.kind)
        else:
            helpers.append(province)
    for move in convoyed:
        for province in provinces:  # any fleet that can carry it may drop its own plan
            if isinstance(chosen.get(province), Convoy) or rng.random() >= style.convoy_join:
                continue
            wanted = [
                o for o in options[province]
                if isinstance(o, Convoy) and o.origin == move.unit and o.dest == move.dest
            ]
            if wanted:
                chosen[province] = wanted[0]
    moving = {o.unit.province: o for o in chosen.values() if isinstance(o, Move)}
    for province in helpers:
        if province in chosen:
            continue
        menu = options[province]
        matching = [o for o in menu if _matches(o, moving, provinces)]
        if matching and rng.random() < style.matching_help:
            chosen[province] = rng.choice(matching)
        else:
            chosen[province] = rng.choice(menu)
    out: Orders = {}
    for province in sorted(chosen):
        if rng.random() < style.omit_unit:
            continue
        order = chosen[province]
        out.setdefault(order.power, []).append(order)
    return out


def _matches(order: Order, moving: dict[str, Move], provinces: Sequence[str]) -> bool:
    """A support or convoy that the chosen orders will make count."""
    if isinstance(order, SupportMove):
        move = moving.get(order.origin.province)
        return move is not None and move.dest.province == order.dest.province
    if isinstance(order, SupportHold):
        return order.target.province not in moving and order.target.province in provinces
    if isinstance(order, Convoy):
        move = moving.get(order.origin.province)
        return move is not None and move.dest.province == order.dest.province
    return False


def retreat_orders(menus: dict[str, list[Order]], rng: random.Random, style: Style = DEFAULT_STYLE) -> Orders:
    """Each dislodged unit retreats somewhere legal (usually) or disbands."""
    out: Orders = {}
    for power, menu in sorted(menus.items()):
        for _province, options in sorted(_by_unit(menu).items()):
            retreats = [o for o in options if isinstance(o, Retreat)]
            disbands = [o for o in options if isinstance(o, Disband)]
            if retreats and rng.random() < style.retreat:
                out.setdefault(power, []).append(rng.choice(retreats))
            elif disbands:
                out.setdefault(power, []).append(disbands[0])
    return out


def adjustment_orders(
    state: GameState,
    map: MapData,
    menus: dict[str, list[Order]],
    rng: random.Random,
    style: Style = DEFAULT_STYLE,
) -> Orders:
    """Builds on distinct sites or removals of distinct units, all or some of those due."""
    out: Orders = {}
    for power, menu in sorted(menus.items()):
        balance = engine.adjustment_balance(state, map, power)
        full = rng.random() < style.full_adjustment
        if balance > 0:
            sites: dict[str, list[Build]] = {}
            for order in menu:
                if isinstance(order, Build):
                    sites.setdefault(order.location.province, []).append(order)
            names = sorted(sites)
            rng.shuffle(names)
            count = balance if full else rng.randint(0, balance)
            if full and rng.random() < style.extra_build:
                count += 1
            given: list[Order] = [rng.choice(sites[s]) for s in names[:count]]
            if not full and rng.random() < 0.5:
                given.append(Waive(power))
            if given:
                out[power] = given
        elif balance < 0:
            disbands: list[Order] = [o for o in menu if isinstance(o, Disband)]
            rng.shuffle(disbands)
            count = -balance if full else rng.randint(0, -balance)
            if disbands[:count]:
                out[power] = disbands[:count]
    return out


def legal_menus(state: GameState, map: MapData) -> dict[str, list[Order]]:
    """``engine.legal_menus`` of every power the phase waits for."""
    return engine.legal_menus(state, map, engine.powers_with_orders_to_give(state, map))


def choose_orders(
    state: GameState,
    map: MapData,
    rng: random.Random,
    style: Style = DEFAULT_STYLE,
    menus: dict[str, list[Order]] | None = None,
) -> Orders:
    """Orders for every power in ``state``'s phase; some powers may be left out."""
    menus = legal_menus(state, map) if menus is None else menus
    if state.phase_type is PhaseType.MOVEMENT:
        orders = movement_orders(state, menus, rng, style)
    elif state.phase_type is PhaseType.RETREAT:
        orders = retreat_orders(menus, rng, style)
    else:
        orders = adjustment_orders(state, map, menus, rng, style)
    return {p: given for p, given in orders.items() if rng.random() >= style.omit_power}


def play_game(
    map: MapData,
    seed: int,
    *,
    rules: str = "2023",
    max_phases: int = 40,
    style: Style = DEFAULT_STYLE,
    keep_menus: bool = False,
    with_texts: bool = False,
) -> Iterator[PlayedPhase]:
    """Play one game from the map's start for at most ``max_phases`` phases (or a solo)."""
    rng = random.Random(seed)
    game = engine.Game(map=map, rules=rules)
    for _ in range(max_phases):
        state = game.current
        if state.status is GameStatus.COMPLETED:
            return
        menus = legal_menus(state, map)
        orders = choose_orders(state, map, rng, style, menus)
        game, resolution = engine.Game(map=map, state=state, rules=rules).adjudicate(orders)
        texts = (
            {p: [engine.format_order(o) for o in given] for p, given in orders.items()} if with_texts else {}
        )
        yield PlayedPhase(state, orders, menus if keep_menus else {}, game.current, resolution, texts)
