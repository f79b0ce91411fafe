"""Press end to end over real HTTP (issue 13): negotiation, unread counts, press rules, anonymity."""

from __future__ import annotations

import re
from typing import Any

import pytest

from local_stack.stack import LocalStack
from testkit.openings import SPRING_1901
from tests.system.client import Api

pytestmark = pytest.mark.system
POWERS = sorted(SPRING_1901)


def _new_game(api: Api, **settings: Any) -> tuple[str, str, dict[str, str]]:
    created = api.call("POST", "/games", body={"variant": "classical", **settings}, expect=201)
    gid = created["game_id"]
    tokens = {p: api.call("POST", f"/games/{gid}/join", body={"power": p})["token"] for p in POWERS}
    return gid, created["token"], tokens


def _unread(api: Api, gid: str, token: str) -> int:
    return int(api.call("GET", f"/games/{gid}", token=token)["unread"])


def test_a_three_way_negotiation_across_two_phases(stack: LocalStack) -> None:
    api = Api(stack.url)
    gid, creator, tokens = _new_game(api)
    e, f, g = tokens["ENGLAND"], tokens["FRANCE"], tokens["GERMANY"]

    # Spring: England opens a three-way channel; France answers; Germany answers privately to England
    sent = api.call("POST", f"/games/{gid}/messages", token=e, expect=201,
                    body={"to": ["FRANCE", "GERMANY"], "text": "  Triple alliance against Russia?  "})
    assert sent["channel"] == "ENGLAND,FRANCE,GERMANY" and sent["seq"] == 1 and sent["message_id"]
    assert _unread(api, gid, f) == 1 and _unread(api, gid, g) == 1 and _unread(api, gid, e) == 0
    api.call("POST", f"/games/{gid}/messages", token=f, expect=201,
             body={"to": ["ENGLAND", "GERMANY"], "text": "Agreed. I go south."})
    api.call("POST", f"/games/{gid}/messages", token=g, expect=201,
             body={"to": ["ENGLAND"], "text": "Between us: watch France."})
    assert _unread(api, gid, e) == 2 and _unread(api, gid, g) == 2 and _unread(api, gid, f) == 0

    # France sees the group channel only; the England-Germany aside is not there
    france = api.call("GET", f"/games/{gid}/messages", token=f)
    expected = ["Triple alliance against Russia?", "Agreed. I go south."]
    assert [m["text"] for m in france["messages"]] == expected
    assert "watch France" not in str(api.call("GET", f"/games/{gid}/channels", token=f))

    # England reads the group channel: unread goes down by the group's one message
    channels = {c["channel"]: c for c in api.call("GET", f"/games/{gid}/channels", token=e)["channels"]}
    unread = {k: v["unread"] for k, v in channels.items()}
    assert unread == {"ENGLAND,FRANCE,GERMANY": 1, "ENGLAND,GERMANY": 1}
    assert channels["ENGLAND,GERMANY"]["last_message"]["from"] == "GERMANY"
    marked = api.call("POST", f"/games/{gid}/channels/ENGLAND,FRANCE,GERMANY/read", token=e, body={"upto": 2})
    assert (marked["unread"], marked["unread_total"]) == (0, 1)
    assert _unread(api, gid, e) == 1

    # The turn is processed; the talk goes on in Fall
    for power, orders in SPRING_1901.items():
        api.call("POST", f"/games/{gid}/orders", token=tokens[power], body={"orders": orders})
    api.call("POST", f"/games/{gid}/process_turn", token=creator, body={"phase": "S1901M"})
    assert api.call("GET", f"/games/{gid}", token=e)["phase"] == "F1901M"
    cursor = api.call("GET", f"/games/{gid}/messages", token=e)["next_after"]
    api.call("POST", f"/games/{gid}/messages", token=f, expect=201,
             body={"to": ["ENGLAND", "GERMANY"], "text": "Fall: I support you into Belgium."})
    assert _unread(api, gid, e) == 2 and _unread(api, gid, g) == 3
    fresh = api.call("GET", f"/games/{gid}/messages?after={cursor}", token=e)["messages"]
    assert [(m["text"], m["phase"], m["from"]) for m in fresh] == [
        ("Fall: I support you into Belgium.", "F1901M", "FRANCE")]
    by_channel = api.call("GET", f"/games/{gid}/messages?channel=GERMANY,ENGLAND,FRANCE&after=1", token=g)
    assert [(m["seq"], m["phase"]) for m in by_channel["messages"]] == [(2, "S1901M"), (3, "F1901M")]
    for token in (e, g):
        for channel in api.call("GET", f"/games/{gid}/channels", token=token)["channels"]:
            api.call("POST", f"/games/{gid}/channels/{channel['channel']}/read", token=token,
                     body={"upto": channel["last_seq"]})
        assert _unread(api, gid, token) == 0

    # A non-member cannot read the channel or mark it read
    assert api.call("GET", f"/games/{gid}/messages?channel=ENGLAND,GERMANY", token=f,
                    expect=404)["code"] == "CHANNEL_NOT_FOUND"
    api.call("POST", f"/games/{gid}/channels/ENGLAND,GERMANY/read", token=f, body={"upto": 1}, expect=404)


def test_send_is_idempotent_and_validated(stack: LocalStack) -> None:
    api = Api(stack.url)
    gid, creator, tokens = _new_game(api)
    body = {"to": ["ITALY"], "text": "Lepanto?"}
    key = {"Idempotency-Key": "press-1"}
    turkey = tokens["TURKEY"]
    first = api.call("POST", f"/games/{gid}/messages", token=turkey, body=body, headers=key, expect=201)
    again = api.call("POST", f"/games/{gid}/messages", token=turkey, body=body, headers=key, expect=201)
    assert first == again
    assert len(api.call("GET", f"/games/{gid}/messages", token=tokens["ITALY"])["messages"]) == 1
    bad_texts = ((" ", "MESSAGE_EMPTY"), ("x" * 4001, "MESSAGE_TOO_LONG"), ("\x00", "MESSAGE_NOT_PRINTABLE"))
    for bad, code in bad_texts:
        answer = api.call("POST", f"/games/{gid}/messages", token=tokens["TURKEY"], expect=422,
                          body={"to": ["ITALY"], "text": bad})
        assert answer["code"] == code
    assert api.call("POST", f"/games/{gid}/messages", token=creator, body={"to": "ALL", "text": "hi"},
                    expect=403)["code"] == "FORBIDDEN"
    assert api.call("POST", f"/games/{gid}/messages", body={"to": "ALL", "text": "hi"}, expect=401)


def test_the_rate_limit_answers_429_with_retry_after(stack: LocalStack) -> None:
    api = Api(stack.url)
    gid, _, tokens = _new_game(api)
    headers = {"Authorization": f"Bearer {tokens['RUSSIA']}"}
    statuses = []
    for n in range(31):
        response = api.session.post(f"{stack.url}/games/{gid}/messages", headers=headers, timeout=30,
                                    json={"to": ["TURKEY"], "text": f"message {n}"})
        statuses.append(response.status_code)
    assert statuses[:30] == [201] * 30
    # thirty in one minute; the 31st is refused (unless the minute turned over mid-loop)
    if statuses[30] == 429:
        assert response.json()["code"] == "RATE_LIMITED"
        assert 1 <= int(response.headers["Retry-After"]) <= 60


def test_public_only_refuses_private_press_and_none_refuses_all(stack: LocalStack) -> None:
    api = Api(stack.url)
    gid, _, tokens = _new_game(api, press="public_only")
    assert api.call("GET", f"/games/{gid}", token=tokens["FRANCE"])["press"] == "public_only"
    refused = api.call("POST", f"/games/{gid}/messages", token=tokens["FRANCE"], expect=409,
                       body={"to": ["ENGLAND"], "text": "psst"})
    assert refused["code"] == "PRIVATE_PRESS_DISABLED"
    api.call("POST", f"/games/{gid}/messages", token=tokens["FRANCE"], expect=201,
             body={"to": "ALL", "text": "Peace in our time."})
    observed = api.call("GET", f"/games/{gid}/messages")["messages"]  # an observer reads public press
    assert [m["text"] for m in observed] == ["Peace in our time."]

    silent, _, quiet = _new_game(api, press="none")
    for to in ("ALL", ["ENGLAND"], ["ENGLAND", "GERMANY"]):
        answer = api.call("POST", f"/games/{silent}/messages", token=quiet["FRANCE"], expect=409,
                          body={"to": to, "text": "hello"})
        assert answer["code"] == "PRESS_DISABLED"
    assert api.call("GET", f"/games/{silent}/messages", token=quiet["ENGLAND"])["messages"] == []
    assert api.call("POST", "/games", body={"press": "shouting"}, expect=422)


ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")


def test_an_anonymous_game_names_powers_only(stack: LocalStack) -> None:
    api = Api(stack.url)
    gid, _, tokens = _new_game(api, anonymous=True)
    sends = [
        api.call("POST", f"/games/{gid}/messages", token=tokens["FRANCE"], expect=201,
                 body={"to": ["ENGLAND"], "text": "Who are you?",
                       "client_timestamp": "2030-01-01T09:00:00+05:30"}),
        api.call("POST", f"/games/{gid}/messages", token=tokens["ENGLAND"], expect=201,
                 body={"to": "ALL", "text": "Nobody you know."}),
    ]
    seen: list[Any] = list(sends)
    for _, token in sorted(tokens.items()):
        view = api.call("GET", f"/games/{gid}", token=token)
        assert view["anonymous"] is True
        assert all(p["joined_at"] is None for p in view["players"].values())
        seen += [view, api.call("GET", f"/games/{gid}/messages", token=token),
                 api.call("GET", f"/games/{gid}/channels", token=token),
                 api.call("GET", f"/games/{gid}/events?after=0", token=token)]
    messages = [m for body in seen if isinstance(body, dict) for m in body.get("messages", [])]
    assert messages and all(m["from"] in POWERS and set(m["members"]) <= set(POWERS) for m in messages)
    assert all(m.get("client_timestamp") is None for m in messages)  # a client's clock can betray a time zone
    text = str(seen)
    assert not [t for t in tokens.values() if t in text]
    # nothing about a seat but its power: the only timestamps are the server's, of messages and phases
    players = [body["players"] for body in seen if isinstance(body, dict) and "players" in body]
    assert players and not ISO.search(str(players))
