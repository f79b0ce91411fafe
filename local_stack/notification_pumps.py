"""Local stand-ins for what AWS triggers by itself in issue 5: Scheduler, the table stream, SQS.

Four pumps, run by the local stack's pump loops (`local_stack.pumps`):
- `fire_due_deadlines` (the timer lane, every 0.2 s): takes the due one-time schedules off
  the local Scheduler's clock (`local_stack.schedule_clock`: O(schedules due), not O(schedules)), invokes the
  deadline handler with their ``{game_id, phase}`` input (reminders add
  ``"kind": "reminder"``), then deletes them through the API (what
  ActionAfterCompletion=DELETE does on AWS) unless the firing put its own name again (an
  early firing or an NMR extension moves the phase's deadline by name); a firing that
  raises is offered again on the next run, as Scheduler retries.
- `sweep_overdue`: the backstop sweeper, every `sweep_seconds` of wall time, as its rate
  schedule would (``CONVOY_SWEEP_SECONDS``; 0 switches the sweeper off, as the deadline tests
  do to show that every deadline fires by its own schedule). A phase it processes is a
  deadline its schedule missed: logged as a warning and counted (``swept``).
- `relay_outbox`: the table's DynamoDB stream, read by `local_stack.stream_relay`
  exactly as the event source mapping of template.yaml feeds the relay on AWS (same
  filter, batch size, event shape and partial-failure retry). One GetRecords a batch.
- `drain_queue`: receives from the outbox queue into the notifier handler
  (`infra.queue.drain_once`), deleting what was delivered.

Both read batch after batch while batches come back full, up to `MAX_BATCHES_PER_WAKE` a
run, and stop at a batch with a failure (retried next run). AWS's pollers keep reading a
stream or a queue that has work; one batch a second let a busy minute's notices pile up in
the emulator's queue, where every SQS call of moto costs O(queue) (issue 29).

Handlers are passed in, so this module imports nothing from `functions/` itself;
`install()` (called by the stack) wires the real ones.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from infra.queue import SQS_BATCH_LIMIT, drain_once
from infra.scheduler import EventBridgeDeadlineScheduler
from local_stack.schedule_clock import ScheduleClock
from local_stack.stream_relay import BATCH_SIZE, StreamRelay

Handler = Callable[[dict[str, Any], Any], Any]
log = logging.getLogger("convoy.local.notifications")
# Not under "convoy": Powertools' Logger owns that one, at the functions' POWERTOOLS_LOG_LEVEL
# (ERROR in tests and the soak). A missed deadline must always reach the operator's stderr.
backstop_log = logging.getLogger("local_stack.sweeper")

# What template.yaml's Globals give every function for deadlines. The stack sets it before it
# spawns the API workers (``apply_local_defaults``): the join that fills a game runs there and
# schedules its first deadline (issue 28: without it, a game's first deadline waited for the
# sweeper, and only the deadline function, in this process, scheduled the later ones).
DEADLINE_ENV = {
    "SCHEDULER_GROUP": "convoy-deadlines",
    "DEADLINE_FUNCTION_ARN": "arn:aws:lambda:us-east-1:123456789012:function:convoy-deadline",
    "SCHEDULER_ROLE_ARN": "arn:aws:iam::123456789012:role/convoy-scheduler",
}
LOCAL_DEFAULTS = {**DEADLINE_ENV, "CONVOY_ALLOW_LOOPBACK_WEBHOOKS": "1"}
SWEEP_SECONDS = 30.0  # between two sweeps (the rate schedule); CONVOY_SWEEP_SECONDS, 0: never
MAX_BATCHES_PER_WAKE = 50  # a run drains a backlog but still ends (the next run comes a second later)


def apply_local_defaults() -> None:
    """The functions' environment under the local stack (what template.yaml sets on AWS),
    unless the caller set a variable already. ``LocalStack.start`` applies it *before* it
    spawns the API worker processes, which copy the environment as it is when they start
    (issue 28 item 10: set only here, at install, it reached the pumps but never the
    workers, so ``make run`` refused the ``http://127.0.0.1`` webhooks the README allows)."""
    for name, value in LOCAL_DEFAULTS.items():
        os.environ.setdefault(name, value)


class NotificationPumps:
    def __init__(
        self,
        *,
        dynamodb: Callable[[], Any],
        streams: Callable[[], Any],
        sqs: Callable[[], Any],
        scheduler: EventBridgeDeadlineScheduler,
        clock: ScheduleClock,
        table: str,
        queue_url: str,
        deadline_handler: Handler,
        sweep_handler: Handler,
        relay_handler: Handler,
        notifier_handler: Handler,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        sweep_seconds: float = SWEEP_SECONDS,
        wall_clock: Callable[[], float] = time.monotonic,
        forget: Callable[[int], None] | None = None,
    ) -> None:
        self._sqs = sqs
        self._scheduler = scheduler
        self._clock = clock
        self._queue_url = queue_url
        self._deadline = deadline_handler
        self._sweep = sweep_handler
        self._notifier = notifier_handler
        self._now = now
        self._sweep_seconds = sweep_seconds
        self._wall_clock = wall_clock
        self._last_sweep = wall_clock()
        self.swept = 0  # phases the sweeper processed: each a deadline its schedule missed
        self._stream = StreamRelay(dynamodb=dynamodb, streams=streams, table=table,
                                   handler=relay_handler, forget=forget)

    def fire_due_deadlines(self) -> int:
        """Fire every due schedule once; returns how many fired."""
        due = self._clock.take_due(self._now())
        for fired, deadline in enumerate(due):
            try:
                self._deadline(deadline.event(), None)  # reminders carry "kind": "reminder"
                if not self._clock.replaced(deadline.name):  # re-put by name while firing: keep it
                    self._scheduler.complete(deadline.name)
            except Exception:  # offered again next run (a repeated firing is a no-op)
                self._clock.retry(due[fired:])
                raise
        return len(due)

    def sweep_overdue(self) -> int:
        """The sweeper's run, once its time has come. A phase it had to process is a deadline its
        schedule missed: on AWS the OverdueGames alarm; here a warning, counted (bench/soak.py
        reports the count). Returns how many phases it processed."""
        now = self._wall_clock()
        if not self._sweep_seconds or now - self._last_sweep < self._sweep_seconds:
            return 0
        self._last_sweep = now
        answer = self._sweep({}, None) or {}
        outcomes = answer.get("outcomes") or {}
        processed = sorted(game for game, outcome in outcomes.items() if outcome == "PROCESSED")
        if processed:
            self.swept += len(processed)
            backstop_log.warning("the sweeper processed %d overdue phase(s) (games %s); total %d",
                        len(processed), ", ".join(processed), self.swept)
        return len(processed)

    def relay_outbox(self) -> int:
        """Relay the table's stream until it is caught up or a batch failed; returns how many
        records were read."""
        return _until_caught_up(lambda: (self._stream(), self._stream.retrying), BATCH_SIZE)

    def drain_queue(self) -> int:
        """Deliver the queue's messages until it is empty or a delivery failed; returns how many
        were delivered."""
        def batch() -> tuple[int, int]:
            return drain_once(self._sqs(), self._queue_url, self._notifier)

        return _until_caught_up(batch, SQS_BATCH_LIMIT)


def _until_caught_up(batch: Callable[[], tuple[int, object]], full: int) -> int:
    """Run ``batch`` (how many it read, whether any failed) while batches come back full and clean,
    at most ``MAX_BATCHES_PER_WAKE`` times; returns how many were read in all."""
    read = 0
    for _ in range(MAX_BATCHES_PER_WAKE):
        count, failed = batch()
        read += count
        if failed or count < full:
            break
    return read


def ensure_schedule_group(client: Any, name: str) -> None:
    """The template creates the group on AWS; the emulator needs it made here, once. Asked
    first: moto 5.2.5 answers a second CreateScheduleGroup by replacing the group with an empty
    one (AWS says ConflictException), so a restart on a data directory lost every pending
    schedule, and its deadlines waited for the sweeper."""
    try:
        client.get_schedule_group(Name=name)
        return
    except Exception as exc:  # ResourceNotFoundException: a fresh data directory
        if "NotFound" not in str(exc):
            raise
    try:
        client.create_schedule_group(Name=name)
    except Exception as exc:  # made meanwhile (ConflictException on AWS)
        if "Conflict" not in str(exc):
            raise


_installed: list[Callable[[], Any]] = []


def install() -> NotificationPumps:
    """Wire the real handlers and register the four pumps with the stack's loops.

    Called by the local stack at start (``local_stack.pumps.PUMP_MODULES``); a second
    call (a new stack in the same process) replaces the pumps of the first.
    """
    from local_stack import pumps as loop

    apply_local_defaults()
    from composition import wiring
    from composition.deadline import handler as deadline_handler
    from composition.deadline import sweep_handler
    from composition.notifier import handler as notifier_handler
    from composition.relay import handler as relay_handler
    from infra import aws_clients
    from local_stack import emulator
    from local_stack.backends import scheduler_backend

    for old in _installed:
        loop.unregister(old)
    _installed.clear()
    wiring.reset()
    settings = wiring.settings()
    ensure_schedule_group(aws_clients.client("scheduler"), settings.scheduler_group)
    running = emulator.current()
    table = settings.game_table
    scheduler = wiring.deadline_scheduler()
    if not isinstance(scheduler, EventBridgeDeadlineScheduler):  # the pumps complete what fired with it
        raise TypeError(f"the local stack fires EventBridge schedules, not {type(scheduler).__name__}'s")
    pumps = NotificationPumps(
        dynamodb=aws_clients.dynamodb,
        streams=lambda: aws_clients.client("dynamodbstreams"),
        sqs=aws_clients.sqs,
        scheduler=scheduler,
        clock=ScheduleClock(scheduler_backend, settings.scheduler_group, running.lock if running else None),
        table=table,
        queue_url=settings.queue_url,
        deadline_handler=deadline_handler,
        sweep_handler=sweep_handler,
        relay_handler=relay_handler,
        notifier_handler=notifier_handler,
        forget=(lambda upto: running.trim_stream(table, upto)) if running else None,
        sweep_seconds=float(os.environ.get("CONVOY_SWEEP_SECONDS", str(SWEEP_SECONDS))),
    )
    loop.register(pumps.fire_due_deadlines, timer=True)
    _installed.append(pumps.fire_due_deadlines)
    for pump in (pumps.sweep_overdue, pumps.relay_outbox):
        loop.register(pump)
        _installed.append(pump)
    # deliveries wait on receivers (seconds, for a slow one): never in turn with the others
    loop.register(pumps.drain_queue, separate=True)
    _installed.append(pumps.drain_queue)
    return pumps
