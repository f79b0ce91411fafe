"""The Telegram bot's ports: link codes and chat links (which the API issues too), the game
actions, the reply outbox and accounts (/link, /games, /use)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from composition import wiring
from composition.factories import accounts  # noqa: F401 - provides services().account_store

if TYPE_CHECKING:
    from functions.ports.telegram import GameActions, ReplyOutbox, TelegramStore
    from functions.usecases.accounts.accounts import AccountDirectory


class TelegramDependencies(NamedTuple):
    """The Telegram bot's ports (``telegram_dependencies()``)."""

    secret: str
    store: TelegramStore
    games: GameActions
    outbox: ReplyOutbox
    accounts: AccountDirectory | None = None  # issue 15: /link binds the account; /games, /use


@wiring.once
def telegram_store() -> TelegramStore:
    """Link codes and chat links (the API issues codes; the bot redeems them)."""
    from functions.ports.telegram import Seat
    from infra import aws_clients
    from infra.notification_store import DynamoTelegramStore

    return DynamoTelegramStore(aws_clients.dynamodb, wiring.settings().game_table, Seat)


@wiring.once
def telegram_dependencies() -> TelegramDependencies:
    from functions.adapters import StoreGameActions
    from functions.usecases.accounts.accounts import AccountDirectory
    from infra import aws_clients
    from infra.notification_store import DynamoReplyOutbox

    s = wiring.settings()
    api = wiring.services()
    return TelegramDependencies(
        secret=s.telegram_webhook_secret,
        store=telegram_store(),
        games=StoreGameActions(api.store, api.clock, api.scheduler, press=api.press_store,
                               chats=telegram_store()),
        outbox=DynamoReplyOutbox(aws_clients.dynamodb, s.game_table),
        accounts=AccountDirectory(api.store, api.press_store, api.account_store),
    )


# looked up at call time, so a test may swap it: ``monkeypatch.setattr(telegram, "telegram_store", ...)``
wiring.provide("telegram_store", lambda: telegram_store())
