"""The small Protocols and values that deadlines, notifications and the Telegram bot talk through.

Why a separate module from `functions/ports.py`: issue 5 was built alongside the
game-store ports of issue 4; these Protocols describe only what the deadline,
notifier, relay and bot use cases *need* (a handful of methods each), so any
game store that offers those methods satisfies them. Nothing here does I/O.

Message shape: an `OutboxMessage` is what travels OUTBOX item -> stream -> relay ->
SQS -> notifier. Its `dedupe_key` (``<pk>|<sk>`` of the OUTBOX item) is stable across
redeliveries, so the notifier can refuse to notify twice.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

# ---------------------------------------------------------------- messages


# The kinds the use cases write (upper case, like event types). Unknown kinds are still
# delivered, with a generic text: a new kind must never turn into a poison message.
PHASE_PROCESSED = "PHASE_PROCESSED"
DEADLINE_APPROACHING = "DEADLINE_APPROACHING"
GAME_ENDED = "GAME_ENDED"
PLAYER_JOINED = "PLAYER_JOINED"
CHAT_REPLY = "CHAT_REPLY"


@dataclass(frozen=True)
class OutboxMessage:
    """One notification to deliver; `target` set means "only to this chat" (a bot reply)."""

    dedupe_key: str
    kind: str
    game_id: str | None = None
    payload: Mapping[str, Any] = field(default_factory=dict)
    target: DeliveryTarget | None = None

    def to_json(self) -> str:
        """Serialize for the queue; sorted keys so equal messages are equal bytes."""
        body: dict[str, Any] = {
            "dedupe_key": self.dedupe_key,
            "kind": self.kind,
            "game_id": self.game_id,
            "payload": dict(self.payload),
            "target": target_to_dict(self.target) if self.target else None,
        }
        return json.dumps(body, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> OutboxMessage:
        """Parse a queue body; raises ValueError on anything malformed (a poison message)."""
        raw = json.loads(text)
        if not isinstance(raw, dict):
            raise ValueError("message body is not an object")
        key, kind = raw.get("dedupe_key"), raw.get("kind")
        if not isinstance(key, str) or not key or not isinstance(kind, str) or not kind:
            raise ValueError(f"bad message: dedupe_key={key!r} kind={kind!r}")
        payload = raw.get("payload") or {}
        if not isinstance(payload, dict):
            raise ValueError("payload is not an object")
        target = raw.get("target")
        return cls(
            dedupe_key=key,
            kind=kind.upper(),
            game_id=raw.get("game_id"),
            payload=payload,
            target=target_from_dict(target) if target else None,
        )


# ---------------------------------------------------------------- delivery targets


@dataclass(frozen=True)
class WebhookTarget:
    """A generic HTTPS webhook; bodies are signed with the game's `secret` (docs/notifications.md)."""

    url: str
    secret: str
    type: Literal["webhook"] = "webhook"

    @property
    def key(self) -> str:
        """Identity for the delivery log (never contains the secret)."""
        return f"webhook:{self.url}"


@dataclass(frozen=True)
class DiscordTarget:
    """A Discord channel webhook URL."""

    url: str
    type: Literal["discord"] = "discord"

    @property
    def key(self) -> str:
        return f"discord:{self.url}"


@dataclass(frozen=True)
class TelegramTarget:
    """A Telegram chat; the bot token is a deployment setting, not per game."""

    chat_id: int | str
    type: Literal["telegram"] = "telegram"

    @property
    def key(self) -> str:
        return f"telegram:{self.chat_id}"


DeliveryTarget = WebhookTarget | DiscordTarget | TelegramTarget


def target_to_dict(target: DeliveryTarget) -> dict[str, Any]:
    """Plain dict form, as stored in game settings and carried on bot replies."""
    if isinstance(target, WebhookTarget):
        return {"type": "webhook", "url": target.url, "secret": target.secret}
    if isinstance(target, DiscordTarget):
        return {"type": "discord", "url": target.url}
    return {"type": "telegram", "chat_id": target.chat_id}


def target_from_dict(raw: Mapping[str, Any]) -> DeliveryTarget:
    """Inverse of `target_to_dict`; ValueError for an unknown or incomplete target."""
    kind = raw.get("type")
    if kind == "webhook" and isinstance(raw.get("url"), str) and isinstance(raw.get("secret"), str):
        return WebhookTarget(url=raw["url"], secret=raw["secret"])
    if kind == "discord" and isinstance(raw.get("url"), str):
        return DiscordTarget(url=raw["url"])
    if kind == "telegram" and isinstance(raw.get("chat_id"), int | str):
        return TelegramTarget(chat_id=raw["chat_id"])
    raise ValueError(f"bad delivery target: {dict(raw)!r}")


# ---------------------------------------------------------------- notifier ports


class Deliverer(Protocol):
    """Sends one rendered text to one target; raises `infra.webhooks.DeliveryError` on failure."""

    def deliver(self, target: DeliveryTarget, message: OutboxMessage, text: str) -> None: ...


class DeliveryLog(Protocol):
    """Remembers (dedupe_key, target) pairs already delivered, so a redelivery sends nothing."""

    def was_delivered(self, dedupe_key: str, target_key: str) -> bool: ...

    def mark_delivered(self, dedupe_key: str, target_key: str) -> None: ...


class TargetDirectory(Protocol):
    """Where a game's notifications go (its configured webhook / Discord / Telegram targets)."""

    def targets_for(self, game_id: str) -> Sequence[DeliveryTarget]: ...


class MessageQueue(Protocol):
    """The relay's outlet: sends messages, returns the dedupe keys that could NOT be sent."""

    def send_messages(self, messages: Sequence[OutboxMessage]) -> set[str]: ...


# ---------------------------------------------------------------- deadline ports


@dataclass(frozen=True)
class DeadlineInfo:
    """What the deadline logic needs to know of a game: its phase, deadline and status."""

    game_id: str
    phase: str
    deadline: datetime | None
    status: str  # "ACTIVE", "PAUSED", "FINISHED", ... only "ACTIVE" games are processed


class DeadlineScheduler(Protocol):
    """One-time schedules that fire the deadline function with {game_id, phase}
    (deadlines) or {game_id, phase, kind: "reminder"} (DEADLINE_APPROACHING)."""

    def schedule_deadline(self, game_id: str, phase: str, at: datetime) -> str: ...

    def delete_deadline(self, game_id: str, phase: str) -> None: ...

    def schedule_reminder(self, game_id: str, phase: str, at: datetime) -> str: ...

    def delete_reminder(self, game_id: str, phase: str) -> None: ...


class DeadlineGames(Protocol):
    """The slice of the game store + process_turn that deadlines use."""

    def deadline_info(self, game_id: str) -> DeadlineInfo | None: ...

    def process_if_in_phase(self, game_id: str, phase: str) -> bool:
        """Adjudicate `phase` if the game is still in it; False if someone else already did."""
        ...

    def overdue(self, now: datetime) -> Sequence[DeadlineInfo]:
        """Active games whose deadline is <= now (the sweeper's backstop query)."""
        ...

    def remind_if_in_phase(self, game_id: str, phase: str) -> str:
        """Write the phase's DEADLINE_APPROACHING notice at most once; returns the outcome's name."""
        ...


# ---------------------------------------------------------------- Telegram ports


@dataclass(frozen=True)
class Seat:
    """A linked chat user: which power of which game they play, and where to answer."""

    game_id: str
    power: str


@dataclass(frozen=True)
class SubmitOutcome:
    phase: str
    accepted: tuple[str, ...]
    rejected: tuple[tuple[str, str], ...]  # (order, message)


class TelegramStore(Protocol):
    """Bot bookkeeping: seen update ids, one-time link codes, and who plays which seat."""

    def claim_update(self, update_id: int) -> bool:
        """True the first time an update id is seen, False for a redelivery."""
        ...

    def release_update(self, update_id: int) -> None:
        """Forget a claim so Telegram's retry is processed (used when handling failed)."""
        ...

    def save_link_code(self, code_hash: str, seat: Seat, expires_at: datetime) -> None: ...

    def redeem_link_code(self, code_hash: str, now: datetime) -> Seat | None:
        """Consume a link code exactly once; None if unknown, used or expired."""
        ...

    def link_user(self, user_id: int, seat: Seat) -> None: ...

    def seat_of(self, user_id: int) -> Seat | None: ...

    def link_chat(self, user_id: int, seat: Seat, chat_id: int | str) -> None:
        """The chat the user linked from: the seat's press is relayed there (issue 13)."""
        ...

    def chats_of(self, game_id: str, power: str, linked_since: float = 0.0) -> list[int | str]:
        """Chats of users who still play this seat, linked since its player joined (ports.PowerChats)."""
        ...


class GameActions(Protocol):
    """What a player can do through the bot (the same use cases as the REST API)."""

    def submit_orders(self, seat: Seat, orders: Sequence[str]) -> SubmitOutcome: ...

    def my_orders(self, seat: Seat) -> tuple[str, Sequence[str]]: ...

    def orders_status(self, seat: Seat) -> tuple[str, Mapping[str, bool]]: ...

    def last_resolution(self, seat: Seat) -> Sequence[str]: ...

    def send_message(
        self, seat: Seat, to: str | Sequence[str], text: str, dedupe_key: str
    ) -> tuple[str, int]:
        """Press from the bot (``/msg``): the channel and seq; a repeated ``dedupe_key`` sends once."""
        ...


class ReplyOutbox(Protocol):
    """Writes a bot answer as an OUTBOX item, so it goes out through the notifier like the rest."""

    def reply(self, chat_id: int | str, text: str, dedupe_key: str) -> None: ...
