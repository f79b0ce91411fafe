"""Telegram /msg (issue 13): from a linked player to the recipient's linked chat, once, even when
Telegram delivers the update twice or a failed attempt is retried."""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, TypedDict

import boto3
import pytest

from functions.adapters import StoreGameActions, StoreTargetDirectory
from functions.ports.telegram import GameActions, Seat, TelegramStore
from functions.usecases.notifications.notifications import deliver
from functions.usecases.notifications.outbox_items import message_from_outbox_item
from functions.usecases.reach.telegram_bot import handle_update
from functions.usecases.reach.telegram_links import issue_link_code
from infra.dynamodb import items
from infra.notification_store import DynamoReplyOutbox, DynamoTelegramStore
from tests.notifications.fakes import MemoryDeliveryLog, RecordingDeliverer
from tests.press.conftest import Press

NOW = datetime(2030, 1, 1, tzinfo=UTC)
# a private chat's id is its user's id (Telegram's numbering)
FRANCE_USER, FRANCE_CHAT, ENGLAND_USER, ENGLAND_CHAT, GERMANY_USER = 1, 1, 2, 2, 3


class BotDeps(TypedDict):
    """What ``handle_update`` takes besides the update and the outbox."""

    store: TelegramStore
    games: GameActions
    now: datetime


class FlakyOutbox:
    """The bot's reply outbox, failing the first reply: the claim is released and Telegram retries."""

    def __init__(self, real: DynamoReplyOutbox) -> None:
        self.real, self.failures = real, 1

    def reply(self, chat_id: int | str, text: str, dedupe_key: str) -> None:
        if self.failures:
            self.failures -= 1
            raise ConnectionError("the table blinked")
        self.real.reply(chat_id, text, dedupe_key)

    def reply_photo(
        self, chat_id: int | str, caption: str, picture: Mapping[str, str], dedupe_key: str
    ) -> None:
        self.real.reply_photo(chat_id, caption, picture, dedupe_key)


def _update(update_id: int, text: str, user: int, chat: int) -> dict[str, Any]:
    message = {"text": text, "chat": {"id": chat, "type": "private"}, "from": {"id": user}}
    return {"update_id": update_id, "message": message}


def _outbox_messages(table_name: str) -> list[Any]:
    client = boto3.client("dynamodb", region_name="us-east-1")
    found = [items.from_item(i, items.OUTBOX_PACKED) for i in client.scan(TableName=table_name)["Items"]]
    return [m for m in map(message_from_outbox_item, found) if m is not None]


def test_msg_reaches_the_recipients_chat_once(table: Press) -> None:
    # Given France and England linked to their seats from their own chats
    client = boto3.client("dynamodb", region_name="us-east-1")
    bot_store = DynamoTelegramStore(lambda: client, table.store.table_name, Seat)
    outbox = DynamoReplyOutbox(lambda: client, table.store.table_name)
    games = StoreGameActions(table.store, table.clock, press=table.press, chats=bot_store)
    deps = BotDeps(store=bot_store, games=games, now=NOW)
    for n, (user, chat, power) in enumerate([(FRANCE_USER, FRANCE_CHAT, "FRANCE"),
                                             (ENGLAND_USER, ENGLAND_CHAT, "ENGLAND")]):
        code = issue_link_code(Seat(table.game_id, power), store=bot_store, now=NOW)
        handle_update(_update(n + 1, f"/link {code}", user, chat), outbox=outbox, **deps)

    # When France sends /msg, the first attempt fails after the send, and Telegram delivers it twice more
    msg = _update(50, "/msg ENGLAND Meet me in the Channel?", FRANCE_USER, FRANCE_CHAT)
    flaky = FlakyOutbox(outbox)
    with pytest.raises(ConnectionError):
        handle_update(msg, outbox=flaky, **deps)
    outcomes = [handle_update(msg, outbox=outbox, **deps).status for _ in range(2)]
    # and the public /msg ALL goes out as well
    handle_update(_update(51, "/msg ALL Peace!", FRANCE_USER, FRANCE_CHAT), outbox=outbox, **deps)

    # Then the update was handled once more after the failure, then seen as a duplicate
    assert outcomes == ["handled", "duplicate"]
    # and, delivering every OUTBOX item twice (a stream redelivery), England's chat got each message once
    deliverer, log = RecordingDeliverer(), MemoryDeliveryLog()
    for message in _outbox_messages(table.store.table_name) * 2:
        deliver(message, targets=StoreTargetDirectory(table.store), deliverer=deliverer, log=log)
    to_england = [text for _, target, text in deliverer.sent if target == f"telegram:{ENGLAND_CHAT}"]
    assert sorted(to_england) == sorted([
        f"Game {table.game_id}, FRANCE in ENGLAND,FRANCE: Meet me in the Channel?",
        f"Game {table.game_id}, FRANCE to everyone: Peace!",
        "Linked: you play ENGLAND in game " + table.game_id + ".",
    ])
    to_france = [text for _, target, text in deliverer.sent if target == f"telegram:{FRANCE_CHAT}"]
    assert "Sent to ENGLAND,FRANCE (#1)." in to_france and "Meet me" not in str(to_france)
    # and the message exists once
    inbox = table.press.inbox(table.game_id, "ENGLAND", 0, 10)
    assert [e.message.text for e in inbox] == ["Meet me in the Channel?", "Peace!"]


def test_a_chat_relinked_elsewhere_or_linked_by_an_earlier_holder_gets_no_press(table: Press) -> None:
    client = boto3.client("dynamodb", region_name="us-east-1")
    bot_store = DynamoTelegramStore(lambda: client, table.store.table_name, Seat)
    bot_store.link_user(GERMANY_USER, Seat(table.game_id, "GERMANY"))
    bot_store.link_chat(GERMANY_USER, Seat(table.game_id, "GERMANY"), GERMANY_USER)
    assert bot_store.chats_of(table.game_id, "GERMANY") == [GERMANY_USER]
    assert bot_store.chats_of(table.game_id, "GERMANY", linked_since=time.time() + 5) == []  # a new holder
    bot_store.link_user(GERMANY_USER, Seat("another-game", "ITALY"))
    assert bot_store.chats_of(table.game_id, "GERMANY") == []


def test_a_group_chat_linked_to_a_seat_gets_none_of_its_press(table: Press) -> None:
    """Issue 28 item 5: a group linked before /link was refused in groups (its id is not the
    user's: Telegram numbers a private chat as its user) never gets the seat's private press."""
    client = boto3.client("dynamodb", region_name="us-east-1")
    bot_store = DynamoTelegramStore(lambda: client, table.store.table_name, Seat)
    bot_store.link_user(GERMANY_USER, Seat(table.game_id, "GERMANY"))
    bot_store.link_chat(GERMANY_USER, Seat(table.game_id, "GERMANY"), -1001234567890)
    assert bot_store.chats_of(table.game_id, "GERMANY") == []
    bot_store.link_chat(GERMANY_USER, Seat(table.game_id, "GERMANY"), GERMANY_USER)
    assert bot_store.chats_of(table.game_id, "GERMANY") == [GERMANY_USER]
