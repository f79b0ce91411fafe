"""EventBridge Scheduler adapter: one one-time schedule per game phase deadline.

What it does: `schedule_deadline` puts the phase's schedule, named from (game, phase, kind):
``dl.<game>.<phase>`` (``at(...)``, UTC, flexible window OFF, ActionAfterCompletion=DELETE),
whose target is the deadline function with ``{"game_id", "phase"}``. Creating replaces: a
name already taken (``ConflictException``) is updated in place to the new time.
`delete_deadline` deletes the phase's schedule by name; already gone (fired, deleted, never
made) is fine. No call lists schedules (issue 29): ListSchedules pages through the whole
group and has a low request quota, the first limit hit when many deadlines fall due together.
(The local stack, which has no real Scheduler to fire them, finds due schedules with its own
clock: ``local_stack.schedule_clock``.)

Reminders (DEADLINE_APPROACHING) are a second one-time schedule per phase, ``rm.<game>.<phase>``,
targeting the same function with ``{"game_id", "phase", "kind": "reminder"}``:
`schedule_reminder` / `delete_reminder` mirror the deadline pair.

A fixed name and ActionAfterCompletion=DELETE: Scheduler deletes a one-time schedule right
after it invoked its target. A firing that comes early re-schedules the same name from inside
that invocation; the name is then usually free again (create), else still there (update). If
Scheduler's own delete came after that update it would take the new schedule with it: the
backstop sweeper then processes the phase (an early firing needs a deadline moved without its
schedule, which `extend` and `resume` never do: they replace the schedule by name).

What it does not do: decide *whether* a deadline applies (functions/usecases/turns/deadlines.py)
or call process_turn. Botocore `ClientError`s become the domain errors below.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from infra import aws_errors

_SAFE_ID = re.compile(r"[A-Za-z0-9_-]{1,36}")
_SAFE_PHASE = re.compile(r"[A-Za-z0-9_-]{1,12}")
_AT = re.compile(r"at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)")


class SchedulerError(Exception):
    """The scheduler could not do what was asked (throttled, misconfigured, unavailable)."""


class SchedulerUnavailable(SchedulerError):
    """Transient: throttling, service errors, network trouble. Safe to retry."""


@dataclass(frozen=True)
class SchedulerSettings:
    """Deployment facts the adapter needs; comes from the environment via settings."""

    group_name: str
    target_arn: str  # the deadline function
    role_arn: str  # the role Scheduler assumes to invoke it
    dead_letter_arn: str = ""  # the queue a firing goes to after Scheduler's retries (issue 11)


DEADLINE = "dl"
REMINDER = "rm"


def schedule_name(game_id: str, phase: str, *, kind: str = DEADLINE) -> str:
    """The schedule of (game, phase, kind); long or odd game ids are hashed to fit 64 chars."""
    safe = game_id if _SAFE_ID.fullmatch(game_id) else hashlib.sha256(game_id.encode()).hexdigest()[:32]
    if not _SAFE_PHASE.fullmatch(phase):
        raise ValueError(f"unexpected phase name {phase!r}")
    return f"{kind}.{safe}.{phase}"


def at_expression(at: datetime) -> str:
    """`at(yyyy-mm-ddThh:mm:ss)` in UTC, rounded *up* to the next second so it is never early."""
    if at.tzinfo is None:
        raise ValueError("deadline must be timezone-aware")
    utc = at.astimezone(UTC)
    if utc.microsecond:
        utc = utc.replace(microsecond=0) + _ONE_SECOND
    return f"at({utc.strftime('%Y-%m-%dT%H:%M:%S')})"


def parse_at_expression(expression: str) -> datetime | None:
    """The instant of an `at(...)` expression (UTC); None for rate/cron expressions."""
    match = _AT.fullmatch(expression.strip())
    if not match:
        return None
    return datetime.strptime(match.group(1), "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC)


class EventBridgeDeadlineScheduler:
    """`functions.ports.DeadlineScheduler` on EventBridge Scheduler."""

    def __init__(self, client: Callable[[], Any], settings: SchedulerSettings) -> None:
        """`client` is a factory so no boto3 client is built at import or wiring time."""
        self._client_factory = client
        self._settings = settings

    @property
    def _client(self) -> Any:
        return self._client_factory()

    def schedule_deadline(self, game_id: str, phase: str, at: datetime) -> str:
        """Create (or replace) the phase's deadline schedule; returns its name."""
        return self._put(schedule_name(game_id, phase), at, {"game_id": game_id, "phase": phase})

    def schedule_reminder(self, game_id: str, phase: str, at: datetime) -> str:
        """The phase's DEADLINE_APPROACHING schedule, created or replaced like the deadline's."""
        return self._put(
            schedule_name(game_id, phase, kind=REMINDER),
            at,
            {"game_id": game_id, "phase": phase, "kind": "reminder"},
        )

    def _put(self, name: str, at: datetime, target_input: dict[str, str]) -> str:
        """CreateSchedule; a name already taken is updated to this definition (UpdateSchedule
        takes the whole definition, as create does)."""
        definition = self._definition(name, at, target_input)
        try:
            try:
                self._client.create_schedule(**definition)
            except aws_errors.ClientError as exc:
                if _code(exc) != "ConflictException":
                    raise
                self._client.update_schedule(**definition)
        except (aws_errors.ClientError, aws_errors.BotoCoreError) as exc:
            raise _translate(exc, f"put schedule {name}") from exc
        return name

    def _definition(self, name: str, at: datetime, target_input: dict[str, str]) -> dict[str, Any]:
        return {
            "Name": name,
            "GroupName": self._settings.group_name,
            "ScheduleExpression": at_expression(at),
            "ScheduleExpressionTimezone": "UTC",
            "FlexibleTimeWindow": {"Mode": "OFF"},
            "ActionAfterCompletion": "DELETE",
            "State": "ENABLED",
            "Target": {
                "Arn": self._settings.target_arn,
                "RoleArn": self._settings.role_arn,
                "Input": json.dumps(target_input, sort_keys=True),
                # Scheduler's own retries; the function is idempotent so retries are safe.
                "RetryPolicy": {"MaximumEventAgeInSeconds": 3600, "MaximumRetryAttempts": 10},
                **self._dead_letter(),
            },
        }

    def _dead_letter(self) -> dict[str, Any]:
        """A firing Scheduler gave up on is kept for an operator (docs/operations.md)."""
        arn = self._settings.dead_letter_arn
        return {"DeadLetterConfig": {"Arn": arn}} if arn else {}

    def delete_deadline(self, game_id: str, phase: str) -> None:
        """Remove the phase's deadline schedule; already gone is fine."""
        self._delete(schedule_name(game_id, phase))

    def delete_reminder(self, game_id: str, phase: str) -> None:
        """Remove the phase's reminder schedule; already gone is fine."""
        self._delete(schedule_name(game_id, phase, kind=REMINDER))

    def complete(self, name: str) -> None:
        """What ActionAfterCompletion=DELETE does on AWS; the local stack calls it after firing."""
        self._delete(name)

    # ------------------------------------------------------------ internals

    def _delete(self, name: str) -> None:
        try:
            self._client.delete_schedule(Name=name, GroupName=self._settings.group_name)
        except aws_errors.ClientError as exc:
            if _code(exc) == "ResourceNotFoundException":
                return
            raise _translate(exc, f"delete schedule {name}") from exc
        except aws_errors.BotoCoreError as exc:
            raise _translate(exc, f"delete schedule {name}") from exc


_ONE_SECOND = timedelta(seconds=1)
_TRANSIENT = {"ThrottlingException", "InternalServerException", "ServiceQuotaExceededException"}


def _code(exc: aws_errors.ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def _translate(exc: Exception, what: str) -> SchedulerError:
    """ClientError/BotoCoreError -> SchedulerError; transient ones as SchedulerUnavailable."""
    transient = isinstance(exc, aws_errors.ClientError) and _code(exc) in _TRANSIENT
    if isinstance(exc, aws_errors.BotoCoreError) or transient:
        return SchedulerUnavailable(f"{what}: {exc}")
    return SchedulerError(f"{what}: {exc}")
