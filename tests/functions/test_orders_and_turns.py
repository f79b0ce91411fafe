"""Submit, retract, view, orders status and process_turn on in-memory fakes."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import pytest

from functions import errors
from functions.usecases.players import SCHEDULER, Actor
from functions.usecases.turns import process_turn, retract_orders, submit_orders
from functions.usecases.turns.views import events_after, game_view, history, last_resolution, orders_status
from testkit.fakes import FakeClock, InMemoryGameStore
from testkit.openings import SPRING_1901
from tests.functions.conftest import POWERS, Table

CREATOR = Actor("creator")


def test_submit_accepts_canonical_and_rejects_with_codes(table: Table) -> None:
    result = submit_orders(
        table.store, table.clock, table.game_id, table.player("FRANCE"),
        ["a par - bur", "A MAR - XYZZY - !", "F BRE - MUN"], phase="S1901M",
    )
    assert result.accepted == ["A PAR - BUR"]
    codes = {r.order: (r.code, r.engine_code) for r in result.rejected}
    assert codes["A MAR - XYZZY - !"][0] == "UNPARSEABLE_ORDER"
    assert codes["F BRE - MUN"][0] == "ILLEGAL_ORDER" and codes["F BRE - MUN"][1]
    assert table.store.load(table.game_id).pending_orders == {"FRANCE": ["A PAR - BUR"]}


def test_replace_add_and_retract(table: Table) -> None:
    s, c, g, fr = table.store, table.clock, table.game_id, table.player("FRANCE")
    submit_orders(s, c, g, fr, ["A PAR - BUR", "A MAR - SPA"])
    submit_orders(s, c, g, fr, ["A PAR - PIC", "F BRE - MAO"], mode="add")
    assert s.load(g).pending_orders["FRANCE"] == ["A PAR - PIC", "A MAR - SPA", "F BRE - MAO"]
    submit_orders(s, c, g, fr, ["A PAR H"])
    assert s.load(g).pending_orders["FRANCE"] == ["A PAR H"]
    submit_orders(s, c, g, fr, ["A MAR H"], mode="add")
    retract_orders(s, c, g, fr, units=["A PAR"])
    assert s.load(g).pending_orders["FRANCE"] == ["A MAR H"]
    retract_orders(s, c, g, fr)
    assert "FRANCE" not in s.load(g).pending_orders


def test_stale_phase_and_client_timestamp(table: Table) -> None:
    with pytest.raises(errors.StalePhase):
        submit_orders(table.store, table.clock, table.game_id, table.player("FRANCE"), ["A PAR H"],
                      phase="F1901M")
    with pytest.raises(errors.StalePhase):
        submit_orders(table.store, table.clock, table.game_id, table.player("FRANCE"), ["A PAR H"],
                      client_timestamp="2000-01-01T00:00:00Z")


def test_only_players_submit_only_creator_processes(table: Table) -> None:
    with pytest.raises(errors.Forbidden):
        submit_orders(table.store, table.clock, table.game_id, CREATOR, ["A PAR H"])
    with pytest.raises(errors.NotAPlayer):
        submit_orders(table.store, table.clock, table.game_id, Actor("anonymous"), ["A PAR H"])
    with pytest.raises(errors.Forbidden):
        process_turn(table.store, table.clock, table.game_id, table.player("FRANCE"),
                     expected_phase=table.store.load(table.game_id).phase)


def test_view_is_redacted(table: Table) -> None:
    for power, orders in SPRING_1901.items():
        submit_orders(table.store, table.clock, table.game_id, table.player(power), orders)
    game = table.store.load(table.game_id)
    for power in POWERS:
        view = game_view(game, table.player(power))
        assert view["orders"] == {power: SPRING_1901[power]}
        assert view["submitted"] == dict.fromkeys(POWERS, True)
        assert view["legal_orders"] and all(o in view["legal_orders"] for o in SPRING_1901[power])
        # legal_orders are the caller's own menu (they may mention others' units as targets)
        text = str({k: v for k, v in view.items() if k != "legal_orders"})
        for other, orders in SPRING_1901.items():
            if other != power:
                assert not any(o in text for o in orders), (power, other)
    observer = game_view(game)
    assert observer["orders"] == {} and observer["legal_orders"] == [] and observer["power"] is None
    events = events_after(table.store, table.game_id, 0)["events"]
    assert "A PAR - BUR" not in str(events)


def test_orders_status_counts_powers_with_decisions(table: Table) -> None:
    submit_orders(table.store, table.clock, table.game_id, table.player("FRANCE"), ["A PAR H"])
    status = orders_status(table.store.load(table.game_id))
    assert status["waiting_on"] == [p for p in POWERS if p != "FRANCE"]
    assert status["submitted"]["FRANCE"] is True


def test_process_turn_defaults_history_events(table: Table) -> None:
    submit_orders(table.store, table.clock, table.game_id, table.player("FRANCE"), ["A PAR - BUR"])
    with pytest.raises(errors.OrdersMissing):
        process_turn(table.store, table.clock, table.game_id, CREATOR,
                     expected_phase=table.store.load(table.game_id).phase, require_all=True)
    done = process_turn(table.store, table.clock, table.game_id, CREATOR,
                        expected_phase=table.store.load(table.game_id).phase)
    assert (done.processed_phase, done.phase, done.game_status) == ("S1901M", "F1901M", "ACTIVE")
    by_order = {r["order_str"]: r for r in done.resolution["results"]}
    assert by_order["A PAR - BUR"]["result"] == "OK" and by_order["A PAR - BUR"]["power"] == "FRANCE"
    assert len(done.resolution["results"]) == 22  # everybody else holds by default
    game = table.store.load(table.game_id)
    assert game.pending_orders == {} and game.phase_index == 1
    assert last_resolution(table.store, table.game_id)["results"] == done.resolution["results"]
    [phase] = history(table.store, table.game_id)
    assert phase["phase"] == "S1901M" and phase["orders"] == {"FRANCE": ["A PAR - BUR"]}
    types = [e["type"] for e in events_after(table.store, table.game_id, 0)["events"]]
    assert types[-1] == "PHASE_PROCESSED" and types[0] == "GAME_CREATED"
    seqs = [e["seq"] for e in events_after(table.store, table.game_id, 0)["events"]]
    assert seqs == list(range(1, len(seqs) + 1))
    assert [o.kind for o in table.store.outbox[table.game_id]][-1] == "PHASE_PROCESSED"


def test_history_resolution_names_its_phase_like_last_resolution(table: Table) -> None:
    process_turn(table.store, table.clock, table.game_id, CREATOR,
                 expected_phase=table.store.load(table.game_id).phase)
    [phase] = history(table.store, table.game_id)
    assert phase["resolution"]["phase"] == "S1901M" == last_resolution(table.store, table.game_id)["phase"]
    assert phase["resolution"]["results"] == last_resolution(table.store, table.game_id)["results"]


def _processing(table: Table) -> Callable[[], None]:
    """A ``before_write`` hook: another process_turn of the current phase, committed first."""
    def process() -> None:
        process_turn(table.store, table.clock, table.game_id, CREATOR,
                     expected_phase=table.store.load(table.game_id).phase)
    return process


def test_two_process_calls_racing_adjudicate_once(table: Table) -> None:
    # Given a second process_turn that commits between the first one's load and write
    table.store.before_write = _processing(table)
    # When the first one tries to commit, Then it refuses: the phase was already adjudicated
    with pytest.raises(errors.StalePhase):
        process_turn(table.store, table.clock, table.game_id, SCHEDULER,
                     expected_phase=table.store.load(table.game_id).phase)
    assert table.store.commits == 1
    assert [p.phase for p in table.store.phases(table.game_id)] == ["S1901M"]


def test_submit_losing_to_process_is_refused_not_dropped(table: Table) -> None:
    table.store.before_write = _processing(table)
    with pytest.raises(errors.StalePhase):
        submit_orders(table.store, table.clock, table.game_id, table.player("FRANCE"), ["A PAR - BUR"])
    assert table.store.phases(table.game_id)[0].orders == {}


def test_submit_winning_over_process_is_adjudicated(table: Table) -> None:
    def france_submits() -> None:
        submit_orders(table.store, table.clock, table.game_id, table.player("FRANCE"), ["A PAR - BUR"])

    table.store.before_write = france_submits
    done = process_turn(table.store, table.clock, table.game_id, CREATOR,
                        expected_phase=table.store.load(table.game_id).phase)
    assert "A PAR - BUR" in [r["order_str"] for r in done.resolution["results"]]
    assert table.store.phases(table.game_id)[0].orders == {"FRANCE": ["A PAR - BUR"]}


def test_auto_process_when_everyone_submitted(store: InMemoryGameStore, clock: FakeClock) -> None:
    from functions.usecases.games import CreateGame, create_game
    from functions.usecases.seats import join_game

    game_id = create_game(store, clock, CreateGame(auto_process=True)).game_id
    for power in POWERS:
        join_game(store, clock, game_id, power)
    results = [
        submit_orders(store, clock, game_id, Actor("player", p), o)
        for p, o in SPRING_1901.items()
    ]
    assert [r.auto_processed for r in results] == [False] * 6 + [True]
    assert store.load(game_id).phase == "F1901M"


def test_an_accepted_order_that_no_longer_parses_stops_the_turn_instead_of_vanishing(table: Table) -> None:
    """'Nothing accepted is ever lost': if a stored order ever stopped parsing (a parser
    change), process_turn refuses with a stable code and leaves the phase untouched."""
    # Given an accepted order whose stored text has become unreadable
    submit_orders(table.store, table.clock, table.game_id, table.player("FRANCE"), ["A PAR - BUR"])
    game = table.store.load(table.game_id)
    game.pending_orders["FRANCE"] = ["A PAR ~ BUR"]
    table.store.save(game, expected_version=game.version, events=[])
    # When the turn is processed
    with pytest.raises(errors.StoredOrderUnreadable) as refused:
        process_turn(table.store, table.clock, table.game_id, CREATOR,
                     expected_phase=table.store.load(table.game_id).phase)
    # Then nothing moved and the order is still there
    assert refused.value.code == "STORED_ORDER_UNREADABLE"
    after = table.store.load(table.game_id)
    assert after.phase == "S1901M" and after.pending_orders["FRANCE"] == ["A PAR ~ BUR"]


def test_a_failing_auto_process_does_not_turn_a_saved_submission_into_an_error(
    store: InMemoryGameStore, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The orders are saved before auto-processing; a failure there is logged, and the
    client is told what was saved (an error would invite a retry into the next phase)."""
    from functions.usecases.games import CreateGame, create_game
    from functions.usecases.seats import join_game
    # the module, not the function the area exports under the same name
    module = importlib.import_module("functions.usecases.turns.submit_orders")

    game_id = create_game(store, clock, CreateGame(auto_process=True)).game_id
    for power in POWERS:
        join_game(store, clock, game_id, power)

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("storage hiccup")

    monkeypatch.setattr(module, "process_turn", broken)
    results = [
        submit_orders(store, clock, game_id, Actor("player", p), o)
        for p, o in SPRING_1901.items()
    ]
    assert not any(r.auto_processed for r in results)
    saved = store.load(game_id)
    assert saved.phase == "S1901M" and set(saved.pending_orders) == set(SPRING_1901)
