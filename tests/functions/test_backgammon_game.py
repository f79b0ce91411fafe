"""Backgammon on the platform (issue 18 item 4): use cases on in-memory fakes.

The same store, conditional writes, seats, event log and views as Diplomacy, behind the
GameKind seam (functions/usecases/games/game_kinds.py); docs/backgammon.md and docs/api.md.
"""

from __future__ import annotations

import random

import pytest

from functions import errors
from functions.usecases.backgammon import BACKGAMMON, play
from functions.usecases.games import CreateGame
from functions.usecases.kinds import kind_named
from functions.usecases.kinds.lobby import list_games
from functions.usecases.players import Actor, identify
from functions.usecases.seats import join_game
from functions.usecases.turns import process_turn, retract_orders, set_wait_flag, submit_orders
from testkit.fakes import FakeClock, InMemoryGameStore

WHITE, BLACK = Actor("player", "WHITE"), Actor("player", "BLACK")


def new_game(store: InMemoryGameStore, clock: FakeClock, seed: int = 7, seated: bool = True) -> str:
    game_id = kind_named("backgammon").create(store, clock, CreateGame(game="backgammon", seed=seed)).game_id
    if seated:
        join_game(store, clock, game_id, "WHITE")
        join_game(store, clock, game_id, "BLACK")
    return game_id


def to_play(store: InMemoryGameStore, game_id: str) -> Actor:
    side = BACKGAMMON.view(store.load(game_id), WHITE)["to_play"]
    return Actor("player", side)


def test_create_waits_for_both_sides_before_rolling(store: InMemoryGameStore, clock: FakeClock) -> None:
    game_id = new_game(store, clock, seated=False)
    assert [e.type for e in store.events[game_id]] == ["GAME_CREATED", "GAME_STATE"]
    with pytest.raises(errors.GameNotStarted):
        play(store, clock, game_id, WHITE, "MOVE", [0, 12])
    join_game(store, clock, game_id, "WHITE")
    join_game(store, clock, game_id, "BLACK")
    types = [e.type for e in store.events[game_id]]
    assert types[-2:] == ["TURN_ROLLS", "MOVE_ROLLS"] and "GAME_STARTED" in types
    with pytest.raises(errors.GameFull):
        join_game(store, clock, game_id)
    with pytest.raises(errors.UnknownPower):
        join_game(store, clock, new_game(store, clock, seated=False), "RED")


def test_a_seeded_game_rolls_the_same_dice(store: InMemoryGameStore, clock: FakeClock) -> None:
    first, second = new_game(store, clock, seed=11), new_game(store, clock, seed=11)
    rolls = [[e.data for e in store.events[g] if e.type.endswith("ROLLS")] for g in (first, second)]
    assert rolls[0] == rolls[1] != []


def test_only_the_side_to_play_moves_and_sees_its_legal_moves(
    store: InMemoryGameStore, clock: FakeClock
) -> None:
    game_id = new_game(store, clock, seed=987654321)
    mover = to_play(store, game_id)
    other = WHITE if mover == BLACK else BLACK
    game = store.load(game_id)
    assert BACKGAMMON.view(game, mover)["legal_moves"] != []
    assert (
        BACKGAMMON.view(game, other)["legal_moves"] == []
        and BACKGAMMON.view(game, other)["side"] == other.power
    )
    # the dice seed would let a player predict the dice: no view shows it
    assert all("987654321" not in str(BACKGAMMON.view(game, a)) for a in (mover, other, Actor("anonymous")))
    before = store.load(game_id)
    with pytest.raises(errors.NotYourTurn):
        play(store, clock, game_id, other, "MOVE", [0, 12])
    with pytest.raises(errors.NotAPlayer):
        play(store, clock, game_id, Actor("anonymous"), "MOVE", [0, 12])
    assert store.load(game_id) == before


@pytest.mark.parametrize(
    ("kind", "move", "code"),
    [
        ("MOVE", None, "INVALID_MOVE_TYPE"),
        ("UNDO", None, "NOTHING_TO_UNDO"),
        ("RESIGN", None, "INVALID_INPUT_TYPE"),
        ("MOVE", [5, 12], "DIE_INDEX_INVALID"),
        ("MOVE", [0, 99], "SOURCE_INVALID"),
        ("MOVE", [0, None], "SOURCE_INVALID"),
    ],
)
def test_a_refused_input_is_a_422_with_the_seeds_code_and_writes_nothing(
    store: InMemoryGameStore, clock: FakeClock, kind: str, move: list[int | None] | None, code: str
) -> None:
    game_id = new_game(store, clock)
    before, events = store.load(game_id), list(store.events[game_id])
    with pytest.raises(errors.InvalidMove) as refused:
        play(store, clock, game_id, to_play(store, game_id), kind, move)
    assert refused.value.code == code and refused.value.status == 422 and refused.value.message
    assert store.load(game_id) == before and store.events[game_id] == events


def test_a_move_and_its_undo_are_logged_and_undo_restores_the_state(
    store: InMemoryGameStore, clock: FakeClock
) -> None:
    game_id = new_game(store, clock)
    mover = to_play(store, game_id)
    before = store.load(game_id)
    die, source = BACKGAMMON.view(before, mover)["legal_moves"][0]
    moved = play(store, clock, game_id, mover, "MOVE", [die, source])
    assert moved.events[0].type == "MOVE_MADE" and moved.events[0].data["move"] == [die, source]
    if moved.game.phase == before.phase:  # the turn goes on (not a forced single move)
        undone = play(store, clock, game_id, mover, "UNDO")
        assert [e.type for e in undone.events] == ["MOVE_UNDONE"]
        assert undone.game.state == before.state


def test_a_stale_turn_is_refused(store: InMemoryGameStore, clock: FakeClock) -> None:
    game_id = new_game(store, clock)
    with pytest.raises(errors.StalePhase):
        play(store, clock, game_id, to_play(store, game_id), "MOVE", [0, 12], phase="T0")


def test_a_concurrent_writer_makes_the_move_retry_on_the_new_version(
    store: InMemoryGameStore, clock: FakeClock
) -> None:
    # Given another writer's save lands between this move's read and its conditional write
    game_id = new_game(store, clock)
    mover = to_play(store, game_id)
    die, source = BACKGAMMON.view(store.load(game_id), mover)["legal_moves"][0]

    def other_writer() -> None:
        current = store.load(game_id)
        store.save(current, expected_version=current.version)

    store.before_write = other_writer
    version = store.load(game_id).version
    # When the move is played, Then it is applied once, on top of the other write
    played = play(store, clock, game_id, mover, "MOVE", [die, source])
    assert played.game.version == version + 2
    assert sum(e.type == "MOVE_MADE" for e in store.events[game_id]) == 1


def test_diplomacy_calls_refuse_a_backgammon_game_and_vice_versa(
    store: InMemoryGameStore, clock: FakeClock
) -> None:
    game_id = new_game(store, clock)
    with pytest.raises(errors.WrongGameKind):
        submit_orders(store, clock, game_id, WHITE, ["A PAR H"])
    with pytest.raises(errors.WrongGameKind):
        process_turn(store, clock, game_id, Actor("operator"), expected_phase=store.load(game_id).phase)
    before = store.load(game_id)
    with pytest.raises(errors.WrongGameKind):
        retract_orders(store, clock, game_id, WHITE)
    with pytest.raises(errors.WrongGameKind):
        set_wait_flag(store, clock, game_id, WHITE, True)
    assert store.load(game_id) == before
    diplomacy = kind_named("diplomacy").create(store, clock, CreateGame()).game_id
    join_game(store, clock, diplomacy, "FRANCE")
    with pytest.raises(errors.WrongGameKind):
        play(store, clock, diplomacy, Actor("player", "FRANCE"), "MOVE", [0, 1])


def test_settings_of_the_other_game_are_refused(store: InMemoryGameStore, clock: FakeClock) -> None:
    with pytest.raises(errors.ValidationFailed):
        kind_named("diplomacy").create(store, clock, CreateGame(seed=3))
    with pytest.raises(errors.ValidationFailed):
        kind_named("backgammon").create(
            store, clock, CreateGame(game="backgammon", phase_seconds={"MOVEMENT": 60})
        )
    with pytest.raises(errors.ValidationFailed):
        kind_named("backgammon").create(store, clock, CreateGame(game="backgammon", variant="1900"))
    with pytest.raises(errors.UnknownGame):
        kind_named("chess")


def test_listings_name_the_game_and_its_open_sides(store: InMemoryGameStore, clock: FakeClock) -> None:
    game_id = new_game(store, clock, seated=False)
    join_game(store, clock, game_id, "BLACK")
    listed = {g["game_id"]: g for g in list_games(store)}[game_id]
    assert (
        listed["game"] == "backgammon"
        and listed["open_seats"] == ["WHITE"]
        and listed["players"] == ["BLACK"]
    )


def test_a_whole_game_through_the_use_cases(store: InMemoryGameStore, clock: FakeClock) -> None:
    game_id = new_game(store, clock, seed=5)
    rng = random.Random(5)
    for _ in range(2000):
        game = store.load(game_id)
        if game.status != "ACTIVE":
            break
        mover = to_play(store, game_id)
        move = rng.choice(BACKGAMMON.view(game, mover)["legal_moves"])
        play(store, clock, game_id, mover, "MOVE", move)
    game = store.load(game_id)
    events = store.events[game_id]
    assert game.status == "COMPLETED"
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert events[-1].type == "GAME_WON" and events[-2].type == "GAME_STATE"
    winner = events[-1].data["winner"]
    assert events[-2].data["state"]["off"][winner] == 15
    assert BACKGAMMON.view(game, Actor("anonymous"))["result"]["winner"] == winner
    with pytest.raises(errors.GameNotActive):
        play(store, clock, game_id, WHITE, "UNDO")
    assert identify(game, None).kind == "anonymous"
