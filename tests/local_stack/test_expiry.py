"""Issue 28 item 13: a game that never starts is forgotten, with all its records; a started one
never expires. The table's TTL (declared in template.yaml) takes META; the stream's REMOVE
reaches the relay (the template's filter), which deletes what the game left behind. The local
stack honours the TTL with its expiry pump (local_stack/expiry_pump.py)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import boto3

from functions.ports import UNSTARTED_GAME_DAYS, ItemNotFound
from functions.ports.notifications import OutboxMessage
from functions.relay.handler import make_handler
from functions.usecases.games import CreateGame, create_game
from functions.usecases.players import Actor
from functions.usecases.seats import join_game
from functions.usecases.turns import submit_orders
from infra.dynamodb import keys
from infra.dynamodb.game_store import DynamoGameStore
from infra.dynamodb.stream_images import STREAM_IMAGES
from local_stack.expiry_pump import ExpiryPump
from local_stack.stream_relay import StreamRelay
from local_stack.template import create_resources
from testkit.fakes import FakeClock
from testkit.openings import SPRING_1901
from tests.local_stack.conftest import mock_streams_client

POWERS = sorted(SPRING_1901)
DAY = 86400


class NoQueue:
    def send_messages(self, messages: Sequence[OutboxMessage], delay_seconds: int = 0) -> set[str]:
        return set()


def _items(client: Any, table: str, game_id: str) -> list[str]:
    found = client.query(TableName=table, KeyConditionExpression="pk = :pk",
                         ExpressionAttributeValues={":pk": {"S": keys.game_pk(game_id)}})["Items"]
    return sorted(i["sk"]["S"] for i in found)


def test_an_unstarted_game_expires_with_its_records_and_a_started_one_never(aws: None) -> None:
    client = boto3.client("dynamodb", region_name="us-east-1")
    table = create_resources(client, boto3.client("sqs", region_name="us-east-1"))["GAME_TABLE"]
    store, clock = DynamoGameStore(table, client=client), FakeClock()
    # Given a game two players joined and nobody else, and a game that filled and was played
    forming = create_game(store, clock, CreateGame()).game_id
    for power in POWERS[:2]:
        join_game(store, clock, forming, power)
    started = create_game(store, clock, CreateGame()).game_id
    for power in POWERS:
        join_game(store, clock, started, power)
    submit_orders(store, clock, started, Actor("player", "FRANCE"), SPRING_1901["FRANCE"])
    meta = client.get_item(TableName=table, Key={"pk": {"S": keys.game_pk(forming)}, "sk": {"S": "META"}})
    created = clock.at.timestamp()
    assert abs(int(meta["Item"]["expires_at"]["N"]) - (created + UNSTARTED_GAME_DAYS * DAY)) < 5
    assert "expires_at" not in client.get_item(
        TableName=table, Key={"pk": {"S": keys.game_pk(started)}, "sk": {"S": "META"}})["Item"]
    assert len(_items(client, table, forming)) > 1  # events and notices beside META
    before = _items(client, table, started)
    # When the TTL's time has passed (the local stack's pump stands for DynamoDB's TTL) ...
    later = ExpiryPump(lambda: client, now=lambda: time.time() + (UNSTARTED_GAME_DAYS + 1) * DAY)
    assert later.run_now() == 1
    # ... and the relay reads the table's stream with the template's filter
    relay = StreamRelay(dynamodb=lambda: client, streams=mock_streams_client, table=table,
                        handler=make_handler(NoQueue, STREAM_IMAGES, lambda: store))
    while relay():
        pass
    # Then nothing is left of the game that never started; the started game is untouched
    assert _items(client, table, forming) == []
    try:
        store.load(forming)
        raise AssertionError("the expired game is still there")
    except ItemNotFound:
        pass
    assert _items(client, table, started) == before


def test_nothing_expires_before_its_time_and_the_pump_waits_its_interval(aws: None) -> None:
    client = boto3.client("dynamodb", region_name="us-east-1")
    table = create_resources(client, boto3.client("sqs", region_name="us-east-1"))["GAME_TABLE"]
    store = DynamoGameStore(table, client=client)
    game_id = create_game(store, FakeClock(datetime.now(UTC)), CreateGame()).game_id  # created now
    ticks = [0.0]
    day_before = time.time() + (UNSTARTED_GAME_DAYS - 1) * DAY
    pump = ExpiryPump(lambda: client, every=3600, now=lambda: day_before, wall_clock=lambda: ticks[0])
    assert pump() == 0  # not yet its hour
    ticks[0] = 3600
    assert pump() == 0 and store.load(game_id).game_id == game_id  # its hour, but not the game's time
