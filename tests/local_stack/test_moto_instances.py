"""Patch 11 (local_stack/moto_instances.py): moto's list of every model object it made keeps
only the live ones, so the emulator's memory follows its data, not its requests (issue 28)."""

from __future__ import annotations

import gc
import json
from typing import Any

import boto3

from local_stack.moto_instances import LiveInstances
from tests.local_stack.conftest import make_table


def _tracked(model: type) -> Any:
    """moto's ``instances_tracked`` of a model class (set by its metaclass: mypy cannot see it)."""
    return vars(model)["instances_tracked"]


def _in_tables() -> int:
    from local_stack.backends import dynamodb_backend

    return sum(len(rows) if isinstance(rows, dict) else 1
               for table in dynamodb_backend().tables.values() for rows in table.items.values())


def test_item_versions_and_query_copies_are_not_kept(aws: None) -> None:
    from moto.dynamodb.models.dynamo_type import Item

    ddb = make_table(streams=False)
    for version in range(30):  # 30 versions of 5 items, each read back by a Query
        for n in range(5):
            ddb.put_item(TableName="games", Item={"pk": {"S": "GAME#g"}, "sk": {"S": f"P#{n}"},
                                                  "v": {"N": str(version)}})
        ddb.query(TableName="games", KeyConditionExpression="pk = :pk",
                  ExpressionAttributeValues={":pk": {"S": "GAME#g"}})
    gc.collect()
    assert _in_tables() == 5
    assert len(list(_tracked(Item))) == len(_tracked(Item)) == 5  # moto kept 330


def test_moto_s_dashboard_lists_the_live_objects(aws: None) -> None:
    from moto.moto_api._internal.responses import MotoAPIResponse

    sqs = boto3.client("sqs", region_name="us-east-1")
    url = sqs.create_queue(QueueName="outbox")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="kept")
    handle = sqs.receive_message(QueueUrl=url, VisibilityTimeout=0)["Messages"][0]["ReceiptHandle"]
    sqs.send_message(QueueUrl=url, MessageBody="deleted")
    for message in sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]:
        if message["Body"] == "deleted":
            sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    gc.collect()
    _, _, body = MotoAPIResponse().model_data(None, "", {})
    data = json.loads(body)
    assert [q["name"] for q in data["sqs"]["Queue"]] == ["outbox"]
    assert [m["body"] for m in data["sqs"]["Message"]] == ["kept"] and handle


def test_moto_s_reset_starts_the_lists_again(aws: None) -> None:
    from moto.core.model_instances import reset_model_data
    from moto.dynamodb.models.dynamo_type import Item

    ddb = make_table(streams=False)
    ddb.put_item(TableName="games", Item={"pk": {"S": "GAME#g"}, "sk": {"S": "META"}})
    reset_model_data()  # what moto's reset does: a plain empty list in every model class
    assert list(_tracked(Item)) == []
    ddb.put_item(TableName="games", Item={"pk": {"S": "GAME#g"}, "sk": {"S": "META2"}})
    assert isinstance(_tracked(Item), LiveInstances) and len(_tracked(Item)) == 1


def test_an_object_without_weak_references_is_kept_as_moto_keeps_it() -> None:
    class Slotted:
        __slots__ = ("n",)

    class Plain:
        pass

    live = LiveInstances()
    kept, gone = Slotted(), Plain()
    live.append(kept)
    live.append(gone)
    assert len(live) == 2
    del gone
    gc.collect()
    assert list(live) == [kept] and len(live) == 1
