"""The local stack's fixes to moto 5.2.5 (issue 9 item 2) keep DynamoDB's semantics:
a transaction is all-or-nothing and reports why, at a cost of the items it names only."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from botocore.exceptions import ClientError
from hypothesis import given, settings
from hypothesis import strategies as st

from local_stack.backends import dynamodb_backend
from tests.local_stack.conftest import make_table


def _item(sk: str, version: int) -> dict[str, Any]:
    return {"pk": {"S": "GAME#g"}, "sk": {"S": sk}, "version": {"N": str(version)}}


def _put(sk: str, version: int, condition: str | None = None) -> dict[str, Any]:
    op: dict[str, Any] = {"TableName": "games", "Item": _item(sk, version)}
    if condition:
        op["ConditionExpression"] = condition
    return {"Put": op}


def _items(ddb: Any) -> dict[str, str]:
    rows = ddb.scan(TableName="games")["Items"]
    return {r["sk"]["S"]: r["version"]["N"] for r in rows}


def test_a_transaction_writes_everything_or_nothing(aws: None) -> None:
    ddb = make_table()
    ddb.put_item(TableName="games", Item=_item("META", 1))
    stream = dynamodb_backend().get_table("games").stream_shard
    before = len(stream.items)
    with pytest.raises(ClientError) as caught:
        ddb.transact_write_items(TransactItems=[
            _put("OUTBOX#1", 1, "attribute_not_exists(pk)"),
            {"Update": {"TableName": "games", "Key": {"pk": {"S": "GAME#g"}, "sk": {"S": "META"}},
                        "UpdateExpression": "SET version = :two", "ConditionExpression": "version = :zero",
                        "ExpressionAttributeValues": {":two": {"N": "2"}, ":zero": {"N": "0"}},
                        "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
        ])
    error = caught.value.response
    assert error["Error"]["Code"] == "TransactionCanceledException"
    reasons = error["CancellationReasons"]
    assert [r["Code"] for r in reasons] == ["None", "ConditionalCheckFailed"]
    assert reasons[1]["Item"]["version"] == {"N": "1"}
    assert _items(ddb) == {"META": "1"} and len(stream.items) == before  # nothing written

    ddb.transact_write_items(TransactItems=[
        _put("OUTBOX#1", 1, "attribute_not_exists(pk)"),
        {"Put": {"TableName": "games", "Item": _item("META", 2), "ConditionExpression": "version = :one",
                 "ExpressionAttributeValues": {":one": {"N": "1"}}}},
    ])
    assert _items(ddb) == {"META": "2", "OUTBOX#1": "1"}
    assert len(stream.items) == before + 2


def test_a_write_failing_half_way_is_undone(aws: None) -> None:
    ddb = make_table()
    ddb.put_item(TableName="games", Item=_item("META", 1))
    stream = dynamodb_backend().get_table("games").stream_shard
    before = len(stream.items)
    with pytest.raises(ClientError):
        ddb.transact_write_items(TransactItems=[
            _put("OUTBOX#1", 1),
            {"Update": {"TableName": "games", "Key": {"pk": {"S": "GAME#g"}, "sk": {"S": "META"}},
                        "UpdateExpression": "SET version = version + :s",  # a number plus a string
                        "ExpressionAttributeValues": {":s": {"S": "x"}}}},
        ])
    assert _items(ddb) == {"META": "1"} and len(stream.items) == before


def test_a_transaction_copies_no_table(aws: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cost that made process_turn slow down as games piled up (moto deep-copied tables)."""
    from moto.dynamodb.models.table import Table

    ddb = make_table()
    copied: list[str] = []
    real = copy.deepcopy

    def watching(value: Any, *args: Any) -> Any:
        if isinstance(value, Table | dict) and (isinstance(value, Table) or any(
                isinstance(v, Table) for v in value.values())):
            copied.append(type(value).__name__)
        return real(value, *args)

    monkeypatch.setattr(copy, "deepcopy", watching)
    ddb.transact_write_items(TransactItems=[_put("A", 1), _put("B", 1)])
    assert copied == []
    assert _items(ddb) == {"A": "1", "B": "1"}


def test_deleted_receipt_handles_are_remembered_only_recently(aws: None) -> None:
    import boto3

    from local_stack import moto_patches

    sqs = boto3.client("sqs", region_name="us-east-1")
    url = sqs.create_queue(QueueName="q")["QueueUrl"]
    handles = []
    for n in range(5):
        sqs.send_message(QueueUrl=url, MessageBody=str(n))
        [message] = sqs.receive_message(QueueUrl=url)["Messages"]
        sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
        handles.append(message["ReceiptHandle"])
    sqs.delete_message(QueueUrl=url, ReceiptHandle=handles[-1])  # deleting twice still succeeds
    from moto.sqs.models import sqs_backends

    queue = sqs_backends["123456789012"]["us-east-1"].queues["q"]
    assert isinstance(queue.deleted_messages, moto_patches.RecentSet) and len(queue.deleted_messages) >= 5
    small = moto_patches.RecentSet(3)
    small.update(["a", "b", "c", "d"])
    assert len(small) == 3 and "a" not in small and "d" in small


# --- patch 5: a base-table query reads its partition only, with moto's own answers ----------

_SORT_KEYS = st.lists(st.text(alphabet="AB#0123", min_size=1, max_size=5), unique=True, max_size=25)
_CONDITIONS = st.sampled_from(["", "sk = :a", "sk < :a", "sk <= :a", "sk > :a", "sk >= :a",
                               "sk BETWEEN :a AND :b", "begins_with(sk, :a)"])


def _original_query(table: Any) -> Any:
    """moto's query, unpatched (the patch keeps it)."""
    from local_stack import moto_patches

    return moto_patches.original_table_query


@settings(max_examples=60, deadline=None)
@given(keys=_SORT_KEYS, others=_SORT_KEYS, condition=_CONDITIONS, data=st.data(), forward=st.booleans(),
       limit=st.integers(1, 30))
def test_a_partition_query_answers_as_moto_does(keys: list[str], others: list[str], condition: str,
                                                data: st.DataObject, forward: bool, limit: int) -> None:
    from moto import mock_aws

    from local_stack import moto_patches

    moto_patches.apply()
    with mock_aws():
        ddb = make_table(streams=False)
        for sk in keys:
            ddb.put_item(TableName="games", Item=_item(sk, 1))
        for sk in others:  # another game's partition, never in the answer
            ddb.put_item(TableName="games", Item={**_item(sk, 2), "pk": {"S": "GAME#other"}})
        table = dynamodb_backend().get_table("games")
        expression = "pk = :pk" + (f" AND {condition}" if condition else "")
        # bounds are often stored keys or their prefixes: where an off-by-one would show
        bound = st.one_of(st.text(alphabet="AB#0123", min_size=1, max_size=3),
                          st.sampled_from(keys or ["A"]), st.sampled_from([k[:2] for k in keys] or ["A"]))
        a, b = sorted([data.draw(bound), data.draw(bound)])
        values = {":pk": {"S": "GAME#g"}, ":a": {"S": a}, ":b": {"S": b}}
        values = {k: v for k, v in values.items() if k in expression}

        def pages(query: Any) -> list[str]:
            """Every item over all pages; each page holds at most ``limit``."""
            seen: list[str] = []
            start = None
            original, type(table).query = type(table).query, query
            try:
                while True:
                    extra: dict[str, Any] = {"ExclusiveStartKey": start} if start else {}
                    page = ddb.query(TableName="games", KeyConditionExpression=expression,
                                     ExpressionAttributeValues=values, ScanIndexForward=forward,
                                     Limit=limit, **extra)
                    assert page["Count"] == len(page["Items"]) <= limit
                    seen.extend(i["sk"]["S"] for i in page["Items"])
                    start = page.get("LastEvaluatedKey")
                    if not start:
                        return seen
            finally:
                type(table).query = original

        assert pages(type(table).query) == pages(_original_query(table))


def test_a_query_does_not_sort_the_table(aws: None, monkeypatch: pytest.MonkeyPatch) -> None:
    ddb = make_table(streams=False)
    ddb.put_item(TableName="games", Item=_item("EVENT#1", 1))
    from moto.dynamodb.models.table import Table

    def refuse(self: Any) -> Any:
        raise AssertionError("a base-table query walked the whole table")

    monkeypatch.setattr(Table, "all_items", refuse)
    page = ddb.query(TableName="games", KeyConditionExpression="pk = :pk AND begins_with(sk, :e)",
                     ExpressionAttributeValues={":pk": {"S": "GAME#g"}, ":e": {"S": "EVENT#"}})
    assert [i["sk"]["S"] for i in page["Items"]] == ["EVENT#1"]


# --- patch 7: item answers written by json.dumps, as moto's serializer writes them ---------

_SCALARS = st.one_of(
    st.text(max_size=8).map(lambda s: {"S": s}),
    st.integers(-10**6, 10**6).map(lambda n: {"N": str(n)}),
    st.binary(min_size=1, max_size=8).map(lambda b: {"B": b}),
    st.booleans().map(lambda b: {"BOOL": b}),
    st.just({"NULL": True}),
    st.sets(st.text(min_size=1, max_size=4), min_size=1, max_size=3).map(lambda s: {"SS": sorted(s)}),
    st.sets(st.integers(0, 99), min_size=1, max_size=3).map(lambda s: {"NS": sorted(str(n) for n in s)}),
    st.sets(st.binary(min_size=1, max_size=4), min_size=1, max_size=3).map(lambda s: {"BS": sorted(s)}),
)
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3).map(lambda v: {"L": v}),
    st.dictionaries(st.text(min_size=1, max_size=4), inner, max_size=3).map(lambda v: {"M": v}),
), max_leaves=8)
_ATTRIBUTES = st.dictionaries(st.sampled_from(["a", "b", "c", "state", "orders"]), _VALUES, max_size=4)


def _answers(ddb: Any, attributes: dict[str, Any]) -> list[Any]:
    """The raw JSON body of every item operation's answer on ``attributes``, in one order."""
    bodies: list[Any] = []

    def keep(response_dict: dict[str, Any], **_: Any) -> None:
        bodies.append(json.loads(response_dict["body"] or b"{}"))

    ddb.meta.events.register("before-parse.dynamodb", keep)
    key = {"pk": {"S": "GAME#g"}, "sk": {"S": "META"}}
    item = {**attributes, **key}
    total = {"ReturnConsumedCapacity": "TOTAL"}
    try:
        ddb.put_item(TableName="games", Item=item, ReturnValues="ALL_OLD", **total)
        ddb.put_item(TableName="games", Item=item, ReturnValues="ALL_OLD", **total)
        ddb.get_item(TableName="games", Key=key, ConsistentRead=True, **total)
        ddb.get_item(TableName="games", Key={**key, "sk": {"S": "NONE"}})
        ddb.query(TableName="games", KeyConditionExpression="pk = :pk",
                  ExpressionAttributeValues={":pk": key["pk"]}, **total)
        ddb.query(TableName="games", KeyConditionExpression="pk = :pk", Limit=1,
                  ExpressionAttributeValues={":pk": key["pk"]}, Select="COUNT")
        ddb.scan(TableName="games", **total)
        ddb.batch_get_item(RequestItems={"games": {"Keys": [key, {**key, "sk": {"S": "NONE"}}]}})
        ddb.transact_get_items(TransactItems=[{"Get": {"TableName": "games", "Key": key}}])
        ddb.update_item(TableName="games", Key=key, UpdateExpression="SET v = :v",
                        ExpressionAttributeValues={":v": {"N": "2"}}, ReturnValues="ALL_NEW")
        third = {**item, "v": {"N": "3"}}
        ddb.transact_write_items(TransactItems=[{"Put": {"TableName": "games", "Item": third}}])
        ddb.batch_write_item(RequestItems={"games": [{"PutRequest": {"Item": {**item, "sk": {"S": "X"}}}}]})
        ddb.delete_item(TableName="games", Key=key, ReturnValues="ALL_OLD", **total)
        with pytest.raises(ClientError):  # an error keeps moto's serializer
            ddb.put_item(TableName="games", Item=item, ConditionExpression="attribute_exists(pk)")
    finally:
        ddb.meta.events.unregister("before-parse.dynamodb", keep)
    return bodies


@settings(max_examples=25, deadline=None)
@given(attributes=_ATTRIBUTES)
def test_item_answers_are_written_as_moto_writes_them(attributes: dict[str, Any]) -> None:
    from moto import mock_aws
    from moto.dynamodb.responses import DynamoResult

    from local_stack import moto_patches

    moto_patches.apply()
    fast = DynamoResult.execute_result
    answers = []
    for execute in (fast, moto_patches.original_execute_result):
        with mock_aws(), pytest.MonkeyPatch.context() as patch:
            ddb = make_table(streams=False)
            patch.setattr(DynamoResult, "execute_result", execute)
            answers.append(_answers(ddb, attributes))
    assert answers[0] == answers[1]
    assert any("Items" in answer for answer in answers[0])


def test_a_query_answer_is_not_serialized_by_the_model(aws: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path is taken (moto's model-driven serializer would take 90 % of a Query)."""
    from moto.core import serialize

    ddb = make_table(streams=False)
    ddb.put_item(TableName="games", Item=_item("META", 1))

    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("a Query answer went through moto's serializer")

    monkeypatch.setattr(serialize.ResponseSerializer, "serialize", refuse)
    page = ddb.query(TableName="games", KeyConditionExpression="pk = :pk",
                     ExpressionAttributeValues={":pk": {"S": "GAME#g"}})
    assert page["Items"] == [_item("META", 1)]
