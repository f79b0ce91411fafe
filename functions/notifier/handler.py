"""Notifier Lambda: SQS batch of outbox messages -> deliveries, with partial-batch failure reporting.

Wiring only: parse each record into an `OutboxMessage` and call the `deliver` use case
within one wall-clock budget taken from the Lambda context (functions/usecases/
delivery_budget.py, issue 11). What the batch answers, per record:

- delivered (or nothing left to do): deleted;
- failed (malformed body, a target that failed): in ``batchItemFailures``, so SQS
  redelivers just that message; after maxReceiveCount receives the queue's
  RedrivePolicy moves it to the DLQ;
- deferred (the budget ran out before every target was tried): sent back to the queue
  as a new message, so the wait does not use up one of its receives, and deleted;
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
from functions.ports import MessageQueue, OutboxMessage
from functions.usecases.delivery_budget import Budget
from functions.usecases.notifications import NotificationFailed, deliver
from functions.usecases.reach_players import reach_players

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
        processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)
        answer = process_partial_response(event=event, record_handler=batch.handle, processor=processor,
                                          context=context)
        unsent = _send_back(getattr(batch.deps, "queue", None), batch.deferred, batch.notices)
        return {"batchItemFailures": [*answer["batchItemFailures"], *({"itemIdentifier": record_id}
                                                                     for record_id in unsent)]}

    return handler


class _Batch:
    """One invocation's deliveries: the record handler the batch utility calls for each
    message, and what is left to queue once they are all done (deferred messages, notices)."""

    def __init__(self, deps: Any, budget: Budget) -> None:
        self.deps, self.budget = deps, budget
        self.deferred: dict[str, OutboxMessage] = {}
        self.notices: list[OutboxMessage] = []

    def handle(self, record: SQSRecord) -> str:
        """Deliver one message: "delivered" or "deferred", or raise `NotDelivered`."""
        record_id = str(record.get("messageId", ""))
        try:
            message = OutboxMessage.from_json(str(record.get("body", "")))
        except (ValueError, TypeError) as exc:
            logger.warning("unreadable notification message", extra={"message_id": record_id,
                                                                     "error": type(exc).__name__})
            raise NotDelivered(f"message {record_id} is not an outbox message") from None
        if not self.budget.can_start():
            self.deferred[record_id] = message
            return "deferred"
        outcome = _deliver_one(self.deps, message, self.budget)
        self.notices += outcome.notices
        if outcome.failed:
            raise NotDelivered(f"message {record_id} did not reach every target")
        if outcome.deferred:
            self.deferred[record_id] = message
            return "deferred"
        return "delivered"


class _Result:
    def __init__(self, failed: bool, deferred: bool, notices: Sequence[OutboxMessage]) -> None:
        self.failed, self.deferred, self.notices = failed, deferred, list(notices)


def _deliver_one(deps: Any, message: OutboxMessage, budget: Budget) -> _Result:
    """The game's targets, then the players themselves (issue 33: ``deps.reach``)."""
    targets = _deliver_to_targets(deps, message, budget)
    reach = getattr(deps, "reach", None)
    if reach is None:
        return targets
    try:
        reached = reach_players(message, reach, budget=budget)
    except Exception:
        logger.exception("reaching players crashed", extra={"dedupe_key": message.dedupe_key})
        return _Result(True, targets.deferred, targets.notices)
    if reached.failed:
        logger.warning("reaching players failed", extra={"dedupe_key": message.dedupe_key,
                                                         "failures": reached.failed})
    return _Result(targets.failed or bool(reached.failed), targets.deferred or bool(reached.deferred),
                   targets.notices)


def _deliver_to_targets(deps: Any, message: OutboxMessage, budget: Budget) -> _Result:
    try:
        report = deliver(
            message, targets=deps.targets, deliverer=deps.deliverer, log=deps.log,
            public_url=getattr(deps, "public_url", ""), budget=budget, health=getattr(deps, "health", None),
        )
    except NotificationFailed as exc:
        logger.warning("notification failed", extra={"dedupe_key": message.dedupe_key,
                                                    "failures": exc.failures})
        return _Result(True, False, exc.report.notices)
    except Exception:
        logger.exception("notification crashed", extra={"dedupe_key": message.dedupe_key})
        return _Result(True, False, ())
    return _Result(False, bool(report.deferred), report.notices)


def _send_back(
    queue: MessageQueue | None, deferred: dict[str, OutboxMessage], notices: Sequence[OutboxMessage]
) -> list[str]:
    """Queue deferred messages anew and the notices; the ids of deferred records that could
    not be re-sent (SQS must redeliver those instead)."""
    if not deferred and not notices:
        return []
    if queue is None:
        if notices:
            logger.warning("no queue for parking notices", extra={"count": len(notices)})
        return list(deferred)
    try:
        unsent = queue.send_messages([*deferred.values(), *notices])
    except Exception:
        logger.exception("could not queue deferred messages")
        return list(deferred)
    if deferred:
        logger.info("deferred for lack of time", extra={"count": len(deferred)})
    lost_notices = [n.dedupe_key for n in notices if n.dedupe_key in unsent]
    if lost_notices:
        logger.warning("parking notices not queued", extra={"dedupe_keys": lost_notices})
    return [record_id for record_id, m in deferred.items() if m.dedupe_key in unsent]


def _default_dependencies() -> Any:
    from functions.wiring import notifier_dependencies  # deferred: no clients at import

    return notifier_dependencies()


handler = make_handler(_default_dependencies)


# SnapStart (functions/snapstart.py): the AWS clients are built before the snapshot and their
# connections renewed after each restore; random is reseeded there too.
from functions import snapstart, wiring  # noqa: E402 - registered once the handler exists

snapstart.prime(wiring.prime_clients, wiring.notifier_dependencies, renew=(wiring.renew_clients,))
