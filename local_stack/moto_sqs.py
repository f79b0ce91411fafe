"""moto 5.2.5's SQS queue, without the quadratic work in its bookkeeping (issue 29).

The outbox queue holds what the relay sent and the notifier has not yet delivered: a few
hundred messages after a busy minute. moto's ``Queue`` recomputes its attributes from every
message each time one is asked for, and asks often:

1. ``SQSBackend.is_message_valid_based_on_retention_period`` runs for every message a
   ReceiveMessage hands out and reads ``MessageRetentionPeriod`` through
   ``get_queue_attributes``, which builds the whole attribute map three times, each with
   three passes over the queue: O(batch x queue) per receive (cProfile: 53 ms of CPU for a
   ten-message receive from a 190-message queue, all of it under the emulator's lock, so
   every other AWS call of the process waited). It now reads the queue's retention period,
   the same value, after the same check that the queue exists.
2. The message counts (``messages``, ``ApproximateNumberOfMessages``, ``...Delayed``,
   ``...NotVisible``) asked the clock once or twice per message; they read it once per
   count. The same messages are counted (a message's visibility is compared with one instant
   instead of several microseconds apart).
3. ``camelcase_to_underscores`` (each attribute name, char by char, every time the map is
   built) remembers its answers: it is a pure function of the name.

Installed by ``local_stack.moto_patches.apply``; moto's other SQS behaviour is unchanged.
"""

from __future__ import annotations

import functools
from typing import Any

from local_stack.patching import replace, replaced


def install() -> None:
    """Install the three fixes (idempotent)."""
    from moto.core.utils import camelcase_to_underscores
    from moto.sqs import models

    check = "is_message_valid_based_on_retention_period"
    if replaced(models.SQSBackend, check):
        return
    replace(models.SQSBackend, check, is_message_valid_based_on_retention_period)
    counts = {"messages": visible_messages, "approximate_number_of_messages": count_visible,
              "approximate_number_of_messages_delayed": count_delayed,
              "approximate_number_of_messages_not_visible": count_not_visible}
    for name, count in counts.items():  # properties: set as they are (``replace`` marks functions)
        setattr(models.Queue, name, property(count))
    replace(models, "camelcase_to_underscores", functools.lru_cache(maxsize=1024)(camelcase_to_underscores))


def _now_ms() -> float:
    from moto.core.utils import unix_time_millis  # its clock: the journal may pin it (durable.py)

    return unix_time_millis()


def is_message_valid_based_on_retention_period(backend: Any, queue_name: str, message: Any) -> bool:
    """Whether ``message`` is still within its queue's retention period (moto's test, O(1))."""
    from moto.core.utils import unix_time

    retention_period = backend.get_queue(queue_name).message_retention_period
    return bool(retention_period + message.sent_timestamp / 1000 > unix_time())


def visible_messages(queue: Any) -> list[Any]:
    """The messages a receive may hand out: visible and not delayed."""
    now = _now_ms()
    return [m for m in queue._messages if now > m.visible_at and not now < m.delayed_until]


def count_visible(queue: Any) -> int:
    return len(visible_messages(queue))


def count_delayed(queue: Any) -> int:
    now = _now_ms()
    return sum(1 for m in queue._messages if now < m.delayed_until)


def count_not_visible(queue: Any) -> int:
    now = _now_ms()
    return sum(1 for m in queue._messages if not now > m.visible_at)
