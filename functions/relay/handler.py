"""Relay Lambda: DynamoDB stream records of OUTBOX items -> the notification queue.

The event source mapping filters the stream to INSERTs whose sort key begins with
``OUTBOX#``, and to the EVENT inserts of order submissions and retractions, which become
live-only messages (issue 33; a submission writes no OUTBOX item: issue 29) (template.yaml);
other records are skipped here too, defensively.
All messages of the batch go out with SQS ``send_message_batch``; the records whose
messages were not accepted are reported as batch item failures (by sequence
number), so the stream retries from the first of them — nothing is lost if SQS
fails mid-batch or the function dies (then the whole batch is retried). Records
sent twice that way carry the same dedupe key, and the notifier delivers once.

Powertools' batch utility (``BatchProcessor``, ``EventType.DynamoDBStreams``,
``process_partial_response``) writes the partial-batch answer, but it works one record
at a time, and one ``send_message`` per record would be ten times the SQS calls of one
``send_message_batch`` per ten. So the handler works in three steps: read every record
(a malformed OUTBOX item is logged and skipped: it would fail the same way on every
retry and hold up its shard), send all the messages at once, then let the processor
go over the records and report, in stream order, each whose message SQS did not take.

The relay also forgets games that never started (issue 28 item 13): the mapping passes the
REMOVE of a META too (only the table's TTL removes one: functions/usecases/game/expiry.py), and
the game's other items are deleted; a failure is a batch item failure, retried like a send.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord

from functions.observability import get_logger, get_tracer
from functions.ports import GameStore
from functions.ports.notifications import OutboxMessage
from functions.ports.notifier import MessageQueue, StreamImages
from functions.usecases.game import forget_game
from functions.usecases.notifications import (
    message_from_event_item,
    message_from_outbox_item,
    relay_outbox,
)

LambdaHandler = Callable[[dict[str, Any], Any], dict[str, Any]]
logger = get_logger()
tracer = get_tracer()


class NotRelayed(Exception):
    """This record's message did not reach the queue: the stream must retry from it."""


def outbox_message(raw_record: Mapping[str, Any], images: StreamImages) -> OutboxMessage | None:
    """The message a stream record carries: an OUTBOX insert's, or a submission EVENT's
    live update (issue 33: notifications.LIVE_ONLY); None for anything else.

    Decoded with the store's own codec (``images``), not Powertools' data class,
    which would deserialize the image a second way (boto3's TypeDeserializer)."""
    if raw_record.get("eventName") != "INSERT":
        return None
    item = images.item((raw_record.get("dynamodb") or {}).get("NewImage") or {})
    return message_from_outbox_item(item) or message_from_event_item(item)


def record_reference(raw: Mapping[str, Any], error: Exception) -> dict[str, Any]:
    """What a log line may say about a stream record: its ids and the error's type, no values."""
    found = raw.get("dynamodb")
    stream: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    found = stream.get("Keys")
    keys: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    sort_key = str((keys.get("sk") or {}).get("S", "")) if isinstance(keys.get("sk"), Mapping) else ""
    return {
        "event_id": str(raw.get("eventID", "")),
        "sequence_number": str(stream.get("SequenceNumber", "")),
        "sort_key_kind": sort_key.split("#", 1)[0],
        "error": type(error).__name__,
    }


def read_batch(records: Sequence[Mapping[str, Any]], images: StreamImages) -> dict[str, OutboxMessage]:
    """Sequence number -> message, for every readable OUTBOX insert of the batch."""
    by_sequence: dict[str, OutboxMessage] = {}
    for raw in records:
        try:
            message = outbox_message(raw, images)
        except Exception as exc:
            # Never the record itself: its image may hold a webhook secret, a token hash
            # or a bot reply's text (issue 11) - where it is and what failed is enough.
            logger.warning("unreadable outbox record skipped", extra=record_reference(raw, exc))
            continue
        if message is not None:
            by_sequence[str(raw["dynamodb"]["SequenceNumber"])] = message
    return by_sequence


def send_batch(by_sequence: Mapping[str, OutboxMessage], queue: Callable[[], MessageQueue]) -> set[str]:
    """Send every message in one go; the sequence numbers whose message was not accepted."""
    try:
        failed_keys = relay_outbox(list(by_sequence.values()), queue())
    except Exception:  # the queue is unusable: every record must be retried
        logger.exception("outbox queue unusable", extra={"count": len(by_sequence)})
        failed_keys = {m.dedupe_key for m in by_sequence.values()}
    return {seq for seq, m in by_sequence.items() if m.dedupe_key in failed_keys}


def make_handler(queue: Callable[[], MessageQueue], images: StreamImages,
                 games: Callable[[], GameStore] | None = None) -> LambdaHandler:
    """A handler sending to `queue()` (built lazily, on the first batch), and forgetting the
    games whose META the table's TTL removed in `games()`; `images` reads the stream's items
    (composition/relay.py passes the store's codec).

    It answers Lambda's partial-batch response (``ReportBatchItemFailures``): the failed
    records' sequence numbers, in stream order, from which the stream retries. A fresh
    processor per batch: the local stack runs handlers on several threads at once."""

    @logger.inject_lambda_context(clear_state=True)
    @tracer.capture_lambda_handler
    def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
        records = event.get("Records") or []
        if not records:  # the utility refuses an empty batch; there is nothing to answer
            return {"batchItemFailures": []}
        unsent = send_batch(read_batch(records, images), queue)

        def report(record: DynamoDBRecord) -> None:
            gone = images.removed_game(record.raw_event)
            if gone is not None and games is not None:
                deleted = forget_game(games(), gone)
                logger.info("an unstarted game expired", extra={"game_id": gone, "items": deleted})
                return
            sequence = record.dynamodb.sequence_number if record.dynamodb else None
            if sequence in unsent:
                raise NotRelayed(f"outbox record {sequence} not accepted by the queue")

        processor = BatchProcessor(event_type=EventType.DynamoDBStreams, raise_on_entire_batch_failure=False)
        return dict(process_partial_response(event=event, record_handler=report, processor=processor,
                                             context=context))

    return handler
