"""Issue 11, item 6 (fairness): the creator may not process a turn that cuts opponents off.

The creator is refused before the game is full (``GAME_NOT_FULL``) and, in a timed game, before
the deadline unless every power has submitted (``DEADLINE_NOT_REACHED``); the operator token and
the scheduler actor keep their powers (functions/usecases/turns/fairness.py).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from functions import errors
from functions.usecases.game import LifecycleSettings, parse_iso
from functions.usecases.games import CreateGame, create_game
from functions.usecases.players import SCHEDULER, Actor
from functions.usecases.seats import join_game, pause_game
from functions.usecases.turns import process_turn, submit_orders
from testkit.fakes import FakeClock, InMemoryGameStore
from testkit.openings import SPRING_1901
from tests.functions.conftest import POWERS

CREATOR, OPERATOR = Actor("creator"), Actor("operator")
TIMED = {"MOVEMENT": 3600, "RETREAT": 600, "ADJUSTMENT": 600}


def _game(store: InMemoryGameStore, clock: FakeClock, seated: list[str], **options: Any) -> str:
    game_id = create_game(store, clock, CreateGame(**options)).game_id
    for power in seated:
        join_game(store, clock, game_id, power)
    return game_id


def test_issue11_creator_is_refused_before_the_game_is_full() -> None:
    store, clock = InMemoryGameStore(), FakeClock()
    game_id = _game(store, clock, POWERS[:6])
    with pytest.raises(errors.GameNotFull) as refused:
        process_turn(store, clock, game_id, CREATOR, expected_phase=store.load(game_id).phase)
    assert refused.value.status == 409 and refused.value.extra["open_seats"] == ["TURKEY"]
    assert store.load(game_id).phase == "S1901M" and store.commits == 0


@pytest.mark.parametrize("actor", [OPERATOR, SCHEDULER])
def test_issue11_operator_and_scheduler_process_a_game_that_is_not_full(actor: Actor) -> None:
    store, clock = InMemoryGameStore(), FakeClock()
    game_id = _game(store, clock, [])
    assert process_turn(store, clock, game_id, actor,
                        expected_phase=store.load(game_id).phase).processed_phase == "S1901M"


def test_issue11_creator_is_refused_before_a_running_deadline() -> None:
    store, clock = InMemoryGameStore(), FakeClock()
    game_id = _game(store, clock, POWERS, phase_seconds=TIMED)
    assert store.load(game_id).deadline is not None
    submit_orders(store, clock, game_id, Actor("player", "FRANCE"), SPRING_1901["FRANCE"])
    with pytest.raises(errors.DeadlineNotReached) as refused:
        process_turn(store, clock, game_id, CREATOR, expected_phase=store.load(game_id).phase)
    assert refused.value.status == 409 and "FRANCE" not in refused.value.extra["waiting_on"]
    assert store.load(game_id).phase == "S1901M" and store.load(game_id).pending_orders


def test_issue11_creator_processes_early_once_every_power_has_submitted() -> None:
    store, clock = InMemoryGameStore(), FakeClock()
    game_id = _game(store, clock, POWERS, phase_seconds=TIMED)
    for power in POWERS:
        submit_orders(store, clock, game_id, Actor("player", power), SPRING_1901[power])
    assert process_turn(store, clock, game_id, CREATOR,
                        expected_phase=store.load(game_id).phase).processed_phase == "S1901M"


def test_issue11_creator_processes_once_the_deadline_has_passed() -> None:
    store, clock = InMemoryGameStore(), FakeClock()
    game_id = _game(store, clock, POWERS, phase_seconds=TIMED)
    deadline = store.load(game_id).deadline
    assert deadline is not None
    clock.at = parse_iso(deadline) + timedelta(seconds=1)
    assert process_turn(store, clock, game_id, CREATOR,
                        expected_phase=store.load(game_id).phase).processed_phase == "S1901M"


def test_issue11_pausing_does_not_let_the_creator_skip_the_time_left() -> None:
    store, clock = InMemoryGameStore(), FakeClock()
    game_id = _game(store, clock, POWERS, phase_seconds=TIMED)
    pause_game(store, clock, game_id, CREATOR)
    with pytest.raises(errors.DeadlineNotReached):
        process_turn(store, clock, game_id, CREATOR,
                     expected_phase=store.load(game_id).phase)
    assert process_turn(store, clock, game_id, OPERATOR,
                        expected_phase=store.load(game_id).phase).processed_phase == "S1901M"


def test_issue11_untimed_full_game_keeps_the_creators_hand_processing() -> None:
    store, clock = InMemoryGameStore(), FakeClock()
    game_id = _game(store, clock, POWERS)
    assert process_turn(store, clock, game_id, CREATOR,
                        expected_phase=store.load(game_id).phase).processed_phase == "S1901M"


def test_issue11_dummy_powers_need_no_player_for_the_game_to_be_full() -> None:
    store, clock = InMemoryGameStore(), FakeClock()
    dummies = ("ITALY", "TURKEY")
    game_id = _game(store, clock, [p for p in POWERS if p not in dummies],
                    lifecycle=LifecycleSettings(dummy_powers=dummies))
    assert process_turn(store, clock, game_id, CREATOR,
                        expected_phase=store.load(game_id).phase).processed_phase == "S1901M"
