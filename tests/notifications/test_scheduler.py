"""EventBridge Scheduler adapter under moto: names from (game, phase, kind), creating replaces,
deleting a missing one is fine, and nothing is ever listed (issue 29)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from infra.scheduler import (
    EventBridgeDeadlineScheduler,
    SchedulerError,
    SchedulerSettings,
    SchedulerUnavailable,
    at_expression,
    parse_at_expression,
    schedule_name,
)
from local_stack import moto_patches
from local_stack.backends import scheduler_backend
from local_stack.schedule_clock import ScheduleClock

SETTINGS = SchedulerSettings(
    group_name="convoy-deadlines",
    target_arn="arn:aws:lambda:us-east-1:123456789012:function:deadline",
    role_arn="arn:aws:iam::123456789012:role/scheduler",
)


@pytest.fixture
def client(aws: None) -> Any:
    moto_patches.apply()  # the local Scheduler's due-time index (local_stack.schedule_clock)
    c = boto3.client("scheduler", region_name="us-east-1")
    c.create_schedule_group(Name=SETTINGS.group_name)
    return c


def names(client: Any) -> list[str]:
    return sorted(s["Name"] for s in client.list_schedules(GroupName=SETTINGS.group_name)["Schedules"])


def test_schedule_creates_one_time_self_deleting_schedule(client: Any) -> None:
    scheduler = EventBridgeDeadlineScheduler(lambda: client, SETTINGS)
    at = datetime(2030, 5, 1, 12, 0, 0, 250_000, tzinfo=UTC)

    name = scheduler.schedule_deadline("g1", "S1901M", at)

    got = client.get_schedule(Name=name, GroupName=SETTINGS.group_name)
    assert name == "dl.g1.S1901M"
    assert got["ScheduleExpression"] == "at(2030-05-01T12:00:01)"  # rounded up: never early
    assert got["ActionAfterCompletion"] == "DELETE"
    assert got["FlexibleTimeWindow"] == {"Mode": "OFF"}
    assert got["Target"]["Arn"] == SETTINGS.target_arn
    assert json.loads(got["Target"]["Input"]) == {"game_id": "g1", "phase": "S1901M"}


def test_a_firing_scheduler_gives_up_on_goes_to_the_failed_work_queue(client: Any) -> None:
    """Issue 11 item 4: schedules have a dead-letter config when the deployment names a queue."""
    arn = "arn:aws:sqs:us-east-1:123456789012:failed-work"
    scheduler = EventBridgeDeadlineScheduler(
        lambda: client, SchedulerSettings(SETTINGS.group_name, SETTINGS.target_arn, SETTINGS.role_arn, arn)
    )

    name = scheduler.schedule_deadline("g1", "S1901M", datetime(2030, 5, 1, tzinfo=UTC))

    target = client.get_schedule(Name=name, GroupName=SETTINGS.group_name)["Target"]
    assert target["DeadLetterConfig"] == {"Arn": arn}
    assert target["RetryPolicy"]["MaximumRetryAttempts"] == 10


def test_scheduling_a_phase_again_replaces_its_schedule_by_name(client: Any) -> None:
    scheduler = EventBridgeDeadlineScheduler(lambda: client, SETTINGS)
    at = datetime(2030, 5, 1, tzinfo=UTC)

    first = scheduler.schedule_deadline("g1", "S1901M", at)
    second = scheduler.schedule_deadline("g1", "S1901M", at + timedelta(hours=1))  # Conflict -> update

    assert first == second and names(client) == [first]
    got = client.get_schedule(Name=first, GroupName=SETTINGS.group_name)
    assert got["ScheduleExpression"] == "at(2030-05-01T01:00:00)"
    (due,) = ScheduleClock(scheduler_backend, SETTINGS.group_name).take_due(at + timedelta(hours=2))
    assert due.at == at + timedelta(hours=1)  # the local clock follows the update


def test_delete_is_by_name_and_tolerates_absence(client: Any) -> None:
    scheduler = EventBridgeDeadlineScheduler(lambda: client, SETTINGS)
    at = datetime(2030, 5, 1, tzinfo=UTC)
    keep_other_game = scheduler.schedule_deadline("g10", "S1901M", at)
    scheduler.schedule_deadline("g1", "S1901M", at)
    keep_next_phase = scheduler.schedule_deadline("g1", "F1901M", at)

    scheduler.delete_deadline("g1", "S1901M")
    scheduler.delete_deadline("g1", "S1901M")  # already gone: fine
    scheduler.delete_deadline("nope", "W1901A")  # never existed: fine

    assert names(client) == sorted([keep_other_game, keep_next_phase])


def test_no_call_lists_schedules(client: Any) -> None:
    """ListSchedules pages through the whole group under a low quota: never on a request path."""
    seen: list[str] = []
    client.meta.events.register("provide-client-params.scheduler", lambda model, **_: seen.append(model.name))
    scheduler = EventBridgeDeadlineScheduler(lambda: client, SETTINGS)
    at = datetime(2030, 5, 1, tzinfo=UTC)
    for _ in range(2):
        scheduler.schedule_deadline("g1", "S1901M", at)
        scheduler.schedule_reminder("g1", "S1901M", at)
    scheduler.delete_deadline("g1", "S1901M")
    scheduler.delete_reminder("g1", "S1901M")
    scheduler.delete_reminder("g1", "S1901M")
    assert "ListSchedules" not in seen and set(seen) == {"CreateSchedule", "UpdateSchedule", "DeleteSchedule"}


class RefusingClient:
    """Every call fails the way botocore reports a refusal."""

    def __init__(self, code: str) -> None:
        self.code = code

    def __getattr__(self, operation: str) -> Any:
        def call(**_: Any) -> Any:
            raise ClientError({"Error": {"Code": self.code, "Message": "no"}}, operation)

        return call


def test_client_errors_become_domain_errors() -> None:
    throttled = EventBridgeDeadlineScheduler(lambda: RefusingClient("ThrottlingException"), SETTINGS)
    denied = EventBridgeDeadlineScheduler(lambda: RefusingClient("AccessDeniedException"), SETTINGS)
    with pytest.raises(SchedulerUnavailable):
        throttled.schedule_deadline("g1", "S1901M", datetime(2030, 1, 1, tzinfo=UTC))
    with pytest.raises(SchedulerError) as refused:
        denied.delete_deadline("g1", "S1901M")
    assert not isinstance(refused.value, SchedulerUnavailable)


def test_names_fit_the_64_character_limit_and_expressions_round_trip() -> None:
    long_name = schedule_name("x" * 200, "S1901M", kind="rm")
    assert len(long_name) <= 64 and long_name.count(".") == 2
    assert schedule_name("g/1", "S1901M") != schedule_name("g/2", "S1901M")  # odd ids hashed apart
    at = datetime(2031, 2, 3, 4, 5, 6, tzinfo=UTC)
    assert parse_at_expression(at_expression(at)) == at
    assert parse_at_expression("rate(5 minutes)") is None
    with pytest.raises(ValueError):
        at_expression(datetime(2031, 1, 1))  # naive: ambiguous


def test_reminders_are_a_second_schedule_per_phase_with_their_own_name(client: Any) -> None:
    scheduler = EventBridgeDeadlineScheduler(lambda: client, SETTINGS)
    now = datetime(2030, 5, 1, 12, tzinfo=UTC)
    deadline = scheduler.schedule_deadline("g1", "S1901M", now + timedelta(hours=1))
    first = scheduler.schedule_reminder("g1", "S1901M", now - timedelta(seconds=5))
    reminder = scheduler.schedule_reminder("g1", "S1901M", now - timedelta(seconds=1))  # replaced

    assert reminder == first == "rm.g1.S1901M" and names(client) == sorted([deadline, reminder])
    got = client.get_schedule(Name=reminder, GroupName=SETTINGS.group_name)
    assert json.loads(got["Target"]["Input"]) == {"game_id": "g1", "phase": "S1901M", "kind": "reminder"}
    assert got["ActionAfterCompletion"] == "DELETE"
    (due,) = ScheduleClock(scheduler_backend, SETTINGS.group_name).take_due(now)
    assert (due.name, due.kind, due.event()) == (
        reminder, "reminder", {"game_id": "g1", "phase": "S1901M", "kind": "reminder"}
    )
    scheduler.delete_deadline("g1", "S1901M")  # the deadline pair leaves the reminder alone
    assert names(client) == [reminder]
    scheduler.delete_reminder("g1", "S1901M")
    scheduler.delete_reminder("g1", "S1901M")  # already gone: fine
    assert names(client) == []
