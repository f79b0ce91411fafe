"""Issue 34 items 1, 2 and 5 against moto (tables from template.yaml): a finished game enters
the players' records once, through infra/dynamodb/community_store.py; the leaderboard is the
``by_rating`` index; the archive answers by variant, player, result and date."""

from __future__ import annotations

from datetime import timedelta

import boto3
import pytest

from community.ratings import MU, SIGMA
from functions.ports.community import ArchiveQuery, RatingMoved, StoredRating
from functions.usecases.accounts.accounts import User
from functions.usecases.community.player_records import build_write, record_finished_game
from functions.usecases.game import LifecycleSettings
from functions.usecases.games import CreateGame, create_game
from functions.usecases.players.identity import Actor
from functions.usecases.seats import join_game
from functions.usecases.seats.votes import cast_vote
from functions.usecases.turns.process_turn import process_turn
from functions.usecases.turns.submit_orders import submit_orders
from infra.dynamodb.community_store import DynamoCommunityStore
from infra.dynamodb.game_store import DynamoGameStore
from testkit.fakes import FakeClock

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def _community(aws: dict[str, str]) -> DynamoCommunityStore:
    return DynamoCommunityStore(aws["GAME_TABLE"], client=boto3.client("dynamodb", region_name="us-east-1"))


def _conceded_game(
    store: DynamoGameStore,
    clock: FakeClock,
    accounts: dict[str, str],
    *,
    winner: str = "FRANCE",
    dummies: tuple[str, ...] = (),
) -> str:
    """A classical game, seats taken by ``accounts`` (power -> user) or tokens, one phase played
    (every power orders), then everyone but ``winner`` concedes."""
    created = create_game(store, clock, CreateGame(lifecycle=LifecycleSettings(dummy_powers=dummies)))
    seated = [p for p in POWERS if p not in dummies]
    for power in seated:
        owner = User(accounts[power], f"name-{accounts[power]}") if power in accounts else None
        join_game(store, clock, created.game_id, power, owner=owner)
    for power in seated:
        submit_orders(store, clock, created.game_id, Actor("player", power), [])
    process_turn(store, clock, created.game_id, Actor("creator"), expected_phase="S1901M")
    for power in seated:
        if power != winner:
            cast_vote(store, clock, created.game_id, Actor("player", power), concede=True)
    assert store.load(created.game_id).status == "COMPLETED"
    return created.game_id


def test_a_finished_game_rates_its_accounts_once(dynamo_store: DynamoGameStore, aws: dict[str, str]) -> None:
    # Given a game of two accounts (FRANCE wins by concession) and five token seats
    clock, community = FakeClock(), _community(aws)
    game_id = _conceded_game(dynamo_store, clock, {"FRANCE": "ada", "GERMANY": "bob"})
    # When it is recorded
    assert record_finished_game(dynamo_store, community, game_id) is True
    # Then both accounts have a rating in classical: the winner above the prior, the other below
    ada, bob = community.rating("ada", "classical"), community.rating("bob", "classical")
    assert ada is not None and bob is not None
    assert ada.mu > MU > bob.mu and ada.games == bob.games == 1 and ada.last_game == game_id
    assert [r.player for r in community.leaderboard("classical", 10)] == ["ada", "bob"]
    # and profile counters: one game each, won / survived, one phase owed and ordered on time
    stats = community.stats("ada")
    assert stats is not None and stats.display_name == "name-ada"
    assert stats.counts["games_played"] == 1 and stats.counts["won"] == 1
    assert stats.counts["phases_owed"] == stats.counts["on_time"] == 1
    loser = community.stats("bob")
    assert loser is not None and loser.counts["survived"] == 1
    # When the same game is recorded again (a redelivered GAME_ENDED), nothing changes
    assert record_finished_game(dynamo_store, community, game_id) is False
    write = build_write(dynamo_store.load(game_id), [], community)
    assert community.record(write) is False  # even past the marker check: the transaction's condition
    assert community.rating("ada", "classical") == ada and community.stats("ada") == stats


def test_an_unrated_game_enters_the_archive_and_changes_no_record(
    dynamo_store: DynamoGameStore, aws: dict[str, str]
) -> None:
    clock, community = FakeClock(), _community(aws)
    game_id = _conceded_game(dynamo_store, clock, {"FRANCE": "ada", "GERMANY": "bob"}, dummies=("AUSTRIA",))
    assert record_finished_game(dynamo_store, community, game_id) is True
    assert community.rating("ada", "classical") is None and community.stats("ada") is None
    [entry] = community.search(ArchiveQuery(variant="classical"))
    assert entry.game_id == game_id and entry.rated is False
    assert entry.unrated_reason == "played with dummy powers"
    [line] = community.played("ada", 10)
    assert line.rated is False and line.outcome == "won" and line.rating_after is None


def test_the_archive_searches_by_variant_player_result_and_date(
    dynamo_store: DynamoGameStore, aws: dict[str, str]
) -> None:
    clock, community = FakeClock(), _community(aws)
    first = _conceded_game(dynamo_store, clock, {"FRANCE": "ada", "GERMANY": "bob"})
    clock.at += timedelta(days=3)
    second = _conceded_game(dynamo_store, clock, {"ITALY": "ada", "TURKEY": "cyd"}, winner="TURKEY")
    for game_id in (first, second):
        record_finished_game(dynamo_store, community, game_id)
    assert [e.game_id for e in community.search(ArchiveQuery(variant="classical"))] == [second, first]
    assert [e.game_id for e in community.search(ArchiveQuery(player="bob"))] == [first]
    conceded = ArchiveQuery(player="ada", kind="concession")
    calls: list[str] = []
    community.client.meta.events.register("before-call.dynamodb", lambda model, **_: calls.append(model.name))
    assert [e.game_id for e in community.search(conceded)] == [second, first]
    assert calls == ["Query", "BatchGetItem"]  # the player's lines, then their games in one read
    assert community.search(ArchiveQuery(variant="classical", kind="draw")) == []
    second_day = community.search(ArchiveQuery(variant="1900"))
    assert second_day == []
    ended = {e.game_id: e.ended_at for e in community.search(ArchiveQuery(variant="classical"))}
    since = ArchiveQuery(variant="classical", since=ended[second][:10])
    until = ArchiveQuery(variant="classical", until=ended[first][:10])
    assert [e.game_id for e in community.search(since)] == [second]
    assert [e.game_id for e in community.search(until)] == [first]
    # ada's rating counts both games, the last one named
    ada = community.rating("ada", "classical")
    assert ada is not None and ada.games == 2 and ada.last_game == second


def test_a_rating_that_moved_since_it_was_read_refuses_the_write(aws: dict[str, str]) -> None:
    community = _community(aws)
    from functions.ports.community import ArchiveEntry, FinishedGameWrite

    first = StoredRating("ada", "classical", MU + 1, SIGMA - 1, 1, "g1")
    entry = ArchiveEntry("g1", "classical", "", "2026-01-01T00:00:00.000Z", "draw", (), {}, {}, True)
    assert community.record(FinishedGameWrite(entry=entry, ratings=[(None, first)]))
    stale = FinishedGameWrite(
        entry=entry._replace(game_id="g2"), ratings=[(None, first._replace(last_game="g2"))]
    )
    with pytest.raises(RatingMoved):
        community.record(stale)
    assert community.rating("ada", "classical") == first and not community.recorded("g2")


def test_a_table_kept_from_before_the_leaderboard_index_gets_it() -> None:
    """``make run`` on a data directory made before issue 34: the table exists without
    ``by_rating``; starting the stack adds it, as CloudFormation adds an index to a table."""
    import copy

    from moto import mock_aws

    from local_stack.template import create_resources, load_template

    with mock_aws():
        dynamodb = boto3.client("dynamodb", region_name="us-east-1")
        sqs = boto3.client("sqs", region_name="us-east-1")
        template = load_template()
        before = copy.deepcopy(template)
        table = before["Resources"]["GameTable"]["Properties"]
        table["GlobalSecondaryIndexes"] = [
            i for i in table["GlobalSecondaryIndexes"] if i["IndexName"] != "by_rating"
        ]
        table["AttributeDefinitions"] = [
            a for a in table["AttributeDefinitions"] if a["AttributeName"] not in ("board", "ordinal")
        ]
        name = create_resources(dynamodb, sqs, before)["GAME_TABLE"]
        create_resources(dynamodb, sqs, template)
        indexes = dynamodb.describe_table(TableName=name)["Table"]["GlobalSecondaryIndexes"]
        assert {i["IndexName"] for i in indexes} == {"by_kind", "by_due", "by_rating"}


def test_a_players_ratings_in_every_variant(aws: dict[str, str]) -> None:
    from functions.ports.community import ArchiveEntry, FinishedGameWrite

    community = _community(aws)
    entry = ArchiveEntry("g1", "classical", "", "2026-01-01T00:00:00.000Z", "draw", (), {}, {}, True)
    classical = StoredRating("ada", "classical", MU + 1, SIGMA - 1, 1, "g1")
    other = StoredRating("ada", "1900", MU - 1, SIGMA - 1, 1, "g2")
    community.record(FinishedGameWrite(entry=entry, ratings=[(None, classical)]))
    community.record(
        FinishedGameWrite(entry=entry._replace(game_id="g2", variant="1900"), ratings=[(None, other)])
    )
    assert community.ratings_of("ada") == [other, classical]
    assert community.leaderboard("1900", 5) == [other]


def test_a_seat_given_up_counts_for_the_account_that_left_it(
    dynamo_store: DynamoGameStore, aws: dict[str, str]
) -> None:
    """Reliability from the events, the holder from seat_holders (functions/usecases/players/seat_holders.py):
    Ada misses Spring 1901 and leaves; Cyd takes FRANCE over; Bob wins by concession."""
    from functions.usecases.seats.seats import leave_game

    clock, community = FakeClock(), _community(aws)
    created = create_game(dynamo_store, clock, CreateGame())
    gid = created.game_id
    for power in POWERS:
        owner = {"FRANCE": User("ada", "Ada"), "GERMANY": User("bob", "Bob")}.get(power)
        join_game(dynamo_store, clock, gid, power, owner=owner)
    for power in POWERS:
        if power != "FRANCE":  # Ada gives no orders: a missed phase
            submit_orders(dynamo_store, clock, gid, Actor("player", power), [])
    process_turn(dynamo_store, clock, gid, Actor("creator"), expected_phase="S1901M")
    leave_game(dynamo_store, clock, gid, Actor("player", "FRANCE", user_id="ada"))
    join_game(dynamo_store, clock, gid, "FRANCE", owner=User("cyd", "Cyd"))
    for power in POWERS:
        if power != "GERMANY":
            cast_vote(dynamo_store, clock, gid, Actor("player", power), concede=True)
    assert record_finished_game(dynamo_store, community, gid) is True
    ada, bob, cyd = (community.stats(p) for p in ("ada", "bob", "cyd"))
    assert ada is not None and bob is not None and cyd is not None
    assert ada.counts["games_left"] == 1 and ada.counts["games_finished"] == 0 and ada.counts["left"] == 1
    assert ada.counts["phases_owed"] == ada.counts["missed"] == 1 and ada.counts["on_time"] == 0
    assert bob.counts["won"] == 1 and bob.counts["on_time"] == 1
    assert cyd.counts["survived"] == 1 and cyd.counts["phases_owed"] == 0
    assert cyd.counts["games_finished"] == 1
    board = [r.player for r in community.leaderboard("classical", 10)]
    assert board[0] == "bob" and board[-1] == "ada"  # leaving ranks below every player who stayed


def test_a_backgammon_game_is_no_diplomacy_record(dynamo_store: DynamoGameStore, aws: dict[str, str]) -> None:
    clock, community = FakeClock(), _community(aws)
    created = create_game(dynamo_store, clock, CreateGame())
    game = dynamo_store.load(created.game_id)
    game.settings["game"] = "backgammon"
    game.status, game.result = "COMPLETED", {"kind": "solo", "winners": ["WHITE"], "centers": {}}
    dynamo_store.save(game, expected_version=game.version)
    assert record_finished_game(dynamo_store, community, created.game_id) is False
    assert not community.recorded(created.game_id)
