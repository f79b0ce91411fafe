"""The local stand-ins: due schedules fire the deadline handler once; OUTBOX items reach the notifier."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3

from functions.notifier.handler import make_handler as make_notifier
from functions.ports.notifications import TelegramTarget
from functions.relay.handler import make_handler as make_relay
from infra.dynamodb.stream_images import STREAM_IMAGES
from infra.queue import SqsMessageQueue
from infra.scheduler import EventBridgeDeadlineScheduler, SchedulerSettings
from local_stack import moto_patches
from local_stack.backends import scheduler_backend
from local_stack.notification_pumps import NotificationPumps, ensure_schedule_group
from local_stack.schedule_clock import ScheduleClock
from testkit.tables import make_table
from tests.local_stack.conftest import mock_streams_client
from tests.notifications.fakes import Deps, MemoryDeliveryLog, RecordingDeliverer, StaticTargets

NOW = datetime(2030, 1, 1, tzinfo=UTC)


def test_pumps_fire_due_deadlines_and_carry_outbox_items_to_the_notifier(aws: None) -> None:
    # Given the emulated table, queue and scheduler group (with the local Scheduler's clock)
    moto_patches.apply()
    ddb = boto3.client("dynamodb", region_name="us-east-1")
    sqs = boto3.client("sqs", region_name="us-east-1")
    sched = boto3.client("scheduler", region_name="us-east-1")
    streams = mock_streams_client()
    make_table(streams=True, client=ddb)  # with the stream the relay reads, as template.yaml's
    url = sqs.create_queue(QueueName="outbox")["QueueUrl"]
    scheduler = _scheduler_with_two_due_and_one_waiting(sched)
    fired: list[dict[str, Any]] = []
    deliverer, log = RecordingDeliverer(), MemoryDeliveryLog()
    pumps = NotificationPumps(
        dynamodb=lambda: ddb,
        streams=lambda: streams,
        sqs=lambda: sqs,
        scheduler=scheduler,
        clock=ScheduleClock(scheduler_backend, "deadlines"),
        table="games",
        queue_url=url,
        deadline_handler=lambda event, _: fired.append(event),
        sweep_handler=lambda event, _: None,
        relay_handler=make_relay(lambda: SqsMessageQueue(lambda: sqs, url), STREAM_IMAGES),
        notifier_handler=make_notifier(
            lambda: Deps(StaticTargets({"g1": [TelegramTarget(1)]}), deliverer, log)
        ),
        now=lambda: NOW,
    )
    _put_a_processed_notice(ddb)

    # When the pumps run twice
    for _ in range(2):
        pumps.fire_due_deadlines()
        pumps.relay_outbox()
        pumps.drain_queue()

    # Then the due deadline fired once, the future one waits, and the notice went out once
    assert fired == [
        {"game_id": "g3", "phase": "S1901M", "kind": "reminder"},
        {"game_id": "g1", "phase": "S1901M"},
    ]
    clock = ScheduleClock(scheduler_backend, "deadlines")
    assert [d.game_id for d in clock.take_due(NOW + timedelta(minutes=2))] == ["g2"]
    assert [(key, target) for key, target, _ in deliverer.sent] == [("g1:S1901M:processed", "telegram:1")]
    assert "S1901M has been adjudicated; now F1901M" in deliverer.sent[0][2]


def _scheduler_with_two_due_and_one_waiting(sched: Any) -> EventBridgeDeadlineScheduler:
    """The group (asked for twice, as a restart does), g1's deadline and g3's reminder already
    due, g2's deadline a minute away."""
    ensure_schedule_group(sched, "deadlines")
    ensure_schedule_group(sched, "deadlines")  # idempotent
    scheduler = EventBridgeDeadlineScheduler(
        lambda: sched, SchedulerSettings("deadlines", "arn:aws:lambda:us-east-1:1:function:d", "arn:r")
    )
    scheduler.schedule_deadline("g1", "S1901M", NOW - timedelta(seconds=1))
    scheduler.schedule_deadline("g2", "S1901M", NOW + timedelta(minutes=1))
    scheduler.schedule_reminder("g3", "S1901M", NOW - timedelta(seconds=2))
    return scheduler


def _put_a_processed_notice(ddb: Any) -> None:
    """g1's OUTBOX item for its processed S1901M, written beside its META as a turn writes it."""
    ddb.put_item(
        TableName="games",
        Item={
            "pk": {"S": "GAME#g1"},
            "sk": {"S": "OUTBOX#0000000001"},
            "kind": {"S": "PHASE_PROCESSED"},
            "game_id": {"S": "g1"},
            "dedupe_key": {"S": "g1:S1901M:processed"},
            "payload": {"M": {"phase": {"S": "S1901M"}, "next_phase": {"S": "F1901M"}}},
        },
    )
    ddb.put_item(TableName="games", Item={"pk": {"S": "GAME#g1"}, "sk": {"S": "META"}})


def _bare_pumps(scheduler: Any, deadline: Any, sweep: Any, wall_clock: Any = lambda: 0.0,
                sweep_seconds: float = 30.0) -> NotificationPumps:
    return NotificationPumps(
        dynamodb=lambda: None, streams=lambda: None, sqs=lambda: None, scheduler=scheduler,
        clock=ScheduleClock(scheduler_backend, "deadlines"), table="games", queue_url="",
        deadline_handler=deadline, sweep_handler=sweep, relay_handler=lambda e, _: None,
        notifier_handler=lambda e, _: None, now=lambda: NOW, sweep_seconds=sweep_seconds,
        wall_clock=wall_clock,
    )


def test_a_firing_that_moves_its_own_deadline_by_name_keeps_the_new_schedule(aws: None) -> None:
    """An early firing (or an NMR extension) re-puts the phase's schedule under the same name
    (issue 29): what ActionAfterCompletion=DELETE does must not delete the new one."""
    moto_patches.apply()
    sched = boto3.client("scheduler", region_name="us-east-1")
    ensure_schedule_group(sched, "deadlines")
    scheduler = EventBridgeDeadlineScheduler(
        lambda: sched, SchedulerSettings("deadlines", "arn:aws:lambda:us-east-1:1:function:d", "arn:r")
    )
    scheduler.schedule_deadline("g1", "S1901M", NOW - timedelta(seconds=1))
    scheduler.schedule_deadline("g2", "S1901M", NOW - timedelta(seconds=1))

    def firing(event: dict[str, Any], _: Any) -> None:
        if event["game_id"] == "g1":  # fired early: the deadline function moves it, by name
            scheduler.schedule_deadline("g1", "S1901M", NOW + timedelta(minutes=5))

    pumps = _bare_pumps(scheduler, firing, lambda e, _: None)
    assert pumps.fire_due_deadlines() == 2
    names = [s["Name"] for s in sched.list_schedules(GroupName="deadlines")["Schedules"]]
    assert names == ["dl.g1.S1901M"]  # g2's completed firing deleted it; g1's new time stays


def test_the_sweeper_runs_on_wall_time_and_counts_the_deadlines_it_had_to_process(caplog: Any) -> None:
    now = [0.0]
    answers: list[dict[str, Any]] = [{"outcomes": {"g1": "PROCESSED", "g2": "STALE"}, "errors": {}},
                                     {"outcomes": {}}]
    pumps = _bare_pumps(None, lambda e, _: None, lambda e, _: answers.pop(0), wall_clock=lambda: now[0])
    assert pumps.sweep_overdue() == 0 and answers[0]["outcomes"]  # not yet its time
    now[0] = 30.0
    with caplog.at_level("WARNING", logger="local_stack.sweeper"):
        assert pumps.sweep_overdue() == 1
    assert pumps.swept == 1 and "the sweeper processed 1 overdue phase(s) (games g1)" in caplog.text
    now[0] = 45.0
    assert pumps.sweep_overdue() == 0 and len(answers) == 1  # the next sweep waits its 30 s
    off = _bare_pumps(None, lambda e, _: None, lambda e, _: 1 / 0, wall_clock=lambda: 1e9, sweep_seconds=0)
    assert off.sweep_overdue() == 0  # CONVOY_SWEEP_SECONDS=0: switched off


def test_making_sure_of_the_schedule_group_keeps_its_schedules(aws: None) -> None:
    """A restart on a data directory asks for the group again: moto 5.2.5 would replace it with
    an empty one on a second CreateScheduleGroup, losing every pending deadline."""
    sched = boto3.client("scheduler", region_name="us-east-1")
    ensure_schedule_group(sched, "deadlines")
    scheduler = EventBridgeDeadlineScheduler(
        lambda: sched, SchedulerSettings("deadlines", "arn:aws:lambda:us-east-1:1:function:d", "arn:r")
    )
    scheduler.schedule_deadline("g1", "S1901M", NOW)
    ensure_schedule_group(sched, "deadlines")  # the stack starting again on the same data
    assert [s["Name"] for s in sched.list_schedules(GroupName="deadlines")["Schedules"]] == ["dl.g1.S1901M"]



def _backlog_pumps(notifier: Any, relay: Any, scheduler: Any = None) -> NotificationPumps:
    """Pumps over a table with 250 stream records waiting and an outbox queue with 25 notices."""
    sqs = boto3.client("sqs", region_name="us-east-1")
    url = sqs.create_queue(QueueName="outbox")["QueueUrl"]
    ddb = make_table(streams=True)
    for n in range(250):  # 250 stream records: three GetRecords batches
        ddb.put_item(TableName="games", Item={"pk": {"S": "GAME#g"}, "sk": {"S": f"OUTBOX#{n:04d}"}})
    for n in range(25):  # 25 notices: three ReceiveMessage batches
        sqs.send_message(QueueUrl=url, MessageBody=json.dumps({"n": n}))
    return NotificationPumps(
        dynamodb=lambda: ddb, streams=mock_streams_client, sqs=lambda: sqs, scheduler=scheduler,
        clock=ScheduleClock(scheduler_backend, "deadlines"), table="games", queue_url=url,
        deadline_handler=lambda e, _: None, sweep_handler=lambda e, _: None, relay_handler=relay,
        notifier_handler=notifier, now=lambda: NOW,
    )


def test_one_run_drains_a_backlog_batch_after_batch(aws: None) -> None:
    """AWS's pollers keep reading a stream or a queue with work; one batch a second let a busy
    minute's notices pile up in the emulator (issue 29)."""
    relayed: list[int] = []
    delivered: list[int] = []

    def relay(event: dict[str, Any], _: Any) -> dict[str, Any]:
        relayed.append(len(event["Records"]))
        return {}

    def notify(event: dict[str, Any], _: Any) -> dict[str, Any]:
        delivered.append(len(event["Records"]))
        return {"batchItemFailures": []}

    pumps = _backlog_pumps(notify, relay)
    assert pumps.relay_outbox() == 250 and relayed == [100, 100, 50]
    assert pumps.drain_queue() == 25 and delivered == [10, 10, 5]
    assert pumps.relay_outbox() == 0 and pumps.drain_queue() == 0


def test_a_failed_batch_ends_the_run(aws: None) -> None:
    """A failure is retried on the next run (a second later), not fifty times at once."""
    relayed: list[int] = []
    delivered: list[int] = []

    def relay(event: dict[str, Any], _: Any) -> dict[str, Any]:
        relayed.append(len(event["Records"]))
        return {"batchItemFailures": [{"itemIdentifier": event["Records"][-1]["dynamodb"]["SequenceNumber"]}]}

    def notify(event: dict[str, Any], _: Any) -> dict[str, Any]:
        delivered.append(len(event["Records"]))
        return {"batchItemFailures": [{"itemIdentifier": event["Records"][0]["messageId"]}]}

    pumps = _backlog_pumps(notify, relay)
    assert pumps.relay_outbox() == 100 and relayed == [100]
    assert pumps.drain_queue() == 9 and delivered == [10]
