"""Instructions per movement phase, step by step: a repeatable engine measure.

Why: wall-clock timings on a shared 2-core machine move by ±20 % with whatever else
runs. ``valgrind --tool=callgrind`` counts the CPU instructions the interpreter
executes, which is the same for the same code and inputs whatever the machine is
doing. This script plays seeded random games (``bench.random_play``) to get
movement positions, stores them as JSON dicts, then runs itself under callgrind
once per step, each run doing one more step of the same pipeline a server runs
(deserialize, parse, validate, adjudicate, serialize the result), and prints the
difference per phase; then pydip (if installed) on the same positions.

    .venv/bin/python bench/engine_instructions.py [--phases 50] [--seed 1] [--warm]

``--warm`` counts a second pass over the same phases instead of the first: the engine's
memos (parsed texts, convoy answers) are then filled, as a long-running server's are, so a
change whose gain is sharing between phases shows there and not in the cold count.

Needs ``valgrind`` on the PATH (Debian package ``valgrind``); without it, it says so.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from bench.engine_bench import collect_positions

STEPS = ("load state", "parse", "validate", "adjudicate", "store result")


def run_steps(positions_file: str, steps: int, passes: int = 1) -> None:
    """The measured pipeline, cut after ``steps`` steps (the child process's work), over
    every phase ``passes`` times; ``steps`` -1: load every state and give the menus of every
    power (``legal_menus``, one request, as the wall-clock bench does)."""
    game_map = engine.load_map("classical")
    phases = json.loads(Path(positions_file).read_text())
    for _ in range(passes):
        _one_pass(phases, game_map, steps)


def _one_pass(phases: list[dict[str, Any]], game_map: engine.MapData, steps: int) -> None:
    if steps < 0:
        for phase in phases:
            state = engine.state_from_dict(phase["state"])
            engine.legal_menus(state, game_map, game_map.power_ids)
        return
    for phase in phases:
        if steps < 1:
            continue
        state = engine.state_from_dict(phase["state"])
        if steps < 2:
            continue
        orders: dict[str, list[engine.Order]] = {}
        for power, text in phase["orders"]:
            orders.setdefault(power, []).append(
                engine.parse_order(text, power=power, state=state, map=game_map)
            )
        if steps < 3:
            continue
        for given in orders.values():
            for order in given:
                engine.validate(order, state, game_map)
        if steps < 4:
            continue
        game, _ = engine.Game(map=game_map, state=state).adjudicate(orders)
        if steps < 5:
            continue
        engine.state_to_dict(game.current)


def count(positions_file: str, steps: int, warm: bool = False) -> int:
    """Instructions of a child running ``steps`` steps over the phases once; ``warm``: of a
    second pass over the same phases, after a first one filled the engine's memos (parsed
    texts, convoy answers) as a long-running server's are (two passes less one)."""
    def run(passes: int) -> int:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
             __file__, "--child", positions_file, str(steps), str(passes)],
            capture_output=True, text=True, check=True,
        )
        line = next(x for x in out.stderr.splitlines() if "Collected" in x)
        return int(line.split()[-1])

    return run(2) - run(1) if warm else run(1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phases", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warm", action="store_true",
                        help="count a second pass over the phases (memos filled), not a cold first one")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--pydip", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_steps(args.child[0], int(args.child[1]), int(args.child[2]))
        return 0
    if args.pydip:
        run_pydip(int(args.pydip[0]), int(args.pydip[1]), args.pydip[2] == "1")
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind); nothing measured")
        return 0
    game_map = engine.load_map("classical")
    played, _ = collect_positions(game_map, args.seed, args.phases)
    phases = [
        {"state": engine.state_to_dict(p.state),
         "orders": [(power, text) for power, texts in p.texts.items() for text in texts]}
        for p in played if p.state.phase_type is engine.PhaseType.MOVEMENT
    ][: args.phases]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(phases, handle)
    counts = [count(handle.name, steps, args.warm) for steps in range(len(STEPS) + 1)]
    menus = count(handle.name, -1, args.warm)
    Path(handle.name).unlink()
    when = "a second pass, memos filled" if args.warm else "a cold first pass"
    print(f"# Instructions per movement phase ({len(phases)} phases, seed {args.seed}; {when})")
    print("| step | instructions per phase |\n|---|---:|")
    for name, before, after in zip(STEPS, counts[:-1], counts[1:], strict=True):
        print(f"| {name} | {(after - before) // len(phases):,} |")
    total = (counts[-1] - counts[0]) // len(phases)
    print(f"| all five steps (what bench/engine_bench.py times) | {total:,} |")
    peer = pydip_count(args.phases, args.seed)
    if peer is not None:
        print(f"| pydip 0.1.8, object building + resolve_turn | {peer:,} |")
    print(f"| legal_menus for all {len(game_map.power_ids)} powers (after load state) | "
          f"{(menus - counts[1]) // len(phases):,} |")
    return 0


def pydip_count(phases: int, seed: int) -> int | None:
    """pydip's instructions per movement phase on the same positions, or None."""
    try:
        import pydip  # noqa: F401
    except ImportError:
        return None
    runs = []
    for timed in (False, True):
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
             __file__, "--pydip", str(phases), str(seed), "1" if timed else "0"],
            capture_output=True, text=True, check=True,
        )
        runs.append(int(next(x for x in out.stderr.splitlines() if "Collected" in x).split()[-1]))
    return (runs[1] - runs[0]) // phases


def run_pydip(phases: int, seed: int, timed: bool) -> None:
    """The pydip child: prepare every phase (untimed in the bench), then run them."""
    from bench.peers import pydip_peer

    game_map = engine.load_map("classical")
    played, _ = collect_positions(game_map, seed, phases)
    peer = pydip_peer(game_map)
    assert peer is not None
    prepared = [peer.prepare(p) for p in played if p.state.phase_type is engine.PhaseType.MOVEMENT][:phases]
    if timed:
        for item in prepared:
            peer.run(item)


if __name__ == "__main__":
    raise SystemExit(main())
