"""Engine benchmark: how long does Convoy take to play one phase, end to end?

Why these positions: hand-made DATC positions are tiny; a server spends its time
on full boards. So the benchmark plays a fixed, seeded set of random-but-legal
games with the engine itself (``bench.random_play``, the same player the property
tests use: many supports and convoys, some powers silent) and records every
phase's state and orders, both as order values and as standard text.

What is timed, per phase, as a server would do it: parse every order text
(``engine.parse_order``), validate every parsed order (``engine.validate``, the
order-entry check) and adjudicate (``engine.Game.adjudicate``). Timings use
``time.perf_counter_ns`` after a warm-up, with the garbage collector disabled.

If the MILA engine (PyPI ``diplomacy`` 1.1.2, the optional ``bench`` extra) is
importable, the same movement positions are played through it too (set up the
board, set the orders in MILA's syntax, ``process()``), and the resulting
positions are compared as a cross-check. MILA follows older DATC preferences
(e.g. the v2.4 fallback to the land route, DATC 4.A.3), so some disagreement is
expected; the positions are also compared with Convoy's "2000" rulebook, which
shares those choices.

    .venv/bin/python bench/engine_bench.py [--phases N] [--seed S] [--quick]
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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bench.random_play import PlayedPhase, play_game  # noqa: E402
from engine import GameState, MapData, Order, PhaseType  # noqa: E402

MAX_PHASES_PER_GAME = 80  # 40 years at most: long enough for mid- and end-game boards
WARMUP_PHASES = 200


@dataclass(frozen=True)
class Timing:
    """Nanoseconds spent on one phase, step by step."""

    parse: int
    validate: int
    adjudicate: int

    @property
    def total(self) -> int:
        return self.parse + self.validate + self.adjudicate


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


def time_convoy_phase(game_map: MapData, phase: PlayedPhase, rules: str) -> Timing:
    """Parse, validate and adjudicate one recorded phase; nanoseconds per step.

    The state is copied first: ``engine.validate`` memoises on the state object, and a
    phase timed twice (warm-up, then the run) must not find the first run's answers."""
    state = replace(phase.state)
    clock = time.perf_counter_ns
    t0 = clock()
    parsed: dict[str, list[Order]] = {
        power: [engine.parse_order(text, power=power, state=state, map=game_map) for text in texts]
        for power, texts in phase.texts.items()
    }
    t1 = clock()
    for orders in parsed.values():
        for order in orders:
            engine.validate(order, state, game_map)
    t2 = clock()
    engine.Game(map=game_map, state=state, rules=rules).adjudicate(parsed)
    t3 = clock()
    return Timing(t1 - t0, t2 - t1, t3 - t2)


def timed_run(items: Sequence[PlayedPhase], run: Callable[[PlayedPhase], Timing]) -> list[Timing]:
    """Warm up on the first phases, then time every phase with the collector off."""
    for phase in items[:WARMUP_PHASES]:
        run(phase)
    gc.collect()
    gc.disable()
    try:
        return [run(phase) for phase in items]
    finally:
        gc.enable()


# --- MILA --------------------------------------------------------------------------------------


def mila_module() -> Any | None:
    try:
        import diplomacy  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except Exception:  # noqa: BLE001 - any import failure means "not available"
        return None
    return diplomacy


def mila_units(state: GameState, power: str) -> list[str]:
    """MILA spells units like us: ``A PAR``, ``F SPA/NC``."""
    return [str(u) for u in state.units_of(power)]


def mila_play(diplomacy: Any, game_map: MapData, phase: PlayedPhase) -> tuple[Any, Timing]:
    """Set up a fresh MILA game on ``phase``'s position, give the orders, process.

    The game object is built before the clock starts (Convoy needs no such object);
    setting the phase, units, centres and orders, and ``process()`` are timed. The
    orders are our canonical text, which is MILA's syntax too (``F MAO - SPA/NC``,
    ``A PAR S A MAR - BUR``, ``F NTH C A LON - BEL``, ``A LON - BEL VIA``).
    """
    state = phase.state
    game = diplomacy.Game(map_name="standard")
    clock = time.perf_counter_ns
    t0 = clock()
    game.set_current_phase(state.phase_name)
    game.clear_units()
    game.clear_centers()
    for power in game_map.power_ids:
        game.set_units(power, mila_units(state, power))
        game.set_centers(power, list(state.centers_of(power)))
    for power, texts in phase.texts.items():
        game.set_orders(power, texts)
    t1 = clock()
    game.process()
    t2 = clock()
    return game, Timing(t1 - t0, 0, t2 - t1)


def mila_position(game: Any) -> set[tuple[str, str]]:
    """(power, unit) after processing; dislodged units carry MILA's leading ``*``."""
    return {(power, unit) for power, units in game.get_units().items() for unit in units}


def convoy_position(state: GameState) -> set[tuple[str, str]]:
    """Our position in MILA's terms. MILA disbands a dislodged unit with nowhere to
    go at once, so such units are left out here (we keep them for the retreat phase)."""
    units = {(u.power, str(u)) for u in state.units}
    return units | {(d.unit.power, "*" + str(d.unit)) for d in state.dislodged if d.retreats}


# --- report ------------------------------------------------------------------------------------


def percentile(values: Sequence[int], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of nanosecond values, in microseconds."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1] / 1000


def median_us(values: Iterable[int]) -> float:
    return statistics.median(values) / 1000


def row(name: str, timings: Sequence[Timing]) -> str:
    if not timings:
        return f"| {name} | 0 | - | - | - | - | - | - |"
    totals = [t.total for t in timings]
    per_second = len(totals) / (sum(totals) / 1e9)
    return (
        f"| {name} | {len(totals)} | {per_second:,.0f} | {median_us(totals):,.0f} | "
        f"{percentile(totals, 99):,.0f} | {median_us(t.parse for t in timings):,.0f} | "
        f"{median_us(t.validate for t in timings):,.0f} | {median_us(t.adjudicate for t in timings):,.0f} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--phases", type=int, default=3000, help="movement phases to time (default 3000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games (default 1)")
    parser.add_argument("--quick", action="store_true", help="300 movement phases, for a smoke run")
    parser.add_argument("--rules", default="2023", choices=sorted(engine.RULEBOOKS))
    parser.add_argument("--no-mila", action="store_true", help="skip the MILA comparison")
    args = parser.parse_args(argv)
    target = 300 if args.quick else args.phases
    game_map = engine.load_map("classical")

    print(f"# Convoy engine benchmark ({time.strftime('%Y-%m-%d')})")
    print(f"python {platform.python_version()} on {platform.machine()}, {_cpus()} CPUs; rules {args.rules}")
    started = time.perf_counter()
    played, games = collect_positions(game_map, args.seed, target, args.rules)
    by_type = {kind: [p for p in played if p.state.phase_type is kind] for kind in PhaseType}
    orders = sum(len(t) for p in by_type[PhaseType.MOVEMENT] for t in p.texts.values())
    print(
        f"positions: {len(played)} phases from {games} random games (seed {args.seed}), "
        f"{orders} movement orders; generated in {time.perf_counter() - started:.1f} s\n"
    )

    convoy: dict[PhaseType, list[Timing]] = {}
    for kind, phases in by_type.items():
        convoy[kind] = timed_run(phases, lambda p: time_convoy_phase(game_map, p, args.rules))
    print("| phase | count | phases/s | median µs | p99 µs | parse µs | validate µs | adjudicate µs |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for kind in PhaseType:
        print(row(kind.value.lower(), convoy[kind]))
    print("(per phase; parse, validate and adjudicate are medians of each step)\n")

    diplomacy = None if args.no_mila else mila_module()
    if diplomacy is None:
        print("MILA `diplomacy` is not installed (pip install 'diplomacy==1.1.2'); Convoy alone was timed.")
        return 0
    compare_with_mila(diplomacy, game_map, by_type[PhaseType.MOVEMENT], convoy[PhaseType.MOVEMENT])
    return 0


def compare_with_mila(
    diplomacy: Any, game_map: MapData, phases: Sequence[PlayedPhase], convoy: Sequence[Timing]
) -> None:
    version = getattr(diplomacy, "__version__", "1.1.2")
    positions: list[set[tuple[str, str]]] = []  # read after the clock stops; games are not kept

    def run(phase: PlayedPhase) -> Timing:
        game, timing = mila_play(diplomacy, game_map, phase)
        positions.append(mila_position(game))
        return timing

    for phase in phases[:WARMUP_PHASES]:
        mila_play(diplomacy, game_map, phase)
    gc.collect()
    gc.disable()
    try:
        timings = [run(p) for p in phases]
    finally:
        gc.enable()
    ours = median_us(t.total for t in convoy)
    theirs = median_us(t.total for t in timings)
    print(f"## Convoy vs MILA `diplomacy` {version}, the same {len(phases)} movement phases")
    print("| engine | median µs | p99 µs | phases/s |")
    print("|---|---:|---:|---:|")
    rows = (("Convoy (parse+validate+adjudicate)", convoy), ("MILA (set-up+orders+process)", timings))
    for name, ts in rows:
        totals = [t.total for t in ts]
        print(f"| {name} | {median_us(totals):,.0f} | {percentile(totals, 99):,.0f} | "
              f"{len(totals) / (sum(totals) / 1e9):,.0f} |")
    process_only = median_us(t.adjudicate for t in timings)
    adjudicate_only = median_us(t.adjudicate for t in convoy)
    print(f"\nRatio MILA/Convoy (medians, end to end): {theirs / ours:.2f}x. Adjudication alone: "
          f"Convoy adjudicate {adjudicate_only:,.0f} µs, MILA process() {process_only:,.0f} µs, "
          f"ratio {process_only / adjudicate_only:.2f}x\n")

    differ_2023: list[tuple[PlayedPhase, set[tuple[str, str]], set[tuple[str, str]]]] = []
    differ_2000: list[tuple[PlayedPhase, set[tuple[str, str]], set[tuple[str, str]]]] = []
    for phase, mila in zip(phases, positions, strict=True):
        ours_2023 = convoy_position(phase.next_state)
        if mila != ours_2023:
            differ_2023.append((phase, mila - ours_2023, ours_2023 - mila))
        old_rules, _ = engine.Game(map=game_map, state=phase.state, rules="2000").adjudicate(phase.orders)
        ours_2000 = convoy_position(old_rules.current)
        if mila != ours_2000:
            differ_2000.append((phase, mila - ours_2000, ours_2000 - mila))
    n = len(phases)
    print(f"Cross-check: MILA's resulting position differs from Convoy (2023 rules) in "
          f"{len(differ_2023)} of {n} phases ({100 * len(differ_2023) / n:.1f}%), "
          f"from Convoy (2000 rules) in {len(differ_2000)} ({100 * len(differ_2000) / n:.1f}%).")
    print("Examples (2023 rules, then 2000 rules; MILA follows older DATC preferences):")
    for phase, mila_only, ours_only in differ_2023[:3] + differ_2000[:3]:
        touching = _orders_touching(phase, mila_only | ours_only)
        print(f"- {phase.state.phase_name}: MILA {sorted(u for _, u in mila_only)}, "
              f"Convoy {sorted(u for _, u in ours_only)}; orders: {touching}")


def _orders_touching(phase: PlayedPhase, units: set[tuple[str, str]]) -> list[str]:
    provinces = {u.lstrip("*")[2:5] for _, u in units}
    return [t for texts in phase.texts.values() for t in texts if any(p in t for p in provinces)]


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


if __name__ == "__main__":
    sys.exit(main())
