"""The sweeper's sparse, bucketed deadline index and the listing projection (issue 10, item 4),
on moto with the tables built from template.yaml."""

from __future__ import annotations

from datetime import timedelta

import boto3

from functions.adapters import StoreDeadlineGames
from functions.usecases.game import iso
from functions.usecases.games import CreateGame, create_game
from functions.usecases.kinds.lobby import list_games
from functions.usecases.players import SCHEDULER, Actor
from functions.usecases.seats import join_game, pause_game
from functions.usecases.turns import process_turn
from functions.usecases.turns.deadlines import FireOutcome, sweep
from infra.dynamodb import keys
from infra.dynamodb.game_store import DynamoGameStore
from testkit.fakes import FakeClock
from tests.notifications.fakes import FakeScheduler

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def _timed_game(store: DynamoGameStore, clock: FakeClock, seconds: int = 60) -> str:
    """A game whose phase deadline runs (set directly: seven joins per game are slow on moto)."""
    created = create_game(store, clock, CreateGame(variant="classical", phase_seconds={"MOVEMENT": seconds},
                                                   name="Friday table"))
    game = store.load(created.game_id)
    game.deadline = iso(clock.now() + timedelta(seconds=seconds))
    store.save(game, expected_version=game.version)
    return created.game_id


def test_the_sweeper_finds_every_overdue_game_not_the_newest_500(dynamo_store: DynamoGameStore) -> None:
    # Given 6 timed games and newer untimed games in front of them in the listing
    clock = FakeClock()
    timed = {_timed_game(dynamo_store, clock) for _ in range(6)}
    for _ in range(5):
        create_game(dynamo_store, clock, CreateGame(variant="classical"))  # untimed, newest
    clock.at += timedelta(seconds=61)
    games = StoreDeadlineGames(dynamo_store, clock, scan_limit=1000)
    # When the sweeper runs
    overdue = {info.game_id for info in games.overdue(clock.now())}
    # Then it sees exactly the overdue games, wherever they sit in the listing
    assert overdue == timed
    report = sweep(now=clock.now(), games=games, scheduler=FakeScheduler())
    assert set(report.outcomes) == timed and set(report.outcomes.values()) == {FireOutcome.PROCESSED}


def test_the_index_is_sparse_and_spread_over_buckets(
    dynamo_store: DynamoGameStore, aws: dict[str, str]
) -> None:
    clock = FakeClock()
    ids = [_timed_game(dynamo_store, clock) for _ in range(10)]
    untimed = create_game(dynamo_store, clock, CreateGame(variant="classical")).game_id
    pause_game(dynamo_store, clock, ids[0], Actor("creator"))
    process_turn(dynamo_store, clock, ids[1], SCHEDULER,
                 expected_phase="S1901M")  # the next phase has no deadline set
    client = boto3.client("dynamodb", region_name="us-east-1")
    indexed: dict[str, str] = {}
    for bucket in keys.due_buckets():
        answer = client.query(TableName=aws["GAME_TABLE"], IndexName=keys.DUE_INDEX,
                              KeyConditionExpression="due_bucket = :b",
                              ExpressionAttributeValues={":b": {"S": bucket}})
        for item in answer["Items"]:
            indexed[item["game_id"]["S"]] = bucket
    assert untimed not in indexed and ids[0] not in indexed  # no deadline / paused: absent
    assert set(ids[2:]) <= set(indexed)
    assert len(set(indexed.values())) >= 4  # 8 games over 16 buckets: spread, no hot key
    assert all(indexed[g] == keys.due_bucket(g) for g in indexed)


def test_a_future_deadline_is_not_overdue(dynamo_store: DynamoGameStore) -> None:
    clock = FakeClock()
    _timed_game(dynamo_store, clock, seconds=3600)
    assert dynamo_store.due_games(iso(clock.now())) == []


def test_the_listing_reads_only_projected_fields(dynamo_store: DynamoGameStore, aws: dict[str, str]) -> None:
    clock = FakeClock()
    game_id = _timed_game(dynamo_store, clock)
    client = boto3.client("dynamodb", region_name="us-east-1")
    described = client.describe_table(TableName=aws["GAME_TABLE"])["Table"]["GlobalSecondaryIndexes"]
    listing = next(i for i in described if i["IndexName"] == keys.LIST_INDEX)
    assert listing["Projection"]["ProjectionType"] == "INCLUDE"
    projected = set(listing["Projection"]["NonKeyAttributes"])
    assert not projected & {"state", "pending_orders", "players", "settings", "version", "creator_token_hash"}
    for power in POWERS[:3]:
        join_game(dynamo_store, clock, game_id, power)
    [summary] = list_games(dynamo_store)
    assert summary["game_id"] == game_id and summary["players"] == POWERS[:3]
    assert summary["open_seats"] == POWERS[3:]
    # what a lobby shows (issue 32) is read off the index too: name, seats, stage, deadline
    lobby = {k: summary[k] for k in ("name", "seats_filled", "seats_total", "stage", "deadline")}
    assert lobby == {"name": "Friday table", "seats_filled": 3, "seats_total": 7,
                     "stage": "waiting for players", "deadline": dynamo_store.load(game_id).deadline}


def test_the_listing_says_press_mode_and_fog_off_the_index(dynamo_store: DynamoGameStore) -> None:
    """A player picks a game by its press mode and fog before joining (issue 35 item 3: the lobby
    did not say a game was fogged): both come off the listing index's ``lobby`` projection."""
    clock = FakeClock()
    fogged = create_game(dynamo_store, clock, CreateGame(press="none", fog=True)).game_id
    plain = create_game(dynamo_store, clock, CreateGame()).game_id
    listed = {g["game_id"]: g for g in list_games(dynamo_store)}
    assert (listed[fogged]["press"], listed[fogged]["fog"]) == ("none", True)
    assert (listed[plain]["press"], listed[plain]["fog"]) == ("full", False)
