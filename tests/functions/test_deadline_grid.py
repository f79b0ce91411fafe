"""Issue 12 item 9: deadlines at a time of day (``deadline_at``), DST-correct with zoneinfo."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from functions import errors
from functions.usecases.game import LifecycleSettings
from functions.usecases.game.deadline_grid import check_grid, grid_deadline
from functions.usecases.games import CreateGame, create_game
from functions.usecases.players import Actor
from functions.usecases.seats import join_game
from functions.usecases.turns import process_turn, reminder_for
from testkit.fakes import FakeClock, InMemoryGameStore
from tests.functions.conftest import POWERS

BERLIN = check_grid({"time": "20:00", "zone": "Europe/Berlin"})


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.mark.parametrize(("start", "due"), [
    ("2026-01-10T19:00", "2026-01-11T19:00"),  # processed at 20:00 CET: due the next day 20:00 CET
    ("2026-01-10T14:00", "2026-01-10T19:00"),  # processed early (15:00): still due at 20:00, the grid holds
    ("2026-01-10T18:30", "2026-01-11T19:00"),  # 19:30: less than the hour's gap before 20:00
    ("2026-03-28T19:00", "2026-03-29T18:00"),  # spring forward (29 March): 20:00 CEST is 18:00 UTC
    ("2026-10-24T18:00", "2026-10-25T19:00"),  # fall back (25 October): 20:00 CET is 19:00 UTC
])
def test_the_next_wall_clock_time_after_the_gap(start: str, due: str) -> None:
    assert grid_deadline(BERLIN, "MOVEMENT", _utc(start)) == _utc(due)


def test_every_days_and_other_zones() -> None:
    grid = check_grid({"time": "09:30", "zone": "America/New_York",
                       "every_days": {"MOVEMENT": 3, "RETREAT": 1}, "min_gap_minutes": 0})
    start = _utc("2026-03-07T15:00")  # Saturday 10:00 EST; DST starts Sunday 8 March
    assert grid_deadline(grid, "MOVEMENT", start) == _utc("2026-03-10T13:30")  # Tuesday 09:30 EDT
    assert grid_deadline(grid, "RETREAT", start) == _utc("2026-03-08T13:30")  # Sunday 09:30 EDT
    assert grid_deadline(grid, "ADJUSTMENT", start) == _utc("2026-03-08T13:30")  # default: 1 day


def test_a_time_inside_the_spring_gap_falls_an_hour_later() -> None:
    grid = check_grid({"time": "02:30", "zone": "Europe/Berlin", "min_gap_minutes": 0})
    # 02:30 does not exist on 29 March 2026 in Berlin: read with the offset before the change
    assert grid_deadline(grid, "MOVEMENT", _utc("2026-03-28T12:00")) == _utc("2026-03-29T01:30")


@pytest.mark.parametrize("bad", [
    {"time": "25:00", "zone": "Europe/Berlin"},
    {"time": "20:00", "zone": "Mars/Olympus_Mons"},
    {"time": "20:00", "zone": "Europe/Berlin", "every_days": {"WINTER": 1}},
    {"time": "20:00", "zone": "Europe/Berlin", "every_days": {"MOVEMENT": 0}},
    {"time": "20:00", "zone": "Europe/Berlin", "min_gap_minutes": -5},
])
def test_bad_grids_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(errors.ValidationFailed):
        check_grid(bad)


def test_a_game_on_the_grid(store: InMemoryGameStore) -> None:
    # Given a game created and filled on 10 January at 12:00 UTC (13:00 in Berlin)
    clock = FakeClock(_utc("2026-01-10T12:00"))
    grid = {"time": "20:00", "zone": "Europe/Berlin", "every_days": {"MOVEMENT": 2}}
    created = create_game(store, clock, CreateGame(lifecycle=LifecycleSettings(deadline_at=grid)))
    for power in POWERS:
        join_game(store, clock, created.game_id, power)
    game = store.load(created.game_id)
    # Then the first deadline is the second 20:00 after the start, on the grid
    assert game.deadline == "2026-01-11T19:00:00.000Z"
    assert reminder_for(game, clock.now()) is not None  # a reminder runs for grid deadlines too
    # When processed early, the next phase's deadline stays on the grid
    clock.at = _utc("2026-01-11T10:00")
    process_turn(store, clock, created.game_id, Actor("operator"),
                 expected_phase=store.load(created.game_id).phase)  # the creator may not (issue 11)
    assert store.load(created.game_id).deadline == "2026-01-12T19:00:00.000Z"
