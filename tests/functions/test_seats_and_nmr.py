"""Issue 12 items 5-6: missed orders, civil disorder, leaving, opened seats and replacement."""

from __future__ import annotations

from typing import Any

import pytest

from functions import errors
from functions.usecases.game import LifecycleSettings, game_map, state_of
from functions.usecases.games import CreateGame, create_game
from functions.usecases.kinds.lobby import game_summary
from functions.usecases.players import SCHEDULER, Actor, identify
from functions.usecases.seats import cast_vote, join_game, leave_game, open_seat, set_dummy_powers
from functions.usecases.turns import process_turn, submit_orders
from functions.usecases.turns.turn_adjudicate import dummy_orders
from functions.usecases.turns.views import events_after, game_view, history, orders_status
from testkit.fakes import FakeClock, InMemoryGameStore
from tests.functions.conftest import POWERS, Table

CREATOR = Actor("creator")
OPERATOR = Actor("operator")


def _table(store: InMemoryGameStore, clock: FakeClock, **settings: Any) -> Table:
    request = CreateGame(phase_seconds={"MOVEMENT": 3600, "RETREAT": 600, "ADJUSTMENT": 600},
                         lifecycle=LifecycleSettings(**settings))
    created = create_game(store, clock, request)
    tokens = {p: join_game(store, clock, created.game_id, p).token for p in POWERS}
    return Table(store, clock, created.game_id, created.token, tokens)


def _all_but(t: Table, absent: str) -> None:
    """Every power but ``absent`` submits (an empty set: its units hold)."""
    for power in POWERS:
        if power != absent and power in t.store.load(t.game_id).players:
            submit_orders(t.store, t.clock, t.game_id, t.player(power), [])


def _types(t: Table) -> list[str]:
    return [e["type"] for e in events_after(t.store, t.game_id, 0, limit=500)["events"]]


def test_two_missed_movement_phases_put_a_power_into_civil_disorder(
    store: InMemoryGameStore, clock: FakeClock
) -> None:
    # Given France never orders and its deadlines pass (issue 12 item 5; default civil_disorder_after 2)
    t = _table(store, clock)
    _all_but(t, "FRANCE")
    process_turn(store, clock, t.game_id, SCHEDULER, expected_phase=store.load(t.game_id).phase)
    game = store.load(t.game_id)
    assert game.seats["FRANCE"]["missed"] == 1 and "FRANCE" in game.players
    assert history(store, t.game_id)[0]["resolution"]["nmr"] == ["FRANCE"]
    _all_but(t, "FRANCE")
    process_turn(store, clock, t.game_id, SCHEDULER, expected_phase=store.load(t.game_id).phase)
    # Then France is in civil disorder: seat open, token dead, not waited on, units on the board
    game = store.load(t.game_id)
    view = game_view(game)
    assert view["civil_disorder"] == ["FRANCE"] and "FRANCE" in view["open_seats"]
    assert view["seats"]["FRANCE"]["status"] == "civil_disorder"
    assert "FRANCE" in game_summary(game)["open_seats"] and "FRANCE" not in game_summary(game)["players"]
    assert "FRANCE" not in orders_status(game)["powers_with_orders"]
    assert {u["power"] for u in view["units"]} >= {"FRANCE"}
    with pytest.raises(errors.NotAPlayer):
        identify(game, t.tokens["FRANCE"])
    assert "CIVIL_DISORDER" in _types(t)
    assert "CIVIL_DISORDER" in [o.kind for o in store.outbox[t.game_id]]
    # When a newcomer joins France, they get a fresh token and the count starts afresh
    newcomer = join_game(store, clock, t.game_id, "FRANCE")
    game = store.load(t.game_id)
    assert identify(game, newcomer.token) == Actor("player", "FRANCE")
    with pytest.raises(errors.NotAPlayer):
        identify(game, t.tokens["FRANCE"])
    assert game_view(game)["seats"]["FRANCE"] == {"status": "player", "missed": 0}
    assert _types(t)[-2:] == ["PLAYER_JOINED", "PLAYER_REPLACED"]
    assert _types(t).count("GAME_STARTED") == 1  # a replacement does not restart the game


def test_a_manual_processing_is_not_a_missed_deadline(store: InMemoryGameStore, clock: FakeClock) -> None:
    t = _table(store, clock, civil_disorder_after=1)
    _all_but(t, "FRANCE")
    # by hand before the deadline: the operator (issue 11)
    process_turn(store, clock, t.game_id, OPERATOR, expected_phase=store.load(t.game_id).phase)
    game = store.load(t.game_id)
    assert "FRANCE" in game.players and game.seats["FRANCE"]["missed"] == 0
    assert history(store, t.game_id)[0]["resolution"]["nmr"] == ["FRANCE"]  # still recorded


def test_civil_disorder_after_zero_never(store: InMemoryGameStore, clock: FakeClock) -> None:
    t = _table(store, clock, civil_disorder_after=0)
    for _ in range(3):
        process_turn(store, clock, t.game_id, SCHEDULER, expected_phase=store.load(t.game_id).phase)
    assert set(store.load(t.game_id).players) == set(POWERS)


def test_nmr_extensions_move_the_deadline_instead(store: InMemoryGameStore, clock: FakeClock) -> None:
    # Given one extension per power
    t = _table(store, clock, nmr_extensions=1)
    _all_but(t, "FRANCE")
    before = store.load(t.game_id).deadline
    # When the deadline fires with France missing, the phase is extended, not processed
    first = process_turn(store, clock, t.game_id, SCHEDULER, expected_phase=store.load(t.game_id).phase)
    game = store.load(t.game_id)
    assert first.extended and game.phase == "S1901M" and game.deadline != before
    assert game.seats["FRANCE"]["extended"] == 1 and "NMR_EXTENSION" in _types(t)
    # the creator's "process now" is never extended; the next firing processes
    second = process_turn(store, clock, t.game_id, SCHEDULER, expected_phase=store.load(t.game_id).phase)
    assert not second.extended and store.load(t.game_id).phase == "F1901M"


def test_civil_disorder_powers_are_out_of_the_draw_quorum(store: InMemoryGameStore, clock: FakeClock) -> None:
    t = _table(store, clock, civil_disorder_after=1)
    _all_but(t, "FRANCE")
    process_turn(store, clock, t.game_id, SCHEDULER, expected_phase=store.load(t.game_id).phase)
    for power in POWERS:
        if power != "FRANCE":
            done = cast_vote(store, clock, t.game_id, t.player(power), draw=True)
    assert done.result is not None and done.result["kind"] == "draw"
    assert "FRANCE" in done.result["winners"]  # DIAS: a survivor in civil disorder shares the draw


def test_a_game_nobody_plays_any_more_is_abandoned(store: InMemoryGameStore, clock: FakeClock) -> None:
    t = _table(store, clock, civil_disorder_after=1)
    done = process_turn(store, clock, t.game_id, SCHEDULER, expected_phase=store.load(t.game_id).phase)
    assert done.game_status == "COMPLETED"
    result = game_view(store.load(t.game_id))["result"]
    assert result["kind"] == "abandoned" and result["winners"] == []
    assert set(result["scores"]["draw_size"].values()) == {0.0}


def test_leave_and_replacement(table: Table) -> None:
    s, c, g = table.store, table.clock, table.game_id
    submit_orders(s, c, g, table.player("FRANCE"), ["A PAR - BUR"])
    cast_vote(s, c, g, table.player("FRANCE"), draw=True)
    # When France leaves, its token, orders and vote go; the seat is open
    left = leave_game(s, c, g, table.player("FRANCE"))
    assert left.status == "open" and left.open_seats == ["FRANCE"]
    game = s.load(g)
    assert "FRANCE" not in game.pending_orders and "FRANCE" not in game.votes
    with pytest.raises(errors.NotAPlayer):
        identify(game, table.tokens["FRANCE"])
    assert "FRANCE" not in orders_status(game)["powers_with_orders"]
    assert "SEAT_OPENED" in _types(table)
    # Then anyone may take it over (a named or a random seat)
    taken = join_game(s, c, g)
    assert taken.power == "FRANCE"
    with pytest.raises(errors.GameFull):
        join_game(s, c, g)


def test_the_creator_opens_a_seat(table: Table) -> None:
    s, c, g = table.store, table.clock, table.game_id
    with pytest.raises(errors.Forbidden):
        open_seat(s, c, g, table.player("ENGLAND"), "FRANCE")
    opened = open_seat(s, c, g, CREATOR, "france")
    assert opened.power == "FRANCE" and opened.open_seats == ["FRANCE"]
    assert open_seat(s, c, g, CREATOR, "FRANCE").open_seats == ["FRANCE"]  # already open: unchanged
    with pytest.raises(errors.NotAPlayer):
        identify(s.load(g), table.tokens["FRANCE"])
    with pytest.raises(errors.UnknownPower):
        open_seat(s, c, g, CREATOR, "NARNIA")
    fresh = join_game(s, c, g, "FRANCE")
    assert identify(s.load(g), fresh.token) == Actor("player", "FRANCE")


def test_dummy_powers_are_never_joinable_nor_waited_on(store: InMemoryGameStore, clock: FakeClock) -> None:
    created = create_game(store, clock, CreateGame(lifecycle=LifecycleSettings(dummy_powers=("turkey",))))
    for power in POWERS[:-1]:
        join_game(store, clock, created.game_id, power)
    game = store.load(created.game_id)
    assert game.started_at is not None  # every seat but the dummy's is taken
    with pytest.raises(errors.PowerTaken):
        join_game(store, clock, created.game_id, "TURKEY")
    with pytest.raises(errors.GameFull):
        join_game(store, clock, created.game_id)
    assert game_view(game)["dummy_powers"] == ["TURKEY"]
    assert "TURKEY" not in orders_status(game)["powers_with_orders"]
    with pytest.raises(errors.PowerTaken):
        open_seat(store, clock, created.game_id, CREATOR, "TURKEY")
    with pytest.raises(errors.ValidationFailed):
        create_game(store, clock, CreateGame(lifecycle=LifecycleSettings(dummy_powers=tuple(POWERS))))


def test_a_demo_seats_its_creator_and_its_dummies_play(store: InMemoryGameStore, clock: FakeClock) -> None:
    # Given a demo game (issue 12 item 8)
    request = CreateGame(lifecycle=LifecycleSettings(demo=True, demo_power="italy"))
    created = create_game(store, clock, request)
    assert created.power == "ITALY" and created.player_token
    game = store.load(created.game_id)
    assert identify(game, created.player_token) == Actor("player", "ITALY")
    assert game_view(game)["dummy_powers"] == [p for p in POWERS if p != "ITALY"]
    assert orders_status(game)["powers_with_orders"] == ["ITALY"]
    with pytest.raises(errors.GameFull):
        join_game(store, clock, created.game_id)
    # When the creator processes, every dummy's orders are recorded, seeded by game and phase
    process_turn(store, clock, created.game_id, CREATOR, expected_phase=store.load(created.game_id).phase)
    played = history(store, created.game_id)[0]
    assert set(played["orders"]) == set(POWERS) - {"ITALY"}
    assert played["resolution"]["nmr"] == ["ITALY"]
    game.pending_orders = {}
    assert dummy_orders(game, state_of(game), game_map(game.variant)) == played["orders"]
    with pytest.raises(errors.ValidationFailed):
        both = LifecycleSettings(demo=True, dummy_powers=("FRANCE",))
        create_game(store, clock, CreateGame(lifecycle=both))


def test_the_creator_chooses_dummies_while_forming(store: InMemoryGameStore, clock: FakeClock) -> None:
    created = create_game(store, clock, CreateGame(phase_seconds={"MOVEMENT": 600}))
    for power in POWERS[:5]:
        join_game(store, clock, created.game_id, power)
    with pytest.raises(errors.Forbidden):
        set_dummy_powers(store, clock, created.game_id, Actor("player", "FRANCE"), ["TURKEY"])
    with pytest.raises(errors.PowerTaken):
        set_dummy_powers(store, clock, created.game_id, CREATOR, ["FRANCE"])
    first = set_dummy_powers(store, clock, created.game_id, CREATOR, ["TURKEY"])
    assert first.open_seats == ["RUSSIA"] and not first.started
    # the dummies filling the last seat start the game, with its first deadline
    done = set_dummy_powers(store, clock, created.game_id, CREATOR, ["russia", "turkey"])
    assert done.started and done.dummy_powers == ["RUSSIA", "TURKEY"]
    game = store.load(created.game_id)
    assert game.deadline is not None and "GAME_STARTED" in [e.type for e in store.events[created.game_id]]
    with pytest.raises(errors.Forbidden):  # fixed once started
        set_dummy_powers(store, clock, created.game_id, CREATOR, [])


def test_leaving_a_game_still_forming_just_frees_the_seat(store: InMemoryGameStore, clock: FakeClock) -> None:
    created = create_game(store, clock, CreateGame())
    join_game(store, clock, created.game_id, "FRANCE")
    leave_game(store, clock, created.game_id, Actor("player", "FRANCE"))
    join_game(store, clock, created.game_id, "FRANCE")
    types = [e.type for e in store.events[created.game_id]]
    assert "PLAYER_REPLACED" not in types and store.load(created.game_id).started_at is None


def test_a_game_stored_before_started_at_counts_as_started_once_full(table: Table) -> None:
    game = table.store.load(table.game_id)
    game.started_at = None  # as stored before issue 12
    table.store.games[table.game_id] = game
    leave_game(table.store, table.clock, table.game_id, table.player("FRANCE"))
    game = table.store.load(table.game_id)
    assert game.started_at is not None and "FRANCE" not in orders_status(game)["powers_with_orders"]


def test_a_phase_only_dummies_decide_is_processed_at_once(store: InMemoryGameStore, clock: FakeClock) -> None:
    # Given an untimed game with Austria a dummy, and Italy's fleet in the Adriatic
    # (process_turn's docstring: nobody is waited on, so the phase does not wait)
    created = create_game(store, clock, CreateGame(lifecycle=LifecycleSettings(dummy_powers=("AUSTRIA",))))
    for power in POWERS:
        if power != "AUSTRIA":
            join_game(store, clock, created.game_id, power)
    game = store.load(created.game_id)
    game.state = {**game.state, "units": [
        {**u, "location": "ADR"} if u["location"] == "NAP" else u for u in game.state["units"]]}
    store.save(game, expected_version=game.version)
    submit_orders(store, clock, created.game_id, Actor("player", "ITALY"), ["A VEN-TRI", "F ADR S A VEN-TRI"])
    # When the creator processes Spring, the dummy's fleet in Trieste is dislodged
    commits = store.commits
    done = process_turn(store, clock, created.game_id, CREATOR,
                        expected_phase=store.load(created.game_id).phase)
    # Then its retreat phase (the dummy's decision only) is processed too: the fleet disbands
    game = store.load(created.game_id)
    played = [p["phase"] for p in history(store, created.game_id)]
    assert played == ["S1901M", "S1901R"] and game.phase == "F1901M" and done.phase == "F1901M"
    assert done.processed_phase == "S1901M"
    assert not any(u["location"] == "TRI" and u["power"] == "AUSTRIA" for u in game.state["units"])
    # issue 30: both phases in one commit, their events and notices numbered without a gap
    assert store.commits == commits + 1
    assert [e.seq for e in store.events[created.game_id]] == list(range(1, game.event_seq + 1))
    assert [o.seq for o in store.outbox[created.game_id]] == list(range(1, game.outbox_seq + 1))
    assert [o.kind for o in store.outbox[created.game_id]][-2:] == ["PHASE_PROCESSED", "PHASE_PROCESSED"]
