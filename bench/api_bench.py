"""API benchmark through the embedded local stack (moto server + stdlib HTTP adapter).

Prints, for a full game year (create, 7 joins, Spring/Fall 1901 orders from every power,
views, orders status, Winter builds, three process_turn calls):
- requests per second overall, median / p99 latency per route;
- DynamoDB consumed capacity per route (ReturnConsumedCapacity, game table only);
- the META item size after 1, 10 and 50 adjudicated phases (must not grow);
- press (bench/press_bench.py): sends, reads, channel lists and read marks every phase, and
  the cost of reading 50 new messages from a game with 5,000 messages vs one with 50;
- cold start per Lambda entry point: import, and import + first request (bench/cold_start.py).

Numbers are for the emulator on this machine: they compare routes and catch
regressions; they are not AWS latencies. Run: .venv/bin/python bench/api_bench.py
"""

from __future__ import annotations

import os
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
from bench.capacity import CapacityMeter, item_size, meter  # noqa: E402
from local_stack.stack import LocalStack  # noqa: E402
from tests.functions.openings import FALL_1901, SPRING_1901  # noqa: E402

WINTER_1901 = {"FRANCE": ["BUILD A PAR"], "GERMANY": ["BUILD A BER"], "RUSSIA": ["BUILD A MOS"],
               "AUSTRIA": ["BUILD A VIE"], "ITALY": ["BUILD A ROM"], "ENGLAND": ["BUILD F LON"]}


class Recorder:
    def __init__(self, base: str, units: CapacityMeter) -> None:
        self.base = base
        self.units = units
        self.session = requests.Session()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.capacity: dict[str, list[float]] = defaultdict(list)

    def __call__(self, route: str, method: str, path: str, token: str | None = None,
                 body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        units = self.units.read()
        started = time.perf_counter()
        response = self.session.request(method, self.base + path, json=body, headers=headers, timeout=30)
        self.latency[route].append(time.perf_counter() - started)
        self.capacity[route].append(self.units.read() - units)
        if response.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {response.status_code} {response.text}")
        return response.json()


def play_year(call: Recorder) -> None:
    game = call("POST /games", "POST", "/games", body={"variant": "classical"})
    gid, creator = game["game_id"], game["token"]
    tokens = {p: call("POST /games/{id}/join", "POST", f"/games/{gid}/join", body={"power": p})["token"]
              for p in sorted(SPRING_1901)}
    for phase, orders in (("S1901M", SPRING_1901), ("F1901M", FALL_1901), ("W1901A", WINTER_1901)):
        for power, given in orders.items():
            call("GET /games/{id}", "GET", f"/games/{gid}", tokens[power])
            call("POST /games/{id}/orders", "POST", f"/games/{gid}/orders", tokens[power],
                 {"orders": given, "phase": phase})
            call("GET /games/{id}/orders_status", "GET", f"/games/{gid}/orders_status")
        press_bench.talk(call, gid, tokens)
        call("POST /games/{id}/process_turn", "POST", f"/games/{gid}/process_turn", creator)
        call("GET /games/{id}/last_resolution", "GET", f"/games/{gid}/last_resolution")
        call("GET /games/{id}/events", "GET", f"/games/{gid}/events?after=0")
    call("GET /games/{id}/history", "GET", f"/games/{gid}/history")
    call("GET /games", "GET", "/games")
    call("GET /variants", "GET", "/variants")


def meta_sizes(stack: LocalStack) -> dict[int, int]:
    """Play 50 phases through the use cases on the emulator's table; META size in bytes."""
    from functions import wiring
    from functions.usecases.common import SCHEDULER, Actor
    from functions.usecases.create_game import CreateGame, create_game
    from functions.usecases.join import join_game
    from functions.usecases.process_turn import process_turn
    from functions.usecases.submit_orders import submit_orders
    from infra.dynamodb import items

    services = wiring.services()
    store, clock = services.store, services.clock
    gid = create_game(store, clock, CreateGame()).game_id
    for power in sorted(SPRING_1901):
        join_game(store, clock, gid, power)
    sizes: dict[int, int] = {}
    for n in range(1, 51):
        game = store.load(gid)
        script = {"S1901M": SPRING_1901, "F1901M": FALL_1901}.get(game.phase, {})
        for power, given in script.items():
            submit_orders(store, clock, gid, Actor("player", power), given)
        process_turn(store, clock, gid, SCHEDULER)
        if n in (1, 10, 50):
            sizes[n] = item_size(items.game_item(store.load(gid)))
    return sizes


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    stack = LocalStack(port=0).start()
    try:
        from functions import wiring
        from infra import aws_clients

        units = meter(aws_clients.dynamodb(), wiring.settings().game_table)
        call = Recorder(stack.url, units)
        play_year(call)  # warm-up (maps, caches, first-call costs)
        call = Recorder(stack.url, units)
        started = time.perf_counter()
        years = 3
        for _ in range(years):
            play_year(call)
        elapsed = time.perf_counter() - started
        total = sum(len(v) for v in call.latency.values())
        print(f"API benchmark: {years} full game years through the embedded stack "
              f"({total} requests, {elapsed:.2f} s, {total / elapsed:.0f} requests/s, one client)")
        print()
        print(f"| {'route':<34} | {'n':>4} | {'median ms':>9} | {'p99 ms':>7} | {'capacity units/req':>18} |")
        print(f"|{'-' * 36}|{'-' * 6}|{'-' * 11}|{'-' * 9}|{'-' * 20}|")
        for route in sorted(call.latency):
            lat = call.latency[route]
            cap = statistics.mean(call.capacity[route])
            print(f"| {route:<34} | {len(lat):>4} | {statistics.median(lat) * 1000:>9.1f} | "
                  f"{percentile(lat, 0.99) * 1000:>7.1f} | {cap:>18.1f} |")
        print()
        sizes = meta_sizes(stack)
        print("META item size (bytes, DynamoDB item-size rules): "
              + ", ".join(f"after {n} phases: {size}" for n, size in sizes.items()))
        print()
        press_bench.print_read_cost(press_bench.read_cost(stack.url, units))
    finally:
        stack.stop()
    print()
    print(cold_start.table(cold_start.measure(runs=5), runs=5))


if __name__ == "__main__":
    main()
