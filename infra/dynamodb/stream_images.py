"""DynamoDB stream images read with the store's own codec (the relay's, composition/relay.py).

A stream record carries an item in DynamoDB's typed JSON (``{"S": ...}``); the relay reads
OUTBOX and EVENT items out of it with infra/dynamodb/items.py (their payload or data
unpacked), so the relay needs no boto3 deserializer of its own, and knows a removed
META by its keys (infra/dynamodb/keys.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from infra.dynamodb import keys
from infra.dynamodb.items import EVENT_PACKED, OUTBOX_PACKED, from_item


class DynamoStreamImages:
    """The ``StreamImages`` port over this table's items."""

    def item(self, image: Mapping[str, Any]) -> dict[str, Any]:
        """An OUTBOX or EVENT item's stream image as plain values."""
        return from_item(dict(image), OUTBOX_PACKED | EVENT_PACKED)

    def removed_game(self, record: Mapping[str, Any]) -> str | None:
        """The id of the game whose META a stream record says was removed (its TTL expired),
        if it says so."""
        if record.get("eventName") != "REMOVE":
            return None
        found = (record.get("dynamodb") or {}).get("Keys") or {}
        sort_key = (found.get("sk") or {}).get("S")
        partition = str((found.get("pk") or {}).get("S", ""))
        prefix = keys.game_pk("")
        return partition[len(prefix):] if sort_key == keys.META and partition.startswith(prefix) else None


STREAM_IMAGES = DynamoStreamImages()
