"""The Telegram webhook: secret checked in constant time, updates handled once, commands answered."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from functions.ports.telegram import Seat
from functions.telegram.handler import make_handler
from functions.usecases.reach.telegram_bot import parse_command
from functions.usecases.reach.telegram_commands import split_orders
from functions.usecases.reach.telegram_links import issue_link_code
from infra.notification_store import (
    DynamoDeliveryLog,
    DynamoReplyOutbox,
    DynamoTelegramStore,
    NotificationStoreError,
)
from testkit.tables import make_table
from tests.notifications.fakes import FakeGameActions, MemoryReplyOutbox, MemoryTelegramStore

NOW = datetime(2030, 1, 1, tzinfo=UTC)
SECRET = "s3cret-token"


@dataclass
class Bot:
    secret: str
    store: MemoryTelegramStore
    games: FakeGameActions
    outbox: MemoryReplyOutbox


@pytest.fixture
def bot() -> Bot:
    return Bot(SECRET, MemoryTelegramStore(), FakeGameActions(), MemoryReplyOutbox())


def post(bot: Bot, update: dict[str, Any], secret: str | None = SECRET) -> dict[str, Any]:
    headers = {"content-type": "application/json"}
    if secret is not None:
        headers["X-Telegram-Bot-Api-Secret-Token"] = secret
    event = {"headers": headers, "body": json.dumps(update), "isBase64Encoded": False}
    return make_handler(lambda: bot, now=lambda: NOW)(event, None)


def update(
    update_id: int, text: str, user: int = 7, chat: int | None = None, chat_type: str = "private"
) -> dict[str, Any]:
    """A message update; a private chat's id is the user's own (Telegram's numbering)."""
    chat_id = user if chat is None else chat
    message = {"text": text, "chat": {"id": chat_id, "type": chat_type}, "from": {"id": user}}
    return {"update_id": update_id, "message": message}


def test_a_bad_or_missing_secret_gets_401_and_changes_nothing(bot: Bot) -> None:
    code = issue_link_code(Seat("g1", "FRANCE"), store=bot.store, now=NOW)
    before = bot.store.snapshot()

    for secret in ("wrong", None, ""):
        answer = post(bot, update(1, f"/link {code}"), secret=secret)
        assert answer["statusCode"] == 401
        assert json.loads(answer["body"])["code"] == "BAD_SECRET"

    assert bot.store.snapshot() == before
    assert bot.outbox.replies == {} and bot.games.submissions == 0


def test_an_unconfigured_secret_refuses_everything(bot: Bot) -> None:
    bot.secret = ""
    assert post(bot, update(1, "/help"), secret="")["statusCode"] == 401


def test_link_then_orders_and_a_duplicate_update_is_processed_once(bot: Bot) -> None:
    # Given a player who got a one-time code from the API
    code = issue_link_code(Seat("g1", "FRANCE"), store=bot.store, now=NOW)

    # When they link and submit orders, and Telegram re-sends the orders update
    assert post(bot, update(1, f"/link {code.lower()}"))["statusCode"] == 200
    first = post(bot, update(2, "/orders@ConvoyBot A PAR - BUR\nF BRE - MAO; XYZ"))
    again = post(bot, update(2, "/orders@ConvoyBot A PAR - BUR\nF BRE - MAO; XYZ"))

    # Then the orders went in once, and each update got one answer
    assert json.loads(first["body"])["status"] == "handled"
    assert json.loads(again["body"])["status"] == "duplicate"
    assert bot.games.submissions == 1
    assert bot.games.orders[("g1", "FRANCE")] == ["A PAR - BUR", "F BRE - MAO"]
    assert bot.outbox.replies["tg:1"][1] == "Linked: you play FRANCE in game g1."
    chat, text = bot.outbox.replies["tg:2"]
    assert chat == 7 and "2 order(s) accepted" in text and "NO  XYZ: unparseable" in text


def test_a_link_code_works_once(bot: Bot) -> None:
    code = issue_link_code(Seat("g1", "FRANCE"), store=bot.store, now=NOW)
    post(bot, update(1, f"/link {code}", user=7))
    post(bot, update(2, f"/link {code}", user=8))
    assert bot.store.users == {7: Seat("g1", "FRANCE")}
    assert "unknown, used or expired" in bot.outbox.replies["tg:2"][1]


def test_commands_need_a_linked_seat_and_answer_status(bot: Bot) -> None:
    post(bot, update(1, "/status", user=9))
    assert "not linked" in bot.outbox.replies["tg:1"][1]
    bot.store.link_user(9, Seat("g1", "FRANCE"))
    post(bot, update(2, "/orders A PAR H", user=9))
    post(bot, update(3, "/myorders", user=9))
    post(bot, update(4, "/status", user=9))
    post(bot, update(5, "/last", user=9))
    post(bot, update(6, "/dance", user=9))
    texts = {k: v[1] for k, v in bot.outbox.replies.items()}
    assert "A PAR H" in texts["tg:3"]
    assert "FRANCE: submitted" in texts["tg:4"] and "ENGLAND: waiting" in texts["tg:4"]
    assert "A PAR - BUR: OK" in texts["tg:5"]
    assert texts["tg:6"].startswith("Unknown command /dance")


def test_non_command_messages_and_edits_are_acknowledged_and_ignored(bot: Bot) -> None:
    for body in (update(1, "hello"), {"update_id": 2, "edited_message": {}}, {"no": "id"}):
        answer = post(bot, body)
        assert answer["statusCode"] == 200 and json.loads(answer["body"])["status"] == "ignored"
    assert bot.outbox.replies == {} and bot.store.updates == set()


def test_a_failing_handler_releases_the_update_for_telegrams_retry(
    bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot.store.link_user(7, Seat("g1", "FRANCE"))

    def broken(seat: Seat, orders: Any) -> Any:
        raise ConnectionError("table unavailable")

    monkeypatch.setattr(bot.games, "submit_orders", broken)
    with pytest.raises(ConnectionError):
        post(bot, update(5, "/orders A PAR H"))
    assert 5 not in bot.store.updates


def test_command_parsing() -> None:
    assert parse_command("/orders\nA PAR H") is not None
    assert parse_command("/Link@Bot abc") == parse_command("/link abc")
    assert parse_command("orders") is None
    assert split_orders(" A PAR H ;\n\nF BRE - MAO ") == ["A PAR H", "F BRE - MAO"]


# ---------------------------------------------------------------- the DynamoDB adapters under moto


@pytest.fixture
def table(aws: None) -> Any:
    return make_table()


def test_dynamo_telegram_store_claims_and_redeems_once(table: Any) -> None:
    store = DynamoTelegramStore(lambda: table, "games", Seat)
    assert store.claim_update(11) and not store.claim_update(11)
    store.release_update(11)
    assert store.claim_update(11)

    store.save_link_code("h1", Seat("g1", "ITALY"), NOW + timedelta(minutes=5))
    store.save_link_code("h2", Seat("g1", "TURKEY"), NOW - timedelta(minutes=5))
    assert store.redeem_link_code("h1", NOW) == Seat("g1", "ITALY")
    assert store.redeem_link_code("h1", NOW) is None  # one time
    assert store.redeem_link_code("h2", NOW) is None  # expired
    store.link_user(3, Seat("g1", "ITALY"))
    assert store.seat_of(3) == Seat("g1", "ITALY") and store.seat_of(4) is None


def test_a_link_code_collision_is_a_store_error_not_a_client_error(table: Any) -> None:
    store = DynamoTelegramStore(lambda: table, "games", Seat)
    store.save_link_code("h1", Seat("g1", "ITALY"), NOW + timedelta(minutes=5))
    with pytest.raises(NotificationStoreError):
        store.save_link_code("h1", Seat("g2", "FRANCE"), NOW + timedelta(minutes=5))
    assert store.redeem_link_code("h1", NOW) == Seat("g1", "ITALY")  # the first code still stands


def test_dynamo_delivery_log_and_reply_outbox(table: Any) -> None:
    log = DynamoDeliveryLog(lambda: table, "games")
    assert not log.was_delivered("g1:1", "telegram:1")
    log.mark_delivered("g1:1", "telegram:1")
    assert log.was_delivered("g1:1", "telegram:1") and not log.was_delivered("g1:1", "telegram:2")

    outbox = DynamoReplyOutbox(lambda: table, "games")
    outbox.reply(70, "hi", "tg:1")
    outbox.reply(70, "hi again", "tg:1")  # a retry writes nothing new
    items = table.scan(
        TableName="games",
        FilterExpression="begins_with(sk, :o)",
        ExpressionAttributeValues={":o": {"S": "OUTBOX#"}},
    )["Items"]
    assert len(items) == 1 and json.loads(items[0]["payload"]["S"]) == {"text": "hi"}  # packed


@pytest.mark.parametrize("chat_type", ["group", "supergroup", "channel"])
@pytest.mark.parametrize("command", ["/orders A PAR - BUR", "/myorders", "/map"])
def test_pending_orders_never_reach_a_group_chat(bot: Bot, chat_type: str, command: str) -> None:
    """Issue 11 (pending orders leak into group chats): commands that show a power's pending
    orders answer only in a private chat; in a game's group they do nothing and say why."""
    code = issue_link_code(Seat("g1", "FRANCE"), store=bot.store, now=NOW)
    post(bot, update(1, f"/link {code}"))
    post(bot, update(2, "/orders A PAR - BUR"))  # privately: accepted
    submissions = bot.games.submissions

    assert post(bot, update(3, command, chat=-100, chat_type=chat_type))["statusCode"] == 200

    chat, text = bot.outbox.replies["tg:3"]
    assert chat == -100 and "private chat" in text and "PAR" not in text
    assert bot.games.submissions == submissions  # nothing submitted from the group


@pytest.mark.parametrize("chat_type", ["group", "supergroup", "channel"])
def test_link_in_a_group_links_nothing_and_uses_the_code_up(bot: Bot, chat_type: str) -> None:
    """Issue 28 item 5: /link CODE in a group told the group the seat of an anonymous game,
    and the seat's private press was then delivered to the group."""
    code = issue_link_code(Seat("g1", "FRANCE"), store=bot.store, now=NOW)

    post(bot, update(1, f"/link {code}", chat=-100, chat_type=chat_type))

    chat, text = bot.outbox.replies["tg:1"]
    assert chat == -100 and "private chat" in text and "FRANCE" not in text and "g1" not in text
    assert bot.store.users == {} and bot.store.chats == {}  # no seat, no chat for its press
    post(bot, update(2, f"/link {code}"))  # everyone in the group saw the code: it is spent
    assert "unknown, used or expired" in bot.outbox.replies["tg:2"][1] and bot.store.users == {}


def test_a_private_type_with_another_chat_id_is_no_private_chat(bot: Bot) -> None:
    code = issue_link_code(Seat("g1", "FRANCE"), store=bot.store, now=NOW)
    post(bot, update(1, f"/link {code}", user=7, chat=-100, chat_type="private"))
    assert bot.store.users == {} and "private chat" in bot.outbox.replies["tg:1"][1]
