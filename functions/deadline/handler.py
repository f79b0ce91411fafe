"""Deadline Lambda: the Scheduler's one-time target and the backstop sweeper's rate target.

`handler` gets ``{"game_id", "phase"}`` from a per-phase schedule and calls
`fire_deadline`, or ``{"game_id", "phase", "kind": "reminder"}`` from the phase's
reminder schedule and calls `fire_reminder`; `sweep_handler` runs on a rate schedule
and calls `sweep`. All are idempotent, so Scheduler's retries and duplicate firings are harmless. A malformed
event is answered, not raised: retrying it could never succeed.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit

from functions.observability import get_logger, get_metrics, get_tracer
from functions.usecases.turns import SCHEDULE_GRACE, fire_deadline, fire_reminder, sweep

LambdaHandler = Callable[[dict[str, Any], Any], dict[str, Any]]
logger = get_logger()
tracer = get_tracer()
metrics = get_metrics()


def make_handlers(
    dependencies: Callable[[], Any], now: Callable[[], datetime] = lambda: datetime.now(UTC)
) -> tuple[LambdaHandler, LambdaHandler]:
    """(deadline handler, sweep handler) over `dependencies()` -> .games and .scheduler.

    The sweep handler flushes the shared Metrics (``log_metrics``) when it returns."""

    @logger.inject_lambda_context(clear_state=True)
    @tracer.capture_lambda_handler
    def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
        game_id, phase = event.get("game_id"), event.get("phase")
        if not isinstance(game_id, str) or not isinstance(phase, str) or not game_id or not phase:
            return {"outcome": "INVALID_EVENT"}
        kind = event.get("kind", "deadline")
        if kind not in ("deadline", "reminder"):
            return {"outcome": "INVALID_EVENT"}
        deps = dependencies()
        if kind == "reminder":
            said = fire_reminder(game_id, phase, now=now(), games=deps.games, scheduler=deps.scheduler)
            return {"game_id": game_id, "phase": phase, "kind": kind, "outcome": said}
        outcome = fire_deadline(game_id, phase, now=now(), games=deps.games, scheduler=deps.scheduler)
        return {"game_id": game_id, "phase": phase, "outcome": str(outcome)}

    @logger.inject_lambda_context(clear_state=True)
    @tracer.capture_lambda_handler
    @metrics.log_metrics
    def sweep_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
        deps = dependencies()
        grace = getattr(deps, "sweep_grace_seconds", None)
        wait = SCHEDULE_GRACE if grace is None else timedelta(seconds=int(grace))
        report = sweep(now=now(), games=deps.games, scheduler=deps.scheduler, grace=wait)
        publish_overdue_games(len(report.outcomes) + len(report.errors))
        return {
            "outcomes": {game: str(outcome) for game, outcome in sorted(report.outcomes.items())},
            "errors": dict(sorted(report.errors.items())),
        }

    return handler, sweep_handler


def publish_overdue_games(count: int) -> None:
    """The OverdueGames metric: games past their deadline that no schedule processed, zero
    included. template.yaml's OverdueGamesAlarm watches it (namespace Convoy, dimension
    service=convoy); the sweep handler's ``log_metrics`` writes it out (EMF, on stdout)."""
    metrics.add_metric(name="OverdueGames", unit=MetricUnit.Count, value=count)
