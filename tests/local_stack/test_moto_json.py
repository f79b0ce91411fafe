"""Patch 10 (local_stack/moto_json.py): the stream's and the queue's answers written by one walk
over their shape are the answers moto's serializer writes, on every attribute and message
shape the hypothesis strategies reach."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import boto3
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from local_stack import moto_json
from tests.local_stack.conftest import make_table, mock_streams_client
from tests.local_stack.test_moto_patches import _ATTRIBUTES


@settings(max_examples=20, deadline=None)
@given(images=st.lists(_ATTRIBUTES, min_size=1, max_size=4))
def test_stream_records_are_written_as_moto_writes_them(images: list[dict[str, Any]]) -> None:
    from moto import mock_aws

    with mock_aws():
        ddb = make_table()
        for n, attributes in enumerate(images):
            key = {"pk": {"S": "GAME#g"}, "sk": {"S": f"OUTBOX#{n}"}}
            ddb.put_item(TableName="games", Item={**attributes, **key})
        ddb.delete_item(TableName="games", Key={"pk": {"S": "GAME#g"}, "sk": {"S": "OUTBOX#0"}})
        streams = mock_streams_client()
        arn = ddb.describe_table(TableName="games")["Table"]["LatestStreamArn"]
        shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
        iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                              ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        for _ in _writers_compared():
            page = streams.get_records(ShardIterator=iterator, Limit=100)
            assert len(page["Records"]) == len(images) + 1
            assert isinstance(page["Records"][0]["dynamodb"]["ApproximateCreationDateTime"], datetime)
            iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                                  ShardIteratorType="TRIM_HORIZON")["ShardIterator"]


_ATTRIBUTE_VALUES = st.one_of(
    st.text(min_size=1, max_size=6).map(lambda s: {"DataType": "String", "StringValue": s}),
    st.integers(-99, 99).map(lambda n: {"DataType": "Number", "StringValue": str(n)}),
    st.binary(min_size=1, max_size=6).map(lambda b: {"DataType": "Binary", "BinaryValue": b}),
)
_NAMES = st.from_regex(r"[a-z]{1,5}", fullmatch=True)
_MESSAGE = st.tuples(st.text(min_size=1, max_size=20), st.dictionaries(_NAMES, _ATTRIBUTE_VALUES, max_size=3))
_MESSAGES = st.lists(_MESSAGE, min_size=1, max_size=10)


@settings(max_examples=20, deadline=None)
@given(messages=_MESSAGES)
def test_queue_answers_are_written_as_moto_writes_them(messages: list[tuple[str, dict[str, Any]]]) -> None:
    from moto import mock_aws

    with mock_aws():
        sqs = boto3.client("sqs", region_name="us-east-1")
        url = sqs.create_queue(QueueName="outbox", Attributes={"DelaySeconds": "0"})["QueueUrl"]
        for _ in _writers_compared():
            sqs.get_queue_url(QueueName="outbox")
            sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])
            sqs.send_message(QueueUrl=url, MessageBody=messages[0][0], MessageAttributes=messages[0][1])
            sqs.send_message_batch(QueueUrl=url, Entries=[
                {"Id": str(n), "MessageBody": body, "MessageAttributes": attributes}
                for n, (body, attributes) in enumerate(messages)])
            received = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, AttributeNames=["All"],
                                           MessageAttributeNames=["All"])["Messages"]
            sqs.delete_message_batch(QueueUrl=url, Entries=[
                {"Id": str(n), "ReceiptHandle": m["ReceiptHandle"]} for n, m in enumerate(received)]
                + [{"Id": "gone", "ReceiptHandle": "not-a-handle"}])
            sqs.purge_queue(QueueUrl=url)


def _writers_compared() -> Iterator[None]:
    """Run the caller's block once with both writers compared, and check the fast one wrote."""
    with pytest.MonkeyPatch.context() as patch:
        from moto.core.responses import ActionResult

        moto_json.install()
        wrote: list[str] = []

        def compare(result: Any, context: Any) -> Any:
            mine = moto_json.execute_result(result, context)
            theirs = moto_json.original_execute_result(result, context)
            assert (mine[0], mine[1]) == (theirs[0], theirs[1])
            assert json.loads(mine[2] or "{}") == json.loads(theirs[2] or "{}")
            names = (context.service_model.service_name, context.operation_model.name)
            if names in moto_json.PLAIN_ANSWERS and not isinstance(result.result, Exception):
                wrote.append(names[1])
            return mine

        patch.setattr(ActionResult, "execute_result", compare)
        yield
    assert wrote  # the fast writer answered (a NotPlain fallback everywhere would prove nothing)


def test_a_result_the_pickers_would_read_differently_is_left_to_moto() -> None:
    """A key the shape does not name (an alias moto's pickers might take) or a model object
    where the shape has a structure: moto's serializer writes the answer."""
    from botocore.session import get_session

    shape = get_session().get_service_model("sqs").operation_model("ReceiveMessage").output_shape
    with pytest.raises(moto_json.NotPlain):
        moto_json.write({"Messages": [{"message_id": "1"}]}, shape)
    with pytest.raises(moto_json.NotPlain):
        moto_json.write({"Messages": [object()]}, shape)
    assert moto_json.write({"Messages": [{"MessageId": "1", "Body": None}]}, shape) == \
        {"Messages": [{"MessageId": "1"}]}
