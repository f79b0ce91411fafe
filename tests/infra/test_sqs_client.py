"""Convoy's small SQS client (infra/sqs.py, issue 9 item 6): the calls the relay, the local
stack's pumps and its template make answer as botocore's SQS client does, against moto's
server over HTTP. Signing, retries and errors are the shared JSON-protocol client's
(infra/aws_json.py, tests/infra/test_dynamodb_client.py); here only what SQS adds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from unittest import mock

import boto3
import pytest
from botocore.exceptions import ClientError

from infra.sqs import SQSClient


@pytest.fixture
def clients(moto_endpoint: str) -> Iterator[tuple[SQSClient, Any]]:
    with mock.patch.dict("os.environ", {"AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s"}):
        yield SQSClient("us-east-1", moto_endpoint), boto3.client(
            "sqs", region_name="us-east-1", endpoint_url=moto_endpoint)


def test_a_batch_sent_is_received_and_deleted_as_botocore_sees_it(clients: tuple[SQSClient, Any]) -> None:
    ours, reference = clients
    url = ours.create_queue(QueueName="t-sqs-client", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
    assert url == reference.get_queue_url(QueueName="t-sqs-client")["QueueUrl"]
    assert (ours.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]
            == reference.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"])

    sent = ours.send_message_batch(QueueUrl=url, Entries=[{"Id": "a", "MessageBody": "one"},
                                                          {"Id": "b", "MessageBody": "two"}])
    assert sorted(s["Id"] for s in sent["Successful"]) == ["a", "b"] and sent.get("Failed", []) == []

    got = reference.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
    assert sorted(m["Body"] for m in got) == ["one", "two"]
    ours.delete_message_batch(QueueUrl=url, Entries=[
        {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(got)])
    assert ours.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", []) == []


def test_errors_are_botocore_s_client_errors(clients: tuple[SQSClient, Any]) -> None:
    ours, _ = clients
    with pytest.raises(ClientError) as failed:
        ours.get_queue_url(QueueName="t-sqs-client-never")
    assert failed.value.response["Error"]["Code"] == "QueueDoesNotExist"
    assert failed.value.operation_name == "GetQueueUrl"
