"""Press in the API benchmark (issue 13): talk during a game year, and the cost of reading
50 new messages from a game with 5,000 messages against one with 50.

The second table is the point of the press keying (infra/dynamodb/press_store.py): a
power's new messages are one range read of its inbox, so the cost follows the messages
returned, not the game's press. Games are filled through the press use case on the
emulator's table (a clock that moves 0.5 s per message keeps every sender under the
rate limit); the reads go over HTTP like any client's.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.capacity import CapacityMeter

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
OTHERS = [p for p in POWERS if p != "ENGLAND"]


def talk(call: Callable[..., Any], gid: str, tokens: dict[str, str]) -> None:
    """A few rounds of press a phase: private, group and public; read, list channels, mark read."""
    sends = [("ENGLAND", ["FRANCE"]), ("FRANCE", ["ENGLAND"]), ("GERMANY", ["ENGLAND", "RUSSIA"]),
             ("ITALY", "ALL")]
    for sender, to in sends:
        call("POST /games/{id}/messages", "POST", f"/games/{gid}/messages", tokens[sender],
             {"to": to, "text": f"{sender} proposes a deal for this phase."})
    for power in ("ENGLAND", "FRANCE"):
        call("GET /games/{id}/messages", "GET", f"/games/{gid}/messages?limit=50", tokens[power])
        channels = call("GET /games/{id}/channels", "GET", f"/games/{gid}/channels", tokens[power])
        for channel in channels["channels"]:
            path = f"/games/{gid}/channels/{channel['channel']}/read"
            call("POST /games/{id}/channels/{ch}/read", "POST", path, tokens[power],
                 {"upto": channel["last_seq"]})


class SteppingClock:
    """Moves 0.5 s per reading, so a 6-power rotation stays under 30 messages a minute each."""

    def __init__(self) -> None:
        self.at = datetime.now(UTC)

    def now(self) -> datetime:
        self.at += timedelta(milliseconds=500)
        return self.at


def _older_press(gid: str, count: int, clock: SteppingClock) -> int:
    """``count`` older messages, written as the press store keys them (BatchWriteItem, 25 a call).

    Sending 5,000 messages one by one through the use case takes the loaded emulator most
    of an hour; what a read touches does not depend on how the older items got there.
    Every third message includes England (already read). The ledgers are written to match,
    so later sends through the use case continue each power's inbox. Returns England's
    inbox position after them (its cursor).
    """
    from composition import wiring
    from functions.ports import MessageRecord
    from infra.dynamodb import items, keys
    from infra.dynamodb.press_store import INBOX, MSG, POWER, DynamoPressStore, inbox_sk, msg_sk

    services = wiring.services()
    store = services.press_store
    assert isinstance(store, DynamoPressStore), "the bench writes DynamoDB items: run it on the local stack"
    table, client = services.settings.game_table, store.client
    inbox = dict.fromkeys(POWERS, 0)
    seqs: dict[str, int] = {}
    puts: list[dict[str, Any]] = []
    pk = keys.game_pk(gid)
    for n in range(count):
        sender, other = OTHERS[n % len(OTHERS)], OTHERS[(n + 2) % len(OTHERS)]
        members = tuple(sorted({sender, other, *(["ENGLAND"] if n % 3 == 0 else [])}))
        channel = ",".join(members)
        seqs[channel] = seqs.get(channel, 0) + 1
        body = MessageRecord(f"old{n}", channel, seqs[channel], sender, members, f"old message {n}",
                             clock.now().isoformat(), "S1901M")._asdict() | {"members": list(members)}
        puts.append({"pk": pk, "sk": msg_sk(channel, seqs[channel]), "message": body})
        for power in members:
            inbox[power] += 1
            puts.append({"pk": pk, "sk": inbox_sk(power, inbox[power]), "n": inbox[power], "message": body})
    for power, last in inbox.items():
        puts.append({"pk": pk, "sk": POWER + power, "power": power, "version": 1, "inbox_seq": last,
                     "channels": {}, "opened": 0, "rate_window": 0, "rate_count": 0})
    for i in range(0, len(puts), 25):
        chunk = [{"PutRequest": {"Item": items.to_item(p)}} for p in puts[i:i + 25]]
        request: dict[str, Any] = {table: chunk}
        while request:
            request = client.batch_write_item(RequestItems=request).get("UnprocessedItems") or {}
    assert MSG and INBOX  # the prefixes the filler writes under (documented in press_store)
    return inbox["ENGLAND"]


def _filled_game(total: int, new_for_england: int = 50) -> tuple[str, str, int]:
    """A game with ``total`` messages whose last ``new_for_england`` are England's unread ones,
    sent through the press use case. Returns the game id, England's token and its cursor."""
    from composition import wiring
    from functions.usecases.games import CreateGame, create_game
    from functions.usecases.players import Actor
    from functions.usecases.press.press import send_message
    from functions.usecases.seats import join_game

    services = wiring.services()
    store, press, clock = services.store, services.press_store, SteppingClock()
    gid = create_game(store, clock, CreateGame()).game_id
    tokens = {p: join_game(store, clock, gid, p).token for p in POWERS}
    cursor = _older_press(gid, total - new_for_england, clock)
    for n in range(new_for_england):
        sender = OTHERS[n % len(OTHERS)]
        send_message(store, press, clock, gid, Actor("player", sender), ["ENGLAND"], f"new message {n}")
    return gid, tokens["ENGLAND"], cursor


def read_cost(
    base: str, units_meter: CapacityMeter, sizes: tuple[int, ...] = (50, 5000), runs: int = 20
) -> list[dict[str, Any]]:
    """Per game size: median latency, capacity units and messages of GET /messages?after=cursor."""
    import requests

    session = requests.Session()
    rows = []
    for total in sizes:
        started = time.perf_counter()
        gid, token, cursor = _filled_game(total)
        fill_seconds = time.perf_counter() - started
        latencies, units, returned = [], [], 0
        for _ in range(runs):
            before = units_meter.read()
            t = time.perf_counter()
            response = session.get(f"{base}/games/{gid}/messages", params={"after": cursor, "limit": 50},
                                   headers={"Authorization": f"Bearer {token}"}, timeout=30)
            latencies.append(time.perf_counter() - t)
            units.append(units_meter.read() - before)
            response.raise_for_status()
            returned = len(response.json()["messages"])
        rows.append({"total": total, "returned": returned, "median_ms": statistics.median(latencies) * 1000,
                     "units": statistics.mean(units), "fill_s": fill_seconds})
    return rows


def print_read_cost(rows: list[dict[str, Any]]) -> None:
    print("Reading 50 new messages (GET /games/{id}/messages?after=cursor&limit=50, one power, "
          "median of 20):")
    print(f"| {'messages in game':>16} | {'returned':>8} | {'median ms':>9} | {'capacity units/req':>18} |")
    print(f"|{'-' * 18}|{'-' * 10}|{'-' * 11}|{'-' * 20}|")
    for row in rows:
        print(f"| {row['total']:>16} | {row['returned']:>8} | {row['median_ms']:>9.1f} "
              f"| {row['units']:>18.1f} |")
    if len(rows) >= 2 and rows[0]["median_ms"]:
        fills = ", ".join(f"{r['fill_s']:.0f} s" for r in rows)
        print(f"ratio largest/smallest: latency {rows[-1]['median_ms'] / rows[0]['median_ms']:.2f}x, "
              f"capacity {rows[-1]['units'] / max(rows[0]['units'], 1e-9):.2f}x "
              f"(filling took {fills})")


def main() -> None:
    """Only the read-cost table: ``.venv/bin/python -m bench.press_bench`` (api_bench prints it too)."""
    import os

    from bench.capacity import meter
    from local_stack.stack import LocalStack

    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    stack = LocalStack(port=0).start()
    try:
        from composition import wiring
        from infra import aws_clients

        units = meter(aws_clients.dynamodb(), wiring.settings().game_table)
        print_read_cost(read_cost(stack.url, units))
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
