"""Notification use cases: relay OUTBOX items to the queue, and deliver queued messages.

`relay_outbox` is the stream -> queue step: each OUTBOX item becomes one
`OutboxMessage` keyed by the item's dedupe key; the keys that could not be sent
are returned so the relay reports just those records as failed (the stream
retries them, and anything sent twice is caught by the dedupe below).

`deliver` is the queue -> chat step: it renders a short text, then, for each of the
game's targets (or the one target a bot reply names), sends it unless the delivery
log already records (dedupe key, target). One target failing does not block the
others; the message as a whole fails so SQS retries it, and the log makes the retry
send only to the targets still missing. After maxReceiveCount tries the message
lands in the dead-letter queue. Issue 11: each send has a wall-clock deadline from the
batch's budget (functions/usecases/notifications/delivery_budget.py) and targets not tried for lack
of time are reported ``deferred``, not failed; a game target that keeps failing is
parked (``TargetHealth``) and its parking announced once to the game's other targets.

Exactly-once caveat: a crash *between* a successful send and `mark_delivered`
sends that one target again on retry; webhook receivers can drop it by the
X-Convoy-Delivery header (docs/notifications.md), Discord and Telegram cannot.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from functions.ports.notifications import DeliveryTarget, OutboxMessage
from functions.ports.notifier import Deliverer, DeliveryLog, TargetDirectory, TargetHealth, TargetStanding
from functions.usecases.notifications.delivery_budget import Budget
from functions.usecases.notifications.delivery_lanes import (
    SLOW_DELAY_SECONDS,
    Job,
    Lanes,
    Outcome,
)
from functions.usecases.notifications.host_names import registrable_domain
from functions.usecases.notifications.outbox_items import (  # noqa: F401 - the relay's, exported here too
    EVENT_SK_PREFIX,
    LIVE_ONLY,
    OUTBOX_SK_PREFIX,
    message_from_event_item,
    message_from_outbox_item,
    relay_outbox,
)
from functions.usecases.notifications.rendering import (  # noqa: F401 - exported here too
    TARGET_PARKED,
    render_text,
    webhook_document,
)

PARK_AFTER_FAILURES = 10  # consecutive failed sends (two messages' worth of SQS retries)
PARK_SECONDS = 6 * 3600  # then one probe send; a failure parks it again


@dataclass(frozen=True)
class DeliveryReport:
    """What one delivery did, for logs, tests and the notifier's batch answer."""

    sent: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()  # already delivered earlier (a redelivery)
    failed: Mapping[str, str] = field(default_factory=dict)
    deferred: tuple[str, ...] = ()  # not attempted: the batch's time ran out, or its host was slow
    parked: tuple[str, ...] = ()  # not attempted: the target is parked
    notices: tuple[OutboxMessage, ...] = ()  # "a target was parked" notices to send
    delay_seconds: int = 0  # how long the deferred message waits in the queue (a slow host: a while)


class NotificationFailed(Exception):
    """Some targets did not get the message; raising makes the batch report it for retry."""

    def __init__(
        self, dedupe_key: str, failures: Mapping[str, str], report: DeliveryReport | None = None
    ) -> None:
        detail = "; ".join(f"{k}: {v}" for k, v in sorted(failures.items()))
        super().__init__(f"{dedupe_key}: {detail}")
        self.failures = dict(failures)
        self.report = report or DeliveryReport(failed=dict(failures))


# ---------------------------------------------------------------- delivery


def deliver(
    message: OutboxMessage,
    *,
    targets: TargetDirectory,
    deliverer: Deliverer,
    log: DeliveryLog,
    public_url: str = "",
    budget: Budget | None = None,
    health: TargetHealth | None = None,
    wall_clock: Callable[[], float] = time.time,
) -> DeliveryReport:
    """Send `message` to every target not yet served; raise `NotificationFailed` if any failed.

    With a ``budget`` each send gets a wall-clock deadline and no send starts once the
    batch's time is up: those targets are reported ``deferred`` (the message is retried,
    not counted as failed). With ``health`` a game target's failures are counted and a
    target that keeps failing is parked (skipped) for ``PARK_SECONDS``, with one notice
    to the game's other targets, which its creator set up (docs/notifications.md). One
    message's targets are sent one after another; a batch's, side by side: ``deliver_batch``."""
    (report,) = deliver_batch([message], targets=targets, deliverer=deliverer, log=log, public_url=public_url,
                              budget=budget, health=health, wall_clock=wall_clock, lanes=Lanes(parallel=1))
    if report.failed:
        raise NotificationFailed(message.dedupe_key, report.failed, report)
    return report


def deliver_batch(
    messages: Sequence[OutboxMessage],
    *,
    targets: TargetDirectory,
    deliverer: Deliverer,
    log: DeliveryLog,
    public_url: str = "",
    budget: Budget | None = None,
    health: TargetHealth | None = None,
    wall_clock: Callable[[], float] = time.time,
    lanes: Lanes | None = None,
) -> list[DeliveryReport]:
    """``deliver``'s rules for a whole batch, its sends run side by side by ``lanes``
    (functions/usecases/notifications/delivery_lanes.py: per-host limits, games taken in turn, slow hosts
    stepping aside); one report per message, in order. A report with ``failed`` targets means
    the message must be retried; ``delay_seconds`` how long a deferred one should wait."""
    now = wall_clock()
    plans = [_plan(m, targets, log, health, now, public_url) for m in messages]
    jobs = [Job(str(plan.message.game_id or plan.message.dedupe_key), _host_of(target),
                _sender(plan, target, deliverer, log, budget))
            for plan in plans for target in plan.to_send]
    outcomes = iter((lanes or Lanes(clock=budget.clock if budget else time.monotonic)).run(
        jobs, can_start=budget.can_start if budget is not None else lambda: True))
    reports = []
    for plan in plans:
        for target in plan.to_send:
            _record(plan, target, next(outcomes))
            _account(plan.message, target, plan.standing, plan.health, now, plan.outcome)
        reports.append(plan.outcome.report())
    return reports


@dataclass
class _Plan:
    """One message of a batch: what it says, and to whom it still has to go."""

    message: OutboxMessage
    text: str
    to_send: list[DeliveryTarget]
    standing: Mapping[str, TargetStanding]
    health: TargetHealth | None
    outcome: _Outcome


def _plan(message: OutboxMessage, targets: TargetDirectory, log: DeliveryLog, health: TargetHealth | None,
          now: float, public_url: str) -> _Plan:
    chosen = _chosen_targets(message, targets)
    game_health = health if (health is not None and message.game_id and message.target is None) else None
    standing = game_health.standing(str(message.game_id), [t.key for t in chosen]) if game_health else {}
    plan = _Plan(message, render_text(message, public_url), [], standing, game_health, _Outcome())
    for target in sorted(chosen, key=lambda t: t.key):
        if log.was_delivered(message.dedupe_key, target.key):
            plan.outcome.skipped.append(target.key)
        elif target.key in standing and standing[target.key].parked_at(now):
            plan.outcome.parked.append(target.key)
        else:
            plan.to_send.append(target)
    return plan


def _sender(plan: _Plan, target: DeliveryTarget, deliverer: Deliverer, log: DeliveryLog,
            budget: Budget | None) -> Callable[[], None]:
    def send() -> None:
        if budget is None:
            deliverer.deliver(target, plan.message, plan.text)
        else:
            deliverer.deliver(target, plan.message, plan.text, deadline=budget.send_deadline())
        log.mark_delivered(plan.message.dedupe_key, target.key)

    return send


def _record(plan: _Plan, target: DeliveryTarget, outcome: Outcome) -> None:
    result = plan.outcome
    if outcome.status == "sent":
        result.sent.append(target.key)
    elif outcome.status == "failed":  # one target's failure does not stop the others
        error = outcome.error
        result.failed[_redacted(target)] = f"{type(error).__name__}: {error}"
        result.failed_keys.add(target.key)
    else:  # not tried: the batch's time ran out, or its host was slow in this batch
        result.deferred.append(target.key)
        if outcome.status == "slow":
            result.delay_seconds = SLOW_DELAY_SECONDS


def _host_of(target: DeliveryTarget) -> str:
    """The per-host limit's key: a URL target's registrable domain; a chat platform's name."""
    from urllib.parse import urlsplit

    url = getattr(target, "url", None)
    return registrable_domain(urlsplit(url).hostname or "") if url else str(target.type)


@dataclass
class _Outcome:
    sent: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    failed_keys: set[str] = field(default_factory=set)
    deferred: list[str] = field(default_factory=list)
    parked: list[str] = field(default_factory=list)
    notices: list[OutboxMessage] = field(default_factory=list)
    delay_seconds: int = 0

    def report(self) -> DeliveryReport:
        return DeliveryReport(
            sent=tuple(self.sent), skipped=tuple(self.skipped), failed=dict(self.failed),
            deferred=tuple(self.deferred), parked=tuple(self.parked), notices=tuple(self.notices),
            delay_seconds=self.delay_seconds,
        )


def _chosen_targets(message: OutboxMessage, targets: TargetDirectory) -> Sequence[DeliveryTarget]:
    if message.kind in LIVE_ONLY:
        return []
    if message.target is not None:
        return [message.target]
    if message.game_id:
        return targets.targets_for(message.game_id)
    return []


def _account(
    message: OutboxMessage, target: DeliveryTarget, standing: Mapping[str, TargetStanding],
    health: TargetHealth | None, now: float, outcome: _Outcome,
) -> None:
    """Keep the target's stored standing: failures counted, a recovery forgets them."""
    if health is None:
        return
    game_id = str(message.game_id)
    if target.key not in outcome.failed_keys:
        if target.key in standing:
            health.succeeded(game_id, target.key)
        return
    after = health.failed(game_id, target.key, now=now, park_after=PARK_AFTER_FAILURES, park_for=PARK_SECONDS)
    if after.newly_parked:
        outcome.notices.append(parking_notice(game_id, target, after))


def parking_notice(game_id: str, target: DeliveryTarget, standing: TargetStanding) -> OutboxMessage:
    """The notice that a target was parked, for the game's other targets (never the URL:
    it may hold a token; the type and host name say which one)."""
    name = _redacted(target)
    return OutboxMessage(
        dedupe_key=f"parked:{game_id}:{hashlib.sha256(target.key.encode()).hexdigest()[:16]}:{standing.parked_until}",
        kind=TARGET_PARKED,
        game_id=game_id,
        payload={"target": name, "failures": standing.failures,
                 "until": datetime.fromtimestamp(standing.parked_until, UTC).isoformat()},
    )


def _redacted(target: DeliveryTarget) -> str:
    """A target's name for error messages: the type and host only (URLs may hold tokens)."""
    from urllib.parse import urlsplit

    url = getattr(target, "url", None)
    return f"{target.type}:{urlsplit(url).hostname}" if url else target.key
