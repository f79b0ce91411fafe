"""What a request leans on besides the game store: the clock, idempotent intents, the deadline
scheduler, and the per-game and per-caller counters (join attempts, the sandbox's rate)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, NamedTuple, Protocol

JSON = Any


class AttemptCounter(Protocol):
    """Counts attempts per scope in fixed time windows, by conditional writes (issue 11:
    failed joins of private games). Scopes are opaque strings the caller builds."""

    def count(self, scope: str, *, now: float, window: int) -> int:
        """Attempts recorded in the window that holds ``now``."""
        ...

    def add(self, scope: str, *, now: float, window: int, limit: int) -> bool:
        """Record one attempt unless ``limit`` were already recorded; False if refused."""
        ...


class PowerChats(Protocol):
    """Where a power's own notices go: the chats its player linked (Telegram ``/link``)."""

    def chats_of(self, game_id: str, power: str, linked_since: float = 0.0) -> list[int | str]:
        """Chats linked since ``linked_since`` (epoch seconds: when the seat's player joined)."""
        ...


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


# ---------------------------------------------------------------- idempotent intents

IN_PROGRESS = "IN_PROGRESS"
COMPLETED = "COMPLETED"


class IdempotencyRecord(NamedTuple):
    """What is remembered of one Idempotency-Key (scoped): its payload hash and, once done, the answer."""

    status: str  # IN_PROGRESS or COMPLETED
    payload_hash: str
    outcome: Mapping[str, Any] | None = None  # {"status": int, "body": JSON} when COMPLETED


class IdempotencyStore(Protocol):
    """Conditional writes that let exactly one request per key apply its intent."""

    def claim(
        self, key: str, payload_hash: str, *, now: int, in_progress_until: int, expires_at: int
    ) -> IdempotencyRecord | None:
        """Write an IN_PROGRESS record unless a live one exists: None if this caller now holds
        the key, else the record that is there (a record past ``expires_at``, or IN_PROGRESS
        past ``in_progress_until``, counts as absent)."""
        ...

    def complete(self, key: str, outcome: Mapping[str, Any], *, expires_at: int) -> None:
        """Remember the answer; later claims of ``key`` get it back."""
        ...

    def release(self, key: str) -> None:
        """Forget the claim (the intent failed), so the same key may be sent again."""
        ...


class DeadlineScheduler(Protocol):
    """One-time schedules that fire the deadline function with {game_id, phase}
    (deadlines) or {game_id, phase, kind: "reminder"} (DEADLINE_APPROACHING)."""

    def schedule_deadline(self, game_id: str, phase: str, at: datetime) -> str: ...

    def delete_deadline(self, game_id: str, phase: str) -> None: ...

    def schedule_reminder(self, game_id: str, phase: str, at: datetime) -> str: ...

    def delete_reminder(self, game_id: str, phase: str) -> None: ...


# --- per-caller request counters (issue 19: the sandbox's rate limit) ------------------------


class RateCounter(Protocol):
    """Fixed-window request counters, one per (caller key, window): the policy (limit, window
    length, who the caller is) belongs to the use case; the store only counts, atomically."""

    def take(self, key: str, window_start: int, limit: int, expires_at: int) -> bool:
        """Count one request against ``key``'s window starting at ``window_start`` (epoch s)
        unless it has reached ``limit`` already; True if counted. Two racing callers never
        both take the last slot. ``expires_at``: when the counter may be forgotten."""
        ...
