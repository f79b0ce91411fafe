"""What the API relies on from its resolver (Powertools' ``APIGatewayHttpResolver`` with
validation, functions/api/handler.py), checked through the real handler: typed path, query
and body parameters; one 422 naming every invalid field; an empty body read as ``{}``;
404 for unknown paths and methods; errors mapped by class, a bug a 500 without its trace;
an answer that does not match its model is our bug, not the caller's; OpenAPI from the
route table. (Ported from the tests of the hand-written router it replaced, issue 27.)
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from composition import api as entry
from functions.api import handler
from functions.usecases.kinds import player_view
from functions.usecases.turns import views
from local_stack.http_adapter import LocalContext, to_event
from testkit.api_harness import InProcessApi

REF = "#/components/schemas/"


def _locations(body: dict[str, Any]) -> list[list[str]]:
    return sorted(e["loc"] for e in body["errors"])


def test_path_query_and_body_reach_the_handler_typed(api: InProcessApi) -> None:
    game_id, creator, _ = api.new_game()
    done = api.call("POST", f"/games/{game_id}/process_turn?require_all=false", {"phase": "S1901M"},
                    token=creator)
    assert done.status == 200, done.raw
    assert done.body["resolution"]["phase"] == "S1901M" and done.body["phase"] == "F1901M"


def test_an_empty_body_is_an_empty_object(api: InProcessApi) -> None:
    game_id, creator, tokens = api.new_game()
    france = {"authorization": f"Bearer {tokens['FRANCE']}"}
    missing = api.raw("POST", f"/games/{game_id}/orders", b"", france)
    assert missing.status == 422 and _locations(missing.body) == [["body", "orders"]]
    # process_turn's body names the phase to close (issue 28 item 12): an empty one is {} and refused
    done = api.raw("POST", f"/games/{game_id}/process_turn", b"", {"authorization": f"Bearer {creator}"})
    assert done.status == 422 and _locations(done.body) == [["body", "phase"]], done.raw


def test_base64_bodies_are_decoded(api: InProcessApi) -> None:
    event = to_event("POST", "/games", {"content-type": "application/json"}, b"", "127.0.0.1")
    event["body"] = base64.b64encode(json.dumps({"variant": "classical"}).encode()).decode()
    event["isBase64Encoded"] = True
    result = entry.lambda_handler(event, LocalContext())
    assert result["statusCode"] == 201 and json.loads(result["body"])["game_id"]


def test_bad_body_and_query_are_one_validation_error_naming_every_field(api: InProcessApi) -> None:
    game_id, creator, _ = api.new_game()
    answer = api.call("POST", f"/games/{game_id}/process_turn?require_all=maybe", {"phase": 5, "extra": 1},
                      token=creator)
    assert answer.status == 422 and answer.body["code"] == "VALIDATION_ERROR"
    assert _locations(answer.body) == [["body", "extra"], ["body", "phase"], ["query", "require_all"]]
    assert "query.require_all" in answer.body["message"]


def test_a_query_parameter_out_of_range_is_a_validation_error(api: InProcessApi) -> None:
    answer = api.call("GET", "/games?limit=0")
    assert answer.status == 422 and _locations(answer.body) == [["query", "limit"]]
    assert api.call("GET", "/games?limit=2").status == 200


def test_a_body_that_is_not_json_is_a_validation_error(api: InProcessApi) -> None:
    answer = api.raw("POST", "/games", b"{not json", {"content-type": "application/json"})
    assert answer.status == 422 and answer.body["code"] == "VALIDATION_ERROR"
    assert answer.body["errors"] == [{"loc": ["body"], "msg": answer.body["errors"][0]["msg"]}]
    assert answer.body["message"].startswith("body: Invalid JSON: ")


def test_an_empty_body_sent_as_another_content_type_is_not_read(api: InProcessApi) -> None:
    answer = api.raw("POST", "/games", b"", {"content-type": "text/plain"})
    assert answer.status == 422 and _locations(answer.body) == [["body"]]
    assert "Content-Type: application/json" in answer.body["message"]


def test_unknown_paths_and_methods_go_to_not_found(api: InProcessApi) -> None:
    game_id, _, _ = api.new_game()
    assert api.call("GET", "/nothing").body == {"code": "NOT_FOUND", "message": "no route /nothing"}
    assert api.call("PUT", f"/games/{game_id}").status == 404
    nested = api.call("GET", f"/games/{game_id}/extra/orders_status")  # a parameter never spans a slash
    assert (nested.status, nested.body["code"]) == (404, "NOT_FOUND")


def test_a_bug_is_a_500_without_its_trace(api: InProcessApi, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> list[dict[str, Any]]:
        raise KeyError("a secret detail")

    monkeypatch.setattr(views, "list_variants", broken)
    answer = api.call("GET", "/variants")
    assert (answer.status, answer.body["code"]) == (500, "INTERNAL")
    assert "secret detail" not in answer.raw and "Traceback" not in answer.raw


def test_an_answer_off_its_model_is_a_500_not_the_callers_fault(
        api: InProcessApi, monkeypatch: pytest.MonkeyPatch) -> None:
    """A view is the builder's dict, held to its model on the way out (routes/games.py)."""
    game_id, _, _ = api.new_game()
    assert api.call("GET", f"/games/{game_id}").status == 200
    monkeypatch.setattr(player_view, "with_unread", lambda view, *_: {**view, "year": "not a year"})
    answer = api.call("GET", f"/games/{game_id}")
    assert (answer.status, answer.body["code"]) == (500, "INTERNAL")
    assert "not a year" not in answer.raw


def test_openapi_is_generated_from_the_route_table() -> None:
    document = handler.openapi_document()
    operation = document["paths"]["/games/{game_id}/process_turn"]["post"]
    assert operation["operationId"] == "post_process_turn_games__game_id__process_turn_post"
    where = [(p["in"], p["name"]) for p in operation["parameters"]]
    assert where == [("path", "game_id"), ("query", "require_all")]
    body = operation["requestBody"]
    assert body["content"]["application/json"]["schema"] == {"$ref": f"{REF}ProcessTurnRequest"}
    assert body["required"] is True  # its phase is (issue 28 item 12)
    assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ProcessTurnResponse"
    }
    created = document["paths"]["/games"]["post"]["responses"]
    assert "200" not in created and created["201"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/CreateGameResponse"
    }
    named = set(document["components"]["schemas"])
    assert {"ProcessTurnRequest", "ProcessTurnResponse", "ErrorBody"} <= named
    assert "HTTPValidationError" not in document["components"]["schemas"]  # our 422 body is ErrorBody
    for operations in document["paths"].values():
        for answer in operations.values():
            assert answer["responses"]["422"]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/ErrorBody"
            }


def test_the_document_is_served_at_openapi_json(api: InProcessApi) -> None:
    served = api.call("GET", "/openapi.json")
    assert served.status == 200 and served.body == handler.openapi_document()
    assert "/openapi.json" not in served.body["paths"]
