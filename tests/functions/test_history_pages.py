"""GET /games/{id}/history a page at a time, with an opaque cursor (issue 11, item 6: 240 phases
were 1.6 MB in one answer; ~1,100 would pass Lambda's 6 MB response limit)."""

from __future__ import annotations

import base64
from collections.abc import Iterator

import pytest

from functions.ports import PhaseRecord
from testkit.api_harness import InProcessApi, in_process_api


@pytest.fixture
def api() -> Iterator[InProcessApi]:
    yield from in_process_api()


def _long_game(api: InProcessApi, phases: int) -> str:
    game_id: str = api.call("POST", "/games", {"variant": "classical"}).body["game_id"]
    api.store.phase_items[game_id] = [
        PhaseRecord(n, f"P{n}", {}, {}, {"results": []}, "2024-01-01T00:00:00.000Z") for n in range(phases)
    ]
    return game_id


def test_history_comes_in_pages_that_join_up_without_gaps(api: InProcessApi) -> None:
    # Given a game with 120 adjudicated phases
    game_id = _long_game(api, 120)

    # When a client reads its history following next_cursor
    seen: list[int] = []
    sizes: list[int] = []
    answer = api.call("GET", f"/games/{game_id}/history").body
    while True:
        seen += [p["n"] for p in answer["phases"]]
        sizes.append(len(answer["phases"]))
        if answer["next_cursor"] is None:
            break
        answer = api.call("GET", f"/games/{game_id}/history?cursor={answer['next_cursor']}").body

    # Then it got every phase once, in order, 50 at a time by default
    assert seen == list(range(120))
    assert sizes == [50, 50, 20]


def test_limit_sets_the_page_size_within_bounds(api: InProcessApi) -> None:
    game_id = _long_game(api, 5)
    first = api.call("GET", f"/games/{game_id}/history?limit=2").body
    assert [p["n"] for p in first["phases"]] == [0, 1] and first["next_cursor"]
    last = api.call("GET", f"/games/{game_id}/history?limit=3&cursor={first['next_cursor']}").body
    assert [p["n"] for p in last["phases"]] == [2, 3, 4] and last["next_cursor"] is None
    for bad in ("0", "201", "x"):
        assert api.call("GET", f"/games/{game_id}/history?limit={bad}").status == 422


def test_a_foreign_or_forged_cursor_is_refused_with_a_stable_code(api: InProcessApi) -> None:
    game_id, other = _long_game(api, 3), _long_game(api, 3)
    theirs = api.call("GET", f"/games/{other}/history?limit=1").body["next_cursor"]
    forged = base64.urlsafe_b64encode(f"h1:{game_id}:-5".encode()).decode()
    for cursor in (theirs, forged, "%%%", "bm90IGEgY3Vyc29y"):
        answer = api.call("GET", f"/games/{game_id}/history?cursor={cursor}")
        assert (answer.status, answer.body["code"]) == (400, "BAD_CURSOR"), cursor


def test_an_empty_history_is_one_last_page(api: InProcessApi) -> None:
    game_id = _long_game(api, 0)
    empty = api.call("GET", f"/games/{game_id}/history").body
    assert empty == {"phases": [], "result": None, "next_cursor": None}
