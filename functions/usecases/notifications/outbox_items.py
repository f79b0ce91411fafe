"""The relay's side of the outbox (functions/relay/handler.py): a stream's OUTBOX item, or a
live-only EVENT item, read as the queue message it carries; a batch of them handed to the queue."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from functions.ports import PLAYER_JOINED
from functions.ports.notifications import OutboxMessage, target_from_dict
from functions.ports.notifier import MessageQueue

OUTBOX_SK_PREFIX = "OUTBOX#"
EVENT_SK_PREFIX = "EVENT#"
# Kinds for live updates alone (issue 33: a submission changes every player's view): the game's
# webhook, Discord and Telegram targets do not get them, a notice per submission would drown a
# chat channel. They are the game's own EVENT items, picked from the table's stream
# (``message_from_event_item``): a submission writes its power's item and its event and nothing
# else (issue 29: an order is one small write), so no OUTBOX item is written for them.
LIVE_ONLY = frozenset({"ORDERS_SUBMITTED", "ORDERS_RETRACTED"})
# Notices that are their game's EVENT item, picked from the stream the same way, delivered like
# any notice: a join writes its event and no OUTBOX item (issue 29: a join in at most 6 write
# units on average; the event already says who joined, a second item said it again).
EVENT_NOTICES = frozenset({PLAYER_JOINED})


def message_from_event_item(item: Mapping[str, Any]) -> OutboxMessage | None:
    """A submission's EVENT item (plain attribute values) as a live-only queue message: who and
    which phase, never an order (the event holds none); a join's (``EVENT_NOTICES``) as its
    notice; None for any other item."""
    pk, sk = str(item.get("pk", "")), str(item.get("sk", ""))
    kind = str(item.get("type", ""))
    relayed = kind in LIVE_ONLY or kind in EVENT_NOTICES
    if not sk.startswith(EVENT_SK_PREFIX) or not relayed or not pk.startswith("GAME#"):
        return None
    game_id = pk.removeprefix("GAME#")
    found = item.get("data")
    data: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    if kind in EVENT_NOTICES:  # the same notice an OUTBOX item carried; one key per event
        return OutboxMessage(dedupe_key=f"{game_id}:{kind.lower()}:{item.get('seq', sk)}", kind=kind,
                             game_id=game_id, payload={"power": str(data.get("power", ""))})
    return OutboxMessage(
        dedupe_key=f"{game_id}:{kind.lower()}:{item.get('seq', sk)}",
        kind=kind,
        game_id=game_id,
        payload={"power": str(data.get("power", "")), "phase": str(item.get("phase", ""))},
    )


def message_from_outbox_item(item: Mapping[str, Any]) -> OutboxMessage | None:
    """An OUTBOX item (plain attribute values) as a queue message; None for any other item.

    The dedupe key is the item's own `dedupe_key`, falling back to its primary key,
    which is unique and the same on every stream redelivery.
    """
    pk, sk = str(item.get("pk", "")), str(item.get("sk", ""))
    if not sk.startswith(OUTBOX_SK_PREFIX):
        return None
    raw_target = item.get("target")
    game_id = item.get("game_id") or (pk.removeprefix("GAME#") if pk.startswith("GAME#") else None)
    payload = item.get("payload") or {}
    return OutboxMessage(
        dedupe_key=str(item.get("dedupe_key") or f"{pk}|{sk}"),
        kind=str(item.get("kind", "")).upper() or "NOTICE",
        game_id=str(game_id) if game_id else None,
        payload=_plain(payload),
        target=target_from_dict(raw_target) if isinstance(raw_target, Mapping) else None,
    )


def relay_outbox(messages: Sequence[OutboxMessage], queue: MessageQueue) -> set[str]:
    """Send the batch; returns the dedupe keys that failed (their records must be retried)."""
    if not messages:
        return set()
    return queue.send_messages(messages)


def _plain(value: Any) -> Any:
    """DynamoDB Decimals -> int/float so payloads serialize to JSON."""
    from decimal import Decimal

    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [_plain(v) for v in value]
    return value
