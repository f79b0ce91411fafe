"""A backgammon move's answer in process (issue 18; issue 9 item 6 made the event records
NamedTuples): the view after the move and the move's events, each an object with the event
log's fields, as ``GET /games/{id}/events`` shows them."""

from __future__ import annotations

from testkit.api_harness import InProcessApi


def test_a_move_answers_with_the_view_and_its_events_as_objects(api: InProcessApi) -> None:
    # Given a seeded backgammon game with both sides seated
    created = api.call("POST", "/games", {"game": "backgammon", "backgammon": {"seed": 2024}})
    assert created.status == 201, created.raw
    game_id = created.body["game_id"]
    tokens = {side: api.call("POST", f"/games/{game_id}/join", {"side": side}).body["token"]
              for side in ("WHITE", "BLACK")}
    views = {side: api.call("GET", f"/games/{game_id}", token=token).body for side, token in tokens.items()}
    side = views["WHITE"]["to_play"]
    view = views[side]
    # When the side to play makes its first legal move
    answer = api.call("POST", f"/games/{game_id}/moves",
                      {"input": "MOVE", "move": view["legal_moves"][0], "phase": view["phase"]},
                      token=tokens[side])
    # Then it gets the new view and the move's events, the same objects the event log holds
    assert answer.status == 200, answer.raw
    assert answer.body["view"]["game_id"] == game_id
    events = answer.body["events"]
    assert events and events[0]["type"] == "MOVE_MADE"
    logged = api.call("GET", f"/games/{game_id}/events?after=0&limit=500").body["events"]
    assert events == [e for e in logged if e["seq"] >= events[0]["seq"]][:len(events)]
