"""Records <-> DynamoDB attribute maps (low-level client wire format).

Numbers come back from DynamoDB as decimal strings; ``deserialize`` turns them back into
``int`` (we store no floats), so records round-trip exactly.

The large nested fields of the records (a game's state; a phase's state, orders and
resolution; an event's data; a notification's payload) are *packed*: stored as one string
of JSON text, not as a DynamoDB map. Nothing queries, projects or conditions on their
insides, and a map costs a typed wrapper per value wherever an item is read or held: our
codec walks it value by value, and the local stack's moto keeps every item as those
wrappers in memory (about 30 times the data's size; docs/performance.md, "Soak"). A packed
field written as a map (before stop 24) is still read.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, fields
from decimal import Decimal
from typing import Any

from functions.ports import EventRecord, GameRecord, OutboxRecord, PhaseRecord
from infra.dynamodb import keys

Item = dict[str, Any]


def serialize(value: Any) -> dict[str, Any]:
    """One value in DynamoDB's wire format (what boto3's TypeSerializer writes for our types).

    Our own rather than boto3's TypeSerializer/TypeDeserializer: those read every number
    back as ``Decimal``, and the records want ``int``. Records hold JSON-compatible values
    only: no floats, no sets.
    """
    if value is None:
        return {"NULL": True}
    if isinstance(value, bool):
        return {"BOOL": value}
    if isinstance(value, int | Decimal):
        return {"N": str(value)}
    if isinstance(value, str):
        return {"S": value}
    if isinstance(value, bytes):
        return {"B": value}
    if isinstance(value, list | tuple):
        return {"L": [serialize(v) for v in value]}
    if isinstance(value, dict):
        return {"M": {str(k): serialize(v) for k, v in value.items()}}
    raise TypeError(f"cannot store {type(value).__name__} {value!r} (no floats or sets in records)")


def deserialize(attribute: dict[str, Any]) -> Any:
    """The inverse of ``serialize``; numbers become ``int`` (or ``float`` if not integral)."""
    (tag, inner), = attribute.items()
    if tag == "S":
        return inner
    if tag == "N":
        number = Decimal(inner)
        return int(number) if number == number.to_integral_value() else float(number)
    if tag == "BOOL":
        return bool(inner)
    if tag == "NULL":
        return None
    if tag == "M":
        return {k: deserialize(v) for k, v in inner.items()}
    if tag == "L":
        return [deserialize(v) for v in inner]
    if tag == "B":
        return inner
    if tag in ("SS", "NS", "BS"):
        return [deserialize({tag[0]: v}) for v in inner]
    raise TypeError(f"unknown DynamoDB type {tag!r}")


# The packed fields of each record (see the module text).
GAME_PACKED = frozenset({"state"})
PHASE_PACKED = frozenset({"state_before", "orders", "resolution"})
EVENT_PACKED = frozenset({"data"})
OUTBOX_PACKED = frozenset({"payload"})


def pack(value: Any) -> dict[str, Any]:
    """A nested value as one string attribute of compact JSON text."""
    return {"S": json.dumps(value, separators=(",", ":"), ensure_ascii=False)}


def unpack(attribute: dict[str, Any]) -> Any:
    """The inverse of ``pack``; a map or list (how the field was stored before) is read too."""
    text = attribute.get("S")
    return json.loads(text) if text is not None else deserialize(attribute)


def to_item(attrs: dict[str, Any], packed: Iterable[str] = ()) -> Item:
    item = {k: serialize(v) for k, v in attrs.items() if k not in packed}
    item.update((k, pack(attrs[k])) for k in packed if k in attrs)
    return item


def from_item(item: Item, packed: Iterable[str] = ()) -> dict[str, Any]:
    return {k: unpack(v) if k in packed else deserialize(v) for k, v in item.items()}


def game_item(game: GameRecord) -> Item:
    """META, plus the index attributes: the listing's own fields (``seated``,
    ``is_private``) and, while a deadline runs, ``due_bucket``/``due_at``."""
    attrs = asdict(game)
    attrs.update(pk=keys.game_pk(game.game_id), sk=keys.META, kind=keys.GAME_KIND,
                 seated=sorted(game.players), is_private=bool(game.settings.get("private")),
                 lobby=_lobby(game))
    if game.status == "ACTIVE" and not game.paused and game.deadline:
        attrs.update(due_bucket=keys.due_bucket(game.game_id), due_at=game.deadline)
    return to_item(attrs, GAME_PACKED)


def _lobby(game: GameRecord) -> dict[str, Any]:
    """What the listing shows beyond the key fields: the kind, name and seat settings, each
    seat's status (civil disorder, open), the result, and the clock a lobby shows (deadline,
    paused, started_at: issue 32's "waiting for players"). No token hash, order or vote."""
    settings = {k: game.settings[k] for k in keys.LOBBY_SETTINGS if k in game.settings}
    seats = {p: {"status": s["status"]} for p, s in game.seats.items()
             if isinstance(s, dict) and "status" in s}
    return {"settings": settings, "seats": seats, "result": game.result, "deadline": game.deadline,
            "paused": game.paused, "started_at": game.started_at}


def game_from_item(item: Item) -> GameRecord:
    attrs = from_item(item, GAME_PACKED)
    names = {f.name for f in fields(GameRecord)}
    return GameRecord(**{k: v for k, v in attrs.items() if k in names})


def listing_from_item(item: Item) -> GameRecord:
    """A listing record from the ``by_kind`` projection: the listing's fields only
    (``players`` holds the seated powers with no data, ``settings`` only ``private`` and
    the game's kind)."""
    attrs = from_item(item)
    lobby = attrs.get("lobby") or {}
    return GameRecord(
        game_id=attrs["game_id"], variant=attrs["variant"], rules=attrs["rules"],
        created_at=attrs["created_at"], creator_token_hash="", state={}, phase=attrs["phase"],
        phase_started_at="", status=attrs["status"],
        players={p: {} for p in attrs.get("seated", [])},
        settings={**(lobby.get("settings") or {}), "private": bool(attrs.get("is_private"))},
        seats=dict(lobby.get("seats") or {}),
        result=lobby.get("result"),
        deadline=lobby.get("deadline"), paused=bool(lobby.get("paused")), started_at=lobby.get("started_at"),
    )


def phase_item(game_id: str, phase: PhaseRecord) -> Item:
    attrs = phase._asdict()
    attrs.update(pk=keys.game_pk(game_id), sk=keys.phase_sk(phase.n, phase.phase))
    return to_item(attrs, PHASE_PACKED)


def phase_from_item(item: Item) -> PhaseRecord:
    attrs = from_item(item, PHASE_PACKED)
    return PhaseRecord(**{name: attrs[name] for name in PhaseRecord._fields})


def event_item(game_id: str, event: EventRecord) -> Item:
    attrs = event._asdict()
    attrs.update(pk=keys.game_pk(game_id), sk=keys.event_sk(event.seq))
    return to_item(attrs, EVENT_PACKED)


def event_from_item(item: Item) -> EventRecord:
    attrs = from_item(item, EVENT_PACKED)
    return EventRecord(**{name: attrs[name] for name in EventRecord._fields})


def outbox_item(outbox: OutboxRecord) -> Item:
    attrs = outbox._asdict()
    attrs.update(pk=keys.game_pk(outbox.game_id), sk=keys.outbox_sk(outbox.seq))
    return to_item(attrs, OUTBOX_PACKED)


def outbox_from_item(item: Item) -> OutboxRecord:
    attrs = from_item(item, OUTBOX_PACKED)
    return OutboxRecord(**{name: attrs[name] for name in OutboxRecord._fields})
