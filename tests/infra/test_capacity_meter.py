"""The benchmark's capacity meter (bench/capacity.py) hooks the client, not the store (issue 9)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bench.capacity import estimated_write_units, item_size, meter
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
    store.load("g1")
    # Then the write is priced (moto reports none) and the read is what DynamoDB reports
    assert written >= 1.0
    assert units.read() > written


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
