"""``ReachStore`` in the game table (issue 33): a user's notice preferences, push devices, press
batches and daily digests, all under the user's partition.

| pk | sk | item |
|---|---|---|
| ``USER#<sub>`` | ``NOTIFYPREFS`` | ``choices``: {channel: {kind: mode}} |
| ``USER#<sub>`` | ``PUSH#<device id>`` | endpoint, keys (p256dh, auth), created_at, label |
| ``USER#<sub>`` | ``PRESSBATCH#<game id>`` | the open batch: power, since, opened_at (TTL 1 day) |
| ``USER#<sub>`` | ``DIGEST#<day>`` | ``lines``: [[channel, line], ...] (TTL 14 days) |
| ``DIGESTDAY#<day>`` | ``USER#<sub>`` | the day's index: whose digest is waiting (TTL 14 days) |

A user's devices are one ``Query`` (``begins_with(sk, "PUSH#")``); opening a press batch is a
conditional put (``attribute_not_exists``), so of two racing notifiers one opens it. Digest
lines are appended with ``list_append`` (one ``UpdateItem`` per line, at most ``MAX_LINES``
kept). Items that only bookkeep (batches, digests) expire by the table's ``expires_at`` TTL.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from functions.ports.reach import PressBatch, PushDevice
from infra.dynamodb import items
from infra.dynamodb.table import TableAdapter
from infra.errors import is_conditional_failure

PREFS = "NOTIFYPREFS"
PUSH = "PUSH#"
BATCH = "PRESSBATCH#"
DIGEST = "DIGEST#"
MAX_LINES = 100  # one digest lists at most this many lines (the rest are summed up)
BATCH_TTL = 24 * 3600
DIGEST_TTL = 14 * 24 * 3600


def _key(pk: str, sk: str) -> dict[str, Any]:
    return items.to_item({"pk": pk, "sk": sk})


class DynamoReachStore(TableAdapter):
    CONDITIONAL = frozenset({"put_item", "update_item"})

    def __init__(self, table_name: str, client: Any | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        super().__init__(table_name, client)
        self._clock = clock

    # --- preferences ---------------------------------------------------------------------

    def preferences(self, user_id: str) -> dict[str, dict[str, str]]:
        answer = self._call("get_item", TableName=self.table_name, Key=_key(f"USER#{user_id}", PREFS),
                            ConsistentRead=True)
        return dict(items.from_item(answer["Item"]).get("choices") or {}) if "Item" in answer else {}

    def save_preferences(self, user_id: str, choices: Mapping[str, Mapping[str, str]]) -> None:
        plain = {channel: dict(kinds) for channel, kinds in choices.items()}
        self._call("put_item", TableName=self.table_name,
                   Item=items.to_item({"pk": f"USER#{user_id}", "sk": PREFS, "choices": plain}))

    # --- push devices --------------------------------------------------------------------

    def devices(self, user_id: str) -> list[PushDevice]:
        answer = self._call(
            "query", TableName=self.table_name, ConsistentRead=True,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :push)",
            ExpressionAttributeValues=items.to_item({":pk": f"USER#{user_id}", ":push": PUSH}))
        found = [items.from_item(i) for i in answer.get("Items", [])]
        return [PushDevice(str(i["device_id"]), str(i["endpoint"]), str(i["p256dh"]), str(i["auth"]),
                           str(i.get("created_at", "")), str(i.get("label", ""))) for i in found]

    def add_device(self, user_id: str, device: PushDevice, limit: int) -> bool:
        known = self.devices(user_id)
        if len(known) >= limit and device.device_id not in {d.device_id for d in known}:
            return False
        self._call("put_item", TableName=self.table_name, Item=items.to_item({
            "pk": f"USER#{user_id}", "sk": f"{PUSH}{device.device_id}", **device._asdict()}))
        return True

    def remove_device(self, user_id: str, device_id: str) -> None:
        self._call("delete_item", TableName=self.table_name,
                   Key=_key(f"USER#{user_id}", f"{PUSH}{device_id}"))

    # --- press batches -------------------------------------------------------------------

    def open_press_batch(self, batch: PressBatch) -> bool:
        item = items.to_item({"pk": f"USER#{batch.user_id}", "sk": f"{BATCH}{batch.game_id}",
                              **batch._asdict(), "expires_at": int(self._clock()) + BATCH_TTL})
        try:
            self._call("put_item", TableName=self.table_name, Item=item,
                       ConditionExpression="attribute_not_exists(pk)")
        except Exception as exc:
            if is_conditional_failure(exc):
                return False
            raise
        return True

    def press_batch(self, user_id: str, game_id: str) -> PressBatch | None:
        answer = self._call("get_item", TableName=self.table_name, ConsistentRead=True,
                            Key=_key(f"USER#{user_id}", f"{BATCH}{game_id}"))
        if "Item" not in answer:
            return None
        attrs = items.from_item(answer["Item"])
        return PressBatch(str(attrs["user_id"]), str(attrs["game_id"]), str(attrs["power"]),
                          str(attrs["since"]), int(attrs["opened_at"]))

    def close_press_batch(self, user_id: str, game_id: str) -> None:
        self._call("delete_item", TableName=self.table_name, Key=_key(f"USER#{user_id}", f"{BATCH}{game_id}"))

    # --- digests -------------------------------------------------------------------------

    def add_digest_line(self, user_id: str, day: str, channel: str, line: str) -> None:
        expires = int(self._clock()) + DIGEST_TTL
        try:
            self._call(
                "update_item", TableName=self.table_name, Key=_key(f"USER#{user_id}", f"{DIGEST}{day}"),
                UpdateExpression="SET #lines = list_append(if_not_exists(#lines, :empty), :line), "
                                 "expires_at = :expires",
                ConditionExpression="attribute_not_exists(#lines) OR size(#lines) < :max",
                ExpressionAttributeNames={"#lines": "lines"},
                ExpressionAttributeValues=items.to_item({":empty": [], ":line": [[channel, line[:300]]],
                                                         ":expires": expires, ":max": MAX_LINES}))
        except Exception as exc:
            if not is_conditional_failure(exc):
                raise  # a full digest keeps its first MAX_LINES lines
        self._call("put_item", TableName=self.table_name, Item=items.to_item(
            {"pk": f"DIGESTDAY#{day}", "sk": f"USER#{user_id}", "user_id": user_id, "expires_at": expires}))

    def digest_users(self, day: str, limit: int) -> list[str]:
        answer = self._call("query", TableName=self.table_name, KeyConditionExpression="pk = :pk",
                            ExpressionAttributeValues=items.to_item({":pk": f"DIGESTDAY#{day}"}), Limit=limit)
        return [str(items.from_item(i)["user_id"]) for i in answer.get("Items", [])]

    def forget_digest_user(self, day: str, user_id: str) -> None:
        self._call("delete_item", TableName=self.table_name, Key=_key(f"DIGESTDAY#{day}", f"USER#{user_id}"))

    def digest_lines(self, user_id: str, day: str) -> list[tuple[str, str]]:
        answer = self._call("get_item", TableName=self.table_name, ConsistentRead=True,
                            Key=_key(f"USER#{user_id}", f"{DIGEST}{day}"))
        lines = items.from_item(answer["Item"]).get("lines") or [] if "Item" in answer else []
        return [(str(channel), str(line)) for channel, line in lines]

    def drop_digest(self, user_id: str, day: str) -> None:
        self._call("delete_item", TableName=self.table_name, Key=_key(f"USER#{user_id}", f"{DIGEST}{day}"))
