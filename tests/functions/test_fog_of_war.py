"""Fog of war in the use cases (issue 35 item 3; functions/usecases/players/fog_of_war.py; docs/variants.md
"Fog of war"): each read path of a fog game shows a power what engine/fog.py says it sees, an
observer nothing, and everything once the game has ended.

The game: classical with fog; Spring 1901 with France and Germany bouncing in Burgundy.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import engine
from engine.fog import seen_position, visible_provinces
from functions.errors import FogOfWar
from functions.usecases.game.record import load
from functions.usecases.games import CreateGame, create_game
from functions.usecases.maps import map_view
from functions.usecases.players import event_seen
from functions.usecases.players.identity import ANONYMOUS, SCHEDULER, Actor
from functions.usecases.sandbox import what_if
from functions.usecases.seats import join_game
from functions.usecases.seats.votes import cast_vote
from functions.usecases.turns import export_game, views
from functions.usecases.turns.process_turn import process_turn
from functions.usecases.turns.submit_orders import submit_orders
from testkit.fakes import FakeClock, InMemoryGameStore
from testkit.openings import SPRING_1901
from tests.functions.conftest import POWERS

BOARD = engine.load_map("classical")
SPRING = {**SPRING_1901, "GERMANY": ["A MUN - BUR", "A BER - KIE", "F KIE - DEN"]}


class Fog:
    def __init__(self, fog: bool = True) -> None:
        self.store, self.clock = InMemoryGameStore(), FakeClock()
        self.game_id = create_game(self.store, self.clock, CreateGame(variant="classical", fog=fog)).game_id
        for power in POWERS:
            join_game(self.store, self.clock, self.game_id, power)
        self.start = engine.initial_state(BOARD)

    def play_spring(self) -> None:
        for power, orders in SPRING.items():
            submit_orders(self.store, self.clock, self.game_id, Actor("player", power), orders)
        process_turn(self.store, self.clock, self.game_id, SCHEDULER, expected_phase="S1901M")

    def end_in_a_draw(self) -> None:
        for power in POWERS:
            cast_vote(self.store, self.clock, self.game_id, Actor("player", power), draw=True)
        assert load(self.store, self.game_id).status == "COMPLETED"


@pytest.fixture
def fog() -> Fog:
    return Fog()


def _units(view: dict[str, Any]) -> set[str]:
    return {str(u["location"]) for u in view["units"]}


def test_each_power_s_view_is_the_position_it_sees_and_an_observer_s_is_empty(fog: Fog) -> None:
    game = load(fog.store, fog.game_id)
    for power in POWERS:
        view = views.game_view(game, Actor("player", power))
        seen = visible_provinces(fog.start, BOARD, power)
        assert _units(view) == {str(u.location) for u in seen_position(fog.start, seen).units}
        assert set(view["ownership"]) <= seen and view["fog"]["visible"] == sorted(seen)
        # every centre count is public: builds, victory and draws turn on it
        assert view["fog"]["centres"] == {"AUSTRIA": 3, "ENGLAND": 3, "FRANCE": 3, "GERMANY": 3,
                                          "ITALY": 3, "RUSSIA": 4, "TURKEY": 3}
        # the menu offers nothing about a unit in the fog (France cannot support A MUN)
        named = {w for order in view["legal_orders"] for w in re.findall(r"[A-Z]{3}", order)}
        assert named <= seen | {"VIA"}, power
    observer = views.game_view(game, ANONYMOUS)
    assert observer["units"] == [] and observer["ownership"] == {} and observer["fog"]["visible"] == []


def test_a_game_without_fog_shows_everything_and_has_no_fog_block() -> None:
    plain = Fog(fog=False)
    view = views.game_view(load(plain.store, plain.game_id), ANONYMOUS)
    assert len(view["units"]) == 22 and view["fog"] is None


def test_history_and_last_resolution_show_only_orders_naming_seen_provinces(fog: Fog) -> None:
    fog.play_spring()
    (phase,), _ = views.history_page(fog.store, fog.game_id, actor=Actor("player", "FRANCE"))
    # France saw BUR, PIC, GAS... but not Munich: Germany's bounce into BUR names MUN, so it stays hidden
    assert phase["orders"] == {"FRANCE": SPRING["FRANCE"]}
    results = phase["resolution"]["results"]
    assert {r["order_str"] for r in results} == set(SPRING["FRANCE"])
    bounce = next(r for r in results if r["order_str"] == "A PAR - BUR")
    assert bounce["result"] == "BOUNCE"
    # its explanation and reason name A MUN, in the fog: they are left out
    assert bounce["explanation"] is None and bounce["reason"] is None
    assert {u["power"] for u in phase["state"]["units"]} == {"FRANCE"}
    last = views.last_resolution(fog.store, fog.game_id, Actor("player", "FRANCE"))
    assert [r["order_str"] for r in last["results"]] == [r["order_str"] for r in results]
    assert views.last_resolution(fog.store, fog.game_id, ANONYMOUS)["results"] == []
    # Germany wrote the MUN order: its own orders are always its own to see
    (german,), _ = views.history_page(fog.store, fog.game_id, actor=Actor("player", "GERMANY"))
    assert german["orders"]["GERMANY"] == SPRING["GERMANY"]


def test_the_event_log_keeps_a_power_s_own_orders_and_results_only(fog: Fog) -> None:
    fog.play_spring()
    events = views.events_after(fog.store, fog.game_id, 0, 100, Actor("player", "ITALY"))["events"]
    processed = next(e for e in events if e["type"] == "PHASE_PROCESSED")
    assert processed["data"]["orders"] == {"ITALY": SPRING["ITALY"]}
    # issue 29: the event carries no results (the PHASE item does, fogged by history/last_resolution)
    assert "resolution" not in processed["data"] and processed["data"]["nmr"] == []
    submitted = [e["data"] for e in events if e["type"] == "ORDERS_SUBMITTED"]
    # how many orders another power gave hints at its units: only the count of one's own shows
    assert [d.get("count") for d in submitted if d["power"] != "ITALY"] == [None] * 6
    assert [d["count"] for d in submitted if d["power"] == "ITALY"] == [3]
    observer = views.events_after(fog.store, fog.game_id, 0, 100, ANONYMOUS)["events"]
    assert next(e for e in observer if e["type"] == "PHASE_PROCESSED")["data"]["orders"] == {}


def test_an_order_about_a_unit_in_the_fog_is_refused_as_if_nobody_stood_there(fog: Fog) -> None:
    # France cannot see A MUN: supporting it is refused exactly as supporting an empty TYR is
    about_fog = submit_orders(fog.store, fog.clock, fog.game_id, Actor("player", "FRANCE"),
                              ["A PAR S A MUN - BUR"]).rejected
    about_nothing = submit_orders(fog.store, fog.clock, fog.game_id, Actor("player", "FRANCE"),
                                  ["A PAR S A TYR - BUR"]).rejected
    assert len(about_fog) == len(about_nothing) == 1
    fogged, empty = about_fog[0], about_nothing[0]
    assert (fogged.code, fogged.engine_code) == (empty.code, empty.engine_code)
    assert fogged.message == empty.message.replace("TYR", "MUN")


def test_what_if_adjudicates_only_the_position_the_caller_sees(fog: Fog) -> None:
    answer = what_if(fog.store, fog.game_id, Actor("player", "FRANCE"), {})
    # no German, Italian... unit anywhere in the preview: not in the results, not in the next position
    assert not re.search(r"GERMANY|ITALY|ENGLAND|AUSTRIA|RUSSIA|TURKEY", str(answer))


def test_maps_draw_the_fog_and_only_what_the_caller_sees(fog: Fog) -> None:
    fog.play_spring()
    request = map_view.MapRequest("resolution", "svg", 800, "standard")
    france = map_view.map_picture(fog.store, fog.game_id, Actor("player", "FRANCE"), request)
    germany = map_view.map_picture(fog.store, fog.game_id, Actor("player", "GERMANY"), request)
    observer = map_view.map_picture(fog.store, fog.game_id, ANONYMOUS, request)
    assert france.etag != germany.etag != observer.etag and not france.public  # never a shared cache
    svg = (france.body or b"").decode()
    seen = visible_provinces(fog.start, BOARD, "FRANCE")
    assert set(re.findall(r'data-fog="([A-Z]+)"', svg)) == set(BOARD.provinces) - seen
    assert set(re.findall(r'data-power="([A-Z]+)"', svg)) == {"FRANCE"}
    assert svg.count('class="unit"') == 3
    assert (observer.body or b"").decode().count('class="unit"') == 0


def test_the_export_waits_for_the_end_and_then_everything_is_public(fog: Fog) -> None:
    fog.play_spring()
    with pytest.raises(FogOfWar):
        export_game(fog.store, fog.game_id)
    fog.end_in_a_draw()
    game = load(fog.store, fog.game_id)
    assert len(views.game_view(game, ANONYMOUS)["units"]) == 22
    assert views.game_view(game, ANONYMOUS)["fog"] is None
    (phase,), _ = views.history_page(fog.store, fog.game_id, actor=ANONYMOUS)
    assert phase["orders"] == {p: SPRING[p] for p in phase["orders"]} and len(phase["orders"]) == 7
    assert len(export_game(fog.store, fog.game_id)["phases"]) == 1


def test_a_random_fog_game_plays_on_what_each_power_sees() -> None:
    """Every power orders from the position it sees (bench/random_play.py's player on that
    position's menu), every order it is offered is accepted, the game plays through retreats and
    builds for eight years, and no view or history entry ever shows a unit the power does not see."""
    from bench.random_play import choose_orders

    fog, rng = Fog(), random.Random(35)
    while True:
        game = load(fog.store, fog.game_id)
        full = engine.state_from_dict(game.state)
        if game.status != "ACTIVE" or full.year > 1908:
            break
        for power in engine.powers_with_orders_to_give(full, BOARD):
            seen = visible_provinces(full, BOARD, power)
            view = views.game_view(game, Actor("player", power))
            assert {u["location"].split("/")[0] for u in view["units"]} <= seen
            position = seen_position(full, seen)
            menus = engine.legal_menus(position, BOARD, [power])
            chosen = choose_orders(position, BOARD, rng, menus=menus).get(power, [])
            if chosen:
                orders = [engine.format_order(o) for o in chosen]
                answer = submit_orders(fog.store, fog.clock, fog.game_id, Actor("player", power), orders)
                # the random player sometimes gives one build or waive too many on purpose: only
                # that count is refused, never an order of the menu it was offered
                refused = {r.code for r in answer.rejected}
                assert refused <= {"TOO_MANY_BUILDS"}, (game.phase, power, answer.rejected)
        process_turn(fog.store, fog.clock, fog.game_id, SCHEDULER, expected_phase=game.phase)
    phases, _ = views.history_page(fog.store, fog.game_id, actor=Actor("player", "TURKEY"), limit=200)
    assert len(phases) > 16 and any(p["phase"].endswith("R") for p in phases)
    for phase in phases:
        before = engine.state_from_dict(phase["state"])
        assert all(u.province in visible_provinces(before, BOARD, "TURKEY") for u in before.units)


def test_a_note_in_the_log_shows_only_to_the_power_it_is_about(fog: Fog) -> None:
    """engine/game.py's notes (a unit disbanded with nowhere to retreat) name a unit and its power."""
    from functions.usecases.players import fog_of_war

    game = load(fog.store, fog.game_id)
    note = {"phase": "F1901R", "powers": ["GERMANY"], "units": ["A MUN"],
            "text": "A MUN (Germany) was dislodged with nowhere to retreat and was disbanded at once."}
    event = {"seq": 9, "type": "UNIT_DISBANDED", "phase": "F1901M", "data": note, "at": ""}
    assert fog_of_war.event_seen(game, Actor("player", "GERMANY"), event)["data"] == note
    for viewer in (Actor("player", "FRANCE"), ANONYMOUS):
        hidden = fog_of_war.event_seen(game, viewer, event)["data"]
        assert hidden == {"phase": "F1901R", "powers": [], "units": [], "text": ""}


def test_an_event_stored_before_issue_29_still_shows_the_caller_its_own_results_only(fog: Fog) -> None:
    # Given a PHASE_PROCESSED event in the shape stored before issue 29 (with the resolution)
    game = fog.store.load(fog.game_id)
    results = [{"power": p, "order_str": f"{p} order", "reason": {"code": "X"}, "explanation": {}}
               for p in ("ITALY", "FRANCE")]
    old = {"type": "PHASE_PROCESSED", "data": {"phase": "S1901M", "orders": {"ITALY": [], "FRANCE": []},
                                               "resolution": {"results": results, "nmr": []}}}
    # When Italy reads it from the log
    seen = event_seen(game, Actor("player", "ITALY"), old)["data"]
    # Then only Italy's orders and results show, without reasons
    assert seen["orders"] == {"ITALY": []}
    assert [(r["power"], r["reason"]) for r in seen["resolution"]["results"]] == [("ITALY", None)]
