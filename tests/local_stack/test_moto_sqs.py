"""The local stack's SQS and routing fixes to moto 5.2.5 (local_stack/moto_sqs.py,
local_stack/moto_dispatch.py): the same answers, without rebuilding a queue's attribute map
for every message a receive hands out."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import boto3
import pytest


def test_the_message_counts_are_moto_s(aws: None) -> None:
    sqs = boto3.client("sqs", region_name="us-east-1")
    url = sqs.create_queue(QueueName="outbox")["QueueUrl"]
    for n in range(5):
        sqs.send_message(QueueUrl=url, MessageBody=f"m{n}")
    sqs.send_message(QueueUrl=url, MessageBody="later", DelaySeconds=60)
    received = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=2, VisibilityTimeout=30)["Messages"]
    attributes = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    assert len(received) == 2
    assert attributes["ApproximateNumberOfMessages"] == "3"
    assert attributes["ApproximateNumberOfMessagesNotVisible"] == "2"
    assert attributes["ApproximateNumberOfMessagesDelayed"] == "1"


def test_a_receive_does_not_rebuild_the_attribute_map_per_message(aws: None,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from moto.sqs.models import Queue

    sqs = boto3.client("sqs", region_name="us-east-1")
    url = sqs.create_queue(QueueName="outbox")["QueueUrl"]
    sqs.send_message_batch(QueueUrl=url, Entries=[{"Id": str(n), "MessageBody": "m"} for n in range(10)])
    built: list[int] = []
    attributes = vars(Queue)["attributes"].fget

    def counted(queue: Any) -> Any:
        built.append(1)
        return attributes(queue)

    monkeypatch.setattr(Queue, "attributes", property(counted))
    assert len(sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]) == 10
    assert built == []  # moto built it three times for each of the ten messages


def test_a_message_past_its_retention_period_is_not_received(aws: None,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import moto.core.utils

    sqs = boto3.client("sqs", region_name="us-east-1")
    url = sqs.create_queue(QueueName="outbox", Attributes={"MessageRetentionPeriod": "60"})["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="old")
    real = moto.core.utils.utcnow
    monkeypatch.setattr(moto.core.utils, "utcnow", lambda: real() + timedelta(seconds=50))
    assert [m["Body"] for m in sqs.receive_message(QueueUrl=url, VisibilityTimeout=0)["Messages"]] == ["old"]
    monkeypatch.setattr(moto.core.utils, "utcnow", lambda: real() + timedelta(seconds=61))
    assert sqs.receive_message(QueueUrl=url, VisibilityTimeout=0).get("Messages", []) == []


def test_the_remembered_routing_answers_as_moto_does(aws: None) -> None:
    import inspect
    import os

    import moto
    import moto.backends
    import moto.core.responses
    from moto.dynamodb.responses import DynamoHandler
    from moto.sqs.responses import SQSResponse

    path = os.path.dirname(moto.__file__)
    listed = sorted(name for name in os.listdir(path)
                    if os.path.isdir(os.path.join(path, name)) and not name.startswith("__"))
    assert list(moto.backends.list_of_moto_modules()) == listed
    assert list(moto.backends.list_of_moto_modules()) == listed  # the second answer too
    remembered = vars(moto.core.responses)["method_names_from_class"]
    for handler in (DynamoHandler, SQSResponse):
        names = [name for name, _ in inspect.getmembers(handler, predicate=inspect.isfunction)]
        assert remembered(handler) == names and remembered(handler) == names
