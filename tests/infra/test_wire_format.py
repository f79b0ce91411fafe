"""Our DynamoDB wire-format codec (infra/dynamodb/items.py) writes what boto3's TypeSerializer
writes for every record value, and reads it back exactly (issue 9: no boto3 on the API path)."""

from __future__ import annotations

import base64
from decimal import Decimal
from typing import Any

import pytest
from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from hypothesis import given
from hypothesis import strategies as st

from functions.ports import EventRecord, GameRecord, OutboxRecord, PhaseRecord
from infra.dynamodb.items import (
    COMPRESS_AT,
    META_PLAIN,
    PHASE_PACKED,
    deserialize,
    event_from_item,
    event_item,
    game_from_item,
    game_item,
    outbox_from_item,
    outbox_item,
    pack,
    phase_from_item,
    phase_item,
    serialize,
    unpack,
)

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


@given(JSONISH)
def test_same_bytes_as_boto3_and_a_round_trip(value: Any) -> None:
    wire = serialize(value)
    assert wire == TypeSerializer().serialize(value)
    assert deserialize(wire) == value == _plain(TypeDeserializer().deserialize(wire))


def test_floats_and_sets_are_refused_not_mangled() -> None:
    with pytest.raises(TypeError):
        serialize({"x": 1.5})
    with pytest.raises(TypeError):
        serialize({1, 2})


# --- packed fields (infra/dynamodb/items.py: large nested values as one JSON string) ---------

GAME = GameRecord(game_id="g1", variant="classical", rules="2023", created_at="t", creator_token_hash="h",
                  state={"year": 1901, "units": [{"kind": "A", "power": "FRANCE", "location": "PAR"}]},
                  phase="S1901M", phase_started_at="t", players={"FRANCE": {"token_hash": "x"}})


@given(JSONISH)
def test_a_packed_value_round_trips_and_is_one_string(value: Any) -> None:
    attribute = pack(value)
    assert list(attribute) == ["S"]
    assert unpack(attribute) == value


def test_the_records_large_fields_are_stored_packed_and_read_back() -> None:
    item = game_item(GAME)
    # META: what keys, indexes, conditions and the listing read stays plain; the rest is one body
    assert set(META_PLAIN) <= set(item) and list(item["body"]) == ["S"]
    assert "state" not in item and "players" not in item and "pending_orders" not in item
    assert game_from_item(item) == GAME
    phase = PhaseRecord(0, "S1901M", GAME.state, {"FRANCE": ["A PAR H"]}, {"results": []}, "t")
    stored = phase_item("g1", phase)
    assert all(list(stored[f]) == ["S"] for f in PHASE_PACKED)
    assert phase_from_item(stored) == phase
    event = EventRecord(1, "PHASE_PROCESSED", "S1901M", {"n": 1}, "t")
    assert event_from_item(event_item("g1", event)) == event
    outbox = OutboxRecord(1, "PHASE_PROCESSED", "g1", "g1|1", {"phase": "S1901M"})
    assert outbox_from_item(outbox_item(outbox)) == outbox


def test_a_field_stored_as_a_map_before_it_was_packed_is_still_read() -> None:
    """Data written before stop 24 (a local stack's data directory) holds these fields as maps."""
    item = game_item(GAME)
    item["state"] = serialize(GAME.state)
    assert game_from_item(item) == GAME
    outbox = OutboxRecord(1, "PHASE_PROCESSED", "g1", "g1|1", {"phase": "S1901M"})
    old = outbox_item(outbox)
    old["payload"] = serialize(outbox.payload)
    assert outbox_from_item(old) == outbox


@given(JSONISH)
def test_large_packed_text_is_compressed_and_round_trips(value: Any) -> None:
    """Issue 29: text of COMPRESS_AT bytes or more is stored zlib-compressed (a write unit is a KB)."""
    big = {"pad": "x" * COMPRESS_AT, "value": value}
    attribute = pack(big, compress=True)
    assert list(attribute) == ["B"] and len(attribute["B"]) < COMPRESS_AT
    assert unpack(attribute) == big
    assert unpack({"B": base64.b64encode(attribute["B"]).decode()}) == big  # a stream image's JSON
    assert list(pack(value, compress=True)) in (["S"], ["B"]) and unpack(pack(value, compress=True)) == value


def test_a_meta_stored_before_the_body_and_power_items_is_still_read() -> None:
    """A data directory of layout 1: every field its own attribute, the decisions in META."""
    legacy = GameRecord(**{**GAME.__dict__, "pending_orders": {"FRANCE": ["A PAR H"]},
                           "wait_flags": {"ITALY": True}, "votes": {"FRANCE": {"draw": True}}})
    item = {k: serialize(v) for k, v in legacy.__dict__.items() if k not in ("turns", "state")}
    item.update(pk=serialize("GAME#g1"), sk=serialize("META"), state=pack(GAME.state))
    assert game_from_item(item) == legacy
