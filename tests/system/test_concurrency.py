"""Issue 9, done-when: 50 racing order submissions and process triggers through real HTTP,
against the ``make run`` stack with two API worker processes. Every accepted order is in
the adjudication of the phase it was accepted for, and each phase is adjudicated once."""

from __future__ import annotations

import itertools
import threading
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from testkit.openings import SPRING_1901
from tests.system.server_process import ServerProcess

pytestmark = pytest.mark.system
POWERS = sorted(SPRING_1901)
# Two different orders per unit of Spring 1901, so that every accepted one is recognisable.
CHOICES = [(power, order.split(" - ")[0], [order, f"{order.split(' - ')[0]} H"])
           for power, orders in sorted(SPRING_1901.items()) for order in orders]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    running = ServerProcess(tmp_path_factory.mktemp("data"), workers=2).start()
    yield running
    running.kill()


def _seated_game(base: str) -> tuple[str, str, dict[str, str]]:
    """A classical game with every power seated: (game id, creator's token, tokens by power)."""
    created = requests.post(base + "/games", json={}, timeout=30).json()
    game_id, creator = created["game_id"], created["token"]
    tokens = {p: requests.post(f"{base}/games/{game_id}/join", json={"power": p}, timeout=30).json()["token"]
              for p in POWERS}
    return game_id, creator, tokens


def _jobs() -> list[tuple[str, Any]]:
    """50 jobs: every fifth a process trigger, the others an order (power, unit, order), the
    units in turn and each unit's two choices alternating."""
    jobs: list[tuple[str, Any]] = []
    choices = itertools.cycle(CHOICES)
    for n in range(50):
        if n % 5 == 4:
            jobs.append(("process", None))
        else:
            power, unit, options = next(choices)
            jobs.append(("order", (power, unit, options[n % 2])))
    return jobs


def _race(base: str, game_id: str, creator: str, tokens: dict[str, str],
          jobs: list[tuple[str, Any]]) -> list[tuple[str, Any, int, Any]]:
    """Every job in its own thread, all released at once by a barrier so that they truly race:
    (kind, payload, status, body) of each, in the order they were answered."""
    start = threading.Barrier(len(jobs), timeout=60)
    results: list[tuple[str, Any, int, Any]] = []
    lock = threading.Lock()

    def run(kind: str, payload: Any) -> None:
        session = requests.Session()
        start.wait()
        if kind == "process":  # the phase it sees: process_turn names the phase to close (issue 28)
            phase = session.get(f"{base}/games/{game_id}", timeout=120).json()["phase"]
            response = session.post(f"{base}/games/{game_id}/process_turn", json={"phase": phase},
                                    headers={"Authorization": f"Bearer {creator}"}, timeout=120)
        else:
            power, _, order = payload
            response = session.post(f"{base}/games/{game_id}/orders/add", json={"orders": [order]},
                                    headers={"Authorization": f"Bearer {tokens[power]}"}, timeout=120)
        with lock:
            results.append((kind, payload, response.status_code, response.json()))

    threads = [threading.Thread(target=run, args=job) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_racing_submissions_and_triggers_lose_nothing_and_adjudicate_once(server: ServerProcess) -> None:
    base = server.url
    game_id, creator, tokens = _seated_game(base)
    results = _race(base, game_id, creator, tokens, _jobs())

    assert all(status in (200, 409) for _, _, status, _ in results), results
    history = requests.get(f"{base}/games/{game_id}/history", timeout=30).json()["phases"]
    phases = [entry["phase"] for entry in history]
    processed = [body["resolution"]["phase"] for kind, _, status, body in results
                 if kind == "process" and status == 200]
    # each phase adjudicated once: one history entry per successful trigger, no phase twice
    assert len(phases) == len(set(phases)) == len(processed) and sorted(processed) == sorted(phases)
    assert [entry["n"] for entry in history] == list(range(len(history)))
    # every accepted order is in its phase's adjudicated orders (a later accepted order for
    # the same unit may have replaced it, so: the unit's order is one that was accepted)
    accepted: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for kind, payload, status, body in results:
        if kind == "order" and status == 200 and body["accepted"]:
            power, unit, order = payload
            accepted[(body["phase"], power, unit)].add(order)
    orders_of = {entry["phase"]: entry["orders"] for entry in history}
    checked = 0
    for (phase, power, unit), given in accepted.items():
        if phase not in orders_of:
            continue  # accepted for the phase now pending: see below
        kept = [o for o in orders_of[phase].get(power, []) if o.startswith(unit + " ")]
        assert len(kept) == 1 and kept[0] in given, (phase, power, unit, given, kept)
        checked += 1
    pending_phase = requests.get(f"{base}/games/{game_id}", timeout=30).json()["phase"]
    for (phase, power, unit), given in accepted.items():
        if phase == pending_phase:
            auth = {"Authorization": f"Bearer {tokens[power]}"}
            view = requests.get(f"{base}/games/{game_id}", headers=auth, timeout=30).json()
            kept = [o for o in view["orders"].get(power, []) if o.startswith(unit + " ")]
            assert len(kept) == 1 and kept[0] in given, (phase, power, unit, given, kept)
            checked += 1
    assert checked == len(accepted) > 0
