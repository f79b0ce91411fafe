"""Fixes to moto 5.2.5 behaviours that make a long-running local stack grow or slow down.

Each patch is for the pinned moto (``moto==5.2.5`` in pyproject.toml); ``apply()`` checks
the version and refuses to patch another one, so an upgrade shows up at once instead
of silently running unpatched code. Found by watching RSS and latency of ``make run``
over long sessions (issue 9, docs/performance.md):

1. ``DynamoDBBackend.transact_write_items`` deep-copies every table a transaction
   touches, so that it can roll back: each ``process_turn`` cost O(table size) in time
   and garbage. The replacement checks all conditions first (nothing is written if
   one fails, exactly DynamoDB's all-or-nothing) and, to undo a write that fails half
   way, keeps copies of only the items the transaction names: O(transaction size).
2. ``ShardIterator.get`` registers a new iterator in
   ``DynamoDBStreamsBackend.shard_iterators`` on every ``GetRecords`` and none is ever
   removed: one ~700-byte object per poll, forever. AWS expires an iterator after
   15 minutes; here the registry keeps the newest ``MAX_SHARD_ITERATORS``.
3. ``StreamShard.items`` keeps every stream record ever written. AWS trims records
   after 24 hours; the local relay is the stream's only reader, so ``trim_stream``
   drops what it has processed (its checkpoint), keeping sequence numbers unchanged.
4. ``Queue.deleted_messages`` keeps the receipt handles of every message ever deleted
   (so that deleting twice succeeds): one entry per delivered notice, forever. It keeps
   the newest ``MAX_DELETED_HANDLES`` (a receipt handle is only valid for the message's
   visibility timeout on AWS, so a much older one is never presented again).
5. ``Table.query`` on the base table walks ``all_items()``, which sorts every item of the
   whole table (every game) on every query, then compares each candidate's sort key in
   Python: a game's events or press read cost O(table log table). The replacement reads
   only the queried partition, sorts it by the raw key value and narrows the sort-key
   condition and ``ExclusiveStartKey`` by bisection, so a read costs O(partition) at C
   speed plus O(result). Index queries, legacy ``KeyConditions`` filters and multi-
   attribute keys keep moto's own path.
6. The Scheduler backend has no notion of time: finding due schedules meant reading all
   of them. Its create/update/delete now also keep a due-time heap per group
   (``local_stack.schedule_clock``), so the deadline pump costs O(schedules due).
7. ``DynamoResult`` answers (GetItem, Query, the writes...) go through moto's generic,
   model-driven serializer, which looks every attribute value's members up in the
   service model one by one: about 90 % of the emulator's time for a game's Query, and
   most of a ``process_turn``'s (issue 29, docs/performance.md). The answers of the item
   operations are plain JSON already (``dynamo_to_dict``: dicts, lists, strings, numbers,
   booleans, and bytes for binary values), so they are written with ``json.dumps``,
   binaries base64-encoded, absent (None) members and keys the answer's shape does not
   name left out, as the serializer does; a test compares both on every attribute type.
   Errors, timestamps and every other operation keep moto's serializer.
8. moto's routing listed its package directory and inspected a response class on every
   request: both remembered (``local_stack.moto_dispatch``).
9. SQS: a receive rebuilt the queue's whole attribute map, three passes over the queue, for
   every message it handed out (``local_stack.moto_sqs``).
10. The answers of the stream's and the queue's reads and writes (GetRecords, ReceiveMessage,
    SendMessageBatch...) are written by one walk over their shape instead of moto's
    attribute pickers (``local_stack.moto_json``): a GetRecords of 100 records took ~70 ms.
11. Every model object moto ever made (each item version, each copy a Query made, each
    stream record and message) stayed listed in its class's ``instances_tracked``: the list
    now holds weak references (``local_stack.moto_instances``).
"""

from __future__ import annotations

import base64
import bisect
import copy
import json
from collections import OrderedDict
from decimal import Decimal
from typing import Any

from local_stack.patching import replace

MOTO_VERSION = "5.2.5"
MAX_SHARD_ITERATORS = 1000
MAX_DELETED_HANDLES = 10_000
_applied = False
original_table_query: Any = None  # moto's own Table.query, kept for the equivalence test
_BISECTABLE = {None, "EQ", "LT", "LE", "GT", "GE", "BETWEEN", "BEGINS_WITH"}
_SYMBOLS = {"=": "EQ", "<": "LT", "<=": "LE", ">": "GT", ">=": "GE"}
# the DynamoDB operations whose answers are items, keys, counts and capacity only (patch 7)
FAST_RESULTS = frozenset({"GetItem", "Query", "Scan", "BatchGetItem", "PutItem", "UpdateItem", "DeleteItem",
                          "BatchWriteItem", "TransactWriteItems", "TransactGetItems"})
original_execute_result: Any = None  # moto's own DynamoResult.execute_result (the equivalence test)


def apply() -> None:
    """Install the patches once per process (idempotent)."""
    global _applied
    if _applied:
        return
    import moto

    if moto.__version__ != MOTO_VERSION:
        raise RuntimeError(f"local_stack.moto_patches is written for moto {MOTO_VERSION}, "
                           f"found {moto.__version__}: re-check each patch before upgrading")
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodbstreams.models import DynamoDBStreamsBackend

    replace(DynamoDBBackend, "transact_write_items", _transact_write_items)
    from moto.dynamodb.models.table import Table

    original_query = Table.query

    def query(self: Any, hash_key: Any, range_comparison: Any, range_objs: Any, limit: Any,
              exclusive_start_key: Any, scan_index_forward: Any, projection_expressions: Any,
              index_name: Any = None, consistent_read: bool = False, filter_expression: Any = None,
              hash_key_conditions: Any = None, range_key_conditions: Any = None, **filter_kwargs: Any) -> Any:
        if index_name or filter_kwargs or (range_key_conditions and len(range_key_conditions) > 1) \
                or not _plain_sort_key(self) or _comparison(range_comparison) not in _BISECTABLE:
            return original_query(
                self, hash_key, range_comparison, range_objs, limit, exclusive_start_key, scan_index_forward,
                projection_expressions, index_name, consistent_read, filter_expression, hash_key_conditions,
                range_key_conditions, **filter_kwargs)
        return _query_partition(self, hash_key, range_comparison, range_objs, limit, exclusive_start_key,
                                scan_index_forward, projection_expressions, filter_expression)

    replace(Table, "query", query)
    global original_table_query
    original_table_query = original_query
    original_init = DynamoDBStreamsBackend.__init__

    def init(self: Any, region_name: str, account_id: str) -> None:
        original_init(self, region_name, account_id)
        self.shard_iterators = _BoundedRegistry()

    replace(DynamoDBStreamsBackend, "__init__", init)
    from moto.sqs.models import Queue

    queue_init = Queue.__init__

    def init_queue(self: Any, *args: Any, **kwargs: Any) -> None:
        queue_init(self, *args, **kwargs)
        self.deleted_messages = RecentSet(MAX_DELETED_HANDLES)

    replace(Queue, "__init__", init_queue)
    from local_stack import moto_dispatch, moto_instances, moto_json, moto_sqs, schedule_clock

    moto_instances.install()  # patch 11 (a class's list turns weak at its next instance)
    schedule_clock.install()
    moto_dispatch.install()  # patch 8
    moto_sqs.install()  # patch 9
    moto_json.install()  # patch 10
    _install_fast_results()
    _applied = True


def _install_fast_results() -> None:
    """Patch 7: item operations' answers written by ``json.dumps`` (the module text says why)."""
    global original_execute_result
    from moto.dynamodb.responses import DynamoResult

    original = DynamoResult.execute_result

    def execute_result(self: Any, context: Any) -> Any:
        if context.operation_model.name not in FAST_RESULTS or isinstance(self.result, Exception):
            return original(self, context)
        members = context.operation_model.output_shape.members  # the serializer writes these only
        try:
            body = json.dumps({k: _wire(v) for k, v in self.result.items() if k in members and v is not None})
        except _NotPlain:
            return original(self, context)
        version = context.service_model.metadata.get("jsonVersion", "1.0")
        return 200, {"Content-Type": f"application/x-amz-json-{version}"}, body

    original_execute_result = original
    replace(DynamoResult, "execute_result", execute_result)


class _NotPlain(Exception):
    """A value the fast path does not write (a timestamp, say): moto's serializer does."""


def _wire(value: Any) -> Any:
    """``value`` as DynamoDB's JSON protocol writes it: bytes in base64, None members left out."""
    if isinstance(value, dict):
        return {k: _wire(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_wire(v) for v in value]
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise _NotPlain(type(value).__name__)


class RecentSet:
    """The set operations moto uses on ``deleted_messages``, remembering the newest ``size``."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Any, None] = OrderedDict()

    def __contains__(self, item: Any) -> bool:
        return item in self._items

    def __len__(self) -> int:
        return len(self._items)

    def add(self, item: Any) -> None:
        self._items[item] = None
        self._items.move_to_end(item)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def update(self, items: Any) -> None:
        for item in items:
            self.add(item)


class _BoundedRegistry(OrderedDict[Any, Any]):
    """A dict that forgets its oldest entries beyond MAX_SHARD_ITERATORS."""

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        while len(self) > MAX_SHARD_ITERATORS:
            self.popitem(last=False)


def trim_stream(backend: Any, table_name: str, upto_sequence: int) -> int:
    """Forget the stream records of ``table_name`` up to and including ``upto_sequence``."""
    shard = backend.get_table(table_name).stream_shard
    if shard is None:
        return 0
    drop: int = min(len(shard.items), max(0, upto_sequence - shard.starting_sequence_number + 1))
    if drop:
        del shard.items[:drop]
        shard.starting_sequence_number += drop
    return drop


def _key_of(table: Any, op_type: str, op: dict[str, Any]) -> dict[str, Any]:
    if op_type != "Put":
        key: dict[str, Any] = op["Key"]
        return key
    attrs = op["Item"]
    key = {table.hash_key_attr: attrs[table.hash_key_attr]}
    if table.range_key_attr is not None:
        key[table.range_key_attr] = attrs[table.range_key_attr]
    return key


def _transact_write_items(self: Any, transact_items: list[dict[str, Any]]) -> None:
    """moto's transact_write_items with O(items) rollback instead of a deep copy of tables."""
    from moto.dynamodb.comparisons import get_filter_expression
    from moto.dynamodb.exceptions import (
        MockValidationException,
        MultipleTransactionsException,
        TooManyTransactionsException,
        TransactionCanceledException,
        TransactWriteSingleOpException,
    )

    if len(transact_items) > 100:
        raise TooManyTransactionsException()
    plan: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    seen: set[tuple[str, str]] = set()
    errors: list[Any] = []
    for entry in transact_items:
        if len(entry) > 1:
            raise TransactWriteSingleOpException
        op_type, op = next(iter(entry.items()))
        try:
            if op_type not in {"ConditionCheck", "Put", "Delete", "Update"}:
                raise ValueError("Unsupported transaction operation")
            table = self.get_table(op["TableName"])
            key = _key_of(table, op_type, op)
            marker = (str(op["TableName"]), str(dict(sorted(key.items()))))
            if marker in seen:
                raise MultipleTransactionsException()
            seen.add(marker)
            current = self.get_item(op["TableName"], key)
            condition = op.get("ConditionExpression")
            if condition is not None and not get_filter_expression(
                condition, op.get("ExpressionAttributeNames"), op.get("ExpressionAttributeValues")
            ).expr(current):
                old = None
                if op.get("ReturnValuesOnConditionCheckFailure") == "ALL_OLD" and current:
                    old = current.to_json()["Attributes"]
                errors.append(("ConditionalCheckFailed", "The conditional request failed", old))
                continue
            plan.append((op_type, op, key))
            errors.append((None, None, None))
        except (MultipleTransactionsException, MockValidationException):
            raise
        except Exception as exc:  # what moto reports for other failures, per item
            errors.append((type(exc).__name__, str(exc), None))
    if any(code is not None for code, _, _ in errors):
        raise TransactionCanceledException(errors)
    _apply_all(self, plan)


def _apply_all(backend: Any, plan: list[tuple[str, dict[str, Any], dict[str, Any]]]) -> None:
    """Write a checked transaction; if a write fails, put back the items it named."""
    from moto.dynamodb.exceptions import TransactionCanceledException
    from moto.dynamodb.models.dynamo_type import DynamoType

    saved = []
    for _, op, key in plan:
        table = backend.get_table(op["TableName"])
        shard = table.stream_shard
        saved.append((table, key, copy.deepcopy(backend.get_item(op["TableName"], key)),
                      len(shard.items) if shard is not None else 0))
    try:
        for op_type, op, key in plan:
            names, values = op.get("ExpressionAttributeNames"), op.get("ExpressionAttributeValues")
            if op_type == "Put":
                backend.put_item(op["TableName"], op["Item"], expression_attribute_names=names,
                                 expression_attribute_values=values)
            elif op_type == "Delete":
                backend.delete_item(op["TableName"], key, expression_attribute_names=names,
                                    expression_attribute_values=values)
            elif op_type == "Update":
                backend.update_item(op["TableName"], key, update_expression=op["UpdateExpression"],
                                    expression_attribute_names=names, expression_attribute_values=values)
    except Exception as exc:
        for table, key, old, stream_length in reversed(saved):
            hash_value = DynamoType(key[table.hash_key_attr])
            range_value = DynamoType(key[table.range_key_attr]) if table.range_key_attr else None
            _restore(table, hash_value, range_value, old)
            if table.stream_shard is not None:
                del table.stream_shard.items[stream_length:]
        raise TransactionCanceledException([(type(exc).__name__, str(exc), None)]) from exc


def _restore(table: Any, hash_value: Any, range_value: Any, old: Any) -> None:
    if range_value is None:
        if old is None:
            table.items.pop(hash_value, None)
        else:
            table.items[hash_value] = old
    elif old is None:
        table.items.get(hash_value, {}).pop(range_value, None)
    else:
        table.items[hash_value][range_value] = old


def _sort_key_type(table: Any) -> str | None:
    kinds = {a["AttributeName"]: a["AttributeType"] for a in table.attr or []}
    return kinds.get(table.range_key_attr) if table.range_key_attr else None


def _plain_sort_key(table: Any) -> bool:
    """A base table whose sort key is one string or number attribute (Convoy's tables)."""
    return _sort_key_type(table) in {"S", "N"}


def _is_number_key(table: Any) -> bool:
    return _sort_key_type(table) == "N"


def _comparison(name: str | None) -> str | None:
    return None if name is None else _SYMBOLS.get(name, name.upper())


def _key_range(keys: list[Any], name: str | None, values: list[Any]) -> tuple[int, int]:
    """The slice of sorted ``keys`` a sort-key condition selects (DynamoDB's KeyConditionExpression)."""
    comparison = _comparison(name)
    if comparison is None:
        return 0, len(keys)
    first = values[0].cast_value
    if comparison == "EQ":
        return bisect.bisect_left(keys, first), bisect.bisect_right(keys, first)
    if comparison == "LT":
        return 0, bisect.bisect_left(keys, first)
    if comparison == "LE":
        return 0, bisect.bisect_right(keys, first)
    if comparison == "GT":
        return bisect.bisect_right(keys, first), len(keys)
    if comparison == "GE":
        return bisect.bisect_left(keys, first), len(keys)
    if comparison == "BETWEEN":
        return bisect.bisect_left(keys, first), bisect.bisect_right(keys, values[1].cast_value)
    if comparison == "BEGINS_WITH":
        start = bisect.bisect_left(keys, first)
        end = start
        while end < len(keys) and str(keys[end]).startswith(first):
            end += 1
        return start, end
    raise ValueError(f"unsupported sort-key comparison {comparison}")


def _query_partition(table: Any, hash_key: Any, comparison: str | None, values: list[Any], limit: Any,
                     start_key: dict[str, Any] | None, forward: bool, projections: Any,
                     filter_expression: Any) -> tuple[list[Any], int, dict[str, Any] | None]:
    """moto's base-table query over one partition: the same items in the same order.

    Paging follows DynamoDB: a page that reaches ``Limit`` carries ``LastEvaluatedKey``
    (the next page may be empty); moto's own loop also did so whenever any later item of
    the partition existed, matching or not.
    """
    from moto.dynamodb.models.dynamo_type import DynamoType
    from moto.dynamodb.models.table import RESULT_SIZE_LIMIT

    partition = table.items.get(hash_key) or {}
    found = list(partition.values())
    raw = [item.range_key.value for item in found]  # the stored string: no DynamoType hashing
    if _is_number_key(table):
        raw = [Decimal(value) for value in raw]
    order = sorted(range(len(found)), key=raw.__getitem__)
    keys = [raw[i] for i in order]
    ordered = [found[i] for i in order]
    low, high = _key_range(keys, comparison, values)
    if start_key is not None:
        after = DynamoType(start_key[table.range_key_attr]).cast_value
        if forward:
            low = max(low, bisect.bisect_right(keys, after))
        else:
            high = min(high, bisect.bisect_left(keys, after))
    candidates = ordered[low:high]
    if not forward:
        candidates.reverse()
    results: list[Any] = []
    size = 0
    last_key = None
    for item in candidates:
        if size + item.size() > RESULT_SIZE_LIMIT:
            last_key = table._get_last_evaluated_key(results[-1], None)
            break
        results.append(item)
        size += item.size()
        if len(results) == limit:  # as DynamoDB: a page that reaches Limit has a next key
            last_key = table._get_last_evaluated_key(item, None)
            break
    scanned = len(results)
    results = copy.deepcopy(results)
    if filter_expression is not None:
        results = [item for item in results if filter_expression.expr(item)]
    if projections:
        results = [item.project(projections) for item in results]
    return results, scanned, last_key
