"""Relay Lambda: DynamoDB stream records of OUTBOX items -> the notification queue.

The event source mapping filters the stream to INSERTs whose sort key begins with
``OUTBOX#`` (template.yaml); other records are skipped here too, defensively.
All messages of the batch go out with SQS ``send_message_batch``; the records whose
messages were not accepted are reported as batch item failures (by sequence
number), so the stream retries from the first of them — nothing is lost if SQS
fails mid-batch or the function dies (then the whole batch is retried). Records
sent twice that way carry the same dedupe key, and the notifier delivers once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from functions.observability import get_logger
from functions.ports import MessageQueue, OutboxMessage
from functions.usecases.notifications import message_from_outbox_item, relay_outbox
from functions.wiring import stream_item

LambdaHandler = Callable[[dict[str, Any], Any], dict[str, Any]]
logger = get_logger()


def outbox_message(raw_record: Mapping[str, Any]) -> OutboxMessage | None:
    """The message a stream record carries, or None if it is not an OUTBOX insert."""
    if raw_record.get("eventName") != "INSERT":
        return None
    image = (raw_record.get("dynamodb") or {}).get("NewImage") or {}
    return message_from_outbox_item(stream_item(image))


def record_reference(raw: Mapping[str, Any], error: Exception) -> dict[str, Any]:
    """What a log line may say about a stream record: its ids and the error's type, no values."""
    stream = raw.get("dynamodb") if isinstance(raw.get("dynamodb"), Mapping) else {}
    keys = stream.get("Keys") if isinstance(stream.get("Keys"), Mapping) else {}
    sort_key = str((keys.get("sk") or {}).get("S", "")) if isinstance(keys.get("sk"), Mapping) else ""
    return {
        "event_id": str(raw.get("eventID", "")),
        "sequence_number": str(stream.get("SequenceNumber", "")),
        "sort_key_kind": sort_key.split("#", 1)[0],
        "error": type(error).__name__,
    }


def make_handler(queue: Callable[[], MessageQueue]) -> LambdaHandler:
    """A handler sending to `queue()` (built lazily, on the first batch).

    It answers Lambda's partial-batch response itself (``ReportBatchItemFailures``): the
    failed records' sequence numbers, in stream order, from which the stream retries."""

    def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
        by_sequence: dict[str, OutboxMessage] = {}
        for raw in event.get("Records", []):
            try:
                message = outbox_message(raw)
            except Exception as exc:
                # A malformed OUTBOX item would fail the same way on every retry and hold
                # up every later record of its shard: log it and let the stream move on.
                # Never the record itself: its image may hold a webhook secret, a token hash
                # or a bot reply's text (issue 11) - where it is and what failed is enough.
                logger.warning("unreadable outbox record skipped", extra=record_reference(raw, exc))
                continue
            if message is not None:
                by_sequence[str(raw["dynamodb"]["SequenceNumber"])] = message
        try:
            failed_keys = relay_outbox(list(by_sequence.values()), queue())
        except Exception:  # the queue is unusable: every record must be retried
            failed_keys = {m.dedupe_key for m in by_sequence.values()}
        failed = [seq for seq, m in by_sequence.items() if m.dedupe_key in failed_keys]
        return {"batchItemFailures": [{"itemIdentifier": seq} for seq in failed]}

    return handler


def _default_queue() -> MessageQueue:
    from functions.wiring import outbox_queue  # deferred: no clients at import

    return outbox_queue()


handler = make_handler(_default_queue)
