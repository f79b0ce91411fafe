"""The benchmark's capacity meter (bench/capacity.py) hooks the client, not the store (issue 9)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from unittest import mock

import boto3
import pytest

from bench.capacity import estimated_write_units, item_size, meter
from infra.dynamodb import items
from infra.dynamodb.client import DynamoDBClient
from infra.dynamodb.game_store import DynamoGameStore
from local_stack.template import create_resources
from tests.infra.test_game_store import _record


@pytest.fixture
def served(moto_endpoint: str) -> Iterator[tuple[DynamoDBClient, str]]:
    """The stack's DynamoDB client on moto's server, and a fresh game table there."""
    with mock.patch.dict(os.environ, {"AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s"}):
        reference = boto3.client("dynamodb", region_name="us-east-1", endpoint_url=moto_endpoint)
        sqs = boto3.client("sqs", region_name="us-east-1", endpoint_url=moto_endpoint)
        table = f"games-{uuid.uuid4().hex[:8]}"
        with mock.patch.dict("local_stack.template.LOCAL_NAMES", {"GameTable": ("GAME_TABLE", table)}):
            create_resources(reference, sqs)
        yield DynamoDBClient("us-east-1", moto_endpoint), table


def test_reads_and_writes_on_the_game_table_are_counted(served: tuple[DynamoDBClient, str]) -> None:
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


def test_other_tables_are_not_counted(served: tuple[DynamoDBClient, str]) -> None:
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
