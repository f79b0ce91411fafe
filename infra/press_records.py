"""The stored shapes of press (issue 13): messages, channels and each power's press ledger.

Plain dataclasses with JSON-compatible fields, like ``infra.records``; re-exported by
``functions.ports``. The keys they are stored under are described in
``infra/dynamodb/press_store.py`` and docs/api.md ("Press: how it is stored").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JSON = Any


@dataclass(frozen=True)
class MessageRecord:
    """One message of one channel; ``seq`` counts within the channel (1, 2, ...)."""

    message_id: str
    channel: str
    seq: int
    sender: str
    members: tuple[str, ...]
    text: str
    sent_at: str
    phase: str
    client_timestamp: str | None = None


@dataclass(frozen=True)
class ChannelRecord:
    """A channel: its members, its last seq and a copy of its last message."""

    channel: str
    members: tuple[str, ...]
    last_seq: int = 0
    opened_by: str | None = None
    opened_at: str | None = None
    last: MessageRecord | None = None


@dataclass
class PowerPress:
    """One power's press ledger in one game: its inbox counter, read marks, limits.

    ``channels`` maps channel -> {"last": last seq seen there, "read": read up to};
    unread of a channel is ``last - read``. ``version`` guards every write.
    """

    power: str
    version: int = 0
    inbox_seq: int = 0
    channels: dict[str, dict[str, int]] = field(default_factory=dict)
    opened: int = 0  # channels this power opened (the channel cap counts these)
    rate_window: int = 0  # epoch second the current rate window began
    rate_count: int = 0  # messages sent in that window

    def unread(self, channel: str) -> int:
        marks = self.channels.get(channel) or {}
        return max(0, int(marks.get("last", 0)) - int(marks.get("read", 0)))

    def unread_total(self) -> int:
        return sum(self.unread(c) for c in self.channels)


@dataclass(frozen=True)
class InboxEntry:
    """A message as it sits in one member's inbox: ``n`` is that member's inbox position."""

    n: int
    message: MessageRecord


@dataclass(frozen=True)
class PressNotice:
    """A notification a message causes, written with the message (an OUTBOX item).

    ``target`` set: only that chat gets it (a recipient's linked Telegram chat, with the
    text); unset: the game's own targets get it (webhooks: never private text).
    """

    kind: str
    dedupe_key: str
    payload: dict[str, JSON]
    target: dict[str, JSON] | None = None
