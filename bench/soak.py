"""Soak benchmark of the ``make run`` stack (issue 9): does it stay flat when left on?

Starts ``python -m local_stack`` (the process ``make run`` starts) on a free port and a
fresh temporary data directory, plays ``--games`` games of ``--phases`` phases through
HTTP with ``--clients`` concurrent clients (every power reads its view and submits
random legal orders each movement and retreat phase, or ``--ordering N`` random powers
of them; the creator calls process_turn), and beside them ``--timed`` games that nobody
plays, run by their two-second deadlines alone, then leaves it idle for ``--idle`` seconds.
Prints a table: RSS of the whole process tree (server plus API worker processes) at start /
after play / after idle, and process_turn p50/p99 over the first and the last 10 % of phases
(by time); then it
restarts the stack on the same data directory and prints its RSS once the data is read
back (how much of the RSS after play is the data itself). Last it prints "phases processed by
the sweeper: N" (goal 0, issue 28): every deadline must be fired by its own schedule, the
backstop sweeper (the local stack logs each phase it had to process) never needed.

Targets: RSS after idle within 1.2x of RSS after play; late p50 within 1.5x of early
p50. A printed table, not a test. Quick run:
    .venv/bin/python bench/soak.py --games 4 --phases 6 --clients 2 --idle 10
Full run (takes a while on 2 cores):
    nice .venv/bin/python bench/soak.py
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parents[1]
PAGE = os.sysconf("SC_PAGE_SIZE")
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def _children(pid: int) -> Iterator[int]:
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            text = (task / "children").read_text()
        except OSError:
            continue
        for child in text.split():
            yield int(child)
            yield from _children(int(child))


def rss_mb(pid: int) -> float:
    """Resident set size of a process and all its descendants, in MB (/proc/PID/statm)."""
    total = 0
    for each in {pid, *_children(pid)}:
        try:
            total += int(Path(f"/proc/{each}/statm").read_text().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            continue
    return total / 1e6


class Client:
    def __init__(self, base: str) -> None:
        self.base = base
        self.session = requests.Session()

    def call(self, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if method == "POST":  # a retry after a 502/503 must not apply a write twice
            headers["Idempotency-Key"] = uuid.uuid4().hex
        for attempt in range(5):
            response = self.session.request(method, self.base + path, json=body, headers=headers, timeout=120)
            if response.status_code not in (502, 503):
                break
            time.sleep(0.5 * (attempt + 1))
        if response.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {response.status_code} {response.text[:300]}")
        return response.json() if response.content else None


def random_orders(legal: list[str], rng: random.Random) -> list[str]:
    """One random legal order per unit (orders of a unit share their first two words)."""
    by_unit: dict[str, list[str]] = {}
    for order in legal:
        by_unit.setdefault(" ".join(order.split()[:2]), []).append(order)
    return [rng.choice(options) for options in by_unit.values()]


def play(base: str, phases: int, rng: random.Random, turns: list[tuple[float, float]],
         lock: threading.Lock, ordering: int = 7, stop_at: float = float("inf")) -> None:
    client = Client(base)
    created = client.call("POST", "/games", body={"variant": "classical"})
    game_id, creator = created["game_id"], created["token"]
    tokens = {p: client.call("POST", f"/games/{game_id}/join", body={"power": p})["token"] for p in POWERS}
    phase = "S1901M"
    for _ in range(phases):
        if time.monotonic() > stop_at:  # --play-seconds: the run that fits the time there is
            return
        for power in rng.sample(POWERS, ordering):  # ordering=0: nobody orders, every unit holds
            view = client.call("GET", f"/games/{game_id}", tokens[power])
            if view["status"].upper() != "ACTIVE":
                return
            if view["phase_type"] != "ADJUSTMENT" and view["legal_orders"]:
                client.call("POST", f"/games/{game_id}/orders", tokens[power],
                            {"orders": random_orders(view["legal_orders"], rng), "phase": view["phase"]})
        started = time.perf_counter()
        phase = client.call("POST", f"/games/{game_id}/process_turn", creator, {"phase": phase})["phase"]
        with lock:
            turns.append((time.monotonic(), time.perf_counter() - started))
            if len(turns) % 100 == 0:  # progress, on stderr: a full run takes a while
                print(f"  {len(turns)} phases processed", file=sys.stderr, flush=True)


TIMED_SECONDS = 2  # each phase of a timed game


def timed_game(base: str) -> str:
    """A game nobody plays: its phases end at their deadlines (nobody is seated out for it)."""
    client = Client(base)
    seconds = {kind: TIMED_SECONDS for kind in ("MOVEMENT", "RETREAT", "ADJUSTMENT")}
    created = client.call("POST", "/games", body={"phase_seconds": seconds, "civil_disorder_after": 0})
    for power in POWERS:
        client.call("POST", f"/games/{created['game_id']}/join", body={"power": power})
    return str(created["game_id"])


def swept_phases(log: Path) -> int:
    """How many phases the local stack's sweeper processed: it logs each sweep that did."""
    found = re.findall(r"the sweeper processed (\d+) overdue phase", log.read_text(errors="replace"))
    return sum(int(n) for n in found)


def start_server(data_dir: str, port: int, fresh: bool = True,
                 log: Path | None = None) -> subprocess.Popen[bytes]:
    env = {**os.environ, "CONVOY_PORT": str(port), "POWERTOOLS_LOG_LEVEL": "ERROR"}
    command = [sys.executable, "-m", "local_stack", "--data-dir", data_dir, *(["--fresh"] if fresh else [])]
    errors = log.open("ab") if log is not None else None  # the server's warnings, read after the run
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=errors)
    give_up = time.monotonic() + 120
    while time.monotonic() < give_up:
        try:
            if requests.get(f"http://127.0.0.1:{port}/variants", timeout=5).status_code == 200:
                return server
        except requests.RequestException:
            time.sleep(0.3)
    server.kill()
    raise RuntimeError("the local stack did not come up")


def _phases_done(base: str, game_id: str) -> int:
    return len(Client(base).call("GET", f"/games/{game_id}/history?limit=200")["phases"])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--phases", type=int, default=30)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--idle", type=float, default=300.0, help="seconds to idle after play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--play-seconds", type=float, default=float("inf"),
                        help="stop starting phases after this long (the table says how many ran)")
    parser.add_argument("--ordering", type=int, default=7, choices=range(8),
                        help="powers that view and order each phase (the others hold; 0: all hold)")
    parser.add_argument("--timed", type=int, default=4,
                        help=f"games nobody plays, run by {TIMED_SECONDS}-second deadlines during the play")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from local_stack.emulator import free_port

    port = free_port()
    with tempfile.TemporaryDirectory(prefix="convoy-soak-") as data_dir, \
            tempfile.TemporaryDirectory(prefix="convoy-soak-log-") as logs:
        log = Path(logs) / "server.log"
        server = start_server(data_dir, port, log=log)
        played: list[float] = []
        try:
            played.append(report(server, f"http://127.0.0.1:{port}", args, data_dir))
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=120)
        # The same data read back by a new process: what of the RSS after play is the
        # data itself (moto holds every item in memory) rather than left over from play.
        server = start_server(data_dir, port, fresh=False)
        try:
            time.sleep(2)
            restarted = rss_mb(server.pid)
            print(f"| RSS after a restart on the same data (MB) | {restarted:8.0f} |")
            # issue 28 item 14: the stack's memory should follow its data (target <= 1.25)
            print(f"| RSS after play / after a restart          | {played[0] / restarted:8.2f} |")
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=120)
        print()
        print(f"phases processed by the sweeper: {swept_phases(log)}")


def report(server: subprocess.Popen[bytes], base: str, args: argparse.Namespace, data_dir: str) -> float:
    """Play, idle and print the table; the RSS after play (MB)."""
    time.sleep(2)  # let the API workers finish importing
    rss_start = rss_mb(server.pid)
    timed = [timed_game(base) for _ in range(args.timed)]
    turns, errors, played = _play_concurrently(base, args)
    by_deadline = sum(_phases_done(base, game_id) for game_id in timed)
    rss_play = rss_mb(server.pid)
    time.sleep(args.idle)
    rss_idle = rss_mb(server.pid)
    durations = [d for _, d in sorted(turns)]
    if not durations:
        raise SystemExit(f"no phase was processed; errors: {errors[:3]!r}")
    size = sum(f.stat().st_size for f in Path(data_dir).rglob("*") if f.is_file()) / 1e6
    cut = f" (play cut at {args.play_seconds:.0f} s)" if played >= args.play_seconds else ""
    print(f"Soak: {args.games} games x {args.phases} phases{cut}, {args.clients} concurrent clients, "
          f"{args.ordering} powers ordering per phase, "
          f"{len(turns)} process_turn calls in {played:.0f} s, then {args.idle:.0f} s idle; "
          f"data directory {size:.1f} MB")
    if errors:
        print(f"  {len(errors)} game(s) failed; first: {errors[0]!r}")
    print(f"  {args.timed} timed games (nobody played them): {by_deadline} phases ended by their deadlines")
    print()
    _print_table((rss_start, rss_play, rss_idle), durations)
    return rss_play


def _play_concurrently(
    base: str, args: argparse.Namespace
) -> tuple[list[tuple[float, float]], list[BaseException], float]:
    """Every game played by ``args.clients`` threads until done or ``args.play_seconds`` pass:
    (each process_turn's (start, duration), the games' failures, seconds played). A failed game
    is kept for the report and the other clients go on, so one bad game does not end the soak."""
    turns: list[tuple[float, float]] = []
    lock = threading.Lock()
    rng = random.Random(args.seed)
    seeds = [rng.randrange(1 << 30) for _ in range(args.games)]
    pending = list(seeds)
    errors: list[BaseException] = []

    def worker() -> None:
        while True:
            with lock:
                if not pending:
                    return
                seed = pending.pop()
            try:
                play(base, args.phases, random.Random(seed), turns, lock, args.ordering, stop_at)
            except BaseException as exc:  # report after the run, keep the others going
                errors.append(exc)

    started = time.monotonic()
    stop_at = started + args.play_seconds
    threads = [threading.Thread(target=worker) for _ in range(args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return turns, errors, time.monotonic() - started


def _print_table(rss: tuple[float, float, float], durations: list[float]) -> None:
    """Memory at start, after play and after idle, and process_turn's time early against late
    in the run (the first and last tenth of the turns): a leak or a slowdown shows as a ratio."""
    rss_start, rss_play, rss_idle = rss
    tenth = max(1, len(durations) // 10)
    early, late = durations[:tenth], durations[-tenth:]
    print("| measure                         | value    |")
    print("|---------------------------------|----------|")
    print(f"| RSS at start (MB)               | {rss_start:8.0f} |")
    print(f"| RSS after play (MB)             | {rss_play:8.0f} |")
    print(f"| RSS after idle (MB)             | {rss_idle:8.0f} |")
    print(f"| idle / play                     | {rss_idle / rss_play:8.2f} |")
    print(f"| process_turn p50, first 10% (ms)| {statistics.median(early) * 1000:8.0f} |")
    print(f"| process_turn p99, first 10% (ms)| {percentile(early, 0.99) * 1000:8.0f} |")
    print(f"| process_turn p50, last 10% (ms) | {statistics.median(late) * 1000:8.0f} |")
    print(f"| process_turn p99, last 10% (ms) | {percentile(late, 0.99) * 1000:8.0f} |")
    print(f"| late p50 / early p50            | {statistics.median(late) / statistics.median(early):8.2f} |")


if __name__ == "__main__":
    main()
