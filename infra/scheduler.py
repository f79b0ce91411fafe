"""EventBridge Scheduler adapter: one one-time schedule per game phase deadline.

What it does: `schedule_deadline` deletes whatever schedule the phase had and creates
a new one (`at(...)`, UTC, flexible window OFF, ActionAfterCompletion=DELETE) whose
target is the deadline function with ``{"game_id", "phase"}``. `delete_deadline`
removes a phase's schedules and tolerates their absence. (The local stack, which has no
real Scheduler to fire them, finds due schedules with its own clock:
``local_stack.schedule_clock``.)

Why every schedule gets a fresh name (``dl.<game>.<phase>.<nonce>``) instead of one
name per phase: a schedule that is firing right now is deleted by Scheduler *after*
its invocation completes (ActionAfterCompletion=DELETE). If the deadline function
re-schedules the same phase while it runs (Scheduler fired early), a reused name
would be deleted from under it. With a nonce the old firing deletes only itself.
Schedules are found again by the prefix ``dl.<game>.<phase>.``; ``.`` never occurs in
the sanitized game id, so one game's prefix never matches another game.

Reminders (DEADLINE_APPROACHING) are a second one-time schedule per phase, named
``rm.<game>.<phase>.<nonce>`` and targeting the same function with
``{"game_id", "phase", "kind": "reminder"}``: `schedule_reminder` / `delete_reminder`
mirror the deadline pair, and `delete_game_deadlines` removes both kinds.

What it does not do: decide *whether* a deadline applies (functions/usecases/deadlines.py)
or call process_turn. Botocore `ClientError`s become the domain errors below.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
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


def schedule_prefix(game_id: str, phase: str | None = None, *, kind: str = DEADLINE) -> str:
    """Name prefix for a game (and phase); long or odd game ids are hashed to fit 64 chars."""
    safe = game_id if _SAFE_ID.fullmatch(game_id) else hashlib.sha256(game_id.encode()).hexdigest()[:32]
    if phase is None:
        return f"{kind}.{safe}."
    if not _SAFE_PHASE.fullmatch(phase):
        raise ValueError(f"unexpected phase name {phase!r}")
    return f"{kind}.{safe}.{phase}."


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
        """Delete the phase's schedules, then create a fresh one; returns its name.

        Delete + create (never update): an updated schedule keeps its completion
        state, and a fresh name keeps a currently firing schedule from deleting it.
        """
        self.delete_deadline(game_id, phase)
        return self._create(schedule_prefix(game_id, phase), at, {"game_id": game_id, "phase": phase})

    def schedule_reminder(self, game_id: str, phase: str, at: datetime) -> str:
        """The phase's DEADLINE_APPROACHING schedule: delete + create, like `schedule_deadline`."""
        self.delete_reminder(game_id, phase)
        return self._create(
            schedule_prefix(game_id, phase, kind=REMINDER),
            at,
            {"game_id": game_id, "phase": phase, "kind": "reminder"},
        )

    def _create(self, prefix: str, at: datetime, target_input: dict[str, str]) -> str:
        name = prefix + secrets.token_hex(4)
        try:
            self._client.create_schedule(
                Name=name,
                GroupName=self._settings.group_name,
                ScheduleExpression=at_expression(at),
                ScheduleExpressionTimezone="UTC",
                FlexibleTimeWindow={"Mode": "OFF"},
                ActionAfterCompletion="DELETE",
                State="ENABLED",
                Target={
                    "Arn": self._settings.target_arn,
                    "RoleArn": self._settings.role_arn,
                    "Input": json.dumps(target_input, sort_keys=True),
                    # Scheduler's own retries; the function is idempotent so retries are safe.
                    "RetryPolicy": {"MaximumEventAgeInSeconds": 3600, "MaximumRetryAttempts": 10},
                    **self._dead_letter(),
                },
            )
        except (aws_errors.ClientError, aws_errors.BotoCoreError) as exc:
            raise _translate(exc, f"create schedule {name}") from exc
        return name

    def _dead_letter(self) -> dict[str, Any]:
        """A firing Scheduler gave up on is kept for an operator (docs/operations.md)."""
        arn = self._settings.dead_letter_arn
        return {"DeadLetterConfig": {"Arn": arn}} if arn else {}

    def delete_deadline(self, game_id: str, phase: str) -> None:
        """Remove every schedule of this phase; already gone (fired, deleted) is fine."""
        for name in self._names(schedule_prefix(game_id, phase)):
            self._delete(name)

    def delete_reminder(self, game_id: str, phase: str) -> None:
        """Remove the phase's reminder schedules; already gone is fine."""
        for name in self._names(schedule_prefix(game_id, phase, kind=REMINDER)):
            self._delete(name)

    def delete_game_deadlines(self, game_id: str) -> None:
        """Remove all of a game's schedules, deadlines and reminders (pause, finish, delete)."""
        for kind in (DEADLINE, REMINDER):
            for name in self._names(schedule_prefix(game_id, kind=kind)):
                self._delete(name)

    def complete(self, name: str) -> None:
        """What ActionAfterCompletion=DELETE does on AWS; the local stack calls it after firing."""
        self._delete(name)

    # ------------------------------------------------------------ internals

    def _names(self, prefix: str) -> list[str]:
        return sorted(s["Name"] for s in self._list(prefix) if s["Name"].startswith(prefix))

    def _list(self, prefix: str | None) -> list[dict[str, Any]]:
        kwargs: dict[str, Any] = {"GroupName": self._settings.group_name}
        if prefix:
            kwargs["NamePrefix"] = prefix
        found: list[dict[str, Any]] = []
        try:
            while True:
                page = self._client.list_schedules(**kwargs)
                found.extend(page.get("Schedules", []))
                token = page.get("NextToken")
                if not token:
                    return found
                kwargs["NextToken"] = token
        except (aws_errors.ClientError, aws_errors.BotoCoreError) as exc:
            raise _translate(exc, "list schedules") from exc

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
