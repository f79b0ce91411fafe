"""The ports of the relay and the notifier: delivering to a target, remembering what was
delivered, where a game's notices go, how each target has fared, the stream's records and the queue.

Standard library only, like the rest of the ports.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from functions.ports.notifications import DeliveryTarget, OutboxMessage


class Deliverer(Protocol):
    """Sends one rendered text to one target; raises `infra.webhooks.DeliveryError` on failure.

    ``deadline`` (a ``time.monotonic()`` instant, issue 11) bounds the whole send in wall time."""

    def deliver(
        self, target: DeliveryTarget, message: OutboxMessage, text: str, *, deadline: float | None = None
    ) -> None: ...


class DeliveryLog(Protocol):
    """Remembers (dedupe_key, target) pairs already delivered, so a redelivery sends nothing."""

    def was_delivered(self, dedupe_key: str, target_key: str) -> bool: ...

    def mark_delivered(self, dedupe_key: str, target_key: str) -> None: ...


class TargetDirectory(Protocol):
    """Where a game's notifications go (its configured webhook / Discord / Telegram targets)."""

    def targets_for(self, game_id: str) -> Sequence[DeliveryTarget]: ...


@dataclass(frozen=True)
class TargetStanding:
    """How a game's target has fared lately (issue 11): consecutive failures, and until when
    (epoch seconds) it is parked; ``newly_parked`` only on the failure that parked it first."""

    failures: int = 0
    parked_until: int = 0
    newly_parked: bool = False

    def parked_at(self, now: float) -> bool:
        return now < self.parked_until


class TargetHealth(Protocol):
    """Stored standing of each game target, so one that keeps failing is parked, not retried."""

    def standing(self, game_id: str, target_keys: Sequence[str]) -> dict[str, TargetStanding]:
        """The standing of those of ``target_keys`` that have failed lately (one read)."""
        ...

    def failed(
        self, game_id: str, target_key: str, *, now: float, park_after: int, park_for: int
    ) -> TargetStanding:
        """Count one more failure; park the target for ``park_for`` s once it reaches ``park_after``."""
        ...

    def succeeded(self, game_id: str, target_key: str) -> None:
        """A delivery went through: forget the failures and any parking."""
        ...


class StreamImages(Protocol):
    """The table's stream records as the relay reads them (infra/dynamodb/stream_images.py)."""

    def item(self, image: Mapping[str, Any]) -> dict[str, Any]:
        """An OUTBOX or EVENT item's stream image as plain values."""
        ...

    def removed_game(self, record: Mapping[str, Any]) -> str | None:
        """The game whose META the record says was removed (its TTL expired), if it says so."""
        ...


class MessageQueue(Protocol):
    """The relay's outlet: sends messages, returns the dedupe keys that could NOT be sent."""

    def send_messages(self, messages: Sequence[OutboxMessage], delay_seconds: int = 0) -> set[str]:
        """``delay_seconds`` (0-900): how long they stay invisible (a notice deferred behind a
        slow receiver, issue 28 item 7)."""
        ...
