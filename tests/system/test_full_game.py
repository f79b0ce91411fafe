"""End to end over real HTTP: the embedded stack, seven players, Spring and Fall 1901."""

from __future__ import annotations

from typing import Any

import pytest

from local_stack.stack import LocalStack
from testkit.openings import AFTER_1901, FALL_1901, SPRING_1901
from tests.system.client import Api
from tests.system.conftest import OPERATOR_TOKEN

pytestmark = pytest.mark.system
POWERS = sorted(SPRING_1901)


def _new_game(api: Api, **settings: Any) -> tuple[str, str, dict[str, str]]:
    created = api.call("POST", "/games", body={"variant": "classical", **settings}, expect=201)
    tokens = {}
    for power in POWERS:
        joined = api.call("POST", f"/games/{created['game_id']}/join", body={"power": power})
        assert joined["power"] == power
        tokens[power] = joined["token"]
    return created["game_id"], created["token"], tokens


def _responses_leak(seen: list[Any], pending: dict[str, list[str]], viewer: str) -> list[str]:
    text = str(seen)
    return [o for p, orders in pending.items() if p != viewer for o in orders if o in text]


def _nobody_sees_the_others_pending_orders(api: Api, game_id: str, tokens: dict[str, str],
                                           orders: dict[str, list[str]]) -> None:
    """Each power's reads that could carry orders (its view without the menus, the status, the
    events, the history, the last resolution, the game list) hold its own pending orders only."""
    for power in POWERS:
        seen = [
            {k: v for k, v in api.call("GET", f"/games/{game_id}", token=tokens[power]).items()
             if k != "legal_orders"},
            api.call("GET", f"/games/{game_id}/orders_status", token=tokens[power]),
            api.call("GET", f"/games/{game_id}/events?after=0", token=tokens[power]),
            api.call("GET", f"/games/{game_id}/history", token=tokens[power]),
            api.call("GET", f"/games/{game_id}/last_resolution", token=tokens[power]),
            api.call("GET", "/games", token=tokens[power]),
        ]
        assert _responses_leak(seen, orders, power) == []
        assert seen[0]["orders"] == {power: orders[power]}


def test_a_whole_year_over_http(stack: LocalStack) -> None:
    api = Api(stack.url)
    # Given a full classical game
    game_id, creator, tokens = _new_game(api)
    # When everybody orders Spring 1901
    for phase, orders in (("S1901M", SPRING_1901), ("F1901M", FALL_1901)):
        for power, given in orders.items():
            answer = api.call("POST", f"/games/{game_id}/orders", token=tokens[power],
                              body={"orders": given, "phase": phase})
            assert answer["accepted"] == given and answer["rejected"] == []
        # Then no player can see anybody else's pending orders, anywhere
        _nobody_sees_the_others_pending_orders(api, game_id, tokens, orders)
        status = api.call("GET", f"/games/{game_id}/orders_status")
        assert status["waiting_on"] == [] and status["phase"] == phase
        # a player cannot process; the creator can
        refused = api.call("POST", f"/games/{game_id}/process_turn", token=tokens["FRANCE"], expect=403,
                           body={"phase": phase})
        assert refused["code"] == "FORBIDDEN"
        done = api.call("POST", f"/games/{game_id}/process_turn?require_all=true", token=creator,
                        body={"phase": phase})
        assert done["status"] == "ok" and done["game_status"] == "ACTIVE"
        assert {r["order_str"] for r in done["resolution"]["results"]} >= {
            o for given in orders.values() for o in given if "GAL" not in o and "BLA" not in o
        }
    # Then the board is as expected after 1901
    view = api.call("GET", f"/games/{game_id}", token=tokens["FRANCE"])
    assert view["phase"] == "W1901A" and view["power"] == "FRANCE"
    where = {u["location"].split("/")[0]: u["power"] for u in view["units"]}
    assert {p: where.get(p) for p in AFTER_1901} == AFTER_1901
    assert view["ownership"]["POR"] == "FRANCE" and view["ownership"]["SPA"] == "FRANCE"
    assert any(o.startswith("BUILD") for o in view["legal_orders"])
    spring = api.call("GET", f"/games/{game_id}/history")["phases"]
    assert [p["phase"] for p in spring] == ["S1901M", "F1901M"]
    assert spring[0]["orders"] == SPRING_1901
    bounced = {r["order_str"]: r["result"] for r in spring[0]["resolution"]["results"]}
    assert bounced["A VIE - GAL"] == bounced["A WAR - GAL"] == "BOUNCE"
    last = api.call("GET", f"/games/{game_id}/last_resolution")
    assert last["phase"] == "F1901M" and len(last["results"]) == 22
    events = api.call("GET", f"/games/{game_id}/events?after=0")
    types = [e["type"] for e in events["events"]]
    assert types.count("PLAYER_JOINED") == 7 and types.count("PHASE_PROCESSED") == 2
    assert [e["seq"] for e in events["events"]] == list(range(1, events["last_seq"] + 1))
    # After adjudication the orders are public history
    assert "A BUR H" in str(events["events"][-1])
    # Old phase: 409 STALE_PHASE
    stale = api.call("POST", f"/games/{game_id}/orders", token=tokens["FRANCE"],
                     body={"orders": ["A BUR H"], "phase": "F1901M"}, expect=409)
    assert stale["code"] == "STALE_PHASE"
    # The operator token may process too; winter builds default to waive
    done = api.call("POST", f"/games/{game_id}/process_turn", token=OPERATOR_TOKEN, body={"phase": "W1901A"})
    assert done["phase"] == "S1902M"


def test_errors_are_stable_codes(stack: LocalStack) -> None:
    api = Api(stack.url)
    assert api.call("GET", "/games/nope", expect=404)["code"] == "GAME_NOT_FOUND"
    bad = api.call("POST", "/games", body={"variant": "classical", "colour": "red"}, expect=422)
    assert bad["code"] == "VALIDATION_ERROR"
    assert api.call("POST", "/games", body={"variant": "narnia"}, expect=400)["code"] == "UNKNOWN_VARIANT"
    game_id, creator, tokens = _new_game(api)
    assert api.call("POST", f"/games/{game_id}/join", body={}, expect=409)["code"] == "GAME_FULL"
    answer = api.call("POST", f"/games/{game_id}/orders", token=tokens["FRANCE"],
                      body={"orders": ["A PAR - BUR", "A MAR - NOWHERE", "F BRE - MUN"]})
    codes = {r["order"]: (r["code"], r.get("engine_code")) for r in answer["rejected"]}
    assert codes["A MAR - NOWHERE"][0] in ("UNPARSEABLE_ORDER", "ILLEGAL_ORDER")
    assert codes["F BRE - MUN"][0] == "ILLEGAL_ORDER" and codes["F BRE - MUN"][1]
    assert api.call("POST", f"/games/{game_id}/orders", token="forged",
                    body={"orders": []}, expect=401)["code"] == "NOT_A_PLAYER"
    assert api.call("POST", f"/games/{game_id}/orders", token=creator,
                    body={"orders": []}, expect=403)["code"] == "FORBIDDEN"
    assert api.call("GET", "/nowhere", expect=404)["code"] == "NOT_FOUND"
    retracted = api.call("DELETE", f"/games/{game_id}/orders", token=tokens["FRANCE"])
    assert retracted["orders"] == []


def test_a_malformed_retraction_is_a_422_not_a_500(stack: LocalStack) -> None:
    api = Api(stack.url)
    game_id, _, tokens = _new_game(api)
    url = f"{stack.url}/games/{game_id}/orders"
    auth = {"Authorization": f"Bearer {tokens['FRANCE']}"}
    # When the body is not JSON (or not UTF-8 at all: issue 10 gives that its own code)
    cases = ((b"{not json", 422, "VALIDATION_ERROR"), (b"\xff\xfe", 400, "INVALID_ENCODING"))
    for raw, status, code in cases:
        answer = api.session.delete(url, data=raw, headers=auth, timeout=30)
        # Then it is a clean 4xx with a stable code, never INTERNAL
        assert answer.status_code == status, (raw, answer.text)
        assert answer.json()["code"] == code
    # And a blank unit names nothing: the other orders stay
    api.call("POST", f"/games/{game_id}/orders", token=tokens["FRANCE"], body={"orders": ["A PAR - BUR"]})
    kept = api.call("DELETE", f"/games/{game_id}/orders", token=tokens["FRANCE"], body={"units": ["", " "]})
    assert kept["orders"] == ["A PAR - BUR"]


def test_idempotency_key_replays_the_first_answer(stack: LocalStack) -> None:
    api = Api(stack.url)
    key = {"Idempotency-Key": "create-1"}
    first = api.call("POST", "/games", body={"variant": "classical"}, headers=key, expect=201)
    # the creator token is shown once: a replay says the game exists, never hands out the token
    again = api.call("POST", "/games", body={"variant": "classical"}, headers=key, expect=409)
    assert again["code"] == "IDEMPOTENT_REPLAY_SECRET"
    assert again["first"]["game_id"] == first["game_id"]
    assert not {"token", "webhook_secret", "player_token"} & again["first"].keys()
    assert first["token"] not in str(again)
    other = api.call("POST", "/games", body={"variant": "1900"}, headers=key, expect=422)
    assert other["code"] == "IDEMPOTENCY_KEY_REUSED"
    game_id = first["game_id"]
    key = {"Idempotency-Key": "j"}
    joined = api.call("POST", f"/games/{game_id}/join", body={"power": "ITALY"}, headers=key)
    replay = api.call("POST", f"/games/{game_id}/join", body={"power": "ITALY"}, headers=key, expect=409)
    assert replay["code"] == "IDEMPOTENT_REPLAY_SECRET" and replay["first"]["power"] == "ITALY"
    assert joined["token"] not in str(replay)
    events = api.call("GET", f"/games/{game_id}/events")["events"]
    assert [e["type"] for e in events] == ["GAME_CREATED", "PLAYER_JOINED"]
    # a rejected intent is not remembered: the same key and body may be retried later
    key = {"Idempotency-Key": "o"}
    body = {"orders": ["A VEN H"], "phase": "F1901M"}
    early = api.call("POST", f"/games/{game_id}/orders", token=joined["token"], body=body, headers=key,
                     expect=409)
    assert early["code"] == "STALE_PHASE"
    # one seat taken: only the operator may process the game before it is full (issue 11)
    api.call("POST", f"/games/{game_id}/process_turn", token=OPERATOR_TOKEN, body={"phase": "S1901M"})
    later = api.call("POST", f"/games/{game_id}/orders", token=joined["token"], body=body, headers=key)
    assert later["accepted"] == ["A VEN H"]


def test_openapi_is_served(stack: LocalStack) -> None:
    document = Api(stack.url).call("GET", "/openapi.json")
    assert "/games/{game_id}/orders" in document["paths"]
