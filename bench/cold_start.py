"""Cold start: the SnapStart figures from the built artifacts (bench/snapstart.py, issue 27), then,
for comparison, the round-2 measure: a handler module's import PLUS its first request (issue 9).

On Lambda, SnapStart makes the import and the priming part of the snapshot (once per published
version), so the figure a player feels is the first request after the restore: the first table.
The second table is the old import-only measure, from the checkout, kept to compare with earlier
rounds (docs/performance.md); it is not what a deployed function pays.

For every Lambda entry point of template.yaml, in a fresh interpreter each time (median
of ``--runs``, default 5), against the local stack's emulator (moto server):

- ``import``: ``import functions.<fn>.handler``;
- ``import + first``: that, plus the first invocation with a typical event (building the
  adapters and their botocore clients included; interpreter start-up is not).

First events: api — a player's view ``GET /games/{id}`` with their token; api-orders — the
same player's ``POST /games/{id}/orders`` (the first request with a body); deadline — a
late firing for a phase the game has left (a no-op, as in production); sweep — a sweep
over the games; relay — a stream record of an OUTBOX item (sent to the queue); notifier —
that message from the queue (the game has no targets: nothing sent); telegram — ``/help``
from a chat (answered through the outbox). The numbers are for this machine and the
emulator, not AWS; they compare revisions. Run: ``.venv/bin/python bench/cold_start.py``;
``--instructions`` counts CPU instructions under valgrind instead (repeatable on a busy
machine: the same code executes the same instructions, whatever else runs). Both read
compiled bytecode of our packages (``_bytecode_env``), as a deployment shipping
``__pycache__`` would.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

MARK = "COLD-START "
# Every child ends with os._exit: the interpreter's finalization (a last collection, every
# module torn down) is no part of a cold start, and it grows with what was imported, so
# counting its instructions would credit a change with work a Lambda environment never does.
END = "sys.stdout.flush(); import os; os._exit(0)"
TELEGRAM_SECRET = "bench-secret"

CHILD = """
import json, sys, time
t0 = time.perf_counter()
import importlib
module = importlib.import_module(sys.argv[1])
t1 = time.perf_counter()

class Context:
    function_name = "convoy-bench"
    aws_request_id = "bench-request"
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:convoy-bench"
    memory_limit_in_mb = 512
    def get_remaining_time_in_millis(self):
        return 15000

result = getattr(module, sys.argv[2])(json.loads(sys.argv[3]), Context())
t2 = time.perf_counter()
print("COLD-START " + json.dumps({"import": t1 - t0, "first": t2 - t0, "result": result}, default=str))
""" + END + "\n"


@dataclass(frozen=True)
class EntryPoint:
    name: str
    module: str
    function: str
    event: Callable[[dict[str, str]], dict[str, Any]]
    ok: Callable[[Any], bool]


def _http_event(method: str, path: str, headers: dict[str, str], body: str | None = None) -> dict[str, Any]:
    return {
        "version": "2.0", "routeKey": "$default", "rawPath": path, "rawQueryString": "",
        "headers": headers, "body": body, "isBase64Encoded": False,
        "requestContext": {"http": {"method": method, "path": path, "sourceIp": "127.0.0.1"},
                           "requestId": "bench", "stage": "$default"},
    }


def _outbox_record(game: dict[str, str]) -> dict[str, Any]:
    image = {
        "pk": {"S": f"GAME#{game['game_id']}"}, "sk": {"S": "OUTBOX#000000000001"},
        "seq": {"N": "1"}, "kind": {"S": "PLAYER_JOINED"}, "game_id": {"S": game["game_id"]},
        "dedupe_key": {"S": f"GAME#{game['game_id']}|OUTBOX#000000000001"}, "payload": {"M": {}},
    }
    return {"eventID": "1", "eventName": "INSERT", "eventSource": "aws:dynamodb",
            "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/convoy-games/stream/x",
            "dynamodb": {"Keys": {"pk": image["pk"], "sk": image["sk"]}, "NewImage": image,
                         "SequenceNumber": "1", "StreamViewType": "NEW_IMAGE"}}


def _sqs_record(game: dict[str, str]) -> dict[str, Any]:
    body = json.dumps({"dedupe_key": f"bench|{game['game_id']}", "kind": "PLAYER_JOINED",
                       "game_id": game["game_id"], "payload": {}, "target": None})
    return {"messageId": "m1", "receiptHandle": "r1", "body": body, "attributes": {},
            "messageAttributes": {}, "md5OfBody": "", "eventSource": "aws:sqs",
            "eventSourceARN": "arn:aws:sqs:us-east-1:123456789012:convoy-outbox", "awsRegion": "us-east-1"}


def _telegram_update() -> str:
    return json.dumps({"update_id": int(time.time() * 1000) % 2**31, "message": {
        "message_id": 1, "text": "/help", "chat": {"id": 4242, "type": "private"},
        "from": {"id": 4242, "is_bot": False, "first_name": "Bench"}}})


ENTRY_POINTS = (
    EntryPoint("api", "composition.api", "lambda_handler",
               lambda g: _http_event("GET", f"/games/{g['game_id']}",
                                     {"authorization": f"Bearer {g['token']}"}),
               lambda r: r.get("statusCode") == 200),
    # The same handler when its first request has a body: it imports pydantic and builds the
    # request's model then (a view never does; docs/performance.md, "Fourth round").
    EntryPoint("api-orders", "composition.api", "lambda_handler",
               lambda g: _http_event("POST", f"/games/{g['game_id']}/orders",
                                     {"authorization": f"Bearer {g['token']}",
                                      "content-type": "application/json"},
                                     json.dumps({"orders": ["A PAR - BUR", "F BRE - MAO"]})),
               lambda r: r.get("statusCode") == 200),
    EntryPoint("deadline", "composition.deadline", "handler",
               lambda g: {"game_id": g["game_id"], "phase": "S1899M"}, lambda r: isinstance(r, dict)),
    EntryPoint("sweep", "composition.deadline", "sweep_handler",
               lambda g: {}, lambda r: isinstance(r, dict)),
    EntryPoint("relay", "composition.relay", "handler",
               lambda g: {"Records": [_outbox_record(g)]}, lambda r: r == {"batchItemFailures": []}),
    EntryPoint("notifier", "composition.notifier", "handler",
               lambda g: {"Records": [_sqs_record(g)]}, lambda r: r == {"batchItemFailures": []}),
    EntryPoint("telegram", "composition.telegram", "handler",
               lambda g: _http_event("POST", "/webhooks/telegram",
                                     {"x-telegram-bot-api-secret-token": TELEGRAM_SECRET},
                                     _telegram_update()),
               lambda r: r.get("statusCode") == 200),
)


def _instructions(code: str, args: list[str], env: dict[str, str]) -> int:
    """CPU instructions a fresh interpreter executes for ``code`` (valgrind's callgrind count)."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           sys.executable, "-c", code, *args],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=1200)
    counted = [ln for ln in done.stderr.splitlines() if "Collected :" in ln]
    if done.returncode != 0 or not counted:
        raise RuntimeError(f"callgrind: {done.stderr[-2000:]}")
    return int(counted[-1].split(":")[-1].strip())


def count_instructions(entry: EntryPoint, game: dict[str, str], env: dict[str, str]) -> tuple[float, float]:
    """(import, import + first request) in millions of instructions: the same whatever else
    the machine runs, so revisions compare even on a busy machine."""
    event = json.dumps(entry.event(game))
    bare = _instructions(f"import json, sys, time, importlib; {END}", [], env)
    imported = _instructions(f"import json, sys, time, importlib; import {entry.module}; {END}", [], env)
    first = _instructions(CHILD, [entry.module, entry.function, event], env)
    return (imported - bare) / 1e6, (first - bare) / 1e6


def _once(entry: EntryPoint, game: dict[str, str], env: dict[str, str]) -> tuple[float, float]:
    event = json.dumps(entry.event(game))
    done = subprocess.run([sys.executable, "-c", CHILD, entry.module, entry.function, event],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith(MARK)]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"{entry.name}: {done.stderr[-2000:] or done.stdout[-2000:]}")
    figures = json.loads(lines[-1][len(MARK):])
    if not entry.ok(figures["result"]):
        raise RuntimeError(f"{entry.name}: unexpected answer {figures['result']!r}")
    return figures["import"], figures["first"]


PACKAGES = ("functions", "infra", "engine", "backgammon", "render")


def _bytecode_env() -> dict[str, str]:
    """Children that read compiled bytecode, as a deployment that ships ``__pycache__`` does.

    Our own packages are compiled first (``compileall``): a cold start then loads bytecode
    instead of compiling every module from source — with PYTHONDONTWRITEBYTECODE set and no
    ``__pycache__`` (this machine's default), each import also pays the compiler.
    """
    subprocess.run([sys.executable, "-m", "compileall", "-q", *PACKAGES], cwd=ROOT, check=True,
                   capture_output=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "POWERTOOLS_LOG_LEVEL": "WARNING"}


def measure(runs: int = 5, names: tuple[str, ...] = (), instructions: bool = False
            ) -> dict[str, tuple[float, float]]:
    """{entry point: (median import s, median import + first request s)} on a fresh local stack;
    with ``instructions``, millions of instructions instead (one callgrind run each)."""
    import requests

    from local_stack.stack import LocalStack

    os.environ["TELEGRAM_WEBHOOK_SECRET"] = TELEGRAM_SECRET
    stack = LocalStack(port=0).start()
    try:
        created = requests.post(f"{stack.url}/games", json={"variant": "classical"}, timeout=30).json()
        joined = requests.post(f"{stack.url}/games/{created['game_id']}/join", json={"power": "FRANCE"},
                               timeout=30).json()
        game = {"game_id": created["game_id"], "token": joined["token"]}
        env = _bytecode_env()
        out: dict[str, tuple[float, float]] = {}
        for entry in ENTRY_POINTS:
            if names and entry.name not in names:
                continue
            if instructions:
                out[entry.name] = count_instructions(entry, game, env)
                continue
            samples = [_once(entry, game, env) for _ in range(runs)]
            out[entry.name] = (statistics.median(s[0] for s in samples),
                               statistics.median(s[1] for s in samples))
        return out
    finally:
        stack.stop()


def table(figures: dict[str, tuple[float, float]], runs: int) -> str:
    lines = [f"Cold start (fresh interpreters reading bytecode, median of {runs}; against the local stack):",
             f"| {'handler':<10} | {'entry point':<30} | {'import ms':>9} | {'import + first ms':>17} |",
             f"|{'-' * 12}|{'-' * 32}|{'-' * 11}|{'-' * 19}|"]
    modules = {e.name: f"{e.module}.{e.function}".removeprefix("functions.") for e in ENTRY_POINTS}
    for name, (imported, first) in figures.items():
        lines.append(f"| {name:<10} | {modules[name]:<30} | {imported * 1000:>9.0f} | "
                     f"{first * 1000:>17.0f} |")
    return "\n".join(lines)


def instruction_table(figures: dict[str, tuple[float, float]]) -> str:
    lines = ["Cold start in millions of CPU instructions (callgrind; interpreter start-up excluded):",
             f"| {'handler':<10} | {'import':>8} | {'import + first':>14} |",
             f"|{'-' * 12}|{'-' * 10}|{'-' * 16}|"]
    for name, (imported, first) in figures.items():
        lines.append(f"| {name:<10} | {imported:>8.0f} | {first:>14.0f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=(), help="entry points to measure (default: all)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under valgrind (Debian package valgrind) instead of ms")
    parser.add_argument("--no-snapstart", action="store_true", help="only the import-only table")
    args = parser.parse_args()
    if not args.no_snapstart and not args.instructions:
        from bench import snapstart

        print(snapstart.table(snapstart.measure(args.runs)))
        print()
    figures = measure(args.runs, tuple(args.only), args.instructions)
    if args.instructions:
        print(instruction_table(figures))
    else:
        print(table(figures, args.runs))


if __name__ == "__main__":
    main()
