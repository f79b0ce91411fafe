"""The ports of the notification path: messages (OUTBOX item -> stream -> relay -> SQS ->
notifier), delivery targets, and the ports of the notifier, the deadline function and the
Telegram bot.

Part of ``functions.ports`` (one set of ports, issue 9 item 5): import these names from
``functions.ports``, which reads this module the first time one is asked for (cold start,
issue 9 item 6). Standard library only, like the rest of the ports.

Message shape: an ``OutboxMessage`` is what travels OUTBOX item -> stream -> relay ->
SQS -> notifier. Its ``dedupe_key`` (``<pk>|<sk>`` of the OUTBOX item) is stable across
redeliveries, so the notifier can refuse to notify twice.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol


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
    """A generic HTTPS webhook; bodies are signed with its own `secret` (docs/notifications.md).

    After a rotation (functions/usecases/notifications/webhook_secrets.py) ``previous_secret`` signs too
    until ``previous_until`` (epoch seconds), so the receiver can switch without a gap."""

    url: str
    secret: str
    type: Literal["webhook"] = "webhook"
    previous_secret: str | None = None
    previous_until: int = 0

    @property
    def key(self) -> str:
        """Identity for the delivery log (never contains the secret)."""
        return f"webhook:{self.url}"

    def previous_at(self, now: float) -> str | None:
        """The old secret while the rotation window is open at ``now``, else None."""
        return self.previous_secret if self.previous_secret and now < self.previous_until else None


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
        rotation = (
            {"previous_secret": target.previous_secret, "previous_until": target.previous_until}
            if target.previous_secret else {}
        )
        return {"type": "webhook", "url": target.url, "secret": target.secret, **rotation}
    if isinstance(target, DiscordTarget):
        return {"type": "discord", "url": target.url}
    return {"type": "telegram", "chat_id": target.chat_id}


def target_from_dict(raw: Mapping[str, Any]) -> DeliveryTarget:
    """Inverse of `target_to_dict`; ValueError for an unknown or incomplete target."""
    kind = raw.get("type")
    if kind == "webhook" and isinstance(raw.get("url"), str) and isinstance(raw.get("secret"), str):
        previous = raw.get("previous_secret")
        return WebhookTarget(
            url=raw["url"], secret=raw["secret"],
            previous_secret=previous if isinstance(previous, str) else None,
            previous_until=int(raw.get("previous_until") or 0),
        )
    if kind == "discord" and isinstance(raw.get("url"), str):
        return DiscordTarget(url=raw["url"])
    if kind == "telegram" and isinstance(raw.get("chat_id"), int | str):
        return TelegramTarget(chat_id=raw["chat_id"])
    # never the values: a webhook target holds its secret (issue 11: no secrets in logs)
    raise ValueError(f"bad delivery target of type {str(kind)[:20]!r} with fields {sorted(map(str, raw))}")


# ---------------------------------------------------------------- notifier ports


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


# ---------------------------------------------------------------- deadline ports


@dataclass(frozen=True)
class DeadlineInfo:
    """What the deadline logic needs to know of a game: its phase, deadline and status."""

    game_id: str
    phase: str
    deadline: datetime | None
    status: str  # "ACTIVE", "PAUSED", "FINISHED", ... only "ACTIVE" games are processed


@dataclass(frozen=True)
class Firing:
    """What became of a deadline firing: ``outcome`` PROCESSED, NOT_DUE (``deadline`` is when
    the phase's deadline now falls), STALE (the game is gone, over, paused, untimed or past
    that phase) or LOST_RACE (someone else processed the phase after it was read)."""

    outcome: str
    deadline: datetime | None = None


class DeadlineGames(Protocol):
    """The slice of the game store + process_turn that deadlines use."""

    def process_if_due(self, game_id: str, phase: str, now: datetime) -> Firing:
        """Adjudicate `phase` if the game is still in it and its deadline passed by `now`:
        one read of the game, one commit."""
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
        """Chats of users who still play this seat, linked since its player joined (PowerChats)."""
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

    def reply_photo(
        self, chat_id: int | str, caption: str, picture: Mapping[str, str], dedupe_key: str
    ) -> None:
        """A picture answer (``/map``). Only a reference travels (``picture``: game_id, power):
        the PNG is drawn when the notifier delivers it, as outbox items are small."""
        ...
