"""One test per defect of issue 10, named after it (each failed before its fix).

They run the real API handler in process over in-memory fakes (testkit/api_harness.py).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from functions.usecases.players import SCHEDULER
from functions.usecases.turns import process_turn
from testkit.api_harness import InProcessApi
from testkit.openings import SPRING_1901


def _events(api: InProcessApi, game_id: str, type_: str) -> list[dict[str, Any]]:
    answer = api.call("GET", f"/games/{game_id}/events?limit=500")
    return [e for e in answer.body["events"] if e["type"] == type_]


def _orders(api: InProcessApi, game_id: str, token: str, orders: list[str], path: str = "orders",
            **extra: Any) -> Any:
    return api.call("POST", f"/games/{game_id}/{path}", {"orders": orders, **extra}, token=token)


# --- duplicate triggers ---------------------------------------------------------------------


def test_duplicate_process_turn_triggers_adjudicate_the_phase_once(api: InProcessApi) -> None:
    # Given a game at S1901M
    game_id, creator, _ = api.new_game()
    # When the same process_turn {"phase": "S1901M"} arrives 20 times (double clicks, retries)
    answers = [api.call("POST", f"/games/{game_id}/process_turn", {"phase": "S1901M"}, token=creator)
               for _ in range(20)]
    # Then one adjudicates, the other 19 are STALE_PHASE, and the game is at F1901M
    assert [a.status for a in answers] == [200] + [409] * 19
    assert {a.body["code"] for a in answers[1:]} == {"STALE_PHASE"}
    assert answers[1].body["phase"] == "F1901M"
    assert api.call("GET", f"/games/{game_id}").body["phase"] == "F1901M"
    assert len(_events(api, game_id, "PHASE_PROCESSED")) == 1


def test_process_turn_for_a_phase_no_longer_current_changes_nothing(api: InProcessApi) -> None:
    game_id, creator, _ = api.new_game()
    before = api.store.load(game_id)
    answer = api.call("POST", f"/games/{game_id}/process_turn", {"phase": "F1901M"}, token=creator)
    assert answer.status == 409 and answer.body["code"] == "STALE_PHASE"
    assert api.store.load(game_id).version == before.version


def test_process_turn_without_phase_is_refused_and_changes_nothing(api: InProcessApi) -> None:
    """Issue 28 item 12 (ARCHITECTURE §8): on the old main 20 such calls closed 17 phases."""
    game_id, creator, _ = api.new_game()
    for body in (None, {}, {"phase": ""}):
        answer = api.call("POST", f"/games/{game_id}/process_turn", body, token=creator)
        assert answer.status == 422, answer.raw
    assert api.store.load(game_id).phase == "S1901M" and api.store.commits == 0


def test_process_turn_phase_is_case_insensitive_like_orders(api: InProcessApi) -> None:
    game_id, creator, _ = api.new_game()
    answer = api.call("POST", f"/games/{game_id}/process_turn", {"phase": "s1901m"}, token=creator)
    assert answer.status == 200


# --- a typo wipes orders --------------------------------------------------------------------


def test_a_typo_does_not_wipe_a_players_orders(api: InProcessApi) -> None:
    # Given Turkey's three valid orders
    game_id, _, tokens = api.new_game(auto_process=True)
    turkey = tokens["TURKEY"]
    good = ["A CON - BUL", "A SMY - ARM", "F ANK - BLA"]
    assert _orders(api, game_id, turkey, good).body["accepted"] == good
    # When Turkey resubmits with one typo and nothing else
    typo = _orders(api, game_id, turkey, ["A SMY - ARMX"])
    # Then the typo is rejected and the three orders stand
    assert typo.status == 200 and [r["order"] for r in typo.body["rejected"]] == ["A SMY - ARMX"]
    assert typo.body["orders"] == good
    assert api.store.load(game_id).pending_orders["TURKEY"] == good


def test_a_fully_rejected_submission_does_not_count_as_submitted(api: InProcessApi) -> None:
    # Given auto_process and six powers in, Turkey's only submission is a typo
    game_id, _, tokens = api.new_game(auto_process=True)
    for power, orders in SPRING_1901.items():
        if power != "TURKEY":
            _orders(api, game_id, tokens[power], orders)
    answer = _orders(api, game_id, tokens["TURKEY"], ["A SMY - ARMX"])
    # Then Turkey has not submitted and the turn was not adjudicated with Turkey holding
    assert answer.body["orders"] == []
    status = api.call("GET", f"/games/{game_id}/orders_status").body
    assert status["phase"] == "S1901M" and status["waiting_on"] == ["TURKEY"]


def test_a_replace_with_one_rejection_keeps_the_previous_orders_of_other_units(api: InProcessApi) -> None:
    game_id, _, tokens = api.new_game()
    france = tokens["FRANCE"]
    _orders(api, game_id, france, ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"])
    answer = _orders(api, game_id, france, ["A PAR - PIC", "F BRE - MUN"])
    assert answer.body["accepted"] == ["A PAR - PIC"]
    assert answer.body["orders"] == ["A PAR - PIC", "A MAR - SPA", "F BRE - MAO"]


def test_an_explicit_empty_set_counts_as_submitted(api: InProcessApi) -> None:
    game_id, _, tokens = api.new_game()
    _orders(api, game_id, tokens["FRANCE"], ["A PAR - BUR"])
    answer = _orders(api, game_id, tokens["FRANCE"], [])
    assert answer.status == 200 and answer.body["orders"] == []
    assert api.call("GET", f"/games/{game_id}/orders_status").body["submitted"]["FRANCE"] is True



# --- entry refuses what adjudication would void ---------------------------------------------


def _position(api: InProcessApi, game_id: str, french: list[str], season: str, phase_type: str) -> None:
    """Put the game in a hand-made position: France's units replaced by ``french``."""
    import dataclasses

    import engine

    game = api.store.load(game_id)
    state = engine.state_from_dict(game.state)
    kind = {"A": engine.UnitKind.ARMY, "F": engine.UnitKind.FLEET}
    units = {u for u in state.units if u.power != "FRANCE"} | {
        engine.Unit(kind[k], "FRANCE", engine.Location(p)) for k, p in (u.split() for u in french)
    }
    new = dataclasses.replace(state, units=frozenset(units), season=engine.Season[season],
                              phase_type=engine.PhaseType[phase_type])
    game.state, game.phase = engine.state_to_dict(new), new.phase_name
    api.store.games[game_id] = game


def test_builds_beyond_the_allowance_are_refused_at_entry(api: InProcessApi) -> None:
    # Given France owes two builds (3 centres, 1 unit, three vacant home centres)
    game_id, _, tokens = api.new_game()
    _position(api, game_id, ["A BUR"], "WINTER", "ADJUSTMENT")
    # When France orders three builds
    answer = _orders(api, game_id, tokens["FRANCE"], ["BUILD A PAR", "BUILD A MAR", "BUILD F BRE"])
    # Then two are accepted and the third is refused now, not voided at adjudication
    assert answer.body["accepted"] == ["BUILD A PAR", "BUILD A MAR"]
    assert [(r["order"], r["code"]) for r in answer.body["rejected"]] == [("BUILD F BRE", "TOO_MANY_BUILDS")]
    # and adding one more later is refused too
    more = _orders(api, game_id, tokens["FRANCE"], ["WAIVE"], path="orders/add")
    assert [r["code"] for r in more.body["rejected"]] == ["TOO_MANY_BUILDS"]
    assert more.body["orders"] == ["BUILD A PAR", "BUILD A MAR"]


def test_two_orders_for_one_province_in_one_request_are_refused_not_dropped(api: InProcessApi) -> None:
    game_id, _, tokens = api.new_game()
    _position(api, game_id, ["A BUR"], "WINTER", "ADJUSTMENT")
    answer = _orders(api, game_id, tokens["FRANCE"], ["BUILD A MAR", "BUILD F MAR"])
    assert answer.body["accepted"] == ["BUILD A MAR"]
    assert [(r["order"], r["code"]) for r in answer.body["rejected"]] == [("BUILD F MAR", "DUPLICATE_ORDER")]


def test_two_orders_for_one_unit_in_one_request_are_refused(api: InProcessApi) -> None:
    game_id, _, tokens = api.new_game()
    answer = _orders(api, game_id, tokens["FRANCE"], ["A PAR - BUR", "A PAR - PIC"])
    assert answer.body["accepted"] == ["A PAR - BUR"]
    assert [r["code"] for r in answer.body["rejected"]] == ["DUPLICATE_ORDER"]


def test_disbands_beyond_what_is_owed_are_refused_at_entry(api: InProcessApi) -> None:
    # Given France owes two removals (3 centres, 5 units)
    game_id, _, tokens = api.new_game()
    _position(api, game_id, ["A PAR", "A MAR", "F BRE", "A BUR", "A PIC"], "WINTER", "ADJUSTMENT")
    answer = _orders(api, game_id, tokens["FRANCE"], ["A BUR D", "A PIC D", "A PAR D"])
    assert answer.body["accepted"] == ["A BUR D", "A PIC D"]
    assert [(r["order"], r["code"]) for r in answer.body["rejected"]] == [("A PAR D", "TOO_MANY_DISBANDS")]


def test_the_view_tells_a_power_how_many_builds_or_disbands_it_owes(api: InProcessApi) -> None:
    game_id, _, tokens = api.new_game()
    _position(api, game_id, ["A BUR"], "WINTER", "ADJUSTMENT")
    assert api.call("GET", f"/games/{game_id}", token=tokens["FRANCE"]).body["owed"] == {
        "builds": 2, "disbands": 0}
    _position(api, game_id, ["A PAR", "A MAR", "F BRE", "A BUR", "A PIC"], "WINTER", "ADJUSTMENT")
    assert api.call("GET", f"/games/{game_id}", token=tokens["FRANCE"]).body["owed"] == {
        "builds": 0, "disbands": 2}
    assert api.call("GET", f"/games/{game_id}").body["owed"] == {"builds": 0, "disbands": 0}


# --- no-ops write no events -----------------------------------------------------------------


def test_a_fully_rejected_orders_add_writes_no_event(api: InProcessApi) -> None:
    game_id, _, tokens = api.new_game()
    before = api.store.load(game_id).event_seq
    answer = _orders(api, game_id, tokens["FRANCE"], ["A PAR - XYZ", "F BRE - MUN"], path="orders/add")
    assert answer.status == 200 and len(answer.body["rejected"]) == 2
    assert api.store.load(game_id).event_seq == before
    assert _events(api, game_id, "ORDERS_SUBMITTED") == []


def test_resubmitting_the_same_orders_writes_no_event(api: InProcessApi) -> None:
    game_id, _, tokens = api.new_game()
    _orders(api, game_id, tokens["FRANCE"], SPRING_1901["FRANCE"])
    before = api.store.load(game_id).event_seq
    again = _orders(api, game_id, tokens["FRANCE"], list(reversed(SPRING_1901["FRANCE"])))
    assert again.status == 200 and again.body["accepted"]
    assert api.store.load(game_id).event_seq == before


def test_deleting_another_powers_orders_writes_no_event(api: InProcessApi) -> None:
    game_id, _, tokens = api.new_game()
    _orders(api, game_id, tokens["GERMANY"], SPRING_1901["GERMANY"])
    _orders(api, game_id, tokens["FRANCE"], SPRING_1901["FRANCE"])
    before = api.store.load(game_id).event_seq
    body = json.dumps({"units": ["A BER", "A MUN", "F KIE"]}).encode()
    answer = api.raw("DELETE", f"/games/{game_id}/orders", body,
                     {"authorization": f"Bearer {tokens['FRANCE']}", "content-type": "application/json"})
    assert answer.status == 200 and answer.body["orders"] == SPRING_1901["FRANCE"]
    assert api.store.load(game_id).event_seq == before
    assert api.store.load(game_id).pending_orders["GERMANY"] == SPRING_1901["GERMANY"]


def test_retracting_when_nothing_was_submitted_writes_no_event(api: InProcessApi) -> None:
    game_id, _, tokens = api.new_game()
    before = api.store.load(game_id).event_seq
    answer = api.raw("DELETE", f"/games/{game_id}/orders", b"",
                     {"authorization": f"Bearer {tokens['FRANCE']}"})
    assert answer.status == 200
    assert api.store.load(game_id).event_seq == before


# --- odd texts ------------------------------------------------------------------------------


def test_a_move_order_in_a_retreat_phase_gets_the_wrong_phase_answer(api: InProcessApi) -> None:
    game_id, _, tokens = api.new_game()
    _position(api, game_id, ["A PAR", "A MAR", "F BRE"], "SPRING", "RETREAT")
    answer = _orders(api, game_id, tokens["FRANCE"], ["A PAR - BUR"])
    [rejected] = answer.body["rejected"]
    assert rejected["engine_code"] == "WRONG_PHASE", rejected
    assert "retreat phase" in rejected["message"]
    # an explicit retreat of a unit that was not dislodged keeps its own answer
    retreat = _orders(api, game_id, tokens["FRANCE"], ["A PAR R BUR"])
    assert retreat.body["rejected"][0]["engine_code"] == "NOT_DISLODGED"


@pytest.mark.parametrize("phase_type", ["MOVEMENT", "RETREAT"])
def test_a_finished_game_does_not_end_on_a_phase_named_after_nothing(
    api: InProcessApi, phase_type: str
) -> None:
    # Given France holding 18 centres in Fall 1907 (movement, or retreats with a German unit
    # dislodged), so the year-end ownership update gives France the solo
    import dataclasses

    import engine

    game_id, _, _ = api.new_game()
    game = api.store.load(game_id)
    state = engine.state_from_dict(game.state)
    centres = sorted(engine.load_map("classical").supply_centers)
    owner = {c: ("FRANCE" if i < 18 else "GERMANY") for i, c in enumerate(centres)}
    units = frozenset({engine.Unit(engine.UnitKind.ARMY, "FRANCE", engine.Location("PAR")),
                       engine.Unit(engine.UnitKind.ARMY, "GERMANY", engine.Location("MUN"))})
    dislodged: tuple[engine.DislodgedUnit, ...] = ()
    if phase_type == "RETREAT":
        dislodged = (engine.DislodgedUnit(
            engine.Unit(engine.UnitKind.ARMY, "GERMANY", engine.Location("BUR")), "PAR", ()),)
    new = dataclasses.replace(state, year=1907, season=engine.Season.FALL, units=units,
                              phase_type=engine.PhaseType[phase_type], dislodged=dislodged,
                              ownership=engine.Ownership.normalized(owner))
    game.state, game.phase = engine.state_to_dict(new), new.phase_name
    api.store.games[game_id] = game
    # When the turn is processed
    done = process_turn(api.store, api.clock, game_id, SCHEDULER, expected_phase=new.phase_name)
    # Then the game is over, and it does not end on the phase it just closed
    assert done.game_status != "ACTIVE"
    [processed] = _events(api, game_id, "PHASE_PROCESSED")
    assert processed["data"]["phase"] == new.phase_name
    assert processed["data"]["next_phase"] != processed["data"]["phase"]
    view = api.call("GET", f"/games/{game_id}").body
    assert view["phase"] == processed["data"]["next_phase"] == "W1907A"
    assert view["phase_type"] == "ADJUSTMENT" and view["dislodged"] == []


def test_an_export_larger_than_an_ordinary_body_may_still_be_imported() -> None:
    """Issue 12 export/import: a whole game is far more than 64 KiB; only the import route
    takes up to 4 MiB (functions/api/body_guard.py), every other route stays small."""
    from functions.api import body_guard

    big = "x" * (body_guard.MAX_BODY_BYTES + 1)
    assert body_guard.refuse({"rawPath": "/games/import", "body": big, "headers": {}}) is None
    refused = body_guard.refuse({"rawPath": "/games/g1/orders", "body": big, "headers": {}})
    assert refused is not None and refused["statusCode"] == 413
    huge = "x" * (body_guard.MAX_IMPORT_BYTES + 1)
    refused = body_guard.refuse({"rawPath": "/games/import", "body": huge, "headers": {}})
    assert refused is not None and refused["statusCode"] == 413
