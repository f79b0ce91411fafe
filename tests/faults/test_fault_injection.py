"""Fault injection at each step boundary (issue 10, item 5 "Faults").

For process_turn, the relay, the notifier, the deadline function and the Telegram bot:
a failure is injected before the commit, after the commit (the answer lost), during
delivery, and a schedule/message/update is delivered twice. Each test shows that
nothing accepted is lost and nothing is done twice where dedupe is possible. Where it
is not possible, a test shows the limit (its name says "not deduplicated") and
docs/reliability.md lists it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import pytest

from functions.adapters import StoreDeadlineGames
from functions.errors import StalePhase
from functions.ports import StorageUnavailable
from functions.ports.notifications import OutboxMessage, WebhookTarget
from functions.relay.handler import make_handler as make_relay
from functions.usecases.games import CreateGame, create_game
from functions.usecases.notifications.notifications import NotificationFailed, deliver
from functions.usecases.players import SCHEDULER, Actor
from functions.usecases.reach import handle_update
from functions.usecases.seats import join_game
from functions.usecases.turns import process_turn, submit_orders
from functions.usecases.turns.deadlines import FireOutcome, fire_deadline, sweep
from infra.dynamodb.stream_images import STREAM_IMAGES
from testkit.fakes import FakeClock, InMemoryGameStore
from testkit.openings import SPRING_1901
from tests.notifications.fakes import (
    FakeGameActions,
    FakeScheduler,
    MemoryDeliveryLog,
    MemoryReplyOutbox,
    MemoryTelegramStore,
    RecordingDeliverer,
    StaticTargets,
)
from tests.notifications.test_relay_and_notifier import outbox_record

POWERS = sorted(SPRING_1901)


class FaultyStore(InMemoryGameStore):
    """``commit_turn`` fails once, before writing (``before``) or after writing (``after``:
    the transaction committed but the caller never heard back)."""

    def __init__(self) -> None:
        super().__init__()
        self.fail: str | None = None

    def commit_turn(self, game: Any, **kwargs: Any) -> Any:
        mode, self.fail = self.fail, None
        if mode == "before":
            raise StorageUnavailable("injected: the transaction never reached the table")
        committed = super().commit_turn(game, **kwargs)
        if mode == "after":
            raise StorageUnavailable("injected: committed, but the answer was lost")
        return committed


def _game(store: InMemoryGameStore, clock: FakeClock, **settings: Any) -> tuple[str, dict[str, Actor]]:
    created = create_game(store, clock, CreateGame(variant="classical", **settings))
    for power in POWERS:
        join_game(store, clock, created.game_id, power)
    return created.game_id, {p: Actor("player", p) for p in POWERS}


def _orders_in_play(
    store: InMemoryGameStore, clock: FakeClock, game_id: str, players: dict[str, Actor]
) -> None:
    for power, orders in SPRING_1901.items():
        submit_orders(store, clock, game_id, players[power], orders, phase="S1901M")


# --- process_turn -----------------------------------------------------------------------------


def test_process_turn_failing_before_the_commit_changes_nothing_and_a_retry_processes_once() -> None:
    store, clock = FaultyStore(), FakeClock()
    game_id, players = _game(store, clock)
    _orders_in_play(store, clock, game_id, players)
    store.fail = "before"
    with pytest.raises(StorageUnavailable):
        process_turn(store, clock, game_id, Actor("creator"), expected_phase="S1901M")
    assert store.load(game_id).phase == "S1901M" and store.phases(game_id) == []
    process_turn(store, clock, game_id, Actor("creator"), expected_phase="S1901M")
    [adjudicated] = store.phases(game_id)
    assert adjudicated.orders == SPRING_1901  # every accepted order went in


def test_process_turn_answer_lost_after_the_commit_a_retry_with_phase_is_stale() -> None:
    store, clock = FaultyStore(), FakeClock()
    game_id, players = _game(store, clock)
    _orders_in_play(store, clock, game_id, players)
    store.fail = "after"
    with pytest.raises(StorageUnavailable):
        process_turn(store, clock, game_id, Actor("creator"), expected_phase="S1901M")
    with pytest.raises(StalePhase):
        process_turn(store, clock, game_id, Actor("creator"), expected_phase="S1901M")
    assert [p.phase for p in store.phases(game_id)] == ["S1901M"]
    assert [o.kind for o in store.outbox[game_id]].count("PHASE_PROCESSED") == 1


def test_process_turn_answer_lost_a_retry_that_reads_the_phase_again_is_not_deduplicated() -> None:
    # The limit docs/reliability.md lists: "phase" is required (issue 28 item 12), but a caller
    # that re-reads it after a lost answer (and sends no Idempotency-Key) asks to close the next
    # phase, and F1901M is closed: only resending the first body is safe.
    store, clock = FaultyStore(), FakeClock()
    game_id, _ = _game(store, clock)
    store.fail = "after"
    with pytest.raises(StorageUnavailable):
        process_turn(store, clock, game_id, Actor("creator"), expected_phase=store.load(game_id).phase)
    process_turn(store, clock, game_id, Actor("creator"), expected_phase=store.load(game_id).phase)
    assert [p.phase for p in store.phases(game_id)] == ["S1901M", "F1901M"]


def test_a_scheduler_failure_after_the_commit_leaves_the_deadline_for_the_sweeper() -> None:
    class BrokenScheduler(FakeScheduler):
        def schedule_deadline(self, game_id: str, phase: str, at: Any) -> str:
            raise ConnectionError("injected: EventBridge Scheduler is down")

    store, clock = InMemoryGameStore(), FakeClock()
    game_id, _ = _game(store, clock, phase_seconds={"MOVEMENT": 60})
    done = process_turn(store, clock, game_id, SCHEDULER, expected_phase="S1901M",
                        scheduler=BrokenScheduler())
    assert done.phase == "F1901M"
    game = store.load(game_id)
    assert game.deadline is not None  # in META: the sweeper finds it without the schedule
    clock.at += timedelta(seconds=120)
    games = StoreDeadlineGames(store, clock)
    report = sweep(now=clock.now(), games=games, scheduler=FakeScheduler())
    assert report.outcomes == {game_id: FireOutcome.PROCESSED}
    assert [p.phase for p in store.phases(game_id)] == ["S1901M", "F1901M"]


def test_an_order_committed_between_process_reads_and_commit_is_adjudicated_not_lost() -> None:
    store, clock = InMemoryGameStore(), FakeClock()
    game_id, players = _game(store, clock)

    def submit_in_between() -> None:
        submit_orders(store, clock, game_id, players["FRANCE"], ["A PAR - BUR"])

    store.before_write = submit_in_between
    process_turn(store, clock, game_id, Actor("creator"), expected_phase="S1901M")
    [adjudicated] = store.phases(game_id)
    assert adjudicated.orders["FRANCE"] == ["A PAR - BUR"]


# --- deadline -----------------------------------------------------------------------------------


def test_a_twice_delivered_deadline_schedule_processes_the_phase_once() -> None:
    store, clock = InMemoryGameStore(), FakeClock()
    game_id, _ = _game(store, clock, phase_seconds={"MOVEMENT": 60})
    clock.at += timedelta(seconds=61)
    games, scheduler = StoreDeadlineGames(store, clock), FakeScheduler()
    first = fire_deadline(game_id, "S1901M", now=clock.now(), games=games, scheduler=scheduler)
    again = fire_deadline(game_id, "S1901M", now=clock.now(), games=games, scheduler=scheduler)
    assert (first, again) == (FireOutcome.PROCESSED, FireOutcome.STALE)
    assert [p.phase for p in store.phases(game_id)] == ["S1901M"]


def test_a_deadline_firing_that_fails_mid_way_is_retried_by_the_sweeper_once() -> None:
    store, clock = FaultyStore(), FakeClock()
    game_id, _ = _game(store, clock, phase_seconds={"MOVEMENT": 60})
    clock.at += timedelta(seconds=61)
    games = StoreDeadlineGames(store, clock)
    store.fail = "before"
    with pytest.raises(StorageUnavailable):
        fire_deadline(game_id, "S1901M", now=clock.now(), games=games, scheduler=FakeScheduler())
    report = sweep(now=clock.now(), games=games, scheduler=FakeScheduler())
    assert report.outcomes == {game_id: FireOutcome.PROCESSED}
    store.fail = "after"  # and a firing whose commit landed but whose answer was lost
    clock.at += timedelta(seconds=3600)
    with pytest.raises(StorageUnavailable):
        fire_deadline(game_id, "F1901M", now=clock.now(), games=games, scheduler=FakeScheduler())
    assert fire_deadline(game_id, "F1901M", now=clock.now(), games=games,
                         scheduler=FakeScheduler()) == FireOutcome.STALE
    assert [p.phase for p in store.phases(game_id)] == ["S1901M", "F1901M"]


# --- relay ---------------------------------------------------------------------------------------


class CrashAfterSend:
    """A queue that takes the messages and then fails (the function dies before answering)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.crash = True

    def send_messages(self, messages: Sequence[OutboxMessage], delay_seconds: int = 0) -> set[str]:
        self.sent += [m.dedupe_key for m in messages]
        if self.crash:
            self.crash = False
            raise ConnectionError("injected: sent, then the answer was lost")
        return set()


def test_a_relay_that_sent_then_failed_resends_the_same_dedupe_keys() -> None:
    queue = CrashAfterSend()
    relay = make_relay(lambda: queue, STREAM_IMAGES)
    event = {"Records": [outbox_record(1), outbox_record(2)]}
    first = relay(event, None)
    assert len(first["batchItemFailures"]) == 2  # the stream retries them: nothing lost
    second = relay(event, None)
    assert second["batchItemFailures"] == []
    # twice on the queue, with the same dedupe keys: the notifier delivers once (below)
    assert queue.sent == ["g1:1", "g1:2", "g1:1", "g1:2"]


# --- notifier ------------------------------------------------------------------------------------


def _message(n: int) -> OutboxMessage:
    return OutboxMessage(dedupe_key=f"g1:{n}", kind="PHASE_PROCESSED", game_id="g1",
                         payload={"phase": "S1901M", "next_phase": "F1901M"})


def test_a_twice_delivered_message_is_sent_to_each_target_once() -> None:
    targets = StaticTargets({"g1": [WebhookTarget("https://a.example/h", "s"),
                                    WebhookTarget("https://b.example/h", "s")]})
    deliverer, log = RecordingDeliverer(), MemoryDeliveryLog()
    for _ in range(2):
        deliver(_message(1), targets=targets, deliverer=deliverer, log=log)
    assert len(deliverer.sent) == 2  # one per target, not four


def test_a_delivery_failing_for_one_target_retries_only_that_target() -> None:
    a, b = WebhookTarget("https://a.example/h", "s"), WebhookTarget("https://b.example/h", "s")
    deliverer = RecordingDeliverer(failures={("g1:1", b.key): 1})
    log, targets = MemoryDeliveryLog(), StaticTargets({"g1": [a, b]})
    with pytest.raises(NotificationFailed):
        deliver(_message(1), targets=targets, deliverer=deliverer, log=log)
    deliver(_message(1), targets=targets, deliverer=deliverer, log=log)
    assert sorted(key for _, key, _ in deliverer.sent) == sorted([a.key, b.key])


def test_a_crash_between_send_and_log_is_not_deduplicated_by_us() -> None:
    # The limit: the receiver got it, the delivery log did not hear of it; the redelivery
    # sends it again. Webhooks carry the dedupe key as delivery id so a receiver can drop it.
    class LogThatDies(MemoryDeliveryLog):
        dead = True

        def mark_delivered(self, dedupe_key: str, target_key: str) -> None:
            if self.dead:
                self.dead = False
                raise ConnectionError("injected: died after sending")
            super().mark_delivered(dedupe_key, target_key)

    targets = StaticTargets({"g1": [WebhookTarget("https://a.example/h", "s")]})
    deliverer, log = RecordingDeliverer(), LogThatDies()
    with pytest.raises(NotificationFailed):  # the target counts as not reached: the message is retried
        deliver(_message(1), targets=targets, deliverer=deliverer, log=log)
    deliver(_message(1), targets=targets, deliverer=deliverer, log=log)
    assert len(deliverer.sent) == 2


# --- Telegram ------------------------------------------------------------------------------------


def _update(update_id: int, text: str) -> dict[str, Any]:
    chat = {"id": 7, "type": "private"}  # a private chat is numbered as its user
    return {"update_id": update_id, "message": {"text": text, "chat": chat, "from": {"id": 7}}}


def test_a_twice_delivered_telegram_update_is_handled_once() -> None:
    from functions.ports.telegram import Seat

    store, games, outbox = MemoryTelegramStore(), FakeGameActions(), MemoryReplyOutbox()
    store.link_user(7, Seat(game_id="g1", power="FRANCE"))
    clock = FakeClock()
    outcomes = [handle_update(_update(5, "/orders A PAR - BUR"), store=store, games=games, outbox=outbox,
                              now=clock.now()).status for _ in range(2)]
    assert outcomes == ["handled", "duplicate"] and games.submissions == 1


def test_a_telegram_reply_failure_releases_the_update_and_the_retry_handles_it_once() -> None:
    from functions.ports.telegram import Seat

    class ReplyThatDies(MemoryReplyOutbox):
        dead = True

        def reply(self, chat_id: int | str, text: str, dedupe_key: str) -> None:
            if self.dead:
                self.dead = False
                raise ConnectionError("injected: the reply could not be queued")
            super().reply(chat_id, text, dedupe_key)

    store, games, outbox = MemoryTelegramStore(), FakeGameActions(), ReplyThatDies()
    store.link_user(7, Seat(game_id="g1", power="FRANCE"))
    with pytest.raises(ConnectionError):
        handle_update(_update(6, "/orders A PAR - BUR"), store=store, games=games, outbox=outbox,
                      now=FakeClock().now())
    again = handle_update(_update(6, "/orders A PAR - BUR"), store=store, games=games, outbox=outbox,
                          now=FakeClock().now())
    assert again.status == "handled" and len(outbox.replies) == 1
    # the orders were submitted twice, but a resubmission of the same set replaces it with
    # itself (order entry is idempotent by content): nothing is applied twice in effect
    assert games.submissions == 2 and games.orders[("g1", "FRANCE")] == ["A PAR - BUR"]
