"""Metering for the benchmarks, hooked onto the stack's own boto3 clients (botocore's events).

The stores (infra/) know nothing of this: ``meter(client, table)`` registers hooks on the
DynamoDB client the stores use and prices every call on ``table`` by DynamoDB's documented
rules, from the request and the answer, so moto's own (partial) capacity reports do not
matter and the same figures come out of any checkout:

- writes: one write unit per started KB of each item written, twice inside a transaction
  (Put by its size; Update, Delete and ConditionCheck as one unit apiece, which is what our
  small counters and condition checks cost);
- reads: strongly consistent, one read unit per started 4 KB (a GetItem per item, a Query
  or Scan per the sum of the items it returns, a BatchGetItem per item); half that when
  eventually consistent (indexes); a read that finds nothing still costs its one unit.

``Meter`` (``meter_all``) also counts the calls of every AWS service the stack uses, by
operation: requests, schedules created, queue messages, for bench/api_bench.py's turn table
and bench/cost.py's bill. Only the benchmarks install it.
"""

from __future__ import annotations

import math
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, NamedTuple

WRITE_OPERATIONS = frozenset({"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"})
READ_OPERATIONS = frozenset({"GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems"})
KB = 1024
READ_BLOCK = 4 * KB


class CapacityMeter:
    """Running totals of read and write units (all threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.reads = 0.0
        self.writes = 0.0

    def add(self, reads: float = 0.0, writes: float = 0.0) -> None:
        with self._lock:
            self.reads += reads
            self.writes += writes

    def read(self) -> float:
        """Read and write units together (the benchmarks' older single column)."""
        with self._lock:
            return self.reads + self.writes

    def split(self) -> tuple[float, float]:
        with self._lock:
            return self.reads, self.writes


def item_size(value: Any) -> int:
    """Approximate DynamoDB size in bytes of a wire-format attribute value or item."""
    if isinstance(value, dict) and len(value) == 1:
        (tag, inner), = value.items()
        if tag == "B":
            return len(inner) if isinstance(inner, bytes | bytearray) else len(str(inner).encode())
        if tag == "S":
            return len(str(inner).encode())
        if tag == "N":
            return len(str(inner)) // 2 + 1
        if tag in ("BOOL", "NULL"):
            return 1
        if tag == "M":
            return 3 + sum(len(k.encode()) + item_size(v) + 1 for k, v in inner.items())
        if tag in ("L", "SS", "NS", "BS"):
            return 3 + sum(item_size(v if tag == "L" else {tag[0]: v}) + 1 for v in inner)
    if isinstance(value, dict):  # an item: attribute name -> value
        return sum(len(k.encode()) + item_size(v) for k, v in value.items())
    return 0


def _write_units(item: dict[str, Any]) -> int:
    return max(1, math.ceil(item_size(item) / KB))


def estimated_write_units(operation: str, request: dict[str, Any]) -> float:
    """DynamoDB's write pricing for one request (operation in botocore's snake_case or API name)."""
    name = operation.replace("_", "").lower()
    if name == "putitem":
        return float(_write_units(request["Item"]))
    if name in ("updateitem", "deleteitem"):
        return 1.0
    if name == "batchwriteitem":
        return float(sum(_write_units(w["PutRequest"]["Item"]) if "PutRequest" in w else 1
                         for writes in request.get("RequestItems", {}).values() for w in writes))
    if name == "transactwriteitems":
        return float(sum(2 * (_write_units(a["Put"]["Item"]) if "Put" in a else 1)
                         for a in request.get("TransactItems", [])))
    return 0.0


def estimated_read_units(operation: str, request: dict[str, Any], answer: dict[str, Any]) -> float:
    """DynamoDB's read pricing for one request, from the items it returned."""
    strong = 1.0 if request.get("ConsistentRead") else 0.5
    if operation == "GetItem":
        return strong * max(1, math.ceil(item_size(answer.get("Item") or {}) / READ_BLOCK))
    if operation in ("Query", "Scan"):
        total = sum(item_size(i) for i in answer.get("Items", []))
        return strong * max(1, math.ceil(total / READ_BLOCK))
    if operation == "BatchGetItem":
        units = 0.0
        for table, found in answer.get("Responses", {}).items():
            consistent = 1.0 if request.get("RequestItems", {}).get(table, {}).get("ConsistentRead") else 0.5
            units += sum(consistent * max(1, math.ceil(item_size(i) / READ_BLOCK)) for i in found)
        return units
    if operation == "TransactGetItems":
        return sum(2.0 * max(1, math.ceil(item_size(r.get("Item") or {}) / READ_BLOCK))
                   for r in answer.get("Responses", []))
    return 0.0


def _tables(params: dict[str, Any]) -> set[str]:
    named = {params["TableName"]} if "TableName" in params else set()
    for action in params.get("TransactItems", []):
        named.update(body["TableName"] for body in action.values() if "TableName" in body)
    named.update(params.get("RequestItems", {}))  # BatchGetItem / BatchWriteItem (press)
    return named


def meter(client: Any, table: str | tuple[str, ...], into: CapacityMeter | None = None,
          ignored: Callable[[], bool] = lambda: False) -> CapacityMeter:
    """Price ``client``'s calls on ``table`` (one name or several) from now on (``client`` is the
    stack's boto3 DynamoDB client, infra/aws_clients.py; botocore's events see every call)."""
    found = into if into is not None else CapacityMeter()
    tables = {table} if isinstance(table, str) else set(table)

    def remember(params: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        if tables & _tables(params) and not ignored():
            context["metered_params"] = dict(params)

    def count(parsed: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        params = context.get("metered_params")
        if params is None or parsed.get("Error"):
            return
        if model.name in WRITE_OPERATIONS:
            found.add(writes=estimated_write_units(model.name, params))
        elif model.name in READ_OPERATIONS:
            found.add(reads=estimated_read_units(model.name, params, parsed))

    client.meta.events.register("provide-client-params.dynamodb", remember)
    client.meta.events.register("after-call.dynamodb", count)
    return found


class Meter:
    """Calls by (service, operation), DynamoDB units of one table, and what the calls carried
    that a bill counts: schedules created, queue messages sent. All threads, but those whose
    name starts with one of ``ignore`` (the local stack's pump threads, when a benchmark wants
    one request's calls alone)."""

    def __init__(self, ignore: tuple[str, ...] = ()) -> None:
        self._ignore = ignore
        self._lock = threading.Lock()
        self._started = threading.local()
        self.calls: Counter[tuple[str, str]] = Counter()
        self.seconds: dict[str, float] = {}  # time spent in each service's calls
        self.units = CapacityMeter()
        self.messages = 0  # SQS messages sent (a batch counts each)

    def snapshot(self) -> Reading:
        with self._lock:
            reads, writes = self.units.split()
            return Reading(Counter(self.calls), dict(self.seconds), reads, writes, self.messages)

    def attach(self, client: Any, table: str | tuple[str, ...] | None = None) -> None:
        """Count ``client``'s calls; with ``table``, price its DynamoDB calls on that table."""
        service = client.meta.service_model.service_name

        def seen(params: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
            if self._ignored():
                context["unmetered"] = True
                return
            with self._lock:
                self.calls[(service, model.name)] += 1
                if service == "sqs" and model.name in ("SendMessage", "SendMessageBatch"):
                    self.messages += len(params.get("Entries", [])) or 1

        def begin(**_: Any) -> None:
            self._started.at = time.perf_counter()

        def end(context: dict[str, Any], **_: Any) -> None:
            if context.get("unmetered"):
                return
            with self._lock:
                now = time.perf_counter()
                spent = now - getattr(self._started, "at", now)
                self.seconds[service] = self.seconds.get(service, 0.0) + spent

        client.meta.events.register("provide-client-params", seen)  # this client's calls only
        client.meta.events.register("before-call", begin)
        client.meta.events.register("after-call", end)
        if table is not None:
            meter(client, table, self.units, self._ignored)

    def _ignored(self) -> bool:
        return bool(self._ignore) and threading.current_thread().name.startswith(self._ignore)


class Reading(NamedTuple):
    """What a ``Meter`` had counted at one moment; ``after - before`` is what happened between."""

    calls: Counter[tuple[str, str]]
    seconds: dict[str, float]
    reads: float
    writes: float
    messages: int

    def __sub__(self, earlier: Reading) -> Reading:
        seconds = {k: v - earlier.seconds.get(k, 0.0) for k, v in self.seconds.items()}
        return Reading(self.calls - earlier.calls, {k: v for k, v in seconds.items() if v > 0},
                       self.reads - earlier.reads, self.writes - earlier.writes,
                       self.messages - earlier.messages)

    def count(self, service: str, *operations: str) -> int:
        return sum(n for (s, op), n in self.calls.items()
                   if s == service and (not operations or op in operations))


def meter_all(table: str, ignore: tuple[str, ...] = (), also: tuple[str, ...] = ()) -> Meter:
    """A ``Meter`` on the stack's own clients (infra/aws_clients.py) in this process; DynamoDB
    units of ``table`` and of the tables ``also`` names (bench/cost.py: the live connections)."""
    from infra import aws_clients

    found = Meter(ignore)
    found.attach(aws_clients.dynamodb(), (table, *also))
    for service in ("scheduler", "sqs", "dynamodbstreams"):
        found.attach(aws_clients.client(service))
    return found
