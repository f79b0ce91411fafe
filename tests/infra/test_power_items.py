"""Issue 29 item 3 on DynamoDB (moto): an order, a wait flag or a vote writes the power's own
item and its event, never META; the phase pin holds against process_turn's one transaction;
a game stored before power items (layout 1) keeps working and moves over on its next writes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import boto3
import pytest

from functions.errors import StalePhase
from functions.ports import EventRecord, GameRecord, OutboxRecord
from functions.usecases.game import LifecycleSettings
from functions.usecases.games import CreateGame, create_game
from functions.usecases.players import SCHEDULER, Actor
from functions.usecases.press.press import send_message
from functions.usecases.press.reading import with_unread
from functions.usecases.seats import cast_vote, join_game
from functions.usecases.turns import process_turn, set_wait_flag, submit_orders
from infra.dynamodb import items, keys
from infra.dynamodb.game_store import DynamoGameStore
from infra.dynamodb.press_store import DynamoPressStore
from testkit.fakes import FakeClock
from testkit.openings import FALL_1901, SPRING_1901

POWERS = sorted(SPRING_1901)


class Calls:
    """Every DynamoDB call the client makes (botocore's events), with its parameters."""

    def __init__(self, client: Any) -> None:
        self.seen: list[tuple[str, dict[str, Any]]] = []
        client.meta.events.register("provide-client-params.dynamodb", self._record)

    def _record(self, params: dict[str, Any], model: Any, **_: Any) -> None:
        self.seen.append((model.name, params))

    def clear(self) -> None:
        self.seen.clear()

    def written_keys(self) -> list[str]:
        """The sort keys of every item written, in order."""
        found: list[str] = []
        for name, params in self.seen:
            if name == "PutItem":
                found.append(params["Item"]["sk"]["S"])
            elif name == "TransactWriteItems":
                found += [a["Put"]["Item"]["sk"]["S"] for a in params["TransactItems"] if "Put" in a]
        return found


class HookedStore(DynamoGameStore):
    """Runs ``before_commit`` once, right before the next turn's transaction is sent."""

    before_commit: Callable[[], object] | None = None

    def commit_turn(self, game: GameRecord, *, expected_version: int, phases: Any = (),
                    events: Any = (), outbox: Any = ()) -> GameRecord:
        hook, self.before_commit = self.before_commit, None
        if hook is not None:
            hook()
        return super().commit_turn(game, expected_version=expected_version, phases=phases, events=events,
                                   outbox=outbox)


@pytest.fixture
def client(aws: dict[str, str]) -> Any:
    return boto3.client("dynamodb", region_name="us-east-1")


@pytest.fixture
def store(aws: dict[str, str], client: Any) -> HookedStore:
    return HookedStore(aws["GAME_TABLE"], client=client)


def _seated(store: DynamoGameStore, clock: FakeClock, draw_votes: str = "secret") -> str:
    request = CreateGame(lifecycle=LifecycleSettings(draw_votes=draw_votes))
    game_id = create_game(store, clock, request).game_id
    for power in POWERS:
        join_game(store, clock, game_id, power)
    return game_id


def test_an_order_writes_the_powers_item_and_its_event_only(store: HookedStore, client: Any) -> None:
    clock = FakeClock()
    game_id = _seated(store, clock, draw_votes="public")
    seq = store.load(game_id).event_seq
    calls = Calls(client)
    # When France orders, raises its wait flag and votes
    submit_orders(store, clock, game_id, Actor("player", "FRANCE"), SPRING_1901["FRANCE"], phase="S1901M")
    set_wait_flag(store, clock, game_id, Actor("player", "FRANCE"), True)
    cast_vote(store, clock, game_id, Actor("player", "FRANCE"), draw=True)
    # Then each was one read (the game's head, one query) and one write of France's item + event
    reads = [name for name, _ in calls.seen if name in ("Query", "GetItem", "BatchGetItem")]
    assert reads == ["Query"] * 3
    assert keys.META not in calls.written_keys()
    events = [keys.event_sk(seq + n) for n in (1, 2, 3)]
    assert calls.written_keys() == [k for event in events for k in ("META#POWER#FRANCE", event)]
    game = store.load(game_id)
    assert game.pending_orders == {"FRANCE": SPRING_1901["FRANCE"]}
    assert game.wait_flags == {"FRANCE": True} and game.votes == {"FRANCE": {"draw": True}}
    assert game.event_seq == seq + 3 and game.turns["FRANCE"].version == 3


def test_an_order_read_before_a_turn_and_written_after_it_is_refused_not_carried_over(
    store: HookedStore,
) -> None:
    clock = FakeClock()
    game_id = _seated(store, clock)
    # Given France read the game in Spring and the turn was then processed
    stale_read = store.load(game_id)
    process_turn(store, clock, game_id, SCHEDULER, expected_phase="S1901M")
    # When its order write arrives: the event number it takes is gone, so nothing is written
    stale_read.pending_orders["FRANCE"] = ["A PAR - BUR"]
    event = EventRecord(stale_read.event_seq + 1, "ORDERS_SUBMITTED", "S1901M", {"power": "FRANCE"}, "t")
    with pytest.raises(Exception) as refused:
        store.save_turn(stale_read, "FRANCE", events=[event])
    assert type(refused.value).__name__ == "StaleVersion"
    # and through the use case: the retry sees the new phase and says so
    with pytest.raises(StalePhase):
        submit_orders(store, clock, game_id, Actor("player", "FRANCE"), ["A PAR - BUR"], phase="S1901M")
    assert store.load(game_id).pending_orders == {}  # nothing of Spring leaks into Fall


def test_an_order_stored_while_the_turn_is_adjudicated_is_adjudicated(store: HookedStore) -> None:
    clock = FakeClock()
    game_id = _seated(store, clock)
    # Given process_turn has read Spring (no orders), and France's orders commit before its turn does
    store.before_commit = lambda: submit_orders(
        DynamoGameStore(store.table_name, client=store.client), clock, game_id, Actor("player", "FRANCE"),
        SPRING_1901["FRANCE"], phase="S1901M")
    # When the turn commits: its transaction fails (the event number France took) and it starts over
    process_turn(store, clock, game_id, SCHEDULER, expected_phase="S1901M")
    # Then France's accepted orders are in Spring's adjudication, and Spring was adjudicated once
    phases = store.phases(game_id)
    assert [p.phase for p in phases] == ["S1901M"]
    assert phases[0].orders == {"FRANCE": SPRING_1901["FRANCE"]}


def _legacy_game(store: DynamoGameStore, client: Any, clock: FakeClock) -> str:
    """A game as stored before issue 29: every META field its own attribute, the decisions in
    META, press ledgers at PRESS#POWER#<power>, no layout attribute."""
    game_id = _seated(store, clock, draw_votes="public")
    game = store.load(game_id)
    game.pending_orders = {"ITALY": SPRING_1901["ITALY"], "FRANCE": ["A PAR H"]}
    game.wait_flags, game.votes = {"ITALY": True}, {"ITALY": {"draw": True}}
    attrs = {k: v for k, v in game.__dict__.items() if k not in ("turns", "layout")}
    attrs.update(pk=keys.game_pk(game_id), sk=keys.META, kind=keys.GAME_KIND, seated=sorted(game.players),
                 is_private=False, lobby={"settings": {}, "seats": {}, "result": None})
    client.put_item(TableName=store.table_name, Item=items.to_item(attrs, items.GAME_PACKED))
    powers = client.query(TableName=store.table_name,
                          KeyConditionExpression="pk = :pk AND begins_with(sk, :p)",
                          ExpressionAttributeValues={":pk": {"S": keys.game_pk(game_id)},
                                                     ":p": {"S": keys.POWER_PREFIX}})["Items"]
    for found in powers:
        client.delete_item(TableName=store.table_name, Key={"pk": found["pk"], "sk": found["sk"]})
    ledger = {"pk": keys.game_pk(game_id), "sk": "PRESS#POWER#ENGLAND", "game_id": game_id,
              "power": "ENGLAND", "version": 3, "inbox_seq": 2,
              "channels": {"ENGLAND+FRANCE": {"last": 2, "read": 0}},
              "opened": 0, "rate_window": 0, "rate_count": 0}
    client.put_item(TableName=store.table_name, Item=items.to_item(ledger))
    return game_id


def test_a_game_stored_before_power_items_keeps_working(store: HookedStore, client: Any) -> None:
    clock = FakeClock()
    game_id = _legacy_game(store, client, clock)
    press = DynamoPressStore(store.table_name, client=client)
    # Its decisions are read from META, its ledger from the old key
    game, ledgers = store.load_with_press(game_id)
    assert game.layout == 1 and game.pending_orders["ITALY"] == SPRING_1901["ITALY"]
    assert game.wait_flags == {"ITALY": True} and game.votes == {"ITALY": {"draw": True}}
    assert ledgers is not None and ledgers["ENGLAND"].unread_total() == 2
    view = with_unread({}, press, game, Actor("player", "ENGLAND"), ledgers)
    assert view == {"unread": 2}
    # France's new order set is its own item; Italy's orders, still in META, are kept
    submit_orders(store, clock, game_id, Actor("player", "FRANCE"), SPRING_1901["FRANCE"])
    both = {"ITALY": SPRING_1901["ITALY"], "FRANCE": SPRING_1901["FRANCE"]}
    assert store.load(game_id).pending_orders == both
    # A message to England moves its ledger to the new key, counting on from the old one
    send_message(store, press, clock, game_id, Actor("player", "FRANCE"), ["ENGLAND"], "again")
    assert press.ledger(game_id, "ENGLAND").unread_total() == 3
    ledgers = store.load_with_press(game_id)[1]
    assert ledgers is not None and ledgers["ENGLAND"].inbox_seq == 3
    # The turn adjudicates what META and the powers' items hold, then no decision is left in META
    process_turn(store, clock, game_id, SCHEDULER, expected_phase="S1901M")
    spring = store.phases(game_id)[0]
    assert spring.orders == {"ITALY": SPRING_1901["ITALY"], "FRANCE": SPRING_1901["FRANCE"]}
    assert spring.resolution["votes"] == {"ITALY": {"draw": True}}
    meta = client.get_item(TableName=store.table_name, Key=items.to_item({"pk": keys.game_pk(game_id),
                                                                          "sk": keys.META}))["Item"]
    assert "pending_orders" not in meta and "body" in meta
    assert store.load(game_id).pending_orders == {} and store.load(game_id).votes == {}
    submit_orders(store, clock, game_id, Actor("player", "FRANCE"), FALL_1901["FRANCE"])
    pending = store.load(game_id).pending_orders
    process_turn(store, clock, game_id, SCHEDULER, expected_phase="F1901M")
    assert store.phases(game_id)[1].orders == pending and list(pending) == ["FRANCE"]


def test_a_meta_write_moves_a_stored_games_decisions_to_the_powers_items(
    store: HookedStore, client: Any
) -> None:
    clock = FakeClock()
    game_id = _legacy_game(store, client, clock)
    calls = Calls(client)
    # When a META write happens (France leaves its seat open)
    from functions.usecases.seats.seats import leave_game

    leave_game(store, clock, game_id, Actor("player", "FRANCE"))
    # Then Italy's decisions went to its own item in the same transaction, France's are gone
    assert "META#POWER#ITALY" in calls.written_keys()
    game = store.load(game_id)
    assert game.pending_orders == {"ITALY": SPRING_1901["ITALY"]} and game.votes == {"ITALY": {"draw": True}}
    assert game.turns["ITALY"].orders == tuple(SPRING_1901["ITALY"])


def test_a_new_games_view_is_one_query(store: HookedStore, client: Any) -> None:
    clock = FakeClock()
    game_id = _seated(store, clock)
    press = DynamoPressStore(store.table_name, client=client)
    send_message(store, press, clock, game_id, Actor("player", "FRANCE"), ["ENGLAND"], "hello")
    calls = Calls(client)
    game, ledgers = store.load_with_press(game_id)
    assert [name for name, _ in calls.seen] == ["Query"]
    assert game.layout == keys.LAYOUT and ledgers is not None
    assert ledgers["ENGLAND"].unread_total() == 1 and "ITALY" not in ledgers


def test_meta_writes_without_events_leave_outbox_alone(store: HookedStore) -> None:
    """save() with no decision changed writes META only (plus what it is given)."""
    clock = FakeClock()
    game_id = _seated(store, clock)
    game = store.load(game_id)
    game.outbox_seq += 1
    notice = OutboxRecord(game.outbox_seq, "X", game_id, f"{game_id}:x", {})
    saved = store.save(game, expected_version=game.version, outbox=[notice])
    assert saved.version == game.version + 1 and store.load(game_id).outbox_seq == game.outbox_seq


def test_a_join_writes_meta_and_its_event_in_six_units_or_fewer(store: HookedStore, client: Any) -> None:
    """Issue 29's goal, a join in at most 6 write units (the mean of a game's seven joins, the
    last of which starts it): a join writes META and its PLAYER_JOINED event, which is also its
    notice (no OUTBOX item); a forming game's META leaves out the variant's start (under 1 KB)."""
    from bench.capacity import estimated_write_units

    clock = FakeClock()
    game_id = create_game(store, clock, CreateGame()).game_id
    calls = Calls(client)
    for power in POWERS:
        join_game(store, clock, game_id, power)
    joins = [params for name, params in calls.seen if name in ("PutItem", "TransactWriteItems")]
    assert len(joins) == 7
    units = [estimated_write_units(name, params) for name, params in calls.seen
             if name in ("PutItem", "TransactWriteItems")]
    assert units[:6] == [4.0] * 6  # META (one unit while forming) and the event, in a transaction
    assert sum(units) / len(units) <= 6
    # the one OUTBOX item is the start's PHASE_STARTED
    assert [k for k in calls.written_keys() if k.startswith(keys.OUTBOX_PREFIX)] == [keys.outbox_sk(1)]


def test_a_forming_games_meta_leaves_its_start_out_and_reads_it_back(store: HookedStore, client: Any) -> None:
    clock = FakeClock()
    game_id = create_game(store, clock, CreateGame()).game_id
    join_game(store, clock, game_id, "FRANCE")
    raw = client.get_item(TableName=store.table_name, Key={"pk": {"S": keys.game_pk(game_id)},
                                                           "sk": {"S": keys.META}})["Item"]
    assert "state" not in items.unpack(raw["body"])  # the variant's start, not stored
    forming = store.load(game_id)
    assert forming.state == items._start_state("classical") and forming.phase == "S1901M"
    for power in [p for p in POWERS if p != "FRANCE"]:
        join_game(store, clock, game_id, power)
    raw = client.get_item(TableName=store.table_name, Key={"pk": {"S": keys.game_pk(game_id)},
                                                           "sk": {"S": keys.META}})["Item"]
    assert "state" in items.unpack(raw["body"])  # a started game stores its position
    process_turn(store, clock, game_id, SCHEDULER, expected_phase="S1901M")
    assert store.load(game_id).phase == "F1901M"


def test_a_forming_game_away_from_its_start_keeps_its_state(store: HookedStore) -> None:
    """Only the variant's exact start is left out: any other position (an import, say) is stored."""
    clock = FakeClock()
    game_id = create_game(store, clock, CreateGame()).game_id
    game = store.load(game_id)
    moved = dict(game.state, year=1905)
    game.state = moved
    store.save(game, expected_version=game.version)
    assert store.load(game_id).state == moved
