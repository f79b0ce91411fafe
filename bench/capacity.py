"""Consumed-capacity metering for the API benchmark, hooked onto the stack's DynamoDB client.

The game store (infra/dynamodb/game_store.py) knows nothing of this: ``meter(client,
table)`` registers hooks on the client the store uses (``DynamoDBClient.add_hooks``),
asking DynamoDB for ``ReturnConsumedCapacity`` on calls that touch ``table`` and adding up
what comes back.
moto reports no capacity for writes, so writes without a figure are estimated with
DynamoDB's pricing (``estimated_write_units``). Only the benchmark installs it.
"""

from __future__ import annotations

import math
import threading
from typing import Any

WRITES = {"PutItem": "put_item", "TransactWriteItems": "transact_write_items"}
# DynamoDB operations whose request takes ReturnConsumedCapacity
CONSUMED_CAPACITY_OPERATIONS = frozenset({
    "GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan", "BatchGetItem", "BatchWriteItem",
    "TransactGetItems", "TransactWriteItems", "ExecuteStatement", "BatchExecuteStatement",
    "ExecuteTransaction",
})


class CapacityMeter:
    """Running total of consumed capacity units reported by DynamoDB (all threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.units = 0.0

    def add(self, consumed: Any) -> None:
        entries = consumed if isinstance(consumed, list) else [consumed] if consumed else []
        total = sum(float(e.get("CapacityUnits", 0.0)) for e in entries if isinstance(e, dict))
        with self._lock:
            self.units += total

    def read(self) -> float:
        with self._lock:
            return self.units


def item_size(value: Any) -> int:
    """Approximate DynamoDB size in bytes of a wire-format attribute value or item."""
    if isinstance(value, dict) and len(value) == 1:
        (tag, inner), = value.items()
        if tag in ("S", "B"):
            return len(str(inner).encode())
        if tag == "N":
            return len(str(inner)) // 2 + 1
        if tag in ("BOOL", "NULL"):
            return 1
        if tag == "M":
            return 3 + sum(len(k.encode()) + item_size(v) + 1 for k, v in inner.items())
        if tag == "L":
            return 3 + sum(item_size(v) + 1 for v in inner)
    if isinstance(value, dict):  # an item: attribute name -> value
        return sum(len(k.encode()) + item_size(v) for k, v in value.items())
    return 0


def estimated_write_units(operation: str, request: dict[str, Any]) -> float:
    """DynamoDB's write pricing (1 WCU per started KB per item, x2 in a transaction), for
    emulators that do not report ``ConsumedCapacity`` on writes."""
    if operation == "put_item":
        puts, factor = [request["Item"]], 1
    else:
        puts, factor = [a["Put"]["Item"] for a in request["TransactItems"] if "Put" in a], 2
    return float(sum(factor * max(1, math.ceil(item_size(i) / 1024)) for i in puts))


def _tables(params: dict[str, Any]) -> set[str]:
    named = {params["TableName"]} if "TableName" in params else set()
    for action in params.get("TransactItems", []):
        named.update(body["TableName"] for body in action.values() if "TableName" in body)
    named.update(params.get("RequestItems", {}))  # BatchGetItem / BatchWriteItem (press)
    return named


def meter(client: Any, table: str) -> CapacityMeter:
    """Count the capacity ``client``'s calls on ``table`` consume, from now on (``client`` is
    the stack's boto3 DynamoDB client, infra/aws_clients.py; botocore's events see every call)."""
    found = CapacityMeter()

    def ask(params: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        # Only operations that take the parameter (DescribeTable, used by the stream relay, does not)
        if table in _tables(params) and model.name in CONSUMED_CAPACITY_OPERATIONS:
            params["ReturnConsumedCapacity"] = "TOTAL"
            context["capacity_params"] = params

    def count(parsed: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        params = context.get("capacity_params")
        if params is None:
            return
        consumed = parsed.get("ConsumedCapacity")
        if not consumed and model.name in WRITES and not parsed.get("Error"):
            consumed = {"CapacityUnits": estimated_write_units(WRITES[model.name], params)}
        found.add(consumed)

    client.meta.events.register("before-parameter-build.dynamodb", ask)
    client.meta.events.register("after-call.dynamodb", count)
    return found
