"""Reliability from a game's events (issue 34 item 3): the events are produced by the real use
cases over the in-memory store, so the test reads the log exactly as the game store keeps it."""

from __future__ import annotations

from typing import Any

from community.reliability import Reliability, Tenure, by_player, reliability, tenures
from functions.ports import EventRecord
from functions.usecases.game import LifecycleSettings
from functions.usecases.games import CreateGame, create_game
from functions.usecases.players import SCHEDULER
from functions.usecases.seats import cast_vote, join_game, leave_game
from functions.usecases.turns import process_turn, submit_orders
from testkit.fakes import FakeClock, InMemoryGameStore
from tests.functions.conftest import POWERS, Table


def _table(**settings: Any) -> Table:
    store, clock = InMemoryGameStore(), FakeClock()
    request = CreateGame(phase_seconds={"MOVEMENT": 3600, "RETREAT": 600, "ADJUSTMENT": 600},
                         lifecycle=LifecycleSettings(**settings))
    created = create_game(store, clock, request)
    tokens = {p: join_game(store, clock, created.game_id, p).token for p in POWERS}
    return Table(store, clock, created.game_id, created.token, tokens)


def _submit(t: Table, *, skip: tuple[str, ...] = ()) -> None:
    """Every seated power not in ``skip`` submits an empty set (its units hold)."""
    game = t.store.load(t.game_id)
    for power in POWERS:
        if power not in skip and power in game.players:
            submit_orders(t.store, t.clock, t.game_id, t.player(power), [])


def _deadline(t: Table) -> None:
    """The deadline fires (the scheduler processes, or extends for a late power)."""
    process_turn(t.store, t.clock, t.game_id, SCHEDULER, expected_phase=t.store.load(t.game_id).phase)


def _events(t: Table) -> list[EventRecord]:
    return t.store.events_after(t.game_id, 0, limit=10_000)


def _played() -> Table:
    """S1901M France late (extended, then orders); F1901M Germany misses; then Italy leaves and
    a newcomer takes the seat; S1902M everyone orders; the survivors vote a draw."""
    t = _table(nmr_extensions=1, civil_disorder_after=3)
    _submit(t, skip=("FRANCE",))
    _deadline(t)  # France has an extension: S1901M goes on
    submit_orders(t.store, t.clock, t.game_id, t.player("FRANCE"), [])
    if t.store.load(t.game_id).phase == "S1901M":
        _deadline(t)
    _submit(t, skip=("GERMANY",))
    _deadline(t)  # extended for Germany
    _deadline(t)  # processed: Germany missed F1901M
    leave_game(t.store, t.clock, t.game_id, t.player("ITALY"))
    join_game(t.store, t.clock, t.game_id, "ITALY")
    while t.store.load(t.game_id).phase != "S1902M":
        _submit(t)
        if t.store.load(t.game_id).phase != "S1902M":
            _deadline(t)
    _submit(t)
    _deadline(t)
    for power in POWERS:
        cast_vote(t.store, t.clock, t.game_id, t.player(power), draw=True)
    assert t.store.load(t.game_id).status == "COMPLETED"
    return t


def test_tenures_count_on_time_late_and_missed_phases_from_the_events() -> None:
    t = _played()
    found = {(x.power, x.ended): x for x in tenures(_events(t))}
    movement = 3  # S1901M, F1901M, S1902M; W1901A only where a power has builds to make
    france = found[("FRANCE", "finished")]
    assert (france.late, france.missed) == (1, 0)
    germany = found[("GERMANY", "finished")]
    assert (germany.missed, germany.late) == (1, 0)  # extended, and still nothing: missed
    austria = found[("AUSTRIA", "finished")]
    assert austria.on_time == austria.owed >= movement and austria.late == austria.missed == 0
    italy_left = found[("ITALY", "left")]
    assert italy_left.owed == 2 and italy_left.on_time == 2  # S1901M and F1901M, then left
    newcomer = found[("ITALY", "finished")]
    assert newcomer.joined_seq > italy_left.joined_seq and newcomer.owed >= 1


def test_a_player_record_adds_up_tenures_and_counts_games_left() -> None:
    t = _played()
    events = _events(t)
    seats = {x.joined_seq: f"player-{x.power.lower()}" for x in tenures(events)}
    newcomer = max(x.joined_seq for x in tenures(events) if x.power == "ITALY")
    seats[newcomer] = "newcomer"
    records = by_player(events, seats)
    assert records["player-italy"].games_left == 1 and records["newcomer"].games_left == 0
    assert records["player-france"].on_time_share is not None
    assert records["player-france"].on_time_share < 1.0
    assert records["player-austria"].on_time_share == 1.0
    assert set(records) == {f"player-{p.lower()}" for p in POWERS} | {"newcomer"}


def test_civil_disorder_ends_a_tenure_and_is_counted() -> None:
    t = _table(civil_disorder_after=1)
    _submit(t, skip=("RUSSIA",))
    _deadline(t)
    russia = [x for x in tenures(_events(t)) if x.power == "RUSSIA"]
    assert [(x.ended, x.missed, x.owed) for x in russia] == [("civil_disorder", 1, 1)]
    assert reliability(russia[0]).civil_disorders == 1


def test_records_add_and_a_player_with_no_phase_has_no_share() -> None:
    a = reliability(Tenure("FRANCE", 1, owed=4, on_time=3, missed=1, ended="finished"))
    b = reliability(Tenure("FRANCE", 9, owed=2, on_time=1, late=1, ended="left"))
    total = a + b
    assert (total.phases_owed, total.on_time, total.late, total.missed, total.games_left, total.seats) == \
        (6, 4, 1, 1, 1, 2)
    assert total.on_time_share == 4 / 6
    assert Reliability().on_time_share is None


def test_a_phase_processed_event_stored_before_issue_29_still_counts() -> None:
    # Given an event log from before issue 29: PHASE_PROCESSED carried the resolution, with nmr
    # inside it (community/reliability.py reads both shapes)
    joined = EventRecord(1, "PLAYER_JOINED", "S1901M", {"power": "FRANCE"}, "t")
    before = {"phase": "S1901M", "orders": {}, "resolution": {"results": [], "nmr": ["FRANCE"]}}
    old = EventRecord(2, "PHASE_PROCESSED", "S1901M", before, "t")
    now = {"phase": "F1901M", "orders": {"FRANCE": []}, "nmr": []}
    new = EventRecord(3, "PHASE_PROCESSED", "F1901M", now, "t")
    # When the tenures are read
    (tenure,) = tenures([joined, old, new])
    # Then the old phase counts as missed and the new one as on time
    assert (tenure.owed, tenure.missed, tenure.on_time) == (2, 1, 1)
