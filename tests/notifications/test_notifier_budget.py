"""The notifier's wall-clock budget, honest partial-batch answers and parked targets (issue 11, item 3).

Time is a fake monotonic clock that the fake receivers advance: a "slow" receiver uses up
whatever deadline it is given (as the real sender's watchdog would cut it off there), or 64 s
without one (the 1 byte/s receiver of the issue). Nothing here sleeps.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from functions.notifier.handler import make_handler
from functions.ports.notifications import DeliveryTarget, OutboxMessage, TelegramTarget, WebhookTarget
from functions.ports.notifier import TargetStanding
from functions.usecases.notifications.delivery_lanes import SLOW_DELAY_SECONDS
from functions.usecases.notifications.notifications import (
    PARK_AFTER_FAILURES,
    PARK_SECONDS,
    NotificationFailed,
    deliver,
)
from functions.usecases.notifications.rendering import TARGET_PARKED, render_text
from infra.target_health import DynamoTargetHealth
from infra.webhooks import DeliveryTimedOut
from testkit.tables import make_table
from tests.notifications.fakes import (
    Deps,
    MemoryDeliveryLog,
    MemoryQueue,
    MemoryTargetHealth,
    StaticTargets,
)

SLOW = WebhookTarget("https://slow.example/hook", "s")
HEALTHY = TelegramTarget(42)
LAMBDA_TIMEOUT_MS = 15_000


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Context:
    """A Lambda context whose remaining time follows the fake clock."""

    def __init__(self, clock: Clock, timeout_ms: int = LAMBDA_TIMEOUT_MS) -> None:
        self.clock = clock
        self.ends = clock.now + timeout_ms / 1000

    def get_remaining_time_in_millis(self) -> int:
        return int((self.ends - self.clock.now) * 1000)


class TimedDeliverer:
    """Healthy targets take 0.1 s; ``slow`` keys stall until their deadline (or 64 s)."""

    def __init__(self, clock: Clock, slow: set[str]) -> None:
        self.clock = clock
        self.slow = slow
        self.sent: list[tuple[str, str]] = []

    def deliver(
        self, target: DeliveryTarget, message: OutboxMessage, text: str, *, deadline: float | None = None
    ) -> None:
        if target.key in self.slow:
            self.clock.now = deadline if deadline is not None else self.clock.now + 64
            raise DeliveryTimedOut("dripping receiver")
        self.clock.now += 0.1
        self.sent.append((message.dedupe_key, target.key))


def message(n: int, game_id: str = "g1") -> OutboxMessage:
    return OutboxMessage(dedupe_key=f"{game_id}:{n}", kind="PHASE_PROCESSED", game_id=game_id,
                         payload={"phase": "S1901M", "next_phase": "F1901M"})


def event(*messages: OutboxMessage) -> dict[str, Any]:
    return {"Records": [{"messageId": f"id-{m.dedupe_key}", "body": m.to_json()} for m in messages]}


def failures(answer: dict[str, Any]) -> list[str]:
    return [f["itemIdentifier"] for f in answer["batchItemFailures"]]


def test_one_stalling_webhook_does_not_time_the_batch_out() -> None:
    # Given a batch of three notices whose first game has a receiver that drips forever
    clock = Clock()
    deliverer = TimedDeliverer(clock, slow={SLOW.key})
    targets = StaticTargets({"g1": [SLOW], "g2": [HEALTHY], "g3": [HEALTHY]})
    handler = make_handler(lambda: Deps(targets, deliverer, MemoryDeliveryLog(), queue=MemoryQueue()), clock)
    context = Context(clock)

    # When the notifier handles it within a 15 s Lambda
    answer = handler(event(message(1, "g1"), message(1, "g2"), message(1, "g3")), context)

    # Then the batch ended inside the Lambda's time, the healthy notices went out,
    # and only the stalled one is reported for retry
    assert context.get_remaining_time_in_millis() > 0
    assert sorted(key for key, _ in deliverer.sent) == ["g2:1", "g3:1"]
    assert failures(answer) == ["id-g1:1"]


def test_what_was_not_attempted_for_lack_of_time_is_requeued_not_failed() -> None:
    # Given a batch that arrives with less time left than a send may start with
    clock = Clock()
    deliverer = TimedDeliverer(clock, slow={SLOW.key})
    queue = MemoryQueue()
    targets = StaticTargets({"g1": [SLOW], "g2": [HEALTHY], "g3": [HEALTHY]})
    handler = make_handler(lambda: Deps(targets, deliverer, MemoryDeliveryLog(), queue=queue), clock)

    answer = handler(event(message(1, "g1"), message(1, "g2"), message(1, "g3")), Context(clock, 2_500))

    # Then nothing was tried: each went back to the queue as a new message (its receive count
    # untouched, no delay) and none is reported as a failure
    assert failures(answer) == []
    assert sorted(m.dedupe_key for m in queue.sent) == ["g1:1", "g2:1", "g3:1"] and set(queue.delays) == {0}
    assert deliverer.sent == []


def test_a_slow_host_steps_aside_for_the_rest_of_the_batch() -> None:
    # Given three games whose one webhook host drips, and a fourth game with a healthy target
    clock = Clock()
    deliverer = TimedDeliverer(clock, slow={SLOW.key})
    queue = MemoryQueue()
    targets = StaticTargets({"g1": [SLOW], "g2": [SLOW], "g3": [SLOW], "g4": [HEALTHY]})
    handler = make_handler(lambda: Deps(targets, deliverer, MemoryDeliveryLog(), queue=queue), clock)

    answer = handler(event(*(message(1, g) for g in ("g1", "g2", "g3", "g4"))), Context(clock))

    # Then the healthy game got its notice; the slow host had at most PER_HOST sends (both
    # failed); its third notice was not tried but deferred, to come back a while later
    assert deliverer.sent == [("g4:1", "telegram:42")]
    assert failures(answer) == ["id-g1:1", "id-g2:1"]
    assert [m.dedupe_key for m in queue.sent] == ["g3:1"] and queue.delays == [SLOW_DELAY_SECONDS]


def test_a_deferred_message_the_queue_refuses_is_left_to_sqs() -> None:
    clock = Clock()
    deliverer = TimedDeliverer(clock, slow={SLOW.key})
    targets = StaticTargets({"g1": [SLOW], "g3": [HEALTHY]})
    deps = Deps(targets, deliverer, MemoryDeliveryLog(), queue=MemoryQueue(refuse=True))
    handler = make_handler(lambda: deps, clock)
    answer = handler(event(message(1, "g1"), message(1, "g3")), Context(clock, 2_500))
    assert failures(answer) == ["id-g1:1", "id-g3:1"]


def test_targets_left_untried_within_a_message_defer_it_after_the_sent_ones() -> None:
    # Given a message for three targets on one host (two at once) and time for one round: the
    # first two sends start together (a barrier holds each until both have), then take 0.1 s
    clock = Clock()
    together = threading.Barrier(2)

    class Together(TimedDeliverer):
        def deliver(self, target: DeliveryTarget, message: OutboxMessage, text: str, *,
                    deadline: float | None = None) -> None:
            if len(self.sent) < 2:
                together.wait(timeout=10)
            with lock:
                super().deliver(target, message, text, deadline=deadline)

    lock = threading.Lock()
    deliverer = Together(clock, slow={SLOW.key})
    log = MemoryDeliveryLog()
    queue = MemoryQueue()
    targets = StaticTargets({"g1": [HEALTHY, TelegramTarget(43), TelegramTarget(44)]})
    handler = make_handler(lambda: Deps(targets, deliverer, log, queue=queue), clock)
    context = Context(clock, 3_050)  # 1.05 s after the reserve: two sends start, then < 1 s is left

    answer = handler(event(message(1)), context)

    # Then the first two got it, the message is requeued, not failed, and the retry sends
    # only to the third
    assert failures(answer) == []
    assert sorted(deliverer.sent) == [("g1:1", "telegram:42"), ("g1:1", "telegram:43")]
    assert [m.dedupe_key for m in queue.sent] == ["g1:1"]
    make_handler(lambda: Deps(targets, deliverer, log, queue=queue), clock)(event(message(1)), Context(clock))
    assert deliverer.sent[2:] == [("g1:1", "telegram:44")]


def test_every_send_gets_a_deadline_within_the_per_delivery_cap() -> None:
    clock = Clock()
    deadlines: list[float | None] = []

    class Recording(TimedDeliverer):
        def deliver(self, target: DeliveryTarget, message: OutboxMessage, text: str, *,
                    deadline: float | None = None) -> None:
            deadlines.append(deadline)
            super().deliver(target, message, text, deadline=deadline)

    handler = make_handler(lambda: Deps(StaticTargets({"g1": [HEALTHY]}), Recording(clock, set()),
                                        MemoryDeliveryLog()), clock)
    handler(event(message(1)), Context(clock))
    assert deadlines and all(d is not None and d - 1000.0 <= 5.0 for d in deadlines)


# ---------------------------------------------------------------- parking


class Failing:
    """A deliverer for which the keys in ``down`` always fail."""

    def __init__(self, down: set[str]) -> None:
        self.down = down
        self.sent: list[tuple[str, str, str]] = []

    def deliver(self, target: DeliveryTarget, message: OutboxMessage, text: str, *,
                deadline: float | None = None) -> None:
        if target.key in self.down:
            raise ConnectionError("refused")
        self.sent.append((message.dedupe_key, target.key, text))


def test_a_target_that_keeps_failing_is_parked_with_one_notice() -> None:
    # Given a game with a dead webhook and a working Telegram chat
    health, log = MemoryTargetHealth(), MemoryDeliveryLog()
    deliverer = Failing({SLOW.key})
    targets = StaticTargets({"g1": [SLOW, HEALTHY]})
    now = [1_900_000_000.0]
    notices: list[OutboxMessage] = []

    def send(n: int) -> None:
        try:
            report = deliver(message(n), targets=targets, deliverer=deliverer, log=log, health=health,
                             wall_clock=lambda: now[0])
            notices.extend(report.notices)
        except NotificationFailed as failed:
            notices.extend(failed.report.notices)

    # When it fails PARK_AFTER_FAILURES times in a row
    for n in range(PARK_AFTER_FAILURES):
        send(n)

    # Then it is parked, and exactly one notice says so (type and host, never the URL)
    assert [m.kind for m in notices] == [TARGET_PARKED]
    assert notices[0].payload["target"] == "webhook:slow.example"
    assert "slow.example/hook" not in render_text(notices[0])

    # And the next message skips it: no attempt, no failure, the other target served
    report = deliver(message(99), targets=targets, deliverer=deliverer, log=log, health=health,
                     wall_clock=lambda: now[0])
    assert report.parked == (SLOW.key,) and report.failed == {}
    assert ("g1:99", HEALTHY.key) in [(k, t) for k, t, _ in deliverer.sent]

    # And the notice itself reaches the working target only
    deliver(notices[0], targets=targets, deliverer=deliverer, log=log, health=health,
            wall_clock=lambda: now[0])
    assert [t for k, t, _ in deliverer.sent if k == notices[0].dedupe_key] == [HEALTHY.key]

    # When the parking ends and the receiver is back, one probe succeeds and the standing is gone
    now[0] += PARK_SECONDS + 1
    deliverer.down.clear()
    deliver(message(100), targets=targets, deliverer=deliverer, log=log, health=health,
            wall_clock=lambda: now[0])
    assert ("g1:100", SLOW.key) in [(k, t) for k, t, _ in deliverer.sent]
    assert health.standing("g1", [SLOW.key]) == {}


def test_the_notifier_queues_the_parking_notice() -> None:
    health, queue = MemoryTargetHealth(), MemoryQueue()
    deps = Deps(StaticTargets({"g1": [SLOW, HEALTHY]}), Failing({SLOW.key}), MemoryDeliveryLog(),
                health=health, queue=queue)
    handler = make_handler(lambda: deps)
    for n in range(PARK_AFTER_FAILURES):
        handler(event(message(n)), None)
    assert [m.kind for m in queue.sent] == [TARGET_PARKED]
    answer = handler(event(message(PARK_AFTER_FAILURES)), None)
    assert failures(answer) == []  # parked: the rest of the game's targets were served


# ---------------------------------------------------------------- the DynamoDB adapter


@pytest.fixture
def table(aws: None) -> Iterator[Any]:
    yield make_table()


def test_dynamo_target_health_counts_parks_once_and_forgets(table: Any) -> None:
    health = DynamoTargetHealth(lambda: table, "games", TargetStanding)
    key = "webhook:https://hooks.example/x?token=abc"
    assert health.standing("g1", [key]) == {}
    for _ in range(2):
        assert not health.failed("g1", key, now=100, park_after=3, park_for=60).newly_parked
    third = health.failed("g1", key, now=100, park_after=3, park_for=60)
    assert third == TargetStanding(3, 160, True)
    assert health.standing("g1", [key]) == {key: TargetStanding(3, 160)}
    # a failure after the parking ran out parks it again, without a second notice
    assert health.failed("g1", key, now=200, park_after=3, park_for=60) == TargetStanding(4, 260, False)
    items = table.scan(TableName="games")["Items"]
    assert "abc" not in str(items) and all("expires_at" in item for item in items)
    health.succeeded("g1", key)
    assert health.standing("g1", [key]) == {}


def test_three_stalled_receivers_hold_up_only_their_own_notices() -> None:
    """Issue 28 item 7: three slow webhook receivers delayed another game's notice by 91 s,
    the batch's deliveries going one after another. Real threads, no timing: the stalled
    receivers hang until the test lets them go, and the healthy game's notice must arrive
    while they still hang."""
    stalled = [WebhookTarget(f"https://hooks.slow{n}.example/hook", "s") for n in range(3)]  # 3 hosts
    released, arrived = threading.Event(), threading.Event()
    hanging: list[str] = []

    class Stalling:
        sent: list[tuple[str, str]] = []

        def deliver(self, target: DeliveryTarget, message: OutboxMessage, text: str, *,
                    deadline: float | None = None) -> None:
            if target.key.startswith("webhook:"):
                hanging.append(target.key)
                released.wait(timeout=30)
                raise DeliveryTimedOut("stalled")
            self.sent.append((message.dedupe_key, target.key))
            arrived.set()

    targets = StaticTargets({"g1": [stalled[0]], "g2": [stalled[1]], "g3": [stalled[2]], "g4": [HEALTHY]})
    handler = make_handler(lambda: Deps(targets, Stalling(), MemoryDeliveryLog(), queue=MemoryQueue()))
    answers: list[dict[str, Any]] = []
    batch = threading.Thread(target=lambda: answers.append(handler(event(
        *(message(1, g) for g in ("g1", "g2", "g3", "g4"))), Context(Clock()))))
    batch.start()
    try:
        assert arrived.wait(timeout=20), "the healthy notice waited for the stalled receivers"
        assert not released.is_set() and len(hanging) == 3  # all three still hanging meanwhile
    finally:
        released.set()
        batch.join(timeout=30)
    assert failures(answers[0]) == ["id-g1:1", "id-g2:1", "id-g3:1"]
