"""Malformed and loose bodies get a stable 4xx and change nothing (issue 10, item 3).

Each test is named after a defect of the issue; before the fix each was a 500 INTERNAL,
a coerced value, or a 10 MB echo.
"""

from __future__ import annotations

import json

import pytest

from functions.api.body_guard import MAX_BODY_BYTES, MAX_DEPTH
from testkit.api_harness import InProcessApi

JSON = {"content-type": "application/json"}


def _france(api: InProcessApi) -> tuple[str, dict[str, str]]:
    game_id, _, tokens = api.new_game()
    return game_id, {**JSON, "authorization": f"Bearer {tokens['FRANCE']}"}


def test_a_body_that_is_not_utf8_is_400_invalid_encoding(api: InProcessApi) -> None:
    game_id, headers = _france(api)
    answer = api.raw("POST", f"/games/{game_id}/orders", b"\xff\xfe\x00", headers)
    assert (answer.status, answer.body["code"]) == (400, "INVALID_ENCODING")


def test_a_non_utf8_byte_inside_an_order_is_400_invalid_encoding(api: InProcessApi) -> None:
    game_id, headers = _france(api)
    answer = api.raw("POST", f"/games/{game_id}/orders", b'{"orders": ["A PAR - BUR\xff"]}', headers)
    assert (answer.status, answer.body["code"]) == (400, "INVALID_ENCODING")
    assert "FRANCE" not in api.store.load(game_id).pending_orders


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "text/json"])
def test_a_json_body_with_another_content_type_is_415(api: InProcessApi, content_type: str) -> None:
    game_id, headers = _france(api)
    answer = api.raw("POST", f"/games/{game_id}/orders", b'{"orders": ["A PAR - BUR"]}',
                     {**headers, "content-type": content_type})
    assert (answer.status, answer.body["code"]) == (415, "UNSUPPORTED_MEDIA_TYPE")
    assert "FRANCE" not in api.store.load(game_id).pending_orders


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "application/merge-patch+json"])
def test_json_content_types_with_parameters_are_accepted(api: InProcessApi, content_type: str) -> None:
    game_id, headers = _france(api)
    answer = api.raw("POST", f"/games/{game_id}/orders", b'{"orders": ["A PAR - BUR"]}',
                     {**headers, "content-type": content_type})
    assert answer.status == 200


def test_a_body_without_content_type_is_read_as_json(api: InProcessApi) -> None:
    game_id, headers = _france(api)
    del headers["content-type"]
    answer = api.raw("POST", f"/games/{game_id}/orders", b'{"orders": ["A PAR - BUR"]}', headers)
    assert answer.status == 200


@pytest.mark.parametrize("route", ["orders", "join", "process_turn"])
def test_json_nested_50k_levels_deep_is_a_clean_4xx(api: InProcessApi, route: str) -> None:
    game_id, headers = _france(api)
    answer = api.raw("POST", f"/games/{game_id}/{route}", b"[" * 50_000 + b"]" * 50_000, headers)
    assert answer.status in (400, 413) and answer.body["code"] in ("JSON_TOO_DEEP", "PAYLOAD_TOO_LARGE")
    within_limit = b'{"orders": ' + b"[" * 30_000 + b"]" * 30_000 + b"}"
    answer = api.raw("POST", f"/games/{game_id}/{route}", within_limit, headers)
    assert (answer.status, answer.body["code"]) == (400, "JSON_TOO_DEEP")


def test_deeply_nested_delete_body_is_400(api: InProcessApi) -> None:
    game_id, headers = _france(api)
    answer = api.raw("DELETE", f"/games/{game_id}/orders", b"{" * (MAX_DEPTH + 1), headers)
    assert (answer.status, answer.body["code"]) == (400, "JSON_TOO_DEEP")


def test_brackets_inside_strings_do_not_count_as_nesting(api: InProcessApi) -> None:
    game_id, headers = _france(api)
    body = json.dumps({"orders": ["[" * 100]}).encode()
    answer = api.raw("POST", f"/games/{game_id}/orders", body, headers)
    assert answer.status == 200 and answer.body["rejected"][0]["code"] == "UNPARSEABLE_ORDER"


def test_a_10_mb_body_of_orders_is_not_echoed_back(api: InProcessApi) -> None:
    game_id, headers = _france(api)
    body = json.dumps({"orders": ["A PAR - BUR" + "X" * 170_000] * 60}).encode()
    assert len(body) > 10_000_000
    answer = api.raw("POST", f"/games/{game_id}/orders", body, headers)
    assert (answer.status, answer.body["code"]) == (413, "PAYLOAD_TOO_LARGE")
    assert len(answer.raw) < 1000


def test_responses_stay_bounded_under_the_body_limit(api: InProcessApi) -> None:
    # 64 orders of 121 characters: each too long, refused by the model, nothing echoed whole
    game_id, headers = _france(api)
    body = json.dumps({"orders": ["A" * 121] * 64}).encode()
    assert len(body) < MAX_BODY_BYTES
    answer = api.raw("POST", f"/games/{game_id}/orders", body, headers)
    assert answer.status == 422 and len(answer.raw) < 20_000


@pytest.mark.parametrize("settings", [
    {"phase_seconds": {"MOVEMENT": "86400"}},
    {"auto_process": "true"},
    {"private": "yes"},
    {"private": 1},
    {"reminder_seconds": "60"},
])
def test_loose_types_are_refused_not_coerced(api: InProcessApi, settings: dict[str, object]) -> None:
    answer = api.call("POST", "/games", {"variant": "classical", **settings})
    assert (answer.status, answer.body["code"]) == (422, "VALIDATION_ERROR")
    assert api.store.games == {}


def test_a_null_power_does_not_join_a_random_seat(api: InProcessApi) -> None:
    created = api.call("POST", "/games", {"variant": "classical"}).body
    answer = api.call("POST", f"/games/{created['game_id']}/join", {"power": None})
    assert (answer.status, answer.body["code"]) == (422, "VALIDATION_ERROR")
    assert api.store.load(created["game_id"]).players == {}
    assert api.call("POST", f"/games/{created['game_id']}/join", {}).status == 200


def test_wait_flag_is_a_real_bool(api: InProcessApi) -> None:
    game_id, headers = _france(api)
    answer = api.raw("POST", f"/games/{game_id}/wait", b'{"wait": "false"}', headers)
    assert answer.status == 422
