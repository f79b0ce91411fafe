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

Packed text of ``COMPRESS_AT`` bytes or more is stored zlib-compressed, as a binary attribute
(issue 29): DynamoDB bills a write per started KB of the item, and a phase's resolution or a
board compresses 5 to 7 times (a PHASE item 6.9 KB -> 1.4 KB, the PHASE_PROCESSED event
5.4 KB -> 0.9 KB). META keeps as plain attributes only what a key, an index, a condition or
the listing reads; the rest of the game is one packed ``body`` (a META of 3.4 KB -> 1.4 KB).
Outbox payloads stay text: the relay reads them off the stream. Uncompressed text and
unpacked META attributes (games stored before) are read as before.

The powers' own items (``META#POWER#<power>``: orders, wait flag, votes) and their press
ledgers (``META#PRESS#<power>``) are small plain items (infra/dynamodb/keys.py says why).
"""

from __future__ import annotations

import base64
import functools
import json
import zlib
from collections.abc import Iterable
from dataclasses import fields
from decimal import Decimal
from typing import Any

import engine
from functions.ports import EventRecord, GameRecord, OutboxRecord, PhaseRecord, PowerPress, PowerTurn
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
GAME_PACKED = frozenset({"state"})  # META before issue 29; now all but its plain fields are ``body``
PHASE_PACKED = frozenset({"state_before", "orders", "resolution"})
EVENT_PACKED = frozenset({"data"})
OUTBOX_PACKED = frozenset({"payload"})
COMPRESS_AT = 512  # packed text this long or longer is stored compressed

# META's own attributes: what keys, indexes, conditions and the listing read. Everything else
# of the record but the powers' decisions (their own items) and the store's bookkeeping is
# the packed ``body``.
META_PLAIN = ("game_id", "variant", "rules", "created_at", "phase", "status", "version", "layout")
_NOT_IN_META = frozenset({"turns", "pending_orders", "wait_flags", "votes", "expires_at"})
META_BODY = tuple(f.name for f in fields(GameRecord) if f.name not in (*META_PLAIN, *_NOT_IN_META))
_RECORD_FIELDS = frozenset(f.name for f in fields(GameRecord)) - {"turns"}


def pack(value: Any, compress: bool = False) -> dict[str, Any]:
    """A nested value as one attribute of compact JSON text; with ``compress``, text of
    ``COMPRESS_AT`` bytes or more as zlib-compressed bytes."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if compress and len(text) >= COMPRESS_AT:
        return {"B": zlib.compress(text.encode(), 6)}
    return {"S": text}


def unpack(attribute: dict[str, Any]) -> Any:
    """The inverse of ``pack``; a map or list (how the field was stored before) is read too.
    Compressed bytes may come base64-encoded (a stream record's JSON image)."""
    text = attribute.get("S")
    if text is not None:
        return json.loads(text)
    raw = attribute.get("B")
    if raw is not None:
        return json.loads(zlib.decompress(base64.b64decode(raw) if isinstance(raw, str) else raw))
    return deserialize(attribute)


def to_item(attrs: dict[str, Any], packed: Iterable[str] = (), compress: bool = False) -> Item:
    item = {k: serialize(v) for k, v in attrs.items() if k not in packed}
    item.update((k, pack(attrs[k], compress)) for k in packed if k in attrs)
    return item


def from_item(item: Item, packed: Iterable[str] = ()) -> dict[str, Any]:
    return {k: unpack(v) if k in packed else deserialize(v) for k, v in item.items()}


def game_item(game: GameRecord) -> Item:
    """META: its plain fields, the index attributes (the listing's own fields ``seated``,
    ``is_private``, ``lobby`` and, while a deadline runs, ``due_bucket``/``due_at``) and the
    packed ``body``. The powers' decisions are not in it: they are their own items."""
    attrs = {name: getattr(game, name) for name in META_PLAIN}
    body = {name: getattr(game, name) for name in META_BODY}
    if game.started_at is None and game.state == _start_state(game.variant):
        del body["state"]  # a game still forming stands at its variant's start: read back from there
    attrs.update(pk=keys.game_pk(game.game_id), sk=keys.META, kind=keys.GAME_KIND,
                 seated=sorted(game.players), is_private=bool(game.settings.get("private")),
                 lobby=_lobby(game), body=body)
    if game.status == "ACTIVE" and not game.paused and game.deadline:
        attrs.update(due_bucket=keys.due_bucket(game.game_id), due_at=game.deadline)
    if game.started_at is None and game.expires_at is not None:  # the table's TTL: a game that never starts
        attrs.update(expires_at=game.expires_at)
    return to_item(attrs, ("body",), compress=True)


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
    """META as a record (the powers' items are folded in by the store: ``apply_turns``).
    A META stored before ``body`` holds every field as its own attribute, the state packed."""
    attrs = from_item({k: v for k, v in item.items() if k != "body"}, GAME_PACKED)
    if "body" in item:
        attrs.update(unpack(item["body"]))
        if "state" not in attrs:  # a forming game's META leaves its start out (``game_item``)
            attrs["state"] = json.loads(_start_text(str(attrs["variant"])) or "null")
    return GameRecord(**{k: v for k, v in attrs.items() if k in _RECORD_FIELDS})


def _start_state(variant: str) -> dict[str, Any] | None:
    """The variant's starting position as a stored state; None for a variant the engine does
    not know (another kind of game, say: its META always keeps its state)."""
    text = _start_text(variant)
    return None if text is None else dict(json.loads(text))


@functools.lru_cache(maxsize=64)
def _start_text(variant: str) -> str | None:
    """Why leave it out: a game's META is written by every join, and the position is 400 of
    its ~1,000 bytes while the game forms, the difference between one write unit and two
    (issue 29: a join in at most 6 units). The start of a variant never changes for a game:
    a map's start is part of its definition (a new start is a new variant name)."""
    try:
        return json.dumps(engine.state_to_dict(engine.initial_state(engine.load_map(variant))))
    except (KeyError, FileNotFoundError, ValueError, engine.MapDataError):
        return None


def turn_item(game_id: str, turn: PowerTurn) -> Item:
    """A power's own item: plain, small (a few hundred bytes), one write unit."""
    attrs: dict[str, Any] = {
        "pk": keys.game_pk(game_id), "sk": keys.power_sk(turn.power), "game_id": game_id,
        "power": turn.power, "phase": turn.phase, "wait": turn.wait, "version": turn.version,
        "event_seq": turn.event_seq,
    }
    if turn.orders is not None:
        attrs["orders"] = list(turn.orders)
    if turn.vote:
        attrs["vote"] = dict(turn.vote)
    return to_item(attrs)


def turn_from_item(item: Item) -> PowerTurn:
    attrs = from_item(item)
    orders = attrs.get("orders")
    vote = {str(k): bool(v) for k, v in (attrs.get("vote") or {}).items()}
    return PowerTurn(
        power=str(attrs["power"]), phase=str(attrs["phase"]),
        orders=tuple(str(o) for o in orders) if orders is not None else None,
        wait=bool(attrs.get("wait")), vote=vote or None,
        version=int(attrs.get("version", 0)), event_seq=int(attrs.get("event_seq", 0)),
    )


def ledger_from_attrs(power: str, raw: dict[str, Any] | None) -> PowerPress:
    """A press ledger from its item's plain attributes; a fresh one (version 0) if none."""
    if raw is None:
        return PowerPress(power=power)
    return PowerPress(
        power=power,
        version=int(raw.get("version", 0)),
        inbox_seq=int(raw.get("inbox_seq", 0)),
        channels={str(c): {k: int(v) for k, v in m.items()} for c, m in (raw.get("channels") or {}).items()},
        opened=int(raw.get("opened", 0)),
        rate_window=int(raw.get("rate_window", 0)),
        rate_count=int(raw.get("rate_count", 0)),
    )


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
    return to_item(attrs, PHASE_PACKED, compress=True)


def phase_from_item(item: Item) -> PhaseRecord:
    attrs = from_item(item, PHASE_PACKED)
    return PhaseRecord(**{name: attrs[name] for name in PhaseRecord._fields})


def event_item(game_id: str, event: EventRecord) -> Item:
    attrs = event._asdict()
    attrs.update(pk=keys.game_pk(game_id), sk=keys.event_sk(event.seq))
    return to_item(attrs, EVENT_PACKED, compress=True)


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
