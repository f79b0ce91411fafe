"""Notification use cases: relay OUTBOX items to the queue, and deliver queued messages.

`relay_outbox` is the stream -> queue step: each OUTBOX item becomes one
`OutboxMessage` keyed by the item's dedupe key; the keys that could not be sent
are returned so the relay reports just those records as failed (the stream
retries them, and anything sent twice is caught by the dedupe below).

`deliver` is the queue -> chat step: it renders a short text, then, for each of the
game's targets (or the one target a bot reply names), sends it unless the delivery
log already records (dedupe key, target). One target failing does not block the
others; the message as a whole fails so SQS retries it, and the log makes the retry
send only to the targets still missing. After maxReceiveCount tries the message
lands in the dead-letter queue.

Exactly-once caveat: a crash *between* a successful send and `mark_delivered`
sends that one target again on retry; webhook receivers can drop it by the
X-Convoy-Delivery header (docs/notifications.md), Discord and Telegram cannot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from functions.ports import (
    CHAT_PHOTO,
    CHAT_REPLY,
    DEADLINE_APPROACHING,
    GAME_ENDED,
    PHASE_PROCESSED,
    PLAYER_JOINED,
    Deliverer,
    DeliveryLog,
    DeliveryTarget,
    MessageQueue,
    OutboxMessage,
    TargetDirectory,
    target_from_dict,
)

OUTBOX_SK_PREFIX = "OUTBOX#"


class NotificationFailed(Exception):
    """Some targets did not get the message; raising makes the batch report it for retry."""

    def __init__(self, dedupe_key: str, failures: Mapping[str, str]) -> None:
        detail = "; ".join(f"{k}: {v}" for k, v in sorted(failures.items()))
        super().__init__(f"{dedupe_key}: {detail}")
        self.failures = dict(failures)


@dataclass(frozen=True)
class DeliveryReport:
    """What one delivery did, for logs and tests."""

    sent: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()  # already delivered earlier (a redelivery)
    failed: Mapping[str, str] = field(default_factory=dict)


# ---------------------------------------------------------------- relay


def message_from_outbox_item(item: Mapping[str, Any]) -> OutboxMessage | None:
    """An OUTBOX item (plain attribute values) as a queue message; None for any other item.

    The dedupe key is the item's own `dedupe_key`, falling back to its primary key,
    which is unique and the same on every stream redelivery.
    """
    pk, sk = str(item.get("pk", "")), str(item.get("sk", ""))
    if not sk.startswith(OUTBOX_SK_PREFIX):
        return None
    raw_target = item.get("target")
    game_id = item.get("game_id") or (pk.removeprefix("GAME#") if pk.startswith("GAME#") else None)
    payload = item.get("payload") or {}
    return OutboxMessage(
        dedupe_key=str(item.get("dedupe_key") or f"{pk}|{sk}"),
        kind=str(item.get("kind", "")).upper() or "NOTICE",
        game_id=str(game_id) if game_id else None,
        payload=_plain(payload),
        target=target_from_dict(raw_target) if isinstance(raw_target, Mapping) else None,
    )


def relay_outbox(messages: Sequence[OutboxMessage], queue: MessageQueue) -> set[str]:
    """Send the batch; returns the dedupe keys that failed (their records must be retried)."""
    if not messages:
        return set()
    return queue.send_messages(messages)


# ---------------------------------------------------------------- rendering


def render_text(message: OutboxMessage, public_url: str = "") -> str:
    """One short, plain-text line per kind; the same text for every chat platform.

    ``public_url`` is the API's base URL: a PHASE_PROCESSED notice links to the phase's
    resolution map (its payload's ``map`` path, issue 14) under it."""
    p = message.payload
    game = f"Game {message.game_id}" if message.game_id else "Convoy"
    if message.kind == PHASE_PROCESSED:
        text = f"{game}: {p.get('phase', '?')} has been adjudicated; now {p.get('next_phase', '?')}."
        if p.get("deadline"):
            text += f" Orders due by {p['deadline']}."
        if p.get("map"):
            text += f" Map: {public_url}{p['map']}"
        return text
    if message.kind == "PHASE_STARTED":
        text = f"{game} has started: {p.get('phase', '?')}."
        return text + (f" Orders due by {p['deadline']}." if p.get("deadline") else "")
    if message.kind == "DEADLINE_EXTENDED":
        return f"{game}: the deadline for {p.get('phase', '?')} moved to {p.get('deadline', '?')}."
    if message.kind == DEADLINE_APPROACHING:
        text = f"{game}: the deadline for {p.get('phase', '?')} is {p.get('deadline', 'soon')}."
        waiting = [str(power) for power in p.get("waiting_on") or []]
        return text + (f" Still waiting on: {', '.join(waiting)}." if waiting else "")
    if message.kind == GAME_ENDED:
        winner = p.get("winner")
        return f"{game} is over: {winner} wins." if winner else f"{game} is over."
    if message.kind == PLAYER_JOINED:
        return f"{game}: {p.get('power', 'a player')} has joined."
    if message.kind in (CHAT_REPLY, CHAT_PHOTO):
        return str(p.get("text", ""))
    if message.kind == "MESSAGE":  # press (functions/usecases/press.py): text only where it may go
        channel = p.get("channel", "?")
        if "text" not in p:
            return f"{game}: a message was sent in channel {channel}."
        where = "to everyone" if channel == "ALL" else f"in {channel}"
        return f"{game}, {p.get('from', '?')} {where}: {p['text']}"
    return f"{game}: {message.kind.replace('_', ' ').lower()}."


def webhook_document(message: OutboxMessage, text: str) -> dict[str, Any]:
    """The JSON body of a generic webhook (documented in docs/notifications.md)."""
    return {
        "id": message.dedupe_key,
        "kind": message.kind,
        "game_id": message.game_id,
        "payload": dict(message.payload),
        "text": text,
    }


# ---------------------------------------------------------------- delivery


def deliver(
    message: OutboxMessage,
    *,
    targets: TargetDirectory,
    deliverer: Deliverer,
    log: DeliveryLog,
    public_url: str = "",
) -> DeliveryReport:
    """Send `message` to every target not yet served; raise `NotificationFailed` if any failed."""
    text = render_text(message, public_url)
    chosen: Sequence[DeliveryTarget]
    if message.target is not None:
        chosen = [message.target]
    elif message.game_id:
        chosen = targets.targets_for(message.game_id)
    else:
        chosen = []
    sent: list[str] = []
    skipped: list[str] = []
    failed: dict[str, str] = {}
    for target in sorted(chosen, key=lambda t: t.key):
        if log.was_delivered(message.dedupe_key, target.key):
            skipped.append(target.key)
            continue
        try:
            deliverer.deliver(target, message, text)
        except Exception as exc:  # one target's failure must not stop the others
            failed[_redacted(target)] = f"{type(exc).__name__}: {exc}"
            continue
        log.mark_delivered(message.dedupe_key, target.key)
        sent.append(target.key)
    if failed:
        raise NotificationFailed(message.dedupe_key, failed)
    return DeliveryReport(sent=tuple(sent), skipped=tuple(skipped), failed={})


def _redacted(target: DeliveryTarget) -> str:
    """A target's name for error messages: the type and host only (URLs may hold tokens)."""
    from urllib.parse import urlsplit

    url = getattr(target, "url", None)
    return f"{target.type}:{urlsplit(url).hostname}" if url else target.key


def _plain(value: Any) -> Any:
    """DynamoDB Decimals -> int/float so payloads serialize to JSON."""
    from decimal import Decimal

    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [_plain(v) for v in value]
    return value
