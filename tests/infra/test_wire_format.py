"""Our DynamoDB wire-format codec (infra/dynamodb/items.py) writes what boto3's TypeSerializer
writes for every record value, and reads it back exactly (issue 9: no boto3 on the API path)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from hypothesis import given
from hypothesis import strategies as st

from infra.dynamodb.items import deserialize, serialize

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
