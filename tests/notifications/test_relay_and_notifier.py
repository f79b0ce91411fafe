"""Outbox stream -> relay -> SQS -> notifier, under moto SQS: nothing lost, nothing sent twice."""

from __future__ import annotations

import json
from typing import Any

import boto3
import pytest
from boto3.dynamodb.types import TypeSerializer
from botocore.exceptions import ClientError

from functions.notifier.handler import make_handler as make_notifier
from functions.ports.notifications import TelegramTarget, WebhookTarget
from functions.relay.handler import make_handler as make_relay
from infra.dynamodb.stream_images import STREAM_IMAGES
from infra.queue import QueueError, SqsMessageQueue, drain_once
from tests.notifications.fakes import Deps, MemoryDeliveryLog, RecordingDeliverer, StaticTargets

MAX_RECEIVES = 3
_serializer = TypeSerializer()


def sqs_relay(sqs: Any, url: str) -> Any:
    """The relay over a real (moto) SQS queue and the store's stream codec."""
    return make_relay(lambda: SqsMessageQueue(lambda: sqs, url), STREAM_IMAGES)


@pytest.fixture
def sqs(aws: None) -> Any:
    return boto3.client("sqs", region_name="us-east-1")


@pytest.fixture
def queues(sqs: Any) -> tuple[str, str]:
    dlq = sqs.create_queue(QueueName="outbox-dlq")["QueueUrl"]
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    main = sqs.create_queue(
        QueueName="outbox",
        Attributes={
            "VisibilityTimeout": "30",
            "RedrivePolicy": json.dumps(
                {"deadLetterTargetArn": dlq_arn, "maxReceiveCount": str(MAX_RECEIVES)}
            ),
        },
    )["QueueUrl"]
    return main, dlq


def outbox_record(n: int, game_id: str = "g1", kind: str = "PHASE_PROCESSED") -> dict[str, Any]:
    image = {
        "pk": f"GAME#{game_id}",
        "sk": f"OUTBOX#{n:010d}",
        "seq": n,
        "kind": kind,
        "game_id": game_id,
        "dedupe_key": f"{game_id}:{n}",
        "payload": {"phase": "S1901M", "next_phase": "F1901M"},
    }
    return {
        "eventID": str(n),
        "eventName": "INSERT",
        "eventSource": "aws:dynamodb",
        "dynamodb": {
            "Keys": {"pk": {"S": image["pk"]}, "sk": {"S": image["sk"]}},
            "NewImage": {k: _serializer.serialize(v) for k, v in image.items()},
            "SequenceNumber": f"{n:021d}",
            "StreamViewType": "NEW_IMAGE",
        },
    }


class FlakySqs:
    """The real (moto) client, except that chosen send_message_batch calls fail."""

    def __init__(self, real: Any, fail_calls: set[int]) -> None:
        self.real = real
        self.fail_calls = fail_calls
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def send_message_batch(self, **kwargs: Any) -> Any:
        self.calls += 1
        if self.calls in self.fail_calls:
            raise ClientError(
                {"Error": {"Code": "ServiceUnavailable", "Message": "down"}}, "SendMessageBatch"
            )
        return self.real.send_message_batch(**kwargs)


def drain(sqs: Any, url: str, handler: Any, rounds: int = 10) -> None:
    for _ in range(rounds):
        if drain_once(sqs, url, handler) == (0, 0):
            return


def queue_depth(sqs: Any, url: str) -> int:
    attrs = sqs.get_queue_attributes(
        QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"]
    )["Attributes"]
    return int(attrs["ApproximateNumberOfMessages"]) + int(attrs["ApproximateNumberOfMessagesNotVisible"])


def notifier_for(deliverer: RecordingDeliverer, log: MemoryDeliveryLog) -> Any:
    targets = StaticTargets({"g1": [WebhookTarget("https://hooks.example/x", "s"), TelegramTarget(42)]})
    deps = Deps(targets=targets, deliverer=deliverer, log=log)
    return make_notifier(lambda: deps)


def test_a_relay_failing_mid_batch_loses_nothing_after_restart(sqs: Any, queues: tuple[str, str]) -> None:
    # Given 25 OUTBOX inserts, and SQS failing the second of three batch sends
    main, _ = queues
    event = {"Records": [outbox_record(n) for n in range(1, 26)]}
    flaky = FlakySqs(sqs, fail_calls={2})
    relay = make_relay(lambda: SqsMessageQueue(lambda: flaky, main), STREAM_IMAGES)

    # When the relay runs, it reports exactly records 11..20 as failed
    answer = relay(event, None)
    failed = [f["itemIdentifier"] for f in answer["batchItemFailures"]]
    assert failed == [f"{n:021d}" for n in range(11, 21)]

    # And the stream retries from the first failed record (as Lambda does) after a restart
    restarted = sqs_relay(sqs, main)
    assert restarted({"Records": event["Records"][10:]}, None) == {"batchItemFailures": []}

    # Then every notice is delivered exactly once to each target, though 21..25 were queued twice
    deliverer, log = RecordingDeliverer(), MemoryDeliveryLog()
    drain(sqs, main, notifier_for(deliverer, log))
    delivered = sorted(key for key, target, _ in deliverer.sent if target == "telegram:42")
    assert delivered == sorted(f"g1:{n}" for n in range(1, 26))
    assert len(deliverer.sent) == 50
    assert queue_depth(sqs, main) == 0


def test_a_relay_that_dies_is_retried_whole_without_loss(sqs: Any, queues: tuple[str, str]) -> None:
    main, _ = queues
    event = {"Records": [outbox_record(n) for n in range(1, 4)]}

    def dead_queue() -> Any:
        raise RuntimeError("function crashed before sending")

    assert len(make_relay(dead_queue, STREAM_IMAGES)(event, None)["batchItemFailures"]) == 3
    assert sqs_relay(sqs, main)(event, None) == {"batchItemFailures": []}
    assert queue_depth(sqs, main) == 3


def test_non_outbox_and_non_insert_records_are_skipped(sqs: Any, queues: tuple[str, str]) -> None:
    main, _ = queues
    meta = outbox_record(1)
    meta["dynamodb"]["NewImage"]["sk"] = {"S": "META"}
    removed = outbox_record(2)
    removed["eventName"] = "REMOVE"
    relay = sqs_relay(sqs, main)
    assert relay({"Records": [meta, removed]}, None) == {"batchItemFailures": []}
    assert queue_depth(sqs, main) == 0


def test_an_unreadable_outbox_record_does_not_hold_up_the_rest(sqs: Any, queues: tuple[str, str]) -> None:
    """A malformed OUTBOX item would fail identically on every stream retry and block its
    shard; it is logged and skipped, and the good records of the batch are relayed."""
    main, _ = queues
    broken = outbox_record(1)
    broken["dynamodb"]["NewImage"]["payload"] = {"Z": "not a DynamoDB type"}
    relay = sqs_relay(sqs, main)
    assert relay({"Records": [broken, outbox_record(2), outbox_record(3)]}, None) == {"batchItemFailures": []}
    assert queue_depth(sqs, main) == 2


def test_a_notifier_failing_twice_then_succeeding_delivers_once(sqs: Any, queues: tuple[str, str]) -> None:
    main, dlq = queues
    sqs_relay(sqs, main)({"Records": [outbox_record(7)]}, None)
    deliverer = RecordingDeliverer(failures={("g1:7", "webhook:https://hooks.example/x"): 2})
    log = MemoryDeliveryLog()
    notifier = notifier_for(deliverer, log)

    assert drain_once(sqs, main, notifier) == (0, 1)
    assert drain_once(sqs, main, notifier) == (0, 1)
    assert drain_once(sqs, main, notifier) == (1, 0)

    assert sorted(target for _, target, _ in deliverer.sent) == [
        "telegram:42",
        "webhook:https://hooks.example/x",
    ]
    assert queue_depth(sqs, main) == 0 and queue_depth(sqs, dlq) == 0

    # A redelivery of the same message (same dedupe key) sends nothing more
    sqs_relay(sqs, main)({"Records": [outbox_record(7)]}, None)
    drain(sqs, main, notifier)
    assert len(deliverer.sent) == 2


def test_a_permanent_failure_ends_in_the_dlq_and_the_batch_still_delivers(
    sqs: Any, queues: tuple[str, str]
) -> None:
    main, dlq = queues
    sqs_relay(sqs, main)(
        {"Records": [outbox_record(n) for n in (1, 2, 3)]}, None
    )
    deliverer = RecordingDeliverer(always_fail={"g1:2"})
    notifier = notifier_for(deliverer, MemoryDeliveryLog())

    drain(sqs, main, notifier, rounds=MAX_RECEIVES + 3)

    assert sorted({key for key, _, _ in deliverer.sent}) == ["g1:1", "g1:3"]
    assert len(deliverer.sent) == 4  # two targets each, once
    assert queue_depth(sqs, main) == 0
    dead = sqs.receive_message(QueueUrl=dlq, MaxNumberOfMessages=10)["Messages"]
    assert [json.loads(m["Body"])["dedupe_key"] for m in dead] == ["g1:2"]


def test_a_malformed_message_is_reported_not_raised(sqs: Any, queues: tuple[str, str]) -> None:
    main, _ = queues
    sqs.send_message(QueueUrl=main, MessageBody="not json")
    notifier = notifier_for(RecordingDeliverer(), MemoryDeliveryLog())
    assert drain_once(sqs, main, notifier) == (0, 1)


DENIED: Any = {"Error": {"Code": "AccessDenied", "Message": "no"}}


class RefusingAcks(FlakySqs):
    """The real (moto) client, except that deleting or re-showing messages is refused."""

    def delete_message_batch(self, **kwargs: Any) -> Any:
        raise ClientError(DENIED, "DeleteMessageBatch")

    def change_message_visibility_batch(self, **kwargs: Any) -> Any:
        raise ClientError(DENIED, "ChangeMessageVisibilityBatch")


@pytest.mark.parametrize("fails", [False, True])
def test_a_refused_acknowledgement_is_a_queue_error_not_a_client_error(
    sqs: Any, queues: tuple[str, str], fails: bool
) -> None:
    main, _ = queues
    sqs_relay(sqs, main)({"Records": [outbox_record(1)]}, None)
    deliverer = RecordingDeliverer(always_fail={"g1:1"} if fails else set())
    notifier = notifier_for(deliverer, MemoryDeliveryLog())
    with pytest.raises(QueueError):
        drain_once(RefusingAcks(sqs, set()), main, notifier)


def test_a_join_event_is_its_own_notice_once(sqs: Any, queues: tuple[str, str]) -> None:
    """Issue 29: a join writes its PLAYER_JOINED event and no OUTBOX item; the relay sends the
    event as the notice every target gets ("ITALY has joined"), once, also when redelivered."""
    main, dlq = queues
    joined = outbox_record(12, kind="PLAYER_JOINED")
    image = {"pk": "GAME#g1", "sk": "EVENT#0000000012", "seq": 12, "type": "PLAYER_JOINED",
             "phase": "S1901M", "data": {"power": "ITALY"}, "at": "2026-12-02T10:00:00Z"}
    joined["dynamodb"]["Keys"]["sk"] = {"S": image["sk"]}
    joined["dynamodb"]["NewImage"] = {k: _serializer.serialize(v) for k, v in image.items()}
    relay = sqs_relay(sqs, main)
    deliverer, log = RecordingDeliverer(), MemoryDeliveryLog()
    notifier = notifier_for(deliverer, log)
    for _ in range(2):  # the stream delivers the record twice
        assert relay({"Records": [joined]}, None) == {"batchItemFailures": []}
        drain(sqs, main, notifier)
    assert sorted(target for _, target, _ in deliverer.sent) == ["telegram:42", "webhook:https://hooks.example/x"]
    assert all("ITALY has joined" in text for _, _, text in deliverer.sent)
    assert queue_depth(sqs, main) == 0 and queue_depth(sqs, dlq) == 0
