"""The local stream trigger feeds the relay as the event source mapping of template.yaml
does on AWS (issue 9 item 1): the template's filter, Lambda's record shape, retry from the
first failed record, one GetRecords per run, and processed records forgotten."""

from __future__ import annotations

from typing import Any

from local_stack import moto_patches
from local_stack.backends import dynamodb_backend
from local_stack.stream_relay import StreamRelay, matches, outbox_filter
from tests.local_stack.conftest import make_table, mock_streams_client


def _put(ddb: Any, sk: str, **extra: str) -> None:
    item = {"pk": {"S": "GAME#g1"}, "sk": {"S": sk}, **{k: {"S": v} for k, v in extra.items()}}
    ddb.put_item(TableName="games", Item=item)


def test_the_template_filter_keeps_only_outbox_inserts_and_removed_metas() -> None:
    patterns = outbox_filter()

    def kept(record: dict[str, Any]) -> bool:
        return any(matches(p, record) for p in patterns)

    outbox = {"eventName": "INSERT", "dynamodb": {"Keys": {"pk": {"S": "GAME#g"}, "sk": {"S": "OUTBOX#1"}}}}
    assert kept(outbox)
    assert not kept({**outbox, "eventName": "MODIFY"})
    assert not kept({"eventName": "INSERT", "dynamodb": {"Keys": {"sk": {"S": "META"}}}})
    assert not kept({"eventName": "MODIFY", "dynamodb": {"Keys": {"sk": {"S": "META"}}}})
    assert not kept({"eventName": "INSERT"})
    # issue 28 item 13: only the table's TTL removes a META (a game that never started)
    assert kept({"eventName": "REMOVE", "dynamodb": {"Keys": {"pk": {"S": "GAME#g"}, "sk": {"S": "META"}}}})
    assert not kept({"eventName": "REMOVE", "dynamodb": {"Keys": {"sk": {"S": "OUTBOX#1"}}}})


def test_records_reach_the_relay_in_lambda_shape_and_failures_are_retried(aws: None) -> None:
    ddb = make_table()
    batches: list[list[dict[str, Any]]] = []
    fail_once = {"OUTBOX#2"}

    def relay(event: dict[str, Any], _: Any) -> dict[str, Any]:
        batches.append(event["Records"])
        failed = [r["dynamodb"]["SequenceNumber"] for r in event["Records"]
                  if r["dynamodb"]["Keys"]["sk"]["S"] in fail_once]
        fail_once.clear()
        return {"batchItemFailures": [{"itemIdentifier": s} for s in failed]}

    forgotten: list[int] = []
    pump = StreamRelay(dynamodb=lambda: ddb, streams=mock_streams_client, table="games",
                       handler=relay, forget=forgotten.append)
    _put(ddb, "META", phase="S1901M")
    _put(ddb, "OUTBOX#1", kind="A")
    _put(ddb, "OUTBOX#2", kind="B")
    _put(ddb, "OUTBOX#3", kind="C")

    assert pump() == 4  # one batch: META filtered out, OUTBOX#2 fails
    assert pump() == 2  # retried from OUTBOX#2 (and what followed it), as Lambda does
    assert pump() == 0  # nothing new: no relay call
    keys = [[r["dynamodb"]["Keys"]["sk"]["S"] for r in batch] for batch in batches]
    assert keys == [["OUTBOX#1", "OUTBOX#2", "OUTBOX#3"], ["OUTBOX#2", "OUTBOX#3"]]
    record = batches[0][0]
    assert record["eventName"] == "INSERT" and record["eventSource"] == "aws:dynamodb"
    assert record["dynamodb"]["NewImage"]["kind"] == {"S": "A"}
    assert isinstance(record["dynamodb"]["ApproximateCreationDateTime"], float)
    assert record["eventSourceARN"].startswith("arn:aws:dynamodb:us-east-1:")
    first = int(batches[0][0]["dynamodb"]["SequenceNumber"])
    assert forgotten == [first, first + 2]  # up to OUTBOX#1 (META before it), then all


def test_processed_records_are_trimmed_and_polls_leave_nothing_behind(aws: None) -> None:
    ddb = make_table()
    backend = dynamodb_backend()

    def forget(upto: int) -> None:
        moto_patches.trim_stream(backend, "games", upto)

    pump = StreamRelay(dynamodb=lambda: ddb, streams=mock_streams_client, table="games",
                       handler=lambda event, _: {}, forget=forget)
    for n in range(5):
        _put(ddb, f"OUTBOX#{n}")
    assert pump() == 5
    shard = backend.get_table("games").stream_shard
    assert shard.items == []  # the relay's checkpoint let the emulator forget them
    _put(ddb, "OUTBOX#9")
    assert pump() == 1  # sequence numbers go on after the trim
    from moto.dynamodbstreams.models import dynamodbstreams_backends

    iterators = dynamodbstreams_backends["123456789012"]["us-east-1"].shard_iterators
    for _ in range(moto_patches.MAX_SHARD_ITERATORS + 50):
        pump()  # an idle poll: moto registers a new iterator each time
    assert len(iterators) <= moto_patches.MAX_SHARD_ITERATORS
