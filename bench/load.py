"""Load with races: N games x 7 players against the local stack on loopback (issue 10).

Each player thread plays its power for ``--phases`` phases: it reads its view, submits
random legal orders (with ``phase``), sometimes resubmits other orders, sometimes retries
the same request with the same ``Idempotency-Key`` (must get the same answer) or without
one. Per game a racer thread fires ``process_turn {"phase"}`` three times at once after a
random delay while the deadline (short phase lengths), the sweeper (called directly, and
by the stack's pump) and auto-process (half the games) race it.

Afterwards it checks, from history and events, and prints:
- accepted orders lost: the last accepted order set of a power for a phase that is not
  what the phase was adjudicated with (must be 0);
- phases adjudicated twice (a phase name twice in history, or more PHASE_PROCESSED events
  than history entries; must be 0);
- event-sequence gaps (must be 0); idempotent replays that answered differently (0);
- 5xx answers (must be 0); requests/s; p50/p99 latency per route.

Bounded: ``--games`` (4), ``--phases`` (4), ``--seconds`` (90, a hard stop).
Run: ``.venv/bin/python bench/load.py`` (or ``make load``); ``--base-url`` targets a
running ``make run`` instead of starting a stack in process (the direct sweeper calls
are then left to the stack's own pump).
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import sys
import threading
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import requests  # noqa: E402

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


@dataclass
class Stats:
    lock: threading.Lock = field(default_factory=threading.Lock)
    timings: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    server_errors: list[str] = field(default_factory=list)
    replay_mismatches: int = 0
    # (game, phase, power) -> the power's whole pending set after its last accepted submission
    accepted: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)
    process_ok: int = 0
    process_stale: int = 0


class Client:
    def __init__(self, base: str, stats: Stats) -> None:
        self.base, self.stats = base, stats
        self.session = requests.Session()

    def call(self, method: str, path: str, route: str, body: Any = None, token: str | None = None,
             key: str | None = None) -> requests.Response:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if key:
            headers["Idempotency-Key"] = key
        started = time.perf_counter()
        answer = self.session.request(method, self.base + path, json=body, headers=headers, timeout=60)
        elapsed = time.perf_counter() - started
        with self.stats.lock:
            self.stats.timings[route].append(elapsed)
            self.stats.statuses[answer.status_code] += 1
            if answer.status_code >= 500:
                self.stats.server_errors.append(f"{method} {path} {answer.status_code} {answer.text[:200]}")
        return answer


@dataclass
class Game:
    game_id: str
    creator: str
    tokens: dict[str, str]
    auto: bool


def new_game(client: Client, auto: bool, phase_seconds: int) -> Game:
    created = client.call("POST", "/games", "POST /games", {
        "variant": "classical", "auto_process": auto,
        "phase_seconds": {"MOVEMENT": phase_seconds, "RETREAT": phase_seconds, "ADJUSTMENT": phase_seconds},
    }).json()
    tokens = {}
    for power in POWERS:
        joined = client.call("POST", f"/games/{created['game_id']}/join", "POST join", {"power": power})
        tokens[power] = joined.json()["token"]
    return Game(created["game_id"], created["token"], tokens, auto)


def _pick(legal: list[str], rng: random.Random) -> list[str]:
    """One random legal order per unit (orders grouped by their first two words)."""
    by_unit: dict[str, list[str]] = defaultdict(list)
    for order in legal:
        by_unit[" ".join(order.split()[:2])].append(order)
    return [rng.choice(options) for _, options in sorted(by_unit.items())]


def _submit(
    client: Client, game: Game, power: str, phase: str, orders: list[str], rng: random.Random
) -> None:
    path, token = f"/games/{game.game_id}/orders", game.tokens[power]
    body = {"orders": orders, "phase": phase}
    key = str(uuid.uuid4()) if rng.random() < 0.5 else None
    answer = client.call("POST", path, "POST orders", body, token, key)
    if answer.status_code == 200:
        client.stats.accepted[(game.game_id, phase, power)] = answer.json()["orders"]
    if key and rng.random() < 0.5:  # a client retry with the same key: the first answer again
        again = client.call("POST", path, "POST orders (replay)", body, token, key)
        if answer.status_code == 200 and (again.status_code != 200 or again.json() != answer.json()):
            with client.stats.lock:
                client.stats.replay_mismatches += 1
    elif rng.random() < 0.3:  # a retry without a key: the same order set again
        again = client.call("POST", path, "POST orders", body, token)
        if again.status_code == 200:
            client.stats.accepted[(game.game_id, phase, power)] = again.json()["orders"]


def player(client: Client, game: Game, power: str, phases: int, stop: float, seed: int) -> None:
    rng = random.Random(seed)
    done: set[str] = set()
    while time.monotonic() < stop:
        view = client.call("GET", f"/games/{game.game_id}", "GET view", token=game.tokens[power])
        if view.status_code != 200:
            time.sleep(0.05)
            continue
        state = view.json()
        if state["status"] != "ACTIVE" or len(done) >= phases:
            return
        phase = state["phase"]
        if phase in done:
            time.sleep(0.05)
            continue
        if power not in state["submitted"]:  # nothing to decide this phase
            done.add(phase)
            continue
        _submit(client, game, power, phase, _pick(state["legal_orders"], rng), rng)
        if rng.random() < 0.3:  # change of mind: other orders
            _submit(client, game, power, phase, _pick(state["legal_orders"], rng), rng)
        done.add(phase)


def racer(client: Client, game: Game, phases: int, stop: float, seed: int, operator: str) -> None:
    """Three simultaneous manual process_turn calls for the current phase, now and then, with the
    operator token: the creator may not process a timed phase before its deadline (issue 11)."""
    rng = random.Random(seed)
    seen = 0
    while time.monotonic() < stop and seen < phases:
        time.sleep(rng.uniform(0.3, 1.5))
        view = client.call("GET", f"/games/{game.game_id}", "GET view", token=game.creator).json()
        if view["status"] != "ACTIVE":
            return
        phase = view["phase"]

        def fire(phase: str = phase) -> None:
            answer = client.call("POST", f"/games/{game.game_id}/process_turn", "POST process_turn",
                                 {"phase": phase}, operator)
            with client.stats.lock:
                if answer.status_code == 200:
                    client.stats.process_ok += 1
                elif answer.status_code == 409:
                    client.stats.process_stale += 1

        threads = [threading.Thread(target=fire) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        seen += 1


def sweeper(stop: float, interval: float) -> None:
    from composition.deadline import sweep_handler

    while time.monotonic() < stop:
        try:
            sweep_handler({}, None)
        except Exception as exc:
            print(f"sweeper raised {type(exc).__name__}: {exc}", file=sys.stderr)
        time.sleep(interval)


def check(client: Client, games: list[Game]) -> dict[str, int]:
    lost = twice = gaps = phases = 0
    for game in games:
        # events first, then history: the deadline pump may process a phase in between, so
        # history can only be ahead of the events read, never behind
        events: list[dict[str, Any]] = []
        after = 0
        while True:
            path = f"/games/{game.game_id}/events?after={after}&limit=500"
            page = client.call("GET", path, "GET events").json()
            events += page["events"]
            if not page["events"]:
                break
            after = page["events"][-1]["seq"]
        history = client.call("GET", f"/games/{game.game_id}/history", "GET history").json()["phases"]
        names = [h["phase"] for h in history]
        phases += len(names)
        processed = [e["data"]["phase"] for e in events if e["type"] == "PHASE_PROCESSED"]
        doubled = (len(names) - len(set(names))) + (len(processed) - len(set(processed)))
        if doubled or not set(processed) <= set(names):
            print(f"game {game.game_id}: history {names}, PHASE_PROCESSED {processed}", file=sys.stderr)
        twice += doubled + len(set(processed) - set(names))
        seqs = [e["seq"] for e in events]
        gaps += sum(1 for a, b in zip([0, *seqs], seqs, strict=False) if b != a + 1)
        adjudicated = {h["phase"]: h["orders"] for h in history}
        for (game_id, phase, power), orders in client.stats.accepted.items():
            if game_id != game.game_id or phase not in adjudicated:
                continue
            if sorted(adjudicated[phase].get(power, ["<missing>"])) != sorted(orders):
                lost += 1
    return {"lost": lost, "twice": twice, "gaps": gaps, "phases": phases}


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(stats: Stats, found: dict[str, int], elapsed: float, args: argparse.Namespace) -> int:
    total = sum(stats.statuses.values())
    print(f"\nbench/load.py: {args.games} games x 7 players, {args.phases} phases each, "
          f"phase length {args.phase_seconds}s, {elapsed:.1f}s")
    print(f"{'check':<40}{'value':>10}")
    rows = [
        ("phases adjudicated", found["phases"]),
        ("accepted orders lost", found["lost"]),
        ("phases adjudicated twice", found["twice"]),
        ("event-sequence gaps", found["gaps"]),
        ("idempotent replays answered differently", stats.replay_mismatches),
        ("5xx answers", len(stats.server_errors)),
        ("manual process_turn 200 / 409", f"{stats.process_ok} / {stats.process_stale}"),
        ("requests", total),
        ("requests/s", f"{total / elapsed:.1f}"),
    ]
    for name, value in rows:
        print(f"{name:<40}{value!s:>10}")
    print(f"\n{'route':<28}{'n':>7}{'p50 ms':>10}{'p99 ms':>10}")
    for route, values in sorted(stats.timings.items()):
        print(f"{route:<28}{len(values):>7}{_percentile(values, 0.5) * 1000:>10.1f}"
              f"{_percentile(values, 0.99) * 1000:>10.1f}")
    print("statuses:", dict(sorted(stats.statuses.items())))
    for line in stats.server_errors[:5]:
        print("5xx:", line)
    bad = found["lost"] + found["twice"] + found["gaps"] + stats.replay_mismatches + len(stats.server_errors)
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--phases", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=90.0)
    parser.add_argument("--phase-seconds", type=int, default=4)
    parser.add_argument("--base-url", default=None)
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--operator-token", default=os.environ.get("CONVOY_OPERATOR_TOKEN"),
                        help="the stack's operator token (the racer's; default $CONVOY_OPERATOR_TOKEN)")
    args = parser.parse_args()
    stack = None
    if args.base_url is None:
        from local_stack.stack import LocalStack

        os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "ERROR")
        args.operator_token = args.operator_token or secrets.token_urlsafe(24)
        os.environ["CONVOY_OPERATOR_TOKEN"] = args.operator_token
        stack = LocalStack(port=0, pump_interval=0.5).start()
    if not args.operator_token:
        parser.error("--base-url needs --operator-token (or $CONVOY_OPERATOR_TOKEN) for the racers")
    base: str = args.base_url if stack is None else stack.url
    stats = Stats()
    try:
        setup = Client(base, stats)
        games = [new_game(setup, auto=i % 2 == 0, phase_seconds=args.phase_seconds)
                 for i in range(args.games)]
        started = time.monotonic()
        stop = started + args.seconds
        threads = [threading.Thread(target=player, args=(Client(base, stats), g, p, args.phases, stop,
                                                         args.seed + i * 10 + j))
                   for i, g in enumerate(games) for j, p in enumerate(POWERS)]
        threads += [threading.Thread(target=racer,
                                     args=(Client(base, stats), g, args.phases, stop, args.seed + i,
                                           args.operator_token))
                    for i, g in enumerate(games)]
        if stack is not None:
            threads.append(threading.Thread(target=sweeper, args=(stop, 1.0), daemon=True))
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=max(0.0, stop - time.monotonic()) + 30)
        elapsed = time.monotonic() - started
        found = check(setup, games)
        return report(stats, found, elapsed, args)
    finally:
        if stack is not None:
            stack.stop()


if __name__ == "__main__":
    raise SystemExit(main())
