"""The benchmark's capacity meter (bench/capacity.py) hooks the client, not the store (issue 9)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bench.capacity import estimated_read_units, estimated_write_units, item_size, meter
from infra import aws_clients
from infra.dynamodb import items
from infra.dynamodb.game_store import DynamoGameStore
from tests.infra.test_game_store import _record


@pytest.fixture
def served(aws: dict[str, str]) -> Iterator[tuple[Any, str]]:
    """The stack's own DynamoDB client (infra/aws_clients.py) on moto, and its game table."""
    aws_clients.reset()
    yield aws_clients.dynamodb(), aws["GAME_TABLE"]
    aws_clients.reset()


def test_reads_and_writes_on_the_game_table_are_counted(served: tuple[Any, str]) -> None:
    # Given a store whose client carries the meter
    client, table = served
    units = meter(client, table)
    store = DynamoGameStore(table, client=client)
    # When a game is written, then read
    store.create(_record())
    written = units.read()
    # Then both are priced by DynamoDB's rules: the write per KB, the read per 4 KB
    assert written >= 1.0 and units.split() == (0.0, written)
    store.load("g1")
    assert units.split()[0] == 1.0  # one strongly consistent query of under 4 KB


def test_other_tables_are_not_counted(served: tuple[Any, str]) -> None:
    client, table = served
    units = meter(client, "another-table")
    DynamoGameStore(table, client=client).create(_record())
    assert units.read() == 0.0


def test_write_pricing_is_per_started_kilobyte_and_doubled_in_a_transaction() -> None:
    item = items.game_item(_record())
    size = item_size(item)
    assert 0 < size < 1024
    assert estimated_write_units("put_item", {"Item": item}) == 1.0
    transaction = {"TransactItems": [{"Put": {"Item": item}}, {"Put": {"Item": item}}]}
    assert estimated_write_units("transact_write_items", transaction) == 4.0
    assert estimated_write_units("TransactWriteItems", transaction) == 4.0


def test_read_pricing_is_per_started_4kb_of_what_a_read_returns() -> None:
    small, big = {"pk": {"S": "x"}}, {"pk": {"S": "x" * 5000}}
    assert estimated_read_units("GetItem", {"ConsistentRead": True}, {"Item": big}) == 2.0
    assert estimated_read_units("GetItem", {}, {}) == 0.5  # nothing found still costs a read
    assert estimated_read_units("Query", {"ConsistentRead": True}, {"Items": [small] * 3}) == 1.0
    assert estimated_read_units("Query", {"ConsistentRead": True}, {"Items": [big, big]}) == 3.0
    assert item_size({"B": b"\x00" * 10}) == 10
