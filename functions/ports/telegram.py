"""The ports of the Telegram bot: a linked seat, the bot's bookkeeping, what a player can do
through it, and how it answers (through the outbox, like every other notice).

Standard library only, like the rest of the ports.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


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
