"""MILA's saved-game JSON (issue 34 item 6): Convoy's export, converted, loads and replays in
MILA's ``diplomacy`` package with the same positions; and comes back through Convoy's engine
and importer. The game is played by the real use cases (every power's orders from
``engine.simple_orders``), exported by the real ``export_game``.

The format's shape is checked in every run; reading and replaying in MILA needs the
``bench`` extra (``pip install -e '.[bench]'``) and skips without it."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from community.mila import COMPLETED, DoesNotReplay, UnsupportedVariant, forced_retreat, from_mila, to_mila
from functions.usecases.game import state_of
from functions.usecases.games import CreateGame, create_game, import_game
from functions.usecases.players import SCHEDULER, Actor
from functions.usecases.seats import cast_vote, join_game
from functions.usecases.turns import export_game, process_turn, submit_orders
from testkit.fakes import FakeClock, InMemoryGameStore

MAP = engine.load_map("classical")


def play(store: InMemoryGameStore, clock: FakeClock, until: str, *, seed: str = "mila") -> str:
    """A classical game played by the use cases up to phase ``until``, ended by a draw vote."""
    created = create_game(store, clock, CreateGame(variant="classical"))
    for power in MAP.power_ids:
        join_game(store, clock, created.game_id, power)
    while (game := store.load(created.game_id)).phase != until:
        state = state_of(game)
        for power in engine.powers_with_orders_to_give(state, MAP):
            orders = engine.simple_orders(state, MAP, power, f"{seed}:{game.phase}")
            submit_orders(store, clock, created.game_id, Actor("player", power),
                          [engine.format_order(o) for o in orders])
        if store.load(created.game_id).phase == game.phase:
            process_turn(store, clock, created.game_id, SCHEDULER, expected_phase=game.phase)
    for power in MAP.power_ids:
        cast_vote(store, clock, created.game_id, Actor("player", power), draw=True)
    return created.game_id


@pytest.fixture(scope="module")
def exported() -> dict[str, Any]:
    store = InMemoryGameStore()
    return export_game(store, play(store, FakeClock(), "S1908M"))


def test_the_export_has_mila_s_shape_and_the_outcome_extension(exported: dict[str, Any]) -> None:
    saved = json.loads(json.dumps(to_mila(exported)))  # what a file holds
    assert {"id", "map", "rules", "phases"} <= set(saved) and saved["map"] == "standard"
    names = [p["name"] for p in saved["phases"]]
    assert names[0] == "S1901M" and names[-1] == "S1908M"
    for phase in saved["phases"]:
        assert set(phase) == {"name", "state", "orders", "results", "messages"}
        assert {"name", "units", "retreats", "centers", "homes", "builds"} <= set(phase["state"])
        assert phase["state"]["name"] == phase["name"] and phase["messages"] == []
        assert set(phase["state"]["units"]) == set(MAP.power_ids)
    assert saved["phases"][-1]["orders"] == {} and saved["phases"][-1]["results"] == {}
    assert any(o.endswith(" B") for p in saved["phases"] for given in p["orders"].values() for o in given)
    assert any("bounce" in r for p in saved["phases"] for r in p["results"].values())
    extension = saved["convoy"]
    assert extension["status"] == COMPLETED and extension["outcome"]["kind"] == "draw"
    assert extension["variant"] == "classical" and extension["rulebook"] == exported["rules"]


def test_a_retreat_phase_with_nothing_to_order_is_left_out_as_mila_does(exported: dict[str, Any]) -> None:
    forced = [p["phase"] for p in exported["phases"] if forced_retreat(engine.state_from_dict(p["state"]))]
    names = [p["name"] for p in to_mila(exported)["phases"]]
    assert not set(forced) & set(names)
    assert len(names) == len(exported["phases"]) - len(forced) + 1


def test_the_document_comes_back_through_convoy_s_engine_and_importer(exported: dict[str, Any]) -> None:
    back = from_mila(to_mila(exported))
    assert back["current"] == exported["current"] and back["result"] == exported["result"]
    assert back["rules"] == exported["rules"] and back["variant"] == "classical"
    assert [p["phase"] for p in back["phases"]] == [p["phase"] for p in exported["phases"]]
    for mine, theirs in zip(back["phases"], exported["phases"], strict=True):
        assert mine["state"] == theirs["state"]
        if not forced_retreat(engine.state_from_dict(theirs["state"])):  # there: no orders, all disband
            assert mine["orders"] == theirs["orders"]
            assert mine["resolution"]["results"] == theirs["resolution"]["results"]
    store = InMemoryGameStore()
    created = import_game(store, FakeClock(), back)  # the importer replays it once more
    # a draw by vote is in no phase of the history, so an import plays on from the last position
    # (functions/usecases/turns/import_replay.py): only a solo or the year limit can be replayed
    assert exported["result"]["kind"] == "draw" and store.load(created.game_id).status == "ACTIVE"


def test_a_game_mila_ended_by_agreement_is_read_as_a_draw(exported: dict[str, Any]) -> None:
    """MILA's ``Game.draw`` names the last position ``COMPLETED`` with no solo on the board and
    "Victory by: AUS, ENG, ..." in its note (MILA issue #149: the format has no outcome field).
    Such a file without Convoy's extension was refused as not replaying; now it reads as a draw
    of the named powers, and the importer still plays on (issue 28: no result from a document)."""
    saved = to_mila(exported)
    del saved["convoy"]
    ended = {**saved["phases"][-1], "name": COMPLETED}  # MILA keeps S1908M unplayed, then COMPLETED
    ended["state"] = {**ended["state"], "name": COMPLETED, "note": "Victory by: ENG, FRA, TUR"}
    saved["phases"].append(ended)
    back = from_mila(saved)
    assert back["current"]["status"] == COMPLETED and back["current"]["phase"] == "S1908M"
    assert back["result"]["kind"] == "draw" and back["result"]["winners"] == ["ENGLAND", "FRANCE", "TURKEY"]
    assert [p["phase"] for p in back["phases"]] == [p["phase"] for p in exported["phases"]]
    store = InMemoryGameStore()
    created = import_game(store, FakeClock(), back)
    assert store.load(created.game_id).status == "ACTIVE"


def test_mila_s_own_draw_imports(exported: dict[str, Any]) -> None:
    """The same, from a file MILA's package wrote: two phases played, then ``Game.draw()``."""
    pytest.importorskip("diplomacy", reason=MILA_MISSING)
    from diplomacy import Game
    from diplomacy.utils.export import to_saved_game_format

    game = Game(map_name="standard")
    game.process()
    game.process()
    game.draw()
    back = from_mila(json.loads(json.dumps(to_saved_game_format(game))))
    assert back["current"]["phase"] == "S1902M" and back["result"]["kind"] == "draw"  # drawn in S1902M
    assert back["result"]["winners"] == sorted(MAP.power_ids)


def test_orders_that_do_not_lead_to_the_recorded_position_are_refused(exported: dict[str, Any]) -> None:
    saved = to_mila(exported)
    saved["phases"][0]["orders"]["FRANCE"] = ["A PAR H", "A MAR H", "F BRE H"]
    with pytest.raises(DoesNotReplay, match=r"of S1901M lead to .*FRANCE units \+\[.A MAR., .A PAR.\]"):
        from_mila(saved)


def test_other_maps_are_refused() -> None:
    with pytest.raises(UnsupportedVariant):
        from_mila({"id": "x", "map": "ancmed", "rules": [], "phases": []})
    with pytest.raises(UnsupportedVariant):
        to_mila({"format": "convoy-export/1", "variant": "1900", "phases": [], "current": {}})


# --- MILA's own package reads and replays it ---------------------------------------------------

MILA_MISSING = "MILA's diplomacy package is the bench extra (pip install -e '.[bench]'); not installed"


def test_mila_reads_the_file_and_replays_it_with_the_same_positions(exported: dict[str, Any]) -> None:
    pytest.importorskip("diplomacy", reason=MILA_MISSING)
    from diplomacy import Game
    from diplomacy.utils.export import from_saved_game_format

    saved = json.loads(json.dumps(to_mila(exported)))
    loaded = from_saved_game_format(saved)
    assert loaded.get_current_phase() == saved["phases"][-1]["name"]
    assert len(loaded.get_phase_history()) == len(saved["phases"]) - 1
    game = Game(map_name="standard")
    for phase, following in zip(saved["phases"], saved["phases"][1:], strict=False):
        assert game.get_current_phase() == phase["name"]
        possible = {o for orders in game.get_all_possible_orders().values() for o in orders}
        for power, orders in phase["orders"].items():
            assert set(orders) <= possible, (phase["name"], power, set(orders) - possible)
            game.set_orders(power, orders)
        game.process()
        state = game.get_state()
        for key in ("units", "centers"):
            assert {p: sorted(v) for p, v in state[key].items()} == \
                {p: sorted(v) for p, v in following["state"][key].items()}, (phase["name"], key)
    assert game.get_current_phase() == saved["phases"][-1]["name"]
