"""The sandbox's cost (issue 19): POST /adjudicate and /adjudicate/legal_orders in process.

Sends each request shape N times straight into the API Lambda handler (over in-memory
fakes, so no rate limit and no HTTP) and prints median / p95 milliseconds per shape:
the opening position with every power's standard openings, the same as compact text, the
legal-order menus of the opening, and every DATC case once (the whole of §6 and the
alternatives, one request each, retreat cases two). Run: .venv/bin/python bench/sandbox_bench.py [N]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from testkit.api_harness import in_process_api  # noqa: E402
from testkit.datc import EXTRA, MAIN  # noqa: E402
from testkit.openings import SPRING_1901  # noqa: E402
from testkit.sandbox_datc import api_rules, run_case_over_api  # noqa: E402


def _timed(run: Callable[[], Any], n: int) -> list[float]:
    out = []
    for _ in range(n):
        started = time.perf_counter()
        run()
        out.append((time.perf_counter() - started) * 1000)
    return out


def main(n: int = 200) -> None:
    for api in in_process_api():
        _report(api, n)


def _report(api: Any, n: int) -> None:
    start = engine.initial_state(engine.load_map("classical"))
    state = engine.state_to_dict(start)
    compact = engine.format_compact_state(start)

    def post(path: str, body: dict[str, Any]) -> Callable[[], Any]:
        def run() -> None:
            answer = api.call("POST", path, body)
            assert answer.status == 200, answer.raw

        return run

    def datc() -> None:
        for case in [c for c in MAIN + EXTRA if api_rules(c) is not None]:
            run_case_over_api(
                case, lambda body: (lambda a: (a.status, a.body))(api.call("POST", "/adjudicate", body))
            )

    shapes = [
        (
            "adjudicate: opening, JSON state, 22 orders",
            post("/adjudicate", {"state": state, "orders": SPRING_1901}),
            n,
        ),
        (
            "adjudicate: opening, compact, +compact out",
            post("/adjudicate", {"compact": compact, "orders": SPRING_1901, "include_compact": True}),
            n,
        ),
        ("legal_orders: opening, all powers", post("/adjudicate/legal_orders", {"state": state}), n),
        ("every DATC case (one pass)", datc, 3),
    ]
    print(f"{'request':48} {'runs':>5} {'median ms':>10} {'p95 ms':>8}")
    for name, request, runs in shapes:
        times = sorted(_timed(request, runs))
        p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
        print(f"{name:48} {runs:>5} {statistics.median(times):>10.2f} {p95:>8.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
