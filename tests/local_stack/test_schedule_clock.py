"""The local Scheduler's clock (issue 9 item 1: "whatever else polls must be O(work due),
not O(data)"): a deadline poll reads only the schedules that are due, never the others."""

from __future__ import annotations

import pickle
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest

from infra.scheduler import EventBridgeDeadlineScheduler, SchedulerSettings
from local_stack.backends import scheduler_backend
from local_stack.notification_pumps import NotificationPumps
from local_stack.schedule_clock import COMPACT_MIN, INDEX_ATTRIBUTE, DueIndex, ScheduleClock, index_of

GROUP = "deadlines"
NOW = datetime(2030, 5, 1, 12, tzinfo=UTC)
SETTINGS = SchedulerSettings(GROUP, "arn:aws:lambda:us-east-1:123456789012:function:d", "arn:r")


@pytest.fixture
def scheduler(aws: None) -> EventBridgeDeadlineScheduler:
    client = boto3.client("scheduler", region_name="us-east-1")
    client.create_schedule_group(Name=GROUP)
    return EventBridgeDeadlineScheduler(lambda: client, SETTINGS)


class CountingSchedules(dict[str, Any]):
    """moto's per-group schedule dict, counting every walk over it."""

    walks = 0

    def values(self) -> Any:
        CountingSchedules.walks += 1
        return super().values()

    def items(self) -> Any:
        CountingSchedules.walks += 1
        return super().items()

    def __iter__(self) -> Any:
        CountingSchedules.walks += 1
        return super().__iter__()


def test_a_poll_reads_only_the_due_schedules_not_the_pending_ones(
        scheduler: EventBridgeDeadlineScheduler, monkeypatch: pytest.MonkeyPatch) -> None:
    # Given 300 pending deadlines of games in progress and two that are due
    for n in range(300):
        scheduler.schedule_deadline(f"g{n}", "S1901M", NOW + timedelta(hours=1, seconds=n))
    late = scheduler.schedule_deadline("late", "S1901M", NOW - timedelta(seconds=5))
    latest = scheduler.schedule_reminder("latest", "F1901M", NOW)
    backend = scheduler_backend()
    group = backend.schedule_groups[GROUP]
    group.schedules = CountingSchedules(group.schedules)
    calls: list[str] = []
    for name in ("list_schedules", "get_schedule"):  # the API reads the old pump made
        monkeypatch.setattr(backend, name, lambda *a, _n=name, **k: calls.append(_n))
    CountingSchedules.walks = 0
    heap_before = len(index_of(backend, GROUP).heap)
    clock = ScheduleClock(scheduler_backend, GROUP)

    # When the pump polls, twice
    first = clock.take_due(NOW)
    second = clock.take_due(NOW)

    # Then it got the due two, oldest first, without a walk over the schedules or an API read
    assert [(d.name, d.game_id, d.event()) for d in first] == [
        (late, "late", {"game_id": "late", "phase": "S1901M"}),
        (latest, "latest", {"game_id": "latest", "phase": "F1901M", "kind": "reminder"}),
    ]
    assert second == [] and calls == [] and CountingSchedules.walks == 0
    assert len(index_of(backend, GROUP).heap) == heap_before - 2  # exactly the due entries were touched


def test_deleted_replaced_and_disabled_schedules_do_not_fire(scheduler: EventBridgeDeadlineScheduler) -> None:
    gone = scheduler.schedule_deadline("gone", "S1901M", NOW - timedelta(seconds=1))
    scheduler.delete_deadline("gone", "S1901M")
    scheduler.schedule_deadline("moved", "S1901M", NOW - timedelta(seconds=1))
    moved = scheduler.schedule_deadline("moved", "S1901M", NOW + timedelta(minutes=5))  # delete + create
    client = boto3.client("scheduler", region_name="us-east-1")
    kept = client.get_schedule(Name=moved, GroupName=GROUP)
    client.update_schedule(Name=moved, GroupName=GROUP, State="DISABLED",
                           ScheduleExpression="at(2030-05-01T11:00:00)", FlexibleTimeWindow={"Mode": "OFF"},
                           Target=kept["Target"])
    clock = ScheduleClock(scheduler_backend, GROUP)

    assert clock.take_due(NOW + timedelta(hours=1)) == []
    assert gone not in scheduler_backend().schedule_groups[GROUP].schedules


def test_a_schedule_fires_at_its_zone_s_wall_clock_time(scheduler: EventBridgeDeadlineScheduler) -> None:
    client = boto3.client("scheduler", region_name="us-east-1")
    client.create_schedule(Name="berlin", GroupName=GROUP, ScheduleExpression="at(2030-05-01T13:00:00)",
                           ScheduleExpressionTimezone="Europe/Berlin", FlexibleTimeWindow={"Mode": "OFF"},
                           Target={"Arn": SETTINGS.target_arn, "RoleArn": SETTINGS.role_arn,
                                   "Input": '{"game_id": "b", "phase": "S1901M"}'})
    clock = ScheduleClock(scheduler_backend, GROUP)

    assert clock.take_due(NOW - timedelta(hours=1, seconds=1)) == []  # 13:00 CEST is 11:00 UTC
    assert [d.at for d in clock.take_due(NOW - timedelta(hours=1))] == [NOW - timedelta(hours=1)]


def test_a_firing_that_fails_is_offered_again_and_completed_once_it_succeeds(
        scheduler: EventBridgeDeadlineScheduler) -> None:
    scheduler.schedule_deadline("g1", "S1901M", NOW - timedelta(seconds=2))
    scheduler.schedule_deadline("g2", "S1901M", NOW - timedelta(seconds=1))
    fired: list[str] = []

    def deadline(event: dict[str, str], _: Any) -> None:
        fired.append(event["game_id"])
        if len(fired) == 1:
            raise RuntimeError("the deadline function failed")

    pumps = NotificationPumps(
        dynamodb=lambda: None, streams=lambda: None, sqs=lambda: None, scheduler=scheduler,
        clock=ScheduleClock(scheduler_backend, GROUP), table="games", queue_url="",
        deadline_handler=deadline, sweep_handler=lambda *_: None, relay_handler=lambda *_: None,
        notifier_handler=lambda *_: None, now=lambda: NOW,
    )
    with pytest.raises(RuntimeError):
        pumps.fire_due_deadlines()
    assert pumps.fire_due_deadlines() == 2
    assert pumps.fire_due_deadlines() == 0
    assert fired == ["g1", "g1", "g2"]
    assert scheduler_backend().schedule_groups[GROUP].schedules == {}


def test_the_index_survives_a_snapshot_and_is_built_for_a_backend_that_had_none(
        scheduler: EventBridgeDeadlineScheduler) -> None:
    name = scheduler.schedule_deadline("g1", "S1901M", NOW)
    backend = scheduler_backend()

    restored = pickle.loads(pickle.dumps(backend))  # what the data directory's snapshot does
    assert [due for due, _ in index_of(restored, GROUP).pop_due(NOW.timestamp())] == [NOW.timestamp()]
    delattr(backend, INDEX_ATTRIBUTE)  # a snapshot written before the index existed
    assert [d.name for d in ScheduleClock(lambda: backend, GROUP).take_due(NOW)] == [name]


def test_the_heap_stays_bounded_by_the_live_schedules() -> None:
    index = DueIndex()
    for n in range(5000):  # deadlines set and cleared long before they come up
        index.put(f"s{n}", 1e9 + n)
        index.discard(f"s{n}")
    index.put("live", 1e9)

    assert len(index.heap) <= 2 * len(index.live) + COMPACT_MIN + 1
    assert index.pop_due(2e9) == [(1e9, "live")]
