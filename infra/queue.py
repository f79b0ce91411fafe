"""SQS adapter for the notification queue: batched sends with a dedupe key, and a local drain.

`SqsMessageQueue.send_messages` satisfies `functions.ports.MessageQueue`:
it sends in chunks of ten (the SQS batch limit) and returns the dedupe keys that
did not make it, so the relay can report exactly those records as failed. Every
message carries its dedupe key as the `dedupe_key` message attribute (and, on a
FIFO queue, as MessageDeduplicationId, grouped by game so a game's notices stay
in order).

`drain_once` is the local stack's stand-in for the Lambda SQS event source mapping:
receive, hand an SQS-shaped event to a handler, delete what the handler reports as
done, and make failures visible again at once (the real mapping waits out the
visibility timeout). The queue's RedrivePolicy still moves a message to the DLQ
after maxReceiveCount receives, as on AWS.

What it does not do: decide what to send (the relay) or deliver anything (the notifier).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from infra import aws_errors

SQS_BATCH_LIMIT = 10


class QueueableMessage(Protocol):
    """What the queue needs of a message (functions.ports.OutboxMessage fits).

    A Protocol rather than an import: infra/ never imports functions/.
    """

    @property
    def dedupe_key(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def game_id(self) -> str | None: ...

    def to_json(self) -> str: ...


class QueueError(Exception):
    """SQS refused or was unreachable; the caller should report its records as failed."""


class SqsMessageQueue:
    """Sends outbox messages to one queue (standard or FIFO)."""

    def __init__(self, client: Callable[[], Any], queue_url: str) -> None:
        """`client` is a factory: no boto3 client exists until the first send."""
        self._client_factory = client
        self._queue_url = queue_url
        self._fifo = queue_url.endswith(".fifo")

    def send_messages(self, messages: Sequence[QueueableMessage], delay_seconds: int = 0) -> set[str]:
        """Send all, each invisible for ``delay_seconds`` first (SQS's per-message DelaySeconds;
        a FIFO queue has none: there they are sent at once); return the dedupe keys that
        failed (empty set = all sent).

        A failing chunk does not stop the next one: the relay reports failures per
        record, and whatever was sent is deduplicated downstream if sent again.
        """
        failed: set[str] = set()
        for start in range(0, len(messages), SQS_BATCH_LIMIT):
            chunk = messages[start : start + SQS_BATCH_LIMIT]
            ids = {f"m{i}": message for i, message in enumerate(chunk)}
            entries = [self._entry(entry_id, message, delay_seconds) for entry_id, message in ids.items()]
            try:
                answer = self._client_factory().send_message_batch(QueueUrl=self._queue_url, Entries=entries)
            except (aws_errors.ClientError, aws_errors.BotoCoreError):
                failed.update(message.dedupe_key for message in chunk)
                continue
            failed.update(ids[f["Id"]].dedupe_key for f in answer.get("Failed", []))
        return failed

    def send_later(self, message: QueueableMessage, delay_seconds: int) -> None:
        """One message that becomes visible after ``delay_seconds`` (SQS DelaySeconds, at most
        900: press batches, issue 33); raises ``QueueError`` if SQS refused it."""
        entry = self._entry("m0", message, delay_seconds)
        entry.pop("Id")
        try:
            self._client_factory().send_message(QueueUrl=self._queue_url, **entry)
        except (aws_errors.ClientError, aws_errors.BotoCoreError) as exc:
            raise QueueError(f"send to {self._queue_url}: {exc}") from exc

    def _entry(self, entry_id: str, message: QueueableMessage, delay_seconds: int = 0) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "Id": entry_id,
            "MessageBody": message.to_json(),
            "MessageAttributes": {
                "dedupe_key": {"DataType": "String", "StringValue": message.dedupe_key},
                "kind": {"DataType": "String", "StringValue": message.kind},
            },
        }
        if delay_seconds and not self._fifo:
            entry["DelaySeconds"] = max(0, min(900, int(delay_seconds)))
        if self._fifo:
            # SQS caps the deduplication id at 128 chars; the key is short, but be safe.
            entry["MessageDeduplicationId"] = message.dedupe_key[-128:]
            entry["MessageGroupId"] = message.game_id or "no-game"
        return entry


def sqs_event(messages: Sequence[Mapping[str, Any]], queue_arn: str) -> dict[str, Any]:
    """Shape `receive_message` output like the Lambda SQS event the notifier gets on AWS."""
    records = []
    for m in messages:
        attributes = dict(m.get("Attributes", {}))
        records.append(
            {
                "messageId": m["MessageId"],
                "receiptHandle": m["ReceiptHandle"],
                "body": m["Body"],
                "attributes": attributes,
                "messageAttributes": {
                    name: {"stringValue": value.get("StringValue"), "dataType": value.get("DataType")}
                    for name, value in m.get("MessageAttributes", {}).items()
                },
                "md5OfBody": m.get("MD5OfBody", ""),
                "eventSource": "aws:sqs",
                "eventSourceARN": queue_arn,
                "awsRegion": queue_arn.split(":")[3] if queue_arn.count(":") >= 5 else "us-east-1",
            }
        )
    return {"Records": records}


def drain_once(
    client: Any,
    queue_url: str,
    handler: Callable[[dict[str, Any], Any], Mapping[str, Any]],
    *,
    max_messages: int = SQS_BATCH_LIMIT,
    wait_seconds: int = 0,
) -> tuple[int, int]:
    """Receive one batch, run `handler` on it, delete successes; returns (delivered, failed).

    Failed records get visibility 0 so the next drain retries them; the queue's
    RedrivePolicy moves a message to the DLQ once it has been received too often.
    """
    try:
        arn = client.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"][
            "QueueArn"
        ]
        answer = client.receive_message(
            QueueUrl=queue_url,
            MaxNumberOfMessages=max_messages,
            WaitTimeSeconds=wait_seconds,
            AttributeNames=["All"],
            MessageAttributeNames=["All"],
        )
    except (aws_errors.ClientError, aws_errors.BotoCoreError) as exc:
        raise QueueError(f"receive from {queue_url}: {exc}") from exc
    messages = answer.get("Messages", [])
    if not messages:
        return 0, 0
    result = handler(sqs_event(messages, arn), None)
    failed_ids = {f["itemIdentifier"] for f in result.get("batchItemFailures", [])}
    done = [m for m in messages if m["MessageId"] not in failed_ids]
    retry = [m for m in messages if m["MessageId"] in failed_ids]
    try:
        if done:
            client.delete_message_batch(
                QueueUrl=queue_url,
                Entries=[{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(done)],
            )
        if retry:
            client.change_message_visibility_batch(
                QueueUrl=queue_url,
                Entries=[
                    {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"], "VisibilityTimeout": 0}
                    for i, m in enumerate(retry)
                ],
            )
    # the messages come back after their visibility timeout
    except (aws_errors.ClientError, aws_errors.BotoCoreError) as exc:
        raise QueueError(f"acknowledge on {queue_url}: {exc}") from exc
    return len(done), len(retry)
