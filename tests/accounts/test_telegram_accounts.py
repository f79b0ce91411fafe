"""Issue 15 item 4: linking a Telegram chat to a seat bound to an account links it to the
account; the bot's /games lists the account's games and /use plays another of its seats."""

from __future__ import annotations

from composition import wiring
from composition.factories import telegram
from functions.adapters import StoreGameActions
from functions.usecases.accounts.accounts import AccountDirectory
from functions.usecases.reach import handle_update
from testkit.api_harness import InProcessApi
from tests.notifications.fakes import MemoryReplyOutbox

TELEGRAM_USER = 4242
_updates = iter(range(1, 10_000))


def _say(api: InProcessApi, text: str, chat_type: str = "private") -> str:
    services = wiring.services()
    outbox = MemoryReplyOutbox()
    handle_update(
        {"update_id": next(_updates),
         "message": {"text": text, "chat": {"id": TELEGRAM_USER, "type": chat_type},  # numbered as its user
                     "from": {"id": TELEGRAM_USER}}},
        store=telegram.telegram_store(),
        games=StoreGameActions(api.store, api.clock, press=services.press_store,
                               chats=telegram.telegram_store()),
        outbox=outbox, now=api.clock.now(),
        accounts=AccountDirectory(api.store, services.press_store, api.accounts),
    )
    ((_, text),) = outbox.replies.values()
    return text


def test_a_linked_account_lists_and_plays_its_games_from_telegram(api: InProcessApi) -> None:
    _, jwt = api.pool.user("Ada")
    first = api.call("POST", "/games", {"variant": "classical", "name": "Friday"}, token=jwt).body["game_id"]
    api.call("POST", f"/games/{first}/join", {"power": "FRANCE"}, token=jwt)
    second = api.call("POST", "/games", {"variant": "classical"}).body["game_id"]
    api.call("POST", f"/games/{second}/join", {"power": "TURKEY"}, token=jwt)
    # Given a link code asked for with the account's ID token (today's link codes)
    code = api.call("POST", f"/games/{first}/telegram/link_code", token=jwt).body["code"]
    # When the Telegram user links it
    linked = _say(api, f"/link {code}")
    assert "FRANCE" in linked and "account" in linked
    # Then /games lists the account's games, and /use plays the other seat
    listed = _say(api, "/games")
    # six seats still open: the game waits for players, nothing is due yet (issue 32)
    assert f"{first} Friday: FRANCE, S1901M, waiting for players, you created it" in listed
    assert f"{second} classical {second}: TURKEY" in listed
    assert "TURKEY" in _say(api, f"/use {second}")
    accepted = _say(api, "/orders F ANK - BLA")
    assert "1 order(s) accepted" in accepted and "TURKEY" in accepted
    assert api.store.load(second).pending_orders == {"TURKEY": ["F ANK - BLA"]}
    # a seat the account does not hold cannot be taken over, and group chats never list the games
    stranger = api.call("POST", "/games", {"variant": "classical"}).body["game_id"]
    assert "no seat" in _say(api, f"/use {stranger}")
    assert "private chat" in _say(api, "/games", chat_type="group")


def test_a_seat_without_an_account_links_the_seat_only(api: InProcessApi) -> None:
    game = api.call("POST", "/games", {"variant": "classical"}).body["game_id"]
    seat = api.call("POST", f"/games/{game}/join", {"power": "ITALY"}).body["token"]
    code = api.call("POST", f"/games/{game}/telegram/link_code", token=seat).body["code"]
    linked = _say(api, f"/link {code}")
    assert "ITALY" in linked and "account" not in linked
    assert "not linked to an account" in _say(api, "/games")
