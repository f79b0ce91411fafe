"""The relay's and the notifier's partial-batch answers through Powertools' batch utility
(issue 27): the same answers as before, one queue send per batch, one processor per batch."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from functions.notifier.handler import make_handler as make_notifier
from functions.ports.notifications import DeliveryTarget, OutboxMessage, TelegramTarget
from functions.relay.handler import make_handler as make_relay
from infra.dynamodb.stream_images import STREAM_IMAGES
from tests.notifications.fakes import Deps, MemoryDeliveryLog, StaticTargets
from tests.notifications.test_relay_and_notifier import outbox_record


class CountingQueue:
    """`MessageQueue` that records each send and refuses the dedupe keys in ``refuse``."""

    def __init__(self, refuse: set[str] | None = None) -> None:
        self.sends: list[list[str]] = []
        self.refuse = refuse or set()

    def send_messages(self, messages: Sequence[OutboxMessage], delay_seconds: int = 0) -> set[str]:
        self.sends.append([m.dedupe_key for m in messages])
        return {m.dedupe_key for m in messages} & self.refuse


def failures(answer: dict[str, Any]) -> list[str]:
    return [f["itemIdentifier"] for f in answer["batchItemFailures"]]


def test_the_relay_sends_the_whole_batch_at_once_and_reports_the_refused_in_stream_order() -> None:
    queue = CountingQueue(refuse={"g1:9", "g1:4"})
    relay = make_relay(lambda: queue, STREAM_IMAGES)
    answer = relay({"Records": [outbox_record(n) for n in range(1, 13)]}, None)
    assert queue.sends == [[f"g1:{n}" for n in range(1, 13)]]
    assert failures(answer) == [f"{4:021d}", f"{9:021d}"]


def test_the_relay_answers_an_empty_batch_without_a_queue() -> None:
    def no_queue() -> CountingQueue:
        raise AssertionError("nothing to send")

    assert make_relay(no_queue, STREAM_IMAGES)({"Records": []}, None) == {"batchItemFailures": []}


def notifier_event(*bodies: str) -> dict[str, Any]:
    return {"Records": [{"messageId": f"m{n}", "body": body} for n, body in enumerate(bodies)]}


def test_a_batch_that_fails_whole_is_answered_not_raised() -> None:
    deps = Deps(StaticTargets(), None, MemoryDeliveryLog())
    answer = make_notifier(lambda: deps)(notifier_event("not json", "[]", "{}"), None)
    assert failures(answer) == ["m0", "m1", "m2"]


def test_the_notifier_answers_an_empty_batch() -> None:
    deps = Deps(StaticTargets(), None, MemoryDeliveryLog())
    assert make_notifier(lambda: deps)({"Records": []}, None) == {"batchItemFailures": []}


class MeetingDeliverer:
    """Fails the messages in ``failing``; each thread's first send waits for the other
    thread's, so two batches are inside their processors at the same time."""

    def __init__(self, failing: set[str]) -> None:
        self.failing = failing
        self.both_sending = threading.Barrier(2)
        self.local = threading.local()

    def deliver(
        self, target: DeliveryTarget, message: OutboxMessage, text: str, *, deadline: float | None = None
    ) -> None:
        if not getattr(self.local, "met", False):
            self.local.met = True
            self.both_sending.wait(timeout=10)
        if message.dedupe_key in self.failing:
            raise ConnectionError("receiver is down")


def test_two_batches_at_once_get_their_own_answers() -> None:
    # Given one notifier serving two batches on two threads at once (as the local stack does)
    deliverer = MeetingDeliverer(failing={"ga:1", "gb:2"})
    targets = StaticTargets({"ga": [TelegramTarget(1)], "gb": [TelegramTarget(2)]})
    notifier = make_notifier(lambda: Deps(targets, deliverer, MemoryDeliveryLog()))

    def batch(game_id: str) -> dict[str, Any]:
        messages = [OutboxMessage(f"{game_id}:{n}", "PHASE_PROCESSED", game_id, {}) for n in (1, 2)]
        return {"Records": [{"messageId": m.dedupe_key, "body": m.to_json()} for m in messages]}

    answers: dict[str, dict[str, Any]] = {}
    threads = [threading.Thread(target=lambda g=g: answers.update({g: notifier(batch(g), None)}))
               for g in ("ga", "gb")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)

    # Then each answer names its own failed message only
    assert {g: failures(a) for g, a in answers.items()} == {"ga": ["ga:1"], "gb": ["gb:2"]}
