"""Issue 12 over real HTTP: games that end the way Diplomacy games end."""

from __future__ import annotations

import time
from typing import Any

import pytest

from local_stack.stack import LocalStack
from tests.system.client import Api
from tests.system.conftest import OPERATOR_TOKEN

pytestmark = pytest.mark.system
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def _new_game(api: Api, **settings: Any) -> tuple[str, str, dict[str, str]]:
    created = api.call("POST", "/games", body={"variant": "classical", **settings}, expect=201)
    tokens = {p: api.call("POST", f"/games/{created['game_id']}/join", body={"power": p})["token"]
              for p in POWERS}
    return created["game_id"], created["token"], tokens


def _everything_seen_by(api: Api, game_id: str, token: str | None) -> str:
    return str([
        api.call("GET", f"/games/{game_id}", token=token),
        api.call("GET", f"/games/{game_id}/events?after=0", token=token),
        api.call("GET", f"/games/{game_id}/history", token=token),
        api.call("GET", "/games", token=token),
    ])


def test_seven_powers_agree_a_secret_ballot_draw(stack: LocalStack) -> None:
    api = Api(stack.url)
    # Given a full game, one phase played
    game_id, creator, tokens = _new_game(api)
    api.call("POST", f"/games/{game_id}/process_turn", token=creator, body={"phase": "S1901M"})
    # When six powers vote for a draw, one by one
    for power in POWERS[:-1]:
        answer = api.call("POST", f"/games/{game_id}/votes", token=tokens[power], body={"draw": True})
        assert answer["game_status"] == "ACTIVE" and answer["votes"] is None and answer["draw"] is True
        # Then no other power, nor an observer, can see that vote anywhere
        for other in POWERS:
            seen = api.call("GET", f"/games/{game_id}", token=tokens[other])
            assert set(seen["votes"]) <= {other}
        assert api.call("GET", f"/games/{game_id}")["votes"] == {}
        assert "VOTE_CAST" not in _everything_seen_by(api, game_id, tokens["TURKEY"])
    # When the seventh votes, the draw passes: all survivors share it
    done = api.call("POST", f"/games/{game_id}/votes", token=tokens["TURKEY"], body={"draw": True})
    assert done["game_status"] == "COMPLETED"
    result = done["result"]
    assert result["kind"] == "draw" and result["winners"] == POWERS and result["final_phase"] == "S1901M"
    assert set(result["scores"]) == {"sum_of_squares", "draw_size"}
    for where in (api.call("GET", f"/games/{game_id}")["result"],
                  api.call("GET", f"/games/{game_id}/history")["result"],
                  next(g for g in api.call("GET", "/games")["games"] if g["game_id"] == game_id)["result"]):
        assert where == result
    events = api.call("GET", f"/games/{game_id}/events?after=0")["events"]
    assert [e["type"] for e in events].count("GAME_ENDED") == 1
    # And the ended game takes no more votes or orders
    refused = api.call("POST", f"/games/{game_id}/votes", token=tokens["FRANCE"], body={"draw": False},
                       expect=409)
    assert refused["code"] == "GAME_NOT_ACTIVE"
    api.call("POST", f"/games/{game_id}/orders", token=tokens["FRANCE"], body={"orders": ["A PAR H"]},
             expect=409)


def test_a_concession_win(stack: LocalStack) -> None:
    api = Api(stack.url)
    game_id, _, tokens = _new_game(api, draw_votes="public")
    for power in [p for p in POWERS if p != "ITALY"]:
        answer = api.call("POST", f"/games/{game_id}/votes", token=tokens[power], body={"concede": True})
    assert answer["game_status"] == "COMPLETED"
    assert answer["result"]["kind"] == "concession" and answer["result"]["winners"] == ["ITALY"]
    view = api.call("GET", f"/games/{game_id}", token=tokens["ITALY"])
    assert view["status"] == "COMPLETED" and view["winner"] == "ITALY"
    assert view["result"]["scores"]["draw_size"]["ITALY"] == 100.0
    # public ballot: every concession is in the public log
    events = api.call("GET", f"/games/{game_id}/events?after=0")["events"]
    assert len([e for e in events if e["type"] == "VOTE_CAST"]) == 6


def test_a_year_limit_end(stack: LocalStack) -> None:
    api = Api(stack.url)
    game_id, creator, tokens = _new_game(api, max_year=1901)
    api.call("POST", f"/games/{game_id}/orders", token=tokens["FRANCE"], body={"orders": ["A MAR - SPA"]})
    api.call("POST", f"/games/{game_id}/process_turn", token=creator, body={"phase": "S1901M"})
    done = api.call("POST", f"/games/{game_id}/process_turn", token=creator, body={"phase": "F1901M"})
    assert done["phase"] == "W1901A" and done["game_status"] == "ACTIVE"
    done = api.call("POST", f"/games/{game_id}/process_turn", token=creator, body={"phase": "W1901A"})
    assert done["game_status"] == "COMPLETED"
    result = api.call("GET", f"/games/{game_id}")["result"]
    assert result["kind"] == "year_limit" and result["final_phase"] == "W1901A"
    assert result["centers"]["FRANCE"] == 4 and result["winners"] == POWERS
    assert result["scores"]["sum_of_squares"]["FRANCE"] > result["scores"]["sum_of_squares"]["ENGLAND"]
    refused = api.call("POST", f"/games/{game_id}/process_turn", token=creator, expect=409,
                       body={"phase": "W1901A"})
    assert refused["code"] == "GAME_NOT_ACTIVE"


def _wait_for(what: str, check: Any, timeout: float = 40.0) -> Any:
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_two_missed_movement_phases_then_civil_disorder_and_takeover(stack: LocalStack) -> None:
    api = Api(stack.url)
    # Given a game with short deadlines in which France never orders (6 s: the other six must
    # get their orders in before the deadline even on a loaded machine)
    game_id, _, tokens = _new_game(api, phase_seconds={"MOVEMENT": 6, "RETREAT": 1, "ADJUSTMENT": 1})
    for phase in ("S1901M", "F1901M"):
        _wait_for(phase, lambda p=phase: api.call("GET", f"/games/{game_id}")["phase"] == p)
        for power in POWERS:
            if power != "FRANCE":
                api.call("POST", f"/games/{game_id}/orders", token=tokens[power], body={"orders": []})
    # When both deadlines have passed, France is in civil disorder
    view = _wait_for("civil disorder", lambda: (v := api.call("GET", f"/games/{game_id}"))["civil_disorder"]
                     and v)
    assert view["civil_disorder"] == ["FRANCE"] and view["seats"]["FRANCE"]["status"] == "civil_disorder"
    assert view["status"] == "ACTIVE"
    listed = next(g for g in api.call("GET", "/games")["games"] if g["game_id"] == game_id)
    assert listed["open_seats"] == ["FRANCE"] and listed["civil_disorder"] == ["FRANCE"]
    nmr = [p["resolution"]["nmr"] for p in api.call("GET", f"/games/{game_id}/history")["phases"]]
    assert nmr[:2] == [["FRANCE"], ["FRANCE"]]
    # Then the old token is refused, and a newcomer takes France over with a fresh one
    assert api.call("GET", f"/games/{game_id}", token=tokens["FRANCE"], expect=401)["code"] == "NOT_A_PLAYER"
    taken = api.call("POST", f"/games/{game_id}/join", body={"power": "FRANCE"})
    assert taken["power"] == "FRANCE" and taken["token"] != tokens["FRANCE"]
    mine = api.call("GET", f"/games/{game_id}", token=taken["token"])
    assert mine["power"] == "FRANCE" and mine["civil_disorder"] == [] and mine["open_seats"] == []
    api.call("POST", f"/games/{game_id}/orders", token=tokens["FRANCE"], body={"orders": []}, expect=401)
    types = [e["type"] for e in api.call("GET", f"/games/{game_id}/events?after=0&limit=500")["events"]]
    assert "CIVIL_DISORDER" in types and "PLAYER_REPLACED" in types


def test_leave_and_the_creator_opening_a_seat(stack: LocalStack) -> None:
    api = Api(stack.url)
    game_id, creator, tokens = _new_game(api)
    left = api.call("POST", f"/games/{game_id}/leave", token=tokens["ENGLAND"])
    assert left == {"power": "ENGLAND", "status": "open", "open_seats": ["ENGLAND"]}
    api.call("GET", f"/games/{game_id}", token=tokens["ENGLAND"], expect=401)
    refused = api.call("POST", f"/games/{game_id}/seats/TURKEY/open", token=tokens["FRANCE"], expect=403)
    assert refused["code"] == "FORBIDDEN"
    opened = api.call("POST", f"/games/{game_id}/seats/TURKEY/open", token=creator)
    assert opened["open_seats"] == ["ENGLAND", "TURKEY"]
    api.call("POST", f"/games/{game_id}/orders", token=tokens["TURKEY"], body={"orders": []}, expect=401)
    again = api.call("POST", f"/games/{game_id}/join", body={})
    assert again["power"] in ("ENGLAND", "TURKEY")


def test_a_demo_game_played_to_1905_with_only_the_creator_ordering(stack: LocalStack) -> None:
    api = Api(stack.url)
    # Given a demo game: one seat for its creator, six AI dummies
    created = api.call("POST", "/games", body={"variant": "classical", "demo": True, "demo_power": "FRANCE"},
                       expect=201)
    game_id, creator, mine = created["game_id"], created["token"], created["player_token"]
    assert created["power"] == "FRANCE"
    view = api.call("GET", f"/games/{game_id}", token=mine)
    assert view["demo"] and view["open_seats"] == [] and len(view["dummy_powers"]) == 6
    refused = api.call("POST", f"/games/{game_id}/join", body={}, expect=409)
    assert refused["code"] == "GAME_FULL"  # its one seat is the creator's
    # When only France orders (its first legal move for each unit) and the creator processes
    while view["year"] < 1905 and view["status"] == "ACTIVE":
        if view["phase_type"] == "MOVEMENT":
            first: dict[str, str] = {}
            for order in view["legal_orders"]:
                unit = " ".join(order.split()[:2])
                if " - " in order and unit not in first:
                    first[unit] = order
            api.call("POST", f"/games/{game_id}/orders", token=mine, body={"orders": sorted(first.values())})
        api.call("POST", f"/games/{game_id}/process_turn", token=creator, body={"phase": view["phase"]})
        view = api.call("GET", f"/games/{game_id}", token=mine)
    # Then the game reached 1905, the dummies' orders are in the history like anyone's
    assert view["phase"] == "S1905M" or view["status"] == "COMPLETED"
    phases = api.call("GET", f"/games/{game_id}/history")["phases"]
    dummy_orders = [o for p in phases for power, given in p["orders"].items() if power != "FRANCE"
                    for o in given]
    assert any(" - " in o for o in dummy_orders) and any(" S " in o for o in dummy_orders)
    assert any(o.startswith("BUILD") for o in dummy_orders)
    for phase in phases:
        assert not [r for r in phase["resolution"]["results"] if r["result"] == "VOID"], phase["phase"]
        assert phase["resolution"]["nmr"] in ([], ["FRANCE"])


def test_export_import_export_over_http(stack: LocalStack) -> None:
    api = Api(stack.url)
    game_id, creator, tokens = _new_game(api, draw_votes="public", max_year=1901)
    api.call("POST", f"/games/{game_id}/orders", token=tokens["FRANCE"], body={"orders": ["A MAR - SPA"]})
    api.call("POST", f"/games/{game_id}/votes", token=tokens["ITALY"], body={"draw": True})
    for phase in ("S1901M", "F1901M", "W1901A"):
        api.call("POST", f"/games/{game_id}/process_turn", token=creator, body={"phase": phase})
    first = api.call("GET", f"/games/{game_id}/export")
    assert first["result"]["kind"] == "year_limit" and len(first["phases"]) == 3
    for secret in [creator, *tokens.values()]:
        assert secret not in str(first)
    assert api.call("POST", "/games/import", body=first, expect=401)["code"] == "NOT_SIGNED_IN"
    created = api.call("POST", "/games/import", body=first, token=OPERATOR_TOKEN, expect=201)
    again = api.call("GET", f"/games/{created['game_id']}/export")
    assert {**again, "source": None} == {**first, "source": None}
    imported = api.call("GET", f"/games/{created['game_id']}")
    assert imported["status"] == "COMPLETED" and imported["result"]["kind"] == "year_limit"
    broken = {**first, "phases": first["phases"][1:]}
    refused = api.call("POST", "/games/import", body=broken, token=OPERATOR_TOKEN, expect=422)
    assert refused["code"] == "BAD_IMPORT"
