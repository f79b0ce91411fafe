"""Notifier Lambda: SQS batch of outbox messages -> deliveries, with partial-batch failure reporting.

Wiring only: parse each record into an `OutboxMessage` and hand the batch to the
`deliver_batch` use case within one wall-clock budget taken from the Lambda context
(functions/usecases/notifications/delivery_budget.py, issue 11). The batch's sends run side by side
(functions/usecases/notifications/delivery_lanes.py, issue 28 item 7): a slow or dead receiver holds up
only its own deliveries. What the batch answers, per record:

- delivered (or nothing left to do): deleted;
- failed (malformed body, a target that failed): in ``batchItemFailures``, so SQS
  redelivers just that message; after maxReceiveCount receives the queue's
  RedrivePolicy moves it to the DLQ;
- deferred (the budget ran out before every target was tried, or a target's host was slow
  in this batch): sent back to the queue as a new message, so the wait does not use up one
  of its receives, and deleted (behind a slow host it comes back ``SLOW_DELAY_SECONDS``
  later, so that it does not hold up the next batches);
  only if that re-send fails is it reported in ``batchItemFailures``.

Notices that a target was parked are queued the same way. Failures are logged at
WARNING with the target's type and host only (URLs may hold tokens).

Powertools' batch utility (``BatchProcessor``, ``EventType.SQS``,
``process_partial_response``) runs the record handler on each message and answers the
failed ones. One thing it cannot do record by record: the deferred messages and the
notices go back to the queue together, in one ``send_messages`` after the last record
(one SQS call, not one per message), and a deferred message is a failure only if that
send refuses it. Those ids are appended to the utility's answer, after its own, as before.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

from functions.observability import get_logger, get_tracer
from functions.ports import GAME_ENDED
from functions.ports.notifications import OutboxMessage
from functions.ports.notifier import MessageQueue
from functions.usecases.notifications import Budget, deliver_batch
from functions.usecases.reach import Reached, reach_players

LambdaHandler = Callable[[dict[str, Any], Any], dict[str, Any]]
logger = get_logger()
tracer = get_tracer()


class NotDelivered(Exception):
    """SQS must redeliver this message (a receive is used up; the DLQ takes it in the end).

    Its text names the message id only: the batch utility logs it (at DEBUG)."""


def make_handler(
    dependencies: Callable[[], Any], clock: Callable[[], float] = time.monotonic
) -> LambdaHandler:
    """A handler over `dependencies()` -> an object with .targets, .deliverer, .log and optionally
    .public_url (the base of the map links in notices), .health (target parking) and .queue
    (where deferred messages and notices go back); built lazily. ``clock`` is the budget's."""

    @logger.inject_lambda_context(clear_state=True)
    @tracer.capture_lambda_handler
    def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
        batch = _Batch(dependencies(), Budget.from_context(context, clock=clock))
        if not event.get("Records"):  # the utility refuses an empty batch; nothing to answer
            return {"batchItemFailures": []}
        batch.deliver_all(event["Records"])
        processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)
        answer = process_partial_response(event=event, record_handler=batch.handle, processor=processor,
                                          context=context)
        unsent = _send_back(getattr(batch.deps, "queue", None), batch.deferred, batch.notices)
        return {"batchItemFailures": [*answer["batchItemFailures"], *({"itemIdentifier": record_id}
                                                                     for record_id in unsent)]}

    return handler


class _Batch:
    """One invocation's deliveries: all of them run at once (``deliver_all``), then the batch
    utility asks for each record's outcome (``handle``); what is left to queue afterwards
    (deferred messages, each with its delay, and parking notices) is kept here."""

    def __init__(self, deps: Any, budget: Budget) -> None:
        self.deps, self.budget = deps, budget
        self.deferred: dict[str, tuple[OutboxMessage, int]] = {}
        self.notices: list[OutboxMessage] = []
        self.outcomes: dict[str, str] = {}

    def deliver_all(self, records: list[dict[str, Any]]) -> None:
        """Deliver every readable record's message side by side; remember each outcome."""
        messages: dict[str, OutboxMessage] = {}
        for record in records:
            record_id = str(record.get("messageId", ""))
            try:
                messages[record_id] = OutboxMessage.from_json(str(record.get("body", "")))
            except (ValueError, TypeError) as exc:
                logger.warning("unreadable notification message", extra={"message_id": record_id,
                                                                         "error": type(exc).__name__})
                self.outcomes[record_id] = "unreadable"
        try:
            reports = deliver_batch(
                list(messages.values()), targets=self.deps.targets, deliverer=self.deps.deliverer,
                log=self.deps.log, public_url=getattr(self.deps, "public_url", ""), budget=self.budget,
                health=getattr(self.deps, "health", None),
            )
        except Exception:
            logger.exception("notification batch crashed", extra={"count": len(messages)})
            self.outcomes.update(dict.fromkeys(messages, "failed"))
            return
        for (record_id, message), report in zip(messages.items(), reports, strict=True):
            self.notices += report.notices
            reached = self.reach(message)
            if not self.record(message):
                self.outcomes[record_id] = "failed"
                continue
            if report.failed:
                logger.warning("notification failed", extra={"dedupe_key": message.dedupe_key,
                                                            "failures": dict(report.failed)})
            if report.failed or reached.failed:
                self.outcomes[record_id] = "failed"
            elif report.deferred or reached.deferred:
                self.deferred[record_id] = (message, report.delay_seconds if report.deferred else 0)
                self.outcomes[record_id] = "deferred"
            else:
                self.outcomes[record_id] = "delivered"

    def reach(self, message: OutboxMessage) -> Reached:
        """The players themselves, after the game's targets (issue 33: live frames, mail, push;
        ``deps.reach``). A retry sends only what its delivery log does not hold yet."""
        reach = getattr(self.deps, "reach", None)
        if reach is None:
            return Reached()
        try:
            reached = reach_players(message, reach, budget=self.budget)
        except Exception:
            logger.exception("reaching players crashed", extra={"dedupe_key": message.dedupe_key})
            return Reached(failed={"reach": "crashed"})
        if reached.failed:
            logger.warning("reaching players failed", extra={"dedupe_key": message.dedupe_key,
                                                             "failures": reached.failed})
        return reached

    def record(self, message: OutboxMessage) -> bool:
        """A GAME_ENDED enters the players' records (issue 34: ratings, profiles, the archive;
        ``deps.records``, idempotent per game); False if that failed: SQS redelivers it."""
        records = getattr(self.deps, "records", None)
        if records is None or message.kind != GAME_ENDED:
            return True
        try:
            records(message.game_id)
        except Exception:
            logger.exception("recording the finished game failed", extra={"game_id": message.game_id})
            return False
        return True

    def handle(self, record: SQSRecord) -> str:
        """One record's outcome: "delivered" or "deferred", or raise `NotDelivered`."""
        record_id = str(record.get("messageId", ""))
        outcome = self.outcomes.get(record_id, "failed")
        if outcome == "unreadable":
            raise NotDelivered(f"message {record_id} is not an outbox message")
        if outcome == "failed":
            raise NotDelivered(f"message {record_id} did not reach every target")
        return outcome


Deferred = dict[str, tuple[OutboxMessage, int]]  # record id -> (message, seconds it waits in the queue)


def _send_back(queue: MessageQueue | None, deferred: Deferred, notices: Sequence[OutboxMessage]) -> list[str]:
    """Queue the deferred messages anew (each after its delay) and the notices; the ids of
    deferred records that could not be re-sent (SQS must redeliver those instead)."""
    if not deferred and not notices:
        return []
    if queue is None:
        if notices:
            logger.warning("no queue for parking notices", extra={"count": len(notices)})
        return list(deferred)
    by_delay: dict[int, list[OutboxMessage]] = {0: list(notices)}
    for message, delay in deferred.values():
        by_delay.setdefault(delay, []).append(message)
    unsent: set[str] = set()
    for delay, messages in sorted(by_delay.items()):
        if not messages:
            continue
        try:  # one SQS call per delay (in chunks of ten), not one per message
            unsent |= queue.send_messages(messages, delay_seconds=delay) if delay else \
                queue.send_messages(messages)
        except Exception:
            logger.exception("could not queue deferred messages")
            unsent |= {m.dedupe_key for m in messages}
    if deferred:
        logger.info("deferred", extra={"count": len(deferred)})
    lost_notices = [n.dedupe_key for n in notices if n.dedupe_key in unsent]
    if lost_notices:
        logger.warning("parking notices not queued", extra={"dedupe_keys": lost_notices})
    return [record_id for record_id, (m, _) in deferred.items() if m.dedupe_key in unsent]
