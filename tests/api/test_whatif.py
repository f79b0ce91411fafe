"""POST /games/{id}/whatif through the real handler (issue 31 item 5): a player previews the
current phase; nothing is written and no other power's pending orders show."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from testkit.api_harness import InProcessApi, in_process_api


class CountingApi:
    """The in-process API with every write of the game store counted."""

    def __init__(self, api: InProcessApi, monkeypatch: pytest.MonkeyPatch) -> None:
        self.api = api
        self.writes = 0
        store = api.store
        write, create = store._write, store.create

        def counted_write(*args: Any, **kwargs: Any) -> Any:
            self.writes += 1
            return write(*args, **kwargs)

        def counted_create(*args: Any, **kwargs: Any) -> Any:
            self.writes += 1
            return create(*args, **kwargs)

        monkeypatch.setattr(store, "_write", counted_write)
        monkeypatch.setattr(store, "create", counted_create)


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> Iterator[CountingApi]:
    for api in in_process_api():
        yield CountingApi(api, monkeypatch)


def test_a_preview_writes_nothing_and_shows_no_one_elses_orders(counting: CountingApi) -> None:
    # Given a game where France and Germany have sent orders (Germany's are secret)
    api = counting.api
    game_id, _, tokens = api.new_game()
    assert api.call("POST", f"/games/{game_id}/orders", {"orders": ["A PAR - BUR", "A MAR S A PAR - BUR"]},
                    token=tokens["FRANCE"]).status == 200
    assert api.call("POST", f"/games/{game_id}/orders", {"orders": ["A MUN - BUR", "A BER - KIE"]},
                    token=tokens["GERMANY"]).status == 200
    events_before = api.call("GET", f"/games/{game_id}/events").body
    writes = counting.writes
    # When France previews its pending orders against a guess for Germany
    answer = api.call("POST", f"/games/{game_id}/whatif",
                      {"orders": {"GERMANY": ["A MUN - BUR"]}, "phase": "S1901M"}, token=tokens["FRANCE"])
    # Then the engine's answer, with explanations
    assert answer.status == 200, answer.raw
    results = {r["order_str"]: r for r in answer.body["resolution"]["results"]}
    assert answer.body["own_orders"] == "pending"
    assert results["A PAR - BUR"]["result"] == "OK"
    assert results["A MUN - BUR"]["explanation"]["text"] == (
        "A MUN's move to BUR was beaten by A PAR moving there too (2, supported by A MAR), "
        "against its attack of 1; A PAR moved in.")
    # and nothing was written: no store write, no event, the game still in S1901M with its orders
    assert counting.writes == writes
    assert api.call("GET", f"/games/{game_id}/events").body == events_before
    # and Germany's real orders (A BER - KIE) took no part and appear nowhere
    assert "BER - KIE" not in answer.raw
    assert results["A BER H"]["reason"]["code"] == "NO_ORDER"


def test_whatif_needs_a_seated_players_token(counting: CountingApi) -> None:
    api = counting.api
    game_id, creator, tokens = api.new_game()
    assert api.call("POST", f"/games/{game_id}/whatif", {}).status == 401
    assert api.call("POST", f"/games/{game_id}/whatif", {}, token=creator).status == 403
    stale = api.call("POST", f"/games/{game_id}/whatif", {"phase": "F1901M"}, token=tokens["FRANCE"])
    assert (stale.status, stale.body["code"]) == (409, "STALE_PHASE")
    unknown = api.call("POST", f"/games/{game_id}/whatif", {"orders": {"X": ["A PAR H"]}},
                       token=tokens["FRANCE"])
    assert (unknown.status, unknown.body["code"]) == (400, "UNKNOWN_POWER")
    extra = api.call("POST", f"/games/{game_id}/whatif", {"state": {}}, token=tokens["FRANCE"])
    assert extra.status == 422
