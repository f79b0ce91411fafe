"""Engine benchmark: Convoy beside pydip and MILA, per movement phase, in one run.

Why these positions: hand-made DATC positions are tiny; a server spends its time
on full boards. So the benchmark plays a fixed, seeded set of random-but-legal
games with the engine itself (``bench.random_play``, the same player the property
tests use: many supports and convoys, some powers silent) and records every
phase's state and orders, both as order values and as standard text.

What is timed, per phase, as a server does it from stored data:

* Convoy: ``state_from_dict`` of the stored state, ``parse_order`` of every order
  text, ``validate`` of every parsed order (order entry), ``Game.adjudicate``, and
  ``state_to_dict`` of the resulting state;
* the menus of all seven powers of each movement position, as one request
  (``legal_menus``) and power by power (``legal_orders`` x7; Convoy alone);
* the floor: Convoy's steps with the rules left out (``time_floor_phase``), so the table
  says how much of a phase is rules and how much any engine with these inputs and outputs
  must spend in this interpreter anyway;
* pydip 0.1.8 and MILA ``diplomacy`` 1.1.2 (the optional ``bench`` extra), when
  installed: see ``bench/peers.py`` (pydip: its object building + ``resolve_turn``;
  MILA: one reused ``Game``, load the position + ``set_orders`` + ``process()``).

The engines take turns phase by phase (interleaved), so a change in the machine's
load hits all of them alike. ``time.perf_counter_ns`` after a warm-up, with the
garbage collector off while timing; ``--clock cpu`` times the CPU the process used instead
(``time.process_time_ns``), which other processes on a shared machine move far less than
the wall clock (for A/B runs of engine changes; quote wall-clock figures otherwise).
Retreat and adjustment phases are timed for Convoy alone.

``--devices`` times instead each speed device the engine keeps with and without it
(docs/performance.md, "Speed devices").

    .venv/bin/python bench/engine_bench.py [--phases N] [--seed S] [--quick] [--clock cpu] [--devices]
"""

from __future__ import annotations

import argparse
import gc
import math
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from bench.peers import Peer, mila_peer, pydip_peer
from bench.random_play import PlayedPhase, play_game
from engine import MapData, Order, OrderResult, PhaseType, Resolution, ResultCode

MAX_PHASES_PER_GAME = 80  # 40 years at most: long enough for mid- and end-game boards
WARMUP_PHASES = 200
CLOCKS = {"wall": time.perf_counter_ns, "cpu": time.process_time_ns}
CLOCK = "wall"  # set by --clock


@dataclass(frozen=True)
class Timing:
    """Nanoseconds spent on one phase, step by step (peers: all in ``adjudicate``)."""

    load: int
    parse: int
    validate: int
    adjudicate: int
    store: int

    @property
    def total(self) -> int:
        return self.load + self.parse + self.validate + self.adjudicate + self.store


# --- positions ---------------------------------------------------------------------------------


def collect_positions(
    game_map: MapData, seed: int, movement_phases: int, rules: str = "2023"
) -> tuple[list[PlayedPhase], int]:
    """Play seeded games until ``movement_phases`` movement phases are recorded.

    Returns every phase played (movement, retreat, adjustment) and the number of games.
    """
    played: list[PlayedPhase] = []
    movement = 0
    game = 0
    while movement < movement_phases:
        for phase in play_game(
            game_map, seed * 1_000_003 + game, rules=rules, max_phases=MAX_PHASES_PER_GAME, with_texts=True
        ):
            if phase.state.phase_type is PhaseType.MOVEMENT:
                if movement >= movement_phases:
                    break
                movement += 1
            played.append(phase)
        game += 1
    return played, game


# --- Convoy ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Stored:
    """A phase as a server finds it in storage: the state dict and the order texts."""

    state: dict[str, Any]
    texts: dict[str, list[str]]


def stored(phase: PlayedPhase) -> Stored:
    return Stored(engine.state_to_dict(phase.state), phase.texts)


def time_convoy_phase(game_map: MapData, phase: Stored, rules: str) -> Timing:
    """Load, parse, validate, adjudicate and store one phase; nanoseconds per step."""
    clock = CLOCKS[CLOCK]
    t0 = clock()
    state = engine.state_from_dict(phase.state)
    t1 = clock()
    parsed: dict[str, list[Order]] = {
        power: [engine.parse_order(text, power=power, state=state, map=game_map) for text in texts]
        for power, texts in phase.texts.items()
    }
    t2 = clock()
    for orders in parsed.values():
        for order in orders:
            engine.validate(order, state, game_map)
    t3 = clock()
    game, _ = engine.Game(map=game_map, state=state, rules=rules).adjudicate(parsed)
    t4 = clock()
    engine.state_to_dict(game.current)
    t5 = clock()
    return Timing(t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4)


@dataclass(frozen=True)
class Floor:
    """A phase as the floor row needs it: the stored phase and the position it led to."""

    phase: Stored
    successor: engine.GameState


def time_floor_phase(game_map: MapData, floor: Floor) -> Timing:
    """Convoy's five steps with the rules left out: what the values a phase must make cost
    to make alone. Load and store as they are (there are no rules in them); parse every
    text with its answer already known (the Convoy row has just read them); no legality
    check; for "adjudicate", one result per order and the position it led to, built from
    the units and centres that came of it. Whatever any engine with these inputs and
    outputs does, it does at least this in this interpreter."""
    clock = CLOCKS[CLOCK]
    t0 = clock()
    state = engine.state_from_dict(floor.phase.state)
    t1 = clock()
    parsed = [engine.parse_order(text, power=power, state=state, map=game_map)
              for power, texts in floor.phase.texts.items() for text in texts]
    t2 = clock()
    after = floor.successor
    Resolution(tuple([OrderResult(order, ResultCode.OK) for order in parsed]))
    successor = engine.GameState(after.year, after.season, after.phase_type, frozenset(list(after.units)),
                                 after.ownership, after.dislodged, after.contested)
    t3 = clock()
    engine.state_to_dict(successor)
    t4 = clock()
    return Timing(t1 - t0, t2 - t1, 0, t3 - t2, t4 - t3)


def time_peer_phase(peer: Peer, prepared: Any) -> Timing:
    clock = CLOCKS[CLOCK]
    t0 = clock()
    peer.run(prepared)
    return Timing(0, 0, 0, clock() - t0, 0)


def timed_runs(count: int, runs: Sequence[Callable[[int], Timing]]) -> list[list[Timing]]:
    """Warm every runner up on the first phases, then time phase i of each in turn."""
    for i in range(min(WARMUP_PHASES, count)):
        for run in runs:
            run(i)
    out: list[list[Timing]] = [[] for _ in runs]
    gc.collect()
    gc.disable()
    try:
        for i in range(count):
            for timings, run in zip(out, runs, strict=True):
                timings.append(run(i))
    finally:
        gc.enable()
    return out


# --- report ------------------------------------------------------------------------------------


def percentile(values: Sequence[int], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of nanosecond values, in microseconds."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1] / 1000


def median_us(values: Iterable[int]) -> float:
    return statistics.median(values) / 1000


def row(name: str, timings: Sequence[Timing]) -> str:
    totals = [t.total for t in timings]
    per_second = len(totals) / (sum(totals) / 1e9)
    steps = " | ".join(f"{median_us(getattr(t, step) for t in timings):,.0f}" for step in STEPS)
    return (f"| {name} | {len(totals)} | {per_second:,.0f} | {median_us(totals):,.0f} | "
            f"{percentile(totals, 99):,.0f} | {steps} |")


STEPS = ("load", "parse", "validate", "adjudicate", "store")


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--phases", type=int, default=1500, help="movement phases to time (default 1500)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games (default 1)")
    parser.add_argument("--quick", action="store_true", help="300 movement phases, for a smoke run")
    parser.add_argument("--rules", default="2023", choices=sorted(engine.RULEBOOKS))
    parser.add_argument("--no-peers", action="store_true", help="time Convoy alone")
    parser.add_argument("--clock", default="wall", choices=sorted(CLOCKS),
                        help="wall: elapsed time (default); cpu: this process's CPU time")
    parser.add_argument("--devices", action="store_true",
                        help="time each speed device the engine keeps, with and without it")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    global CLOCK
    CLOCK = args.clock
    target = 300 if args.quick else args.phases
    game_map = engine.load_map("classical")
    if args.devices:
        return devices_table(game_map, target, args.seed, args.rules)

    print(f"# Convoy engine benchmark ({time.strftime('%Y-%m-%d')})")
    print(f"python {platform.python_version()} on {platform.machine()}, {_cpus()} CPUs; rules {args.rules}; "
          f"{args.clock} clock")
    started = time.perf_counter()
    played, games = collect_positions(game_map, args.seed, target, args.rules)
    by_type = {kind: [p for p in played if p.state.phase_type is kind] for kind in PhaseType}
    orders = sum(len(t) for p in by_type[PhaseType.MOVEMENT] for t in p.texts.values())
    print(
        f"positions: {len(played)} phases from {games} random games (seed {args.seed}), "
        f"{orders} movement orders; generated in {time.perf_counter() - started:.1f} s\n"
    )
    movement = by_type[PhaseType.MOVEMENT]
    _movement_table(game_map, movement, args.rules, with_peers=not args.no_peers)
    print("\n## Convoy, the menus of every power of a movement position")
    print(legal_orders_row(game_map, [p.state for p in movement]))
    _other_phases_table(game_map, by_type, args.rules)
    return 0


def _movement_table(game_map: MapData, movement: list[PlayedPhase], rules: str, *, with_peers: bool) -> None:
    """Convoy, the floor and each installed peer on the same movement positions, interleaved
    phase by phase so that a slow moment of the machine falls on every engine alike."""
    peers = [p for p in (pydip_peer(game_map), mila_peer(game_map)) if p] if with_peers else []
    data = [stored(p) for p in movement]
    prepared = [[peer.prepare(p) for p in movement] for peer in peers]
    floors = [Floor(d, p.next_state) for d, p in zip(data, movement, strict=True)]
    # The floor row right after Convoy's, so the texts it parses are the ones just read.
    runs = [_convoy_run(game_map, data, rules), lambda i: time_floor_phase(game_map, floors[i])]
    runs += [_peer_run(peer, prepared[n]) for n, peer in enumerate(peers)]
    results = timed_runs(len(movement), runs)
    names = ["Convoy", "floor: Convoy's values, no rules", *(f"{p.name} {p.version}" for p in peers)]
    print(f"## Movement phases, interleaved: the same {len(movement)} positions, the same run")
    print(header("engine"))
    for name, timings in zip(names, results, strict=True):
        print(row(name, timings))
    ours = median_us(t.total for t in results[0])
    for name, timings in zip(names[2:], results[2:], strict=True):
        ratio = median_us(t.total for t in timings) / ours
        print(f"\n{name} time / Convoy time, median per movement phase: {ratio:.2f}x")
    print(floor_line(results[0], results[1], [(p.name, t) for p, t in zip(peers, results[2:], strict=True)]))
    if not peers:
        print("(pydip / MILA not installed: pip install -e '.[bench]'; Convoy alone was timed)")


def _other_phases_table(game_map: MapData, by_type: dict[PhaseType, list[PlayedPhase]], rules: str) -> None:
    """Retreat and adjustment phases, Convoy alone: the peers are timed on movement only."""
    print("\n## Convoy, other phases")
    print(header("phase"))
    for kind in (PhaseType.RETREAT, PhaseType.ADJUSTMENT):
        kept = [stored(p) for p in by_type[kind]]
        if kept:
            run = _convoy_run(game_map, kept, rules)
            [timings] = timed_runs(len(kept), [run])
            print(row(kind.value.lower(), timings))
    print("(per phase; the step columns are medians of each step)")


GOALS = {"pydip": 3, "MILA diplomacy": 20}  # issue 17: Convoy this many times faster per phase


def floor_line(convoy: Sequence[Timing], floor: Sequence[Timing],
               peers: Sequence[tuple[str, Sequence[Timing]]]) -> str:
    """What the floor row says: how much of a phase is more than making its values, and,
    beside each peer, what a phase as many times faster as issue 17 asks would leave it."""
    made = median_us(f.total for f in floor)
    rest = median_us(c.total - f.total for c, f in zip(convoy, floor, strict=True))
    lines = [f"\nThe floor (values made, no rules) takes {made:,.0f} µs; the rest of Convoy's phase "
             f"(checking, adjudicating, reading texts not met before) {rest:,.0f} µs, median per phase."]
    for name, timings in peers:
        goal = GOALS.get(name)
        if goal is not None:
            share = median_us(t.total for t in timings) / goal
            lines.append(f"{goal}x faster than {name} is {share:,.0f} µs a phase, "
                         f"which leaves the rest {share - made:,.0f} µs.")
    return "\n".join(lines)


def legal_orders_row(game_map: MapData, states: Sequence[engine.GameState]) -> str:
    """Median and p99 of the menus of all the map's powers, one position at a time: asked
    as one request (``legal_menus``) and power by power (``legal_orders`` seven times, as
    seven players' views ask), interleaved position by position."""
    powers = game_map.power_ids

    def together(state: engine.GameState) -> None:
        engine.legal_menus(state, game_map, powers)

    def one_by_one(state: engine.GameState) -> None:
        for power in powers:
            engine.legal_orders(state, game_map, power)

    ways = (("one request (`legal_menus`)", together), ("power by power (`legal_orders` x7)", one_by_one))
    clock = CLOCKS[CLOCK]
    totals: list[list[int]] = [[] for _ in ways]
    for state in states[:WARMUP_PHASES // 10]:
        for _, way in ways:
            way(state)
    gc.disable()
    try:
        for state in states:
            for times, (_, way) in zip(totals, ways, strict=True):
                t0 = clock()
                way(state)
                times.append(clock() - t0)
    finally:
        gc.enable()
    rows = [f"| {name} | {len(times)} | {median_us(times):,.0f} | {percentile(times, 99):,.0f} |"
            for (name, _), times in zip(ways, totals, strict=True)]
    return "| asked | positions | median µs | p99 µs |\n|---|---:|---:|---:|\n" + "\n".join(rows)


# --- speed devices ------------------------------------------------------------------------------


def _swap(owner: Any, name: str, value: Any) -> tuple[Callable[[], None], Callable[[], None]]:
    """(take the device out, put it back) for one attribute."""
    kept = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
    return (lambda: setattr(owner, name, value)), (lambda: setattr(owner, name, kept))


def _together(*swaps: tuple[Callable[[], None], Callable[[], None]]) -> tuple[Callable[[], None], ...]:
    def take_out() -> None:
        for out, _ in swaps:
            out()

    def put_back() -> None:
        for _, back in swaps:
            back()

    return take_out, put_back


def speed_devices() -> dict[str, tuple[Callable[[], None], ...]]:
    """The devices the engine keeps (docs/performance.md, "Speed devices"), each as (take it
    out, put it back): a memo made to compute every time, the generated ``__init__`` swapped
    for the dataclass's own, the map's cached indexes made plain properties."""
    import functools

    from engine import position, types
    from engine.notation import standard

    def uncached(memo: Any, key: Any, limit: int, make: Callable[..., Any], *args: Any) -> Any:
        return make(*args)

    orders = (types.Hold, types.Move, types.SupportHold, types.SupportMove, types.Convoy)
    indexes = {n: v for n, v in vars(MapData).items() if isinstance(v, functools.cached_property)}
    return {
        "`quick_init` on the five movement order classes": _together(
            *[_swap(cls, "__init__", cls.__dict__["__init__"].dataclass_init) for cls in orders]),
        "the parse memo (`engine/notation/standard.py`)": _swap(standard, "shared", uncached),
        "the convoy-answer memo (`engine/position.py`)": _swap(position, "shared", uncached),
        f"MapData's {len(indexes)} cached indexes": _together(
            *[_swap(MapData, n, property(v.func)) for n, v in indexes.items()]),
    }


def devices_table(game_map: MapData, target: int, seed: int, rules: str) -> int:
    """Each kept device with and without it, phase by phase interleaved on the same positions
    (after a warm-up of both): the median movement phase (as timed above) and the median
    seven menus (``legal_menus``), and the median per-position share the device saves."""
    played, _ = collect_positions(game_map, seed, target, rules)
    movement = [p for p in played if p.state.phase_type is PhaseType.MOVEMENT]
    data = [stored(p) for p in movement]
    clock = CLOCKS[CLOCK]

    def menus(state: engine.GameState) -> int:
        t0 = clock()
        engine.legal_menus(state, game_map, game_map.power_ids)
        return clock() - t0

    print(f"# Speed devices ({len(movement)} movement positions, seed {seed}; {CLOCK} clock)")
    print("| device | phase with µs | without µs | saves | menus with µs | without µs | saves |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, (take_out, put_back) in speed_devices().items():
        times: dict[tuple[bool, str], list[int]] = {(w, s): [] for w in (True, False) for s in ("p", "m")}
        for timing in (False, True):
            gc.collect()
            if timing:
                gc.disable()
            for i, p in enumerate(data):
                for kept in (True, False):
                    if not kept:
                        take_out()
                    phase, menu = time_convoy_phase(game_map, p, rules).total, menus(movement[i].state)
                    put_back()
                    if timing:
                        times[kept, "p"].append(phase)
                        times[kept, "m"].append(menu)
            gc.enable()
        cells = []
        for step in ("p", "m"):
            pairs = zip(times[True, step], times[False, step], strict=True)
            saved = 1 - statistics.median(a / b for a, b in pairs)
            cells += [f"{median_us(times[True, step]):,.0f}", f"{median_us(times[False, step]):,.0f}",
                      f"{saved:.0%}"]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    print("(saves: the median over positions of 1 - with/without)")
    return 0


def header(first: str) -> str:
    steps = " | ".join(f"{s} µs" for s in STEPS)
    return f"| {first} | phases | phases/s | median µs | p99 µs | {steps} |\n|---|---:|---:|---:|---:|" + (
        "---:|" * len(STEPS))


def _convoy_run(game_map: MapData, kept: Sequence[Stored], rules: str) -> Callable[[int], Timing]:
    return lambda i: time_convoy_phase(game_map, kept[i], rules)


def _peer_run(peer: Peer, prepared: Sequence[Any]) -> Callable[[int], Timing]:
    return lambda i: time_peer_phase(peer, prepared[i])


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


if __name__ == "__main__":
    sys.exit(main())
