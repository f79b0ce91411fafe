"""API benchmark through the embedded local stack (moto server + stdlib HTTP adapter, in process).

Prints, for a full game year (create, 7 joins, Spring/Fall 1901 orders from every power,
views, orders status, Winter builds, three process_turn calls):
- requests per second overall, median / p99 latency per route;
- DynamoDB read and write units per route (bench/capacity.py: DynamoDB's pricing rules
  applied to every call on the game table, from the requests and answers);
Then, for process_turn in a timed game, over ``TURNS`` mid-game movement phases (seven
powers ordering at random, the operator processing; issue 29): its latency, the CPU time the
whole process spent meanwhile (every thread: on a shared machine a latency well above it is time
spent waiting for a core, not work), the time spent in DynamoDB and Scheduler calls and inside
the emulator's dispatch (any thread's: the pumps' too), and per turn the reads, transactions,
ListSchedules, other Scheduler calls and write units, counted by botocore's events on the
stack's own clients;
- the META item size after 1, 10 and 50 adjudicated phases (must not grow);
- press (bench/press_bench.py): sends, reads, channel lists and read marks every phase, and
  the cost of reading 50 new messages from a game with 5,000 messages vs one with 50;
- cold start per Lambda entry point: import, and import + first request (bench/cold_start.py).

Numbers are for the emulator on this machine: they compare routes and catch
regressions; they are not AWS latencies. Run: .venv/bin/python bench/api_bench.py
(``--no-cold-start`` leaves the last table out). The script talks to the stack over HTTP and
to the use cases by their public names only, so a checkout of an older commit can be
measured with it too (copy bench/ over that checkout and run it there).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import requests  # noqa: E402

from bench import cold_start, press_bench  # noqa: E402
from bench.capacity import CapacityMeter, Meter, Reading, item_size, meter_all  # noqa: E402
from local_stack.stack import LocalStack  # noqa: E402
from testkit.openings import FALL_1901, SPRING_1901  # noqa: E402

WINTER_1901 = {"FRANCE": ["BUILD A PAR"], "GERMANY": ["BUILD A BER"], "RUSSIA": ["BUILD A MOS"],
               "AUSTRIA": ["BUILD A VIE"], "ITALY": ["BUILD A ROM"], "ENGLAND": ["BUILD F LON"]}
POWERS = sorted(SPRING_1901)
OPERATOR_TOKEN = "operator-token-of-the-api-benchmark-0123456789"
TURNS = 20  # mid-game movement phases measured
FIRST_MEASURED_YEAR = 1903
DAY = 86400


class EmulatorClock:
    """Time spent inside the emulator's dispatch (moto's backends and its answer, under the
    emulator's lock), all threads: the part of a turn that is the emulator's, not ours."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def install(self) -> None:
        from local_stack.emulator import Emulator

        original, clock = Emulator._atomic, self

        def timed_atomic(emulator: Any, app: Any) -> Any:
            inner = original(emulator, app)

            def dispatch(environ: dict[str, Any], start_response: Any) -> Any:
                started = time.perf_counter()
                try:
                    return inner(environ, start_response)
                finally:
                    clock.seconds += time.perf_counter() - started

            return dispatch

        setattr(Emulator, "_atomic", timed_atomic)  # noqa: B010 - a timing wrapper over the emulator's dispatch


EMULATOR = EmulatorClock()


class Recorder:
    def __init__(self, base: str, units: CapacityMeter) -> None:
        self.base = base
        self.units = units
        self.session = requests.Session()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.reads: dict[str, list[float]] = defaultdict(list)
        self.writes: dict[str, list[float]] = defaultdict(list)

    def __call__(self, route: str, method: str, path: str, token: str | None = None,
                 body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        reads, writes = self.units.split()
        started = time.perf_counter()
        response = self.session.request(method, self.base + path, json=body, headers=headers, timeout=30)
        self.latency[route].append(time.perf_counter() - started)
        after = self.units.split()
        self.reads[route].append(after[0] - reads)
        self.writes[route].append(after[1] - writes)
        if response.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {response.status_code} {response.text}")
        return response.json()


def play_year(call: Recorder) -> None:
    game = call("POST /games", "POST", "/games", body={"variant": "classical"})
    gid, creator = game["game_id"], game["token"]
    tokens = {p: call("POST /games/{id}/join", "POST", f"/games/{gid}/join", body={"power": p})["token"]
              for p in POWERS}
    for phase, orders in (("S1901M", SPRING_1901), ("F1901M", FALL_1901), ("W1901A", WINTER_1901)):
        for power, given in orders.items():
            call("GET /games/{id}", "GET", f"/games/{gid}", tokens[power])
            call("POST /games/{id}/orders", "POST", f"/games/{gid}/orders", tokens[power],
                 {"orders": given, "phase": phase})
            call("GET /games/{id}/orders_status", "GET", f"/games/{gid}/orders_status")
        press_bench.talk(call, gid, tokens)
        call("POST /games/{id}/process_turn", "POST", f"/games/{gid}/process_turn", creator, {"phase": phase})
        call("GET /games/{id}/last_resolution", "GET", f"/games/{gid}/last_resolution")
        call("GET /games/{id}/events", "GET", f"/games/{gid}/events?after=0")
    call("GET /games/{id}/history", "GET", f"/games/{gid}/history")
    call("GET /games", "GET", "/games")
    call("GET /variants", "GET", "/variants")


def random_orders(legal: list[str], rng: random.Random) -> list[str]:
    """One random legal order per unit (a unit's orders share their first two words)."""
    by_unit: dict[str, list[str]] = {}
    for order in legal:
        by_unit.setdefault(" ".join(order.split()[:2]), []).append(order)
    return [rng.choice(options) for options in by_unit.values()]


def turn_costs(base: str, counted: Meter, turns: int = TURNS, seed: int = 29) -> list[tuple[float, Reading]]:
    """(latency, what was called) of each process_turn of ``turns`` movement phases of a timed
    game (one-day phases: every turn schedules the next deadline), from FIRST_MEASURED_YEAR."""
    session, rng = requests.Session(), random.Random(seed)

    def call(method: str, path: str, token: str | None = None, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = session.request(method, base + path, json=body, headers=headers, timeout=30)
        if response.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {response.status_code} {response.text}")
        return response.json()

    seconds = {"MOVEMENT": DAY, "RETREAT": DAY, "ADJUSTMENT": DAY}
    gid = call("POST", "/games", body={"variant": "classical", "phase_seconds": seconds})["game_id"]
    tokens = {p: call("POST", f"/games/{gid}/join", body={"power": p})["token"] for p in POWERS}
    measured: list[tuple[float, Reading]] = []
    while len(measured) < turns:
        view = call("GET", f"/games/{gid}")
        if view["status"] != "ACTIVE":
            raise RuntimeError(f"the benchmark game ended at {view['phase']}: {view['result']}")
        for power in POWERS:
            mine = call("GET", f"/games/{gid}", tokens[power])
            if mine["legal_orders"]:
                call("POST", f"/games/{gid}/orders", tokens[power],
                     {"orders": random_orders(mine["legal_orders"], rng), "phase": view["phase"]})
        before, started, inside = counted.snapshot(), time.perf_counter(), EMULATOR.seconds
        cpu = time.process_time()
        call("POST", f"/games/{gid}/process_turn", OPERATOR_TOKEN, {"phase": view["phase"]})
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        if view["phase_type"] == "MOVEMENT" and view["year"] >= FIRST_MEASURED_YEAR:
            reading = counted.snapshot() - before
            reading.seconds["emulator"] = EMULATOR.seconds - inside
            reading.seconds["process CPU"] = cpu
            measured.append((elapsed, reading))
    return measured


def print_turns(measured: list[tuple[float, Reading]]) -> None:
    rows: list[tuple[str, list[float]]] = [
        ("process_turn (ms)", [t * 1000 for t, _ in measured]),
        ("  process CPU meanwhile, all threads (ms)",
         [r.seconds.get("process CPU", 0.0) * 1000 for _, r in measured]),
        ("  in DynamoDB calls (ms)", [r.seconds.get("dynamodb", 0.0) * 1000 for _, r in measured]),
        ("  in Scheduler calls (ms)", [r.seconds.get("scheduler", 0.0) * 1000 for _, r in measured]),
        ("  inside the emulator, all threads (ms)",
         [r.seconds.get("emulator", 0.0) * 1000 for _, r in measured]),
        ("reads of the game (GetItem, Query, BatchGetItem)",
         [float(r.count("dynamodb", "GetItem", "Query", "BatchGetItem")) for _, r in measured]),
        ("transactions (TransactWriteItems)",
         [float(r.count("dynamodb", "TransactWriteItems")) for _, r in measured]),
        ("other DynamoDB writes (PutItem, UpdateItem)",
         [float(r.count("dynamodb", "PutItem", "UpdateItem")) for _, r in measured]),
        ("ListSchedules", [float(r.count("scheduler", "ListSchedules")) for _, r in measured]),
        ("other Scheduler calls", [float(r.count("scheduler") - r.count("scheduler", "ListSchedules"))
                                   for _, r in measured]),
        ("read units", [r.reads for _, r in measured]),
        ("write units", [r.writes for _, r in measured]),
    ]
    print(f"process_turn of {len(measured)} mid-game movement phases (timed game, seven powers ordering, "
          "in-process stack):")
    print()
    print(f"| {'per turn':<48} | {'median':>7} | {'p90':>7} |")
    print(f"|{'-' * 50}|{'-' * 9}|{'-' * 9}|")
    for name, values in rows:
        print(f"| {name:<48} | {statistics.median(values):>7.1f} | {percentile(values, 0.9):>7.1f} |")


def meta_sizes() -> dict[int, int]:
    """Play 50 phases through the use cases on the emulator's table (the operator processing:
    nobody is seated out for missing orders); META's size in bytes."""
    from composition import wiring
    from functions.usecases.games import CreateGame, create_game
    from functions.usecases.players import Actor
    from functions.usecases.seats import join_game
    from functions.usecases.turns import process_turn, submit_orders
    from infra.dynamodb import items

    services = wiring.services()
    store, clock = services.store, services.clock
    gid = create_game(store, clock, CreateGame()).game_id
    for power in POWERS:
        join_game(store, clock, gid, power)
    sizes: dict[int, int] = {}
    for n in range(1, 51):
        game = store.load(gid)
        script = {"S1901M": SPRING_1901, "F1901M": FALL_1901}.get(game.phase, {})
        for power, given in script.items():
            submit_orders(store, clock, gid, Actor("player", power), given)
        process_turn(store, clock, gid, Actor("operator"), expected_phase=game.phase)
        if n in (1, 10, 50):
            sizes[n] = item_size(items.game_item(store.load(gid)))
    return sizes


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def print_routes(call: Recorder, years: int, elapsed: float) -> None:
    total = sum(len(v) for v in call.latency.values())
    print(f"API benchmark: {years} full game years through the embedded stack "
          f"({total} requests, {elapsed:.2f} s, {total / elapsed:.0f} requests/s, one client)")
    print()
    print(f"| {'route':<35} | {'n':>4} | {'median ms':>9} | {'p99 ms':>7} | {'read units':>10} "
          f"| {'write units':>11} |")
    print(f"|{'-' * 37}|{'-' * 6}|{'-' * 11}|{'-' * 9}|{'-' * 12}|{'-' * 13}|")
    for route in sorted(call.latency):
        lat = call.latency[route]
        print(f"| {route:<35} | {len(lat):>4} | {statistics.median(lat) * 1000:>9.1f} | "
              f"{percentile(lat, 0.99) * 1000:>7.1f} | {statistics.mean(call.reads[route]):>10.1f} "
              f"| {statistics.mean(call.writes[route]):>11.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-cold-start", action="store_true", help="leave out the cold-start table")
    args = parser.parse_args()
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    os.environ["CONVOY_OPERATOR_TOKEN"] = OPERATOR_TOKEN
    EMULATOR.install()
    stack = LocalStack(port=0).start()
    try:
        from composition import wiring

        # the request's own calls: not the pumps' (stream relay, notifier, sweeper) beside it
        counted = meter_all(wiring.settings().game_table, ignore=("convoy-pumps", "convoy-timers"))
        play_year(Recorder(stack.url, counted.units))  # warm-up (maps, caches, first-call costs)
        call = Recorder(stack.url, counted.units)
        started = time.perf_counter()
        years = 3
        for _ in range(years):
            play_year(call)
        print_routes(call, years, time.perf_counter() - started)
        print()
        print_turns(turn_costs(stack.url, counted))
        print()
        sizes = meta_sizes()
        print("META item size (bytes, DynamoDB item-size rules): "
              + ", ".join(f"after {n} phases: {size}" for n, size in sizes.items()))
        print()
        press_bench.print_read_cost(press_bench.read_cost(stack.url, counted.units))
    finally:
        stack.stop()
    if not args.no_cold_start:
        print()
        print(cold_start.table(cold_start.measure(runs=5), runs=5))


if __name__ == "__main__":
    main()
