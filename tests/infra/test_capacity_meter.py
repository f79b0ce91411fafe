"""The benchmark's capacity meter (bench/capacity.py) hooks the client, not the store (issue 9)."""

from __future__ import annotations

import boto3

from bench.capacity import estimated_write_units, item_size, meter
from infra.dynamodb import items
from infra.dynamodb.game_store import DynamoGameStore
from tests.infra.test_game_store import _record


def test_reads_and_writes_on_the_game_table_are_counted(aws: dict[str, str]) -> None:
    # Given a store whose client carries the meter
    client = boto3.client("dynamodb", region_name="us-east-1")
    units = meter(client, aws["GAME_TABLE"])
    store = DynamoGameStore(aws["GAME_TABLE"], client=client)
    # When a game is written, then read
    store.create(_record())
    written = units.read()
    store.load("g1")
    # Then the write is priced (moto reports none) and the read is what DynamoDB reports
    assert written >= 1.0
    assert units.read() > written


def test_other_tables_are_not_counted(aws: dict[str, str]) -> None:
    client = boto3.client("dynamodb", region_name="us-east-1")
    units = meter(client, "another-table")
    DynamoGameStore(aws["GAME_TABLE"], client=client).create(_record())
    assert units.read() == 0.0


def test_write_pricing_is_per_started_kilobyte_and_doubled_in_a_transaction() -> None:
    item = items.game_item(_record())
    size = item_size(item)
    assert 0 < size < 1024
    assert estimated_write_units("put_item", {"Item": item}) == 1.0
    transaction = {"TransactItems": [{"Put": {"Item": item}}, {"Put": {"Item": item}}]}
    assert estimated_write_units("transact_write_items", transaction) == 4.0
