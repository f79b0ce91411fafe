"""DynamoDB adapters for the notifier's delivery log and the Telegram bot's bookkeeping.

They share the game table (one table, ARCHITECTURE §3) under their own partitions,
all with an `expires_at` TTL so they do not grow forever:

| pk                      | sk                 | what                                          |
|-------------------------|--------------------|-----------------------------------------------|
| DELIVERY#<dedupe key>   | TARGET#<sha256>    | this message reached this target              |
| TGUPDATE#<update_id>    | UPDATE             | this Telegram update was taken                |
| LINKCODE#<sha256(code)> | LINKCODE           | a one-time link code -> (game, power)         |
| TGUSER#<user_id>        | SEAT               | the seat a Telegram user plays                |
| TGSEAT#<game>#<power>   | CHAT#<chat_id>     | a chat linked to a seat (press is relayed to) |
| TGCHAT#<chat_id>        | OUTBOX#<dedupe>    | a bot answer to send (the stream relays it)   |

Target keys are hashed so webhook URLs (which may embed tokens) are not copied around.
Conditional writes make "first time only" atomic: claiming an update and redeeming a
code are single conditional requests. `aws_errors.ClientError` never leaves this module except
as `NotificationStoreError`.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, Protocol

from infra import aws_errors
from infra.dynamodb import items

DELIVERY_TTL_SECONDS = 14 * 24 * 3600
UPDATE_TTL_SECONDS = 3 * 24 * 3600  # Telegram gives up on an update after about a day


class NotificationStoreError(Exception):
    """The table refused or was unreachable."""


class SeatLike(Protocol):
    """What is stored for a seat (functions.ports.Seat fits)."""

    @property
    def game_id(self) -> str: ...

    @property
    def power(self) -> str: ...


def _s(value: str) -> dict[str, str]:
    return {"S": value}


def _n(value: int) -> dict[str, str]:
    return {"N": str(value)}


def _conditional_failed(exc: aws_errors.ClientError) -> bool:
    return bool(exc.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException")


class _Table:
    def __init__(self, client: Callable[[], Any], table_name: str, clock: Callable[[], float]) -> None:
        self._client_factory = client
        self._table = table_name
        self._clock = clock

    def _call(self, operation: str, **kwargs: Any) -> Any:
        try:
            return getattr(self._client_factory(), operation)(TableName=self._table, **kwargs)
        except aws_errors.ClientError as exc:
            if _conditional_failed(exc):
                raise
            raise NotificationStoreError(f"{operation}: {exc}") from exc
        except aws_errors.BotoCoreError as exc:
            raise NotificationStoreError(f"{operation}: {exc}") from exc

    def _expiry(self, seconds: int) -> dict[str, str]:
        return _n(int(self._clock()) + seconds)


class DynamoDeliveryLog(_Table):
    """`DeliveryLog` port: one item per (dedupe key, target) delivered."""

    def __init__(self, client: Callable[[], Any], table_name: str, clock: Callable[[], float] = time.time):
        super().__init__(client, table_name, clock)

    @staticmethod
    def _key(dedupe_key: str, target_key: str) -> dict[str, Any]:
        digest = hashlib.sha256(target_key.encode()).hexdigest()
        return {"pk": _s(f"DELIVERY#{dedupe_key}"), "sk": _s(f"TARGET#{digest}")}

    def was_delivered(self, dedupe_key: str, target_key: str) -> bool:
        answer = self._call("get_item", Key=self._key(dedupe_key, target_key), ConsistentRead=True)
        return "Item" in answer

    def mark_delivered(self, dedupe_key: str, target_key: str) -> None:
        item = {**self._key(dedupe_key, target_key), "expires_at": self._expiry(DELIVERY_TTL_SECONDS)}
        self._call("put_item", Item=item)


class DynamoTelegramStore(_Table):
    """`TelegramStore` port; the `Seat` type is passed in so infra never imports functions."""

    def __init__(
        self,
        client: Callable[[], Any],
        table_name: str,
        seat_type: Callable[[str, str], Any],
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(client, table_name, clock)
        self._seat = seat_type

    def claim_update(self, update_id: int) -> bool:
        item = {
            "pk": _s(f"TGUPDATE#{update_id}"),
            "sk": _s("UPDATE"),
            "expires_at": self._expiry(UPDATE_TTL_SECONDS),
        }
        try:
            self._call("put_item", Item=item, ConditionExpression="attribute_not_exists(pk)")
        except aws_errors.ClientError:  # only conditional failures get here
            return False
        return True

    def release_update(self, update_id: int) -> None:
        self._call("delete_item", Key={"pk": _s(f"TGUPDATE#{update_id}"), "sk": _s("UPDATE")})

    def save_link_code(self, code_hash: str, seat: SeatLike, expires_at: datetime) -> None:
        expiry = int(expires_at.timestamp())
        item = {
            "pk": _s(f"LINKCODE#{code_hash}"),
            "sk": _s("LINKCODE"),
            "game_id": _s(seat.game_id),
            "power": _s(seat.power),
            "valid_until": _n(expiry),
            "expires_at": _n(expiry),
        }
        try:  # never overwrite a live code (a 40-bit code could collide)
            self._call("put_item", Item=item, ConditionExpression="attribute_not_exists(pk)")
        except aws_errors.ClientError as exc:  # only conditional failures get here
            raise NotificationStoreError("this link code is already issued") from exc

    def redeem_link_code(self, code_hash: str, now: datetime) -> Any:
        """Delete-if-valid in one conditional request: two redeemers can't both win."""
        try:
            answer = self._call(
                "delete_item",
                Key={"pk": _s(f"LINKCODE#{code_hash}"), "sk": _s("LINKCODE")},
                ConditionExpression="attribute_exists(pk) AND valid_until > :now",
                ExpressionAttributeValues={":now": _n(int(now.timestamp()))},
                ReturnValues="ALL_OLD",
            )
        except aws_errors.ClientError:
            return None
        old = answer.get("Attributes") or {}
        return self._seat(old["game_id"]["S"], old["power"]["S"]) if old else None

    def link_user(self, user_id: int, seat: SeatLike) -> None:
        item = {
            "pk": _s(f"TGUSER#{user_id}"),
            "sk": _s("SEAT"),
            "game_id": _s(seat.game_id),
            "power": _s(seat.power),
        }
        self._call("put_item", Item=item)

    def seat_of(self, user_id: int) -> Any:
        answer = self._call(
            "get_item", Key={"pk": _s(f"TGUSER#{user_id}"), "sk": _s("SEAT")}, ConsistentRead=True
        )
        item = answer.get("Item")
        return self._seat(item["game_id"]["S"], item["power"]["S"]) if item else None

    def link_chat(self, user_id: int, seat: SeatLike, chat_id: int | str) -> None:
        """Remember where the seat's player talks to the bot: its press is relayed there."""
        item = {
            "pk": _s(f"TGSEAT#{seat.game_id}#{seat.power}"),
            "sk": _s(f"CHAT#{chat_id}"),
            "chat_id": _s(str(chat_id)),
            "user_id": _n(user_id),
            "linked_at": _n(int(self._clock())),
        }
        self._call("put_item", Item=item)

    def chats_of(self, game_id: str, power: str, linked_since: float = 0.0) -> list[int | str]:
        """Chats linked to the seat since ``linked_since`` (epoch s: the current player's joining)
        whose user still plays it (a user re-linked elsewhere drops out), and only the user's
        own private chat (Telegram numbers it as the user): a group linked before the bot
        refused /link in groups (issue 28 item 5) never gets the seat's private press."""
        answer = self._call(
            "query",
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": _s(f"TGSEAT#{game_id}#{power}")},
            ConsistentRead=True,
        )
        chats: list[int | str] = []
        for item in answer.get("Items", []):
            if int(item.get("linked_at", {}).get("N", "0")) < int(linked_since):
                continue  # linked by an earlier holder of the seat
            if item["chat_id"]["S"] != item["user_id"]["N"]:
                continue  # not the user's private chat: a group or a channel
            seat = self.seat_of(int(item["user_id"]["N"]))
            if seat is not None and (seat.game_id, seat.power) == (game_id, power):
                raw = item["chat_id"]["S"]
                chats.append(int(raw) if raw.lstrip("-").isdigit() else raw)
        return sorted(set(chats), key=str)


class DynamoReplyOutbox(_Table):
    """`ReplyOutbox` port: a bot answer becomes an OUTBOX item, picked up by the stream like any notice."""

    def __init__(self, client: Callable[[], Any], table_name: str, clock: Callable[[], float] = time.time):
        super().__init__(client, table_name, clock)

    def reply(self, chat_id: int | str, text: str, dedupe_key: str) -> None:
        self._put(chat_id, "CHAT_REPLY", {"text": text}, dedupe_key)

    def reply_photo(
        self, chat_id: int | str, caption: str, picture: Mapping[str, str], dedupe_key: str
    ) -> None:
        reference = {k: str(v) for k, v in sorted(picture.items())}
        self._put(chat_id, "CHAT_PHOTO", {"text": caption, "map": reference}, dedupe_key)

    def _put(self, chat_id: int | str, kind: str, payload: dict[str, Any], dedupe_key: str) -> None:
        item = {
            "pk": _s(f"TGCHAT#{chat_id}"),
            "sk": _s(f"OUTBOX#{dedupe_key}"),
            "kind": _s(kind),
            "dedupe_key": _s(dedupe_key),
            "payload": items.pack(payload),  # packed like every OUTBOX item's (infra/dynamodb/items.py)
            "target": {"M": {"type": _s("telegram"), "chat_id": _s(str(chat_id))}},
            "expires_at": self._expiry(DELIVERY_TTL_SECONDS),
        }
        try:  # written once per update: a retried reply is the same item, not a second message
            self._call("put_item", Item=item, ConditionExpression="attribute_not_exists(pk)")
        except aws_errors.ClientError:
            return
