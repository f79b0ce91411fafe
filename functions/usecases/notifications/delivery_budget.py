"""The notifier's wall-clock budget: how long one delivery and one batch may take (issue 11).

A per-read socket timeout does not bound a delivery: a receiver that drips one byte a
second held one send for 64 s, and the batch's healthy messages timed out with it. So
the notifier asks the Lambda context how much time is left, keeps a reserve for
answering the batch, and gives each send at most ``per_delivery`` seconds of what is
left. A send that cannot start with at least ``minimum`` seconds is not attempted: the
message goes back to the queue untouched, as *deferred*, which is not a failure.

Pure: a monotonic clock is injected; nothing here does I/O.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

PER_DELIVERY_SECONDS = 5.0  # one send, connect to last byte
RESERVE_SECONDS = 2.0  # kept back for re-queueing deferred messages and answering the batch
MINIMUM_SECONDS = 1.0  # a send is not started with less than this left
NO_CONTEXT_SECONDS = 60.0  # callers without a Lambda context (the local stack's pump)


@dataclass(frozen=True)
class Budget:
    """A deadline on ``clock`` (seconds, monotonic) with the per-send share rules."""

    ends_at: float
    per_delivery: float = PER_DELIVERY_SECONDS
    minimum: float = MINIMUM_SECONDS
    clock: Callable[[], float] = time.monotonic

    @classmethod
    def from_context(
        cls,
        context: Any,
        *,
        reserve: float = RESERVE_SECONDS,
        per_delivery: float = PER_DELIVERY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> Budget:
        """The batch's budget: the Lambda's remaining time less ``reserve``."""
        remaining = getattr(context, "get_remaining_time_in_millis", None)
        seconds = remaining() / 1000.0 if callable(remaining) else NO_CONTEXT_SECONDS
        return cls(ends_at=clock() + seconds - reserve, per_delivery=per_delivery, clock=clock)

    def left(self) -> float:
        return self.ends_at - self.clock()

    def can_start(self) -> bool:
        """Is there time to start one more send?"""
        return self.left() >= self.minimum

    def send_deadline(self) -> float:
        """The monotonic instant by which the next send must be over."""
        return self.clock() + max(0.0, min(self.per_delivery, self.left()))
