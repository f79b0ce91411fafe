"""Redaction: before adjudication no response any player can get shows another power's orders,
and no press message reaches anyone outside its channel (issue 13).

Every GET route in the OpenAPI document is called by every player (and anonymously), so a
new route is covered as soon as it exists. Each seat is held by a signed-in account (issue 15),
so every player calls every route twice: with the seat token and with the account's ID token
(``/me`` routes take only ID tokens; a seat token there is a plain 401 with nothing to leak).
"""

from __future__ import annotations

import uuid

import pytest

from functions.api.handler import openapi_document
from local_stack.stack import LocalStack
from testkit.openings import SPRING_1901
from tests.system.client import Api
from tests.system.test_games_run_by_themselves import _wait_for
from tests.system.test_games_run_by_themselves import receiver as receiver  # a fixture

pytestmark = pytest.mark.system


def _seat_accounts(api: Api, stack: LocalStack, game_id: str) -> tuple[dict[str, str], dict[str, str]]:
    """Every power joined by a signed-in account: ({power: seat token}, {power: ID token})."""
    tokens, jwts = {}, {}
    for power in SPRING_1901:
        email = f"{power.lower()}-{uuid.uuid4().hex[:8]}@example.com"
        account = {"email": email, "password": "Convoy-test-1"}
        api.call("POST", "/auth/signup", body={**account, "display_name": power.title()}, expect=201)
        code = stack.emulator.mailbox.code_for(email)
        api.call("POST", "/auth/confirm", body={"email": email, "code": code})
        jwts[power] = api.call("POST", "/auth/signin", body=account)["id_token"]
        tokens[power] = api.call("POST", f"/games/{game_id}/join", token=jwts[power],
                                 body={"power": power})["token"]
    return tokens, jwts


def _everything(api: Api, gets: list[str], game_id: str, token: str | None, jwt: str | None) -> list[object]:
    """Every GET route's answer to the seat token (or none), and to the account's ID token."""
    seen: list[object] = []
    for bearer, signed_in in ((token, False), (jwt, True)) if jwt else ((token, False),):
        for path in gets:
            if path.startswith("/me") and not signed_in:
                continue
            query = REQUIRED_QUERY.get(path, "")
            seen.append(_answer(api, path.replace("{game_id}", game_id) + query, bearer))
    return seen


# routes whose query a GET must carry: the mail unsubscribe page (issue 33) needs a link's token;
# one that is not ours answers its 400 page, which is what anyone without a mail of theirs sees
# the archive (issue 34) is searched by variant or by player: a search of this game's variant
REQUIRED_QUERY = {"/mail/unsubscribe": "?t=someone.reminder.not-a-signature",
                  "/archive": "?variant=classical"}


def test_no_response_leaks_pending_orders(stack: LocalStack) -> None:
    api = Api(stack.url)
    created = api.call("POST", "/games", body={"variant": "classical"}, expect=201)
    game_id = created["game_id"]
    tokens, jwts = _seat_accounts(api, stack, game_id)
    answers = {
        p: api.call("POST", f"/games/{game_id}/orders", token=tokens[p], body={"orders": o})
        for p, o in SPRING_1901.items()
    }
    # /me routes answer only an account's ID token (NOT_SIGNED_IN to a seat token); what they
    # show of a seat is checked by tests/system/test_accounts.py
    gets = [p for p, ops in openapi_document()["paths"].items() if "get" in ops and not p.startswith("/me")]
    viewers = [*sorted(tokens), None]
    for viewer in viewers:
        token = tokens[viewer] if viewer else None
        seen = [answers[viewer]] if viewer else []
        for body in _everything(api, gets, game_id, token, jwts[viewer] if viewer else None):
            if isinstance(body, dict):
                body = {k: v for k, v in body.items() if k != "legal_orders"}  # the caller's own menu
            seen.append(body)
        text = str(seen)
        leaked = [o for p, given in SPRING_1901.items() if p != viewer for o in given if o in text]
        assert leaked == [], (viewer, leaked)


def _answer(api: Api, path: str, token: str | None) -> object:
    """The decoded answer of one GET: JSON as data, any other text (an SVG map) as text."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = api.session.get(api.base + path, headers=headers, timeout=30)
    # 404 is an answer too (no resolution map before the first adjudication), and so is the
    # 401 NOT_SIGNED_IN of the account routes (/me, /me/games) to a seat token: read it all
    signed_in_only = response.status_code == 401 and "NOT_SIGNED_IN" in response.text
    not_our_link = response.status_code == 400 and path.startswith("/mail/unsubscribe?")
    answered = response.status_code in (200, 404) or signed_in_only or not_our_link
    assert answered, (path, response.status_code, response.text[:200])
    if response.headers.get("content-type", "").startswith("application/json"):
        return response.json()
    return response.text


# --- press (issue 13) ------------------------------------------------------------------------

CHANNELS = {  # sender -> recipients; every text is unique so a leak is a substring
    "private-EF": ("ENGLAND", ["FRANCE"]),
    "private-RT": ("RUSSIA", ["TURKEY"]),
    "group-AIT": ("AUSTRIA", ["ITALY", "TURKEY"]),
    "group-EFG": ("GERMANY", ["ENGLAND", "FRANCE"]),
    "public-I": ("ITALY", "ALL"),
}


def _members(text: str) -> set[str]:
    sender, to = CHANNELS[text]
    return set(SPRING_1901) if to == "ALL" else {sender, *to}


def _may_see(text: str, viewer: str | None) -> bool:
    """Members see a channel; an observer sees public press only."""
    return CHANNELS[text][1] == "ALL" if viewer is None else viewer in _members(text)


def test_no_response_leaks_press_to_non_members(
    stack: LocalStack, receiver: tuple[str, list[tuple[dict[str, str], bytes]]]
) -> None:
    # Given private, group and public press in flight, in a game with a webhook
    url, received = receiver
    api = Api(stack.url)
    created = api.call("POST", "/games", body={"notify": [{"type": "webhook", "url": url}]}, expect=201)
    game_id = created["game_id"]
    tokens, jwts = _seat_accounts(api, stack, game_id)
    answers: dict[str, list[object]] = {p: [] for p in tokens}
    for text, (sender, to) in CHANNELS.items():
        answers[sender].append(api.call("POST", f"/games/{game_id}/messages", token=tokens[sender],
                                        body={"to": to, "text": text}, expect=201))
    channels = sorted({",".join(sorted(_members(t))) for t in CHANNELS if CHANNELS[t][1] != "ALL"})

    # When every power (and an observer) calls every GET route, and every channel by name
    # /me routes answer only an account's ID token (NOT_SIGNED_IN to a seat token); what they
    # show of a seat is checked by tests/system/test_accounts.py
    gets = [p for p, ops in openapi_document()["paths"].items() if "get" in ops and not p.startswith("/me")]
    for viewer in [*sorted(tokens), None]:
        token = tokens[viewer] if viewer else None
        seen: list[object] = list(answers[viewer]) if viewer else []
        seen += _everything(api, gets, game_id, token, jwts[viewer] if viewer else None)
        for channel in [*channels, "ALL"]:
            by_name = f"/games/{game_id}/messages?channel={channel}"
            seen.append(api.call("GET", by_name, token=token, expect=None))
            seen.append(api.call("POST", f"/games/{game_id}/channels/{channel}/read", token=token,
                                 body={"upto": 9}, expect=None))

        # Then no message reaches anyone outside its channel, and members see theirs
        text = str(seen)
        leaked = [t for t in CHANNELS if t in text and not _may_see(t, viewer)]
        assert leaked == [], (viewer, leaked)
        missing = [t for t in CHANNELS if _may_see(t, viewer) and t not in text]
        assert missing == [], (viewer, missing)

    # and the game's webhook learns that private press was sent, never what it said
    _wait_for("press notices", lambda: sum(b"MESSAGE" in body for _, body in received) >= len(CHANNELS))
    delivered = b"".join(body for _, body in received).decode()
    assert [t for t in CHANNELS if t in delivered] == ["public-I"]
