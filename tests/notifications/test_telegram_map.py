"""Telegram ``/map`` (issue 14, item 4): the bot answers with the board as a PNG (sendPhoto).

The answer travels through the outbox as a reference (game, power), never as image bytes; the
notifier draws the PNG when it delivers and uploads it with sendPhoto as multipart/form-data.
"""

from __future__ import annotations

import email.parser
import email.policy
from collections.abc import Mapping
from typing import Any

import pytest

from functions.adapters import HttpDeliverer
from functions.ports.notifications import OutboxMessage, TelegramTarget
from functions.ports.telegram import Seat
from functions.usecases.notifications.rendering import render_text
from functions.usecases.reach.telegram_bot import handle_update
from functions.usecases.reach.telegram_links import issue_link_code
from infra.webhooks import HttpDelivery, HttpSettings
from tests.notifications.fakes import FakeGameActions, MemoryReplyOutbox, MemoryTelegramStore
from tests.notifications.test_telegram import NOW, update
from tests.notifications.test_telegram import table as table
from tests.notifications.test_webhooks import Capture
from tests.notifications.test_webhooks import server as server

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00fake-image\r\n--not-a-boundary" * 4


@pytest.fixture
def linked() -> tuple[MemoryTelegramStore, FakeGameActions, MemoryReplyOutbox]:
    store, games, outbox = MemoryTelegramStore(), FakeGameActions(), MemoryReplyOutbox()
    code = issue_link_code(Seat("g1", "FRANCE"), store=store, now=NOW)
    handle_update(update(1, f"/link {code}"), store=store, games=games, outbox=outbox, now=NOW)
    return store, games, outbox


def test_map_answers_with_a_picture_of_the_callers_seat(linked: Any) -> None:
    store, games, outbox = linked
    outcome = handle_update(update(2, "/map"), store=store, games=games, outbox=outbox, now=NOW)
    assert outcome.status == "handled" and outcome.command == "map"
    chat, caption, picture = outbox.photos["tg:2"]
    assert chat == 7 and picture == {"game_id": "g1", "power": "FRANCE"}
    assert "g1" in caption and "FRANCE" in caption
    assert "tg:2" not in outbox.replies  # a picture, not a text


def test_map_from_an_unlinked_chat_is_a_text_hint() -> None:
    store, games, outbox = MemoryTelegramStore(), FakeGameActions(), MemoryReplyOutbox()
    handle_update(update(3, "/map", user=99), store=store, games=games, outbox=outbox, now=NOW)
    assert not outbox.photos and "/link" in outbox.replies["tg:3"][1]


class RecordingSender:
    def __init__(self) -> None:
        self.photos: list[tuple[int | str, bytes, str]] = []
        self.texts: list[tuple[int | str, str]] = []

    def send_webhook(self, url: str, secret: str, document: Mapping[str, Any], delivery_id: str,
                     **_: Any) -> None:
        raise AssertionError("not a webhook")

    def send_discord(self, url: str, text: str, **_: Any) -> None:
        raise AssertionError("not discord")

    def send_telegram(self, chat_id: int | str, text: str, **_: Any) -> None:
        self.texts.append((chat_id, text))

    def send_telegram_photo(self, chat_id: int | str, png: bytes, caption: str, **_: Any) -> None:
        self.photos.append((chat_id, png, caption))


def test_the_notifier_draws_the_named_picture_and_sends_it_as_a_photo() -> None:
    drawn: list[Mapping[str, Any]] = []

    def pictures(reference: Mapping[str, Any]) -> bytes:
        drawn.append(reference)
        return PNG

    sender = RecordingSender()
    message = OutboxMessage(
        dedupe_key="tg:2",
        kind="CHAT_PHOTO",
        game_id=None,
        payload={"text": "the board", "map": {"game_id": "g1", "power": "FRANCE"}},
    )
    HttpDeliverer(sender, pictures=pictures).deliver(TelegramTarget(70), message, render_text(message))
    assert drawn == [{"game_id": "g1", "power": "FRANCE"}]
    assert sender.photos == [(70, PNG, "the board")] and sender.texts == []


def test_send_photo_uploads_the_png_as_multipart(server: str) -> None:
    settings = HttpSettings(allow_loopback=True, telegram_bot_token="123:ABC", telegram_api_base=server)
    HttpDelivery(settings).send_telegram_photo(-1001, PNG, "Spring 1901")
    path, headers, body = Capture.received[0]
    assert path == "/bot123:ABC/sendPhoto"
    content_type = headers["Content-Type"]
    assert content_type.startswith("multipart/form-data; boundary=")
    parsed = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body
    )
    fields = {part.get_param("name", header="content-disposition"): part for part in parsed.iter_parts()}
    assert fields["chat_id"].get_content().strip() == "-1001"
    assert fields["caption"].get_content().strip() == "Spring 1901"
    assert fields["photo"].get_content_type() == "image/png"
    assert fields["photo"].get_payload(decode=True) == PNG


def test_the_dynamo_outbox_stores_a_reference_not_an_image(table: Any) -> None:
    from functions.usecases.notifications.outbox_items import message_from_outbox_item
    from infra.dynamodb.stream_images import STREAM_IMAGES
    from infra.notification_store import DynamoReplyOutbox

    picture = {"game_id": "g1", "power": "FRANCE"}
    DynamoReplyOutbox(lambda: table, "games").reply_photo(70, "the board", picture, "tg:9")
    (item,) = table.scan(
        TableName="games",
        FilterExpression="begins_with(sk, :o)",
        ExpressionAttributeValues={":o": {"S": "OUTBOX#"}},
    )["Items"]
    assert item["kind"]["S"] == "CHAT_PHOTO"
    message = message_from_outbox_item(STREAM_IMAGES.item(item))  # as the relay reads it off the stream
    assert message is not None and message.kind == "CHAT_PHOTO" and message.payload["map"] == picture
