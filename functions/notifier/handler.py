"""Notifier Lambda: SQS batch of outbox messages -> deliveries, with partial-batch failure reporting.

Wiring only: parse each record into an `OutboxMessage` and call the `deliver` use
case. A record that raises (malformed body, a target that failed) is reported in
`batchItemFailures`, so SQS redelivers just that message; after maxReceiveCount
receives the queue's RedrivePolicy moves it to the DLQ. The rest of the batch is
deleted as delivered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

from functions.ports import OutboxMessage
from functions.usecases.notifications import deliver

LambdaHandler = Callable[[dict[str, Any], Any], dict[str, Any]]


def make_handler(dependencies: Callable[[], Any]) -> LambdaHandler:
    """A handler over `dependencies()` -> an object with .targets, .deliverer, .log and optionally
    .public_url (the base of the map links in notices); built lazily."""
    # Every record fails -> report them all rather than raise: same retry, clearer logs.
    processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)

    def record_handler(record: SQSRecord) -> None:
        deps = dependencies()
        message = OutboxMessage.from_json(record.body)
        deliver(message, targets=deps.targets, deliverer=deps.deliverer, log=deps.log,
                public_url=getattr(deps, "public_url", ""))

    def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
        return dict(
            process_partial_response(
                event=event, record_handler=record_handler, processor=processor, context=context
            )
        )

    return handler


def _default_dependencies() -> Any:
    from functions.wiring import notifier_dependencies  # deferred: no clients at import

    return notifier_dependencies()


handler = make_handler(_default_dependencies)
