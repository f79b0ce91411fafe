"""The notification path's vocabulary: messages (OUTBOX item -> stream -> relay -> SQS ->
notifier) and the targets they are delivered to. The ports that move them are beside it:
the notifier's and relay's in ``functions.ports.notifier``, the deadline function's in
``functions.ports.deadlines``, the Telegram bot's in ``functions.ports.telegram``.
Standard library only, like the rest of the ports.

Message shape: an ``OutboxMessage`` is what travels OUTBOX item -> stream -> relay ->
SQS -> notifier. Its ``dedupe_key`` (``<pk>|<sk>`` of the OUTBOX item) is stable across
redeliveries, so the notifier can refuse to notify twice.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal


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
