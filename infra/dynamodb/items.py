"""Records <-> DynamoDB attribute maps (low-level client wire format).

Numbers come back from DynamoDB as ``Decimal``; ``plain`` turns them back into
``int`` (we store no floats), so records round-trip exactly.
"""

from __future__ import annotations

from dataclasses import asdict, fields
from decimal import Decimal
from typing import Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer

from functions.ports import EventRecord, GameRecord, OutboxRecord, PhaseRecord
from infra.dynamodb import keys

_ser = TypeSerializer()
_de = TypeDeserializer()

Item = dict[str, Any]


def plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [plain(v) for v in value]
    return value


def to_item(attrs: dict[str, Any]) -> Item:
    return {k: _ser.serialize(v) for k, v in attrs.items()}


def from_item(item: Item) -> dict[str, Any]:
    return {k: plain(_de.deserialize(v)) for k, v in item.items()}


def game_item(game: GameRecord) -> Item:
    attrs = asdict(game)
    attrs.update(pk=keys.game_pk(game.game_id), sk=keys.META, kind=keys.GAME_KIND)
    return to_item(attrs)


def game_from_item(item: Item) -> GameRecord:
    attrs = from_item(item)
    names = {f.name for f in fields(GameRecord)}
    return GameRecord(**{k: v for k, v in attrs.items() if k in names})


def phase_item(game_id: str, phase: PhaseRecord) -> Item:
    attrs = asdict(phase)
    attrs.update(pk=keys.game_pk(game_id), sk=keys.phase_sk(phase.n, phase.phase))
    return to_item(attrs)


def phase_from_item(item: Item) -> PhaseRecord:
    attrs = from_item(item)
    return PhaseRecord(**{f.name: attrs[f.name] for f in fields(PhaseRecord)})


def event_item(game_id: str, event: EventRecord) -> Item:
    attrs = asdict(event)
    attrs.update(pk=keys.game_pk(game_id), sk=keys.event_sk(event.seq))
    return to_item(attrs)


def event_from_item(item: Item) -> EventRecord:
    attrs = from_item(item)
    return EventRecord(**{f.name: attrs[f.name] for f in fields(EventRecord)})


def outbox_item(outbox: OutboxRecord) -> Item:
    attrs = asdict(outbox)
    attrs.update(pk=keys.game_pk(outbox.game_id), sk=keys.outbox_sk(outbox.seq))
    return to_item(attrs)


def outbox_from_item(item: Item) -> OutboxRecord:
    attrs = from_item(item)
    return OutboxRecord(**{f.name: attrs[f.name] for f in fields(OutboxRecord)})
