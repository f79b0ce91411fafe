"""The local DynamoDB stream -> relay trigger: what the event source mapping does on AWS.

template.yaml's ``OutboxStream`` event reads the game table's stream from
TRIM_HORIZON in batches of 100, keeps the records matching its FilterCriteria and
invokes the relay with ``{"Records": [...]}`` in the Lambda stream-event shape; with
ReportBatchItemFailures, a batch whose item failed is retried from that item.
``StreamRelay`` does the same against the emulator's stream (moto implements
DescribeStream / GetShardIterator / GetRecords), reading the filter from the template
so the two cannot drift. Each run costs one GetRecords call: O(new records), never a
table scan. After a batch is done its records are handed to ``forget`` (the emulator
trims them; AWS would after 24 hours), so the stream holds only unprocessed work.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from local_stack.template import load_template

Handler = Callable[[dict[str, Any], Any], Any]
log = logging.getLogger("convoy.local.stream")
BATCH_SIZE = 100


def outbox_filter() -> list[dict[str, Any]]:
    """The relay's FilterCriteria patterns from template.yaml."""
    function = load_template()["Resources"]["RelayFunction"]["Properties"]
    for event in function.get("Events", {}).values():
        if event.get("Type") == "DynamoDB":
            filters = event["Properties"].get("FilterCriteria", {}).get("Filters", [])
            return [json.loads(f["Pattern"]) for f in filters]
    return []


def matches(pattern: Mapping[str, Any], record: Mapping[str, Any]) -> bool:
    """EventBridge-style content filtering: the subset Lambda's FilterCriteria use here
    (lists of exact values, ``{"prefix": ...}``, nested objects)."""
    for name, wanted in pattern.items():
        value = record.get(name) if isinstance(record, Mapping) else None
        if isinstance(wanted, Mapping):
            if not isinstance(value, Mapping) or not matches(wanted, value):
                return False
        elif not any(_matches_one(rule, value) for rule in wanted):
            return False
    return True


def _matches_one(rule: Any, value: Any) -> bool:
    if isinstance(rule, Mapping):
        if "prefix" in rule:
            return isinstance(value, str) and value.startswith(rule["prefix"])
        raise ValueError(f"filter rule not supported locally: {rule}")
    return bool(rule == value)


def lambda_record(record: dict[str, Any], stream_arn: str) -> dict[str, Any]:
    """A GetRecords record as Lambda delivers it (epoch-second timestamp, the source ARN)."""
    shaped = dict(record)
    dynamodb = dict(record.get("dynamodb", {}))
    created = dynamodb.get("ApproximateCreationDateTime")
    if isinstance(created, datetime):
        dynamodb["ApproximateCreationDateTime"] = created.timestamp()
    shaped["dynamodb"] = dynamodb
    shaped["eventSourceARN"] = stream_arn
    return shaped


class StreamRelay:
    """One pump: relay the next batch of the table's stream; returns how many records it read."""

    def __init__(self, *, dynamodb: Callable[[], Any], streams: Callable[[], Any], table: str,
                 handler: Handler, forget: Callable[[int], None] | None = None,
                 patterns: list[dict[str, Any]] | None = None) -> None:
        self._dynamodb = dynamodb
        self._streams = streams
        self._table = table
        self._handler = handler
        self._forget = forget
        self._patterns = outbox_filter() if patterns is None else patterns
        self._arn: str | None = None
        self._shard: str | None = None
        self._iterator: str | None = None
        self.retrying = False  # the last batch had a failure: the next call reads it again

    def __call__(self) -> int:
        self.retrying = False
        if self._iterator is None:
            self._iterator = self._open("TRIM_HORIZON")
        page = self._streams().get_records(ShardIterator=self._iterator, Limit=BATCH_SIZE)
        records = page.get("Records", [])
        if not records:
            self._iterator = page.get("NextShardIterator")
            return 0
        assert self._arn is not None
        batch = [lambda_record(r, self._arn) for r in records
                 if not self._patterns or any(matches(p, r) for p in self._patterns)]
        answer = (self._handler({"Records": batch}, None) or {}) if batch else {}
        failed = [f["itemIdentifier"] for f in answer.get("batchItemFailures", [])]
        self.retrying = bool(failed)
        if failed:
            first = min(failed, key=int)  # retry from the first failure, as Lambda does
            self._iterator = self._open("AT_SEQUENCE_NUMBER", first)
            done = int(first) - 1
        else:
            self._iterator = page.get("NextShardIterator")
            done = max(int(r["dynamodb"]["SequenceNumber"]) for r in records)
        if self._forget is not None:
            self._forget(done)
        return len(records)

    def _open(self, kind: str, sequence: str | None = None) -> str:
        if self._arn is None:
            self._arn = self._dynamodb().describe_table(TableName=self._table)["Table"]["LatestStreamArn"]
            description = self._streams().describe_stream(StreamArn=self._arn)["StreamDescription"]
            self._shard = description["Shards"][0]["ShardId"]
        extra = {"SequenceNumber": sequence} if sequence else {}
        iterator: str = self._streams().get_shard_iterator(
            StreamArn=self._arn, ShardId=self._shard, ShardIteratorType=kind, **extra
        )["ShardIterator"]
        return iterator
