"""The ports of press (issue 13): messages, channels, the powers' ledgers and inboxes, and the
store that keeps them (infra/dynamodb/press_store.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

JSON = Any


class MessageRecord(NamedTuple):
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


class ChannelRecord(NamedTuple):
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


class InboxEntry(NamedTuple):
    """A message as it sits in one member's inbox: ``n`` is that member's inbox position."""

    n: int
    message: MessageRecord


class PressNotice(NamedTuple):
    """A notification a message causes, written with the message (an OUTBOX item).

    ``target`` set: only that chat gets it (a recipient's linked Telegram chat, with the
    text); unset: the game's own targets get it (webhooks: never private text).
    """

    kind: str
    dedupe_key: str
    payload: dict[str, JSON]
    target: dict[str, JSON] | None = None


class PressStore(Protocol):
    """Press under the game's partition (infra/dynamodb/press_store.py says how it is keyed)."""

    def ledger(self, game_id: str, power: str) -> PowerPress:
        """The power's ledger; a fresh one (version 0) before its first message."""
        ...

    def ledgers(self, game_id: str, powers: Sequence[str]) -> dict[str, PowerPress]: ...

    def channel(self, game_id: str, channel: str) -> ChannelRecord | None: ...

    def channels(self, game_id: str, names: Sequence[str]) -> list[ChannelRecord]: ...

    def applied(self, game_id: str, dedupe_key: str) -> dict[str, Any] | None:
        """The answer of a send already applied under ``dedupe_key``, if any."""
        ...

    def inbox(self, game_id: str, power: str, after: int, limit: int) -> list[InboxEntry]:
        """The power's inbox after position ``after``, oldest first: one range read."""
        ...

    def channel_messages(self, game_id: str, channel: str, after: int, limit: int) -> list[MessageRecord]: ...

    def commit_message(
        self,
        game_id: str,
        *,
        message: MessageRecord,
        channel: ChannelRecord,
        expected_last_seq: int,
        ledgers: Sequence[tuple[PowerPress, int]],
        notices: Sequence[PressNotice] = (),
        dedupe_key: str | None = None,
        result: dict[str, Any] | None = None,
    ) -> None:
        """Channel + message + members' inboxes and ledgers + notices, all or nothing;
        ``StaleVersion`` when the channel's seq or any ledger's version moved."""
        ...

    def save_ledger(self, game_id: str, ledger: PowerPress, *, expected_version: int) -> PowerPress: ...
