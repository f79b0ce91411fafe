"""DynamoGameStore under moto: versioned conditional writes, transactions, bounded META."""

from __future__ import annotations

import threading
from typing import Any

import boto3
import pytest

from functions.errors import StalePhase
from functions.ports import (
    AlreadyExists,
    EventRecord,
    GameRecord,
    ItemNotFound,
    OutboxRecord,
    PhaseRecord,
    StaleVersion,
)
from functions.usecases.games import CreateGame, create_game
from functions.usecases.kinds.lobby import list_games
from functions.usecases.players import SCHEDULER, Actor
from functions.usecases.seats import join_game
from functions.usecases.turns import process_turn, submit_orders
from functions.usecases.turns.views import events_after, history
from infra.dynamodb import items, keys
from infra.dynamodb.game_store import DynamoGameStore
from testkit.fakes import FakeClock
from testkit.openings import SPRING_1901

POWERS = sorted(SPRING_1901)


def _record(game_id: str = "g1") -> GameRecord:
    return GameRecord(
        game_id=game_id, variant="classical", rules="2023", created_at="2024-01-01T00:00:00.000Z",
        creator_token_hash="h", state={"year": 1901, "units": [{"kind": "A"}]}, phase="S1901M",
        phase_started_at="2024-01-01T00:00:00.000Z", settings={"phase_seconds": {}, "private": False},
    )


def test_round_trip_and_version(dynamo_store: DynamoGameStore) -> None:
    created = dynamo_store.create(_record())
    loaded = dynamo_store.load("g1")
    assert loaded == created and loaded.version == 1
    with pytest.raises(ItemNotFound):
        dynamo_store.load("nope")
    with pytest.raises(AlreadyExists):
        dynamo_store.create(_record())


def test_save_is_conditional_on_the_version_read(dynamo_store: DynamoGameStore) -> None:
    dynamo_store.create(_record())
    first, second = dynamo_store.load("g1"), dynamo_store.load("g1")
    first.pending_orders = {"FRANCE": ["A PAR H"]}
    dynamo_store.save(first, expected_version=first.version)
    second.pending_orders = {"ITALY": ["A ROM H"]}
    with pytest.raises(StaleVersion):  # a domain error, never a ClientError
        dynamo_store.save(second, expected_version=second.version)
    assert dynamo_store.load("g1").pending_orders == {"FRANCE": ["A PAR H"]}


def test_commit_turn_is_all_or_nothing(dynamo_store: DynamoGameStore) -> None:
    dynamo_store.create(_record())
    game = dynamo_store.load("g1")
    phase = PhaseRecord(0, "S1901M", game.state, {}, {"results": []}, "2024-01-01T00:00:01.000Z")
    event = EventRecord(1, "PHASE_PROCESSED", "S1901M", {}, "t")
    outbox = OutboxRecord(1, "PHASE_PROCESSED", "g1", "g1:S1901M", {"phase": "S1901M"})
    game.event_seq, game.outbox_seq = 1, 1
    dynamo_store.commit_turn(game, expected_version=1, phases=[phase], events=[event], outbox=[outbox])
    # a second commit from the same stale read writes nothing at all
    with pytest.raises(StaleVersion):
        dynamo_store.commit_turn(
            game, expected_version=1, phases=[PhaseRecord(1, "F1901M", {}, {}, {"results": []}, "t")],
            events=[EventRecord(2, "PHASE_PROCESSED", "F1901M", {}, "t")],
        )
    assert [p.phase for p in dynamo_store.phases("g1")] == ["S1901M"]
    assert dynamo_store.last_phase("g1") == phase
    assert dynamo_store.events_after("g1", 0) == [event]
    assert dynamo_store.outbox("g1") == [outbox]


def test_keys_are_zero_padded_and_sorted() -> None:
    assert keys.phase_sk(3, "F1901M") == "PHASE#000003#F1901M"
    assert keys.event_sk(12) == "EVENT#0000000012"
    assert keys.event_sk(9) < keys.event_sk(10)


def _seated(store: DynamoGameStore, clock: FakeClock) -> tuple[str, dict[str, str]]:
    game_id = create_game(store, clock, CreateGame()).game_id
    return game_id, {p: join_game(store, clock, game_id, p).token for p in POWERS}


def test_use_cases_on_dynamodb_and_bounded_meta(dynamo_store: DynamoGameStore) -> None:
    clock = FakeClock()
    game_id, _ = _seated(dynamo_store, clock)
    sizes = []
    for _ in range(6):
        for power, orders in SPRING_1901.items():
            submit_orders(dynamo_store, clock, game_id, Actor("player", power), orders)
        process_turn(dynamo_store, clock, game_id, SCHEDULER, expected_phase=dynamo_store.load(game_id).phase)
        sizes.append(len(str(items.game_item(dynamo_store.load(game_id)))))
    assert len(history(dynamo_store, game_id)) == 6
    assert max(sizes) < 2 * min(sizes) < 20_000  # META does not grow with the game's length
    seqs = [e["seq"] for e in events_after(dynamo_store, game_id, 0, limit=500)["events"]]
    assert seqs == list(range(1, len(seqs) + 1))
    assert [g["game_id"] for g in list_games(dynamo_store)] == [game_id]


class AtomicCalls:
    """A client whose every call is atomic, as each DynamoDB request is. moto's in-memory
    backend checks a condition and writes in two steps without a lock, so racing threads
    could both pass; DynamoDB never lets them. Between calls, threads interleave freely."""

    lock = threading.Lock()

    def __init__(self) -> None:
        self._client = boto3.client("dynamodb", region_name="us-east-1")

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._client, name)

        def call(**kwargs: Any) -> Any:
            with self.lock:
                return method(**kwargs)

        return call


@pytest.mark.parametrize("attempt", range(3))
def test_racing_process_turn_threads_adjudicate_once(aws: dict[str, str], attempt: int) -> None:
    clock = FakeClock()
    setup = DynamoGameStore(aws["GAME_TABLE"], client=AtomicCalls())
    game_id, _ = _seated(setup, clock)
    outcomes: list[str] = []
    barrier = threading.Barrier(4)

    def racer(kind: str) -> None:
        store = DynamoGameStore(aws["GAME_TABLE"], client=AtomicCalls())
        barrier.wait()
        try:
            if kind == "process":
                process_turn(store, clock, game_id, SCHEDULER, expected_phase="S1901M")
                outcomes.append("processed")
            else:
                submit_orders(store, clock, game_id, Actor("player", kind), SPRING_1901[kind],
                              phase="S1901M")
                outcomes.append(f"accepted:{kind}")
        except StalePhase:
            outcomes.append(f"stale:{kind}")

    threads = [threading.Thread(target=racer, args=(k,)) for k in ("process", "process", "FRANCE", "ITALY")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    phases = setup.phases(game_id)
    assert [p.phase for p in phases] == ["S1901M"]  # adjudicated exactly once
    assert outcomes.count("processed") == 1 and outcomes.count("stale:process") == 1
    for power in ("FRANCE", "ITALY"):
        # each submission is either in the adjudication or was refused with 409
        assert (f"accepted:{power}" in outcomes) == (power in phases[0].orders)
        assert (f"stale:{power}" in outcomes) != (power in phases[0].orders)


def test_phases_are_read_a_page_at_a_time(dynamo_store: DynamoGameStore) -> None:
    # issue 11: history is paginated; a page is one key-range query, never the whole game
    game = GameRecord(game_id="g7", variant="classical", rules="2023", created_at="t",
                      creator_token_hash="h", state={}, phase="S1901M", phase_started_at="t")
    dynamo_store.create(game)
    version = 1
    for n in range(7):
        game.version = version
        dynamo_store.commit_turn(game, expected_version=version,
                                 phases=[PhaseRecord(n, f"P{n}", {}, {}, {"results": []}, "t")])
        version += 1
    assert [p.n for p in dynamo_store.phases("g7")] == list(range(7))
    assert [p.n for p in dynamo_store.phases("g7", limit=3)] == [0, 1, 2]
    assert [p.n for p in dynamo_store.phases("g7", after=2, limit=3)] == [3, 4, 5]
    assert [p.n for p in dynamo_store.phases("g7", after=5, limit=3)] == [6]
    assert dynamo_store.phases("g7", after=6, limit=3) == []
    assert [p.n for p in dynamo_store.phases("g7", after=4)] == [5, 6]
