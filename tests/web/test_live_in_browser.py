"""Issue 33, "Done when": live updates in a real browser, with polling turned off.

Two signed-in players in two browser contexts have a game open. France sends press to Germany
and submits its orders; Germany's page shows both — the message in the conversation, and
France's orders as in on the table — within a second of each being accepted, with nothing but
the live socket to tell it (``convoy.pollMs`` = 0 turns the page's poll off). Then the socket is
cut and cannot come back for a while: the page falls back to polling, then follows the socket
again once it answers.

Issue 29 item 1: a page visit asks ``GET /games/{id}/live`` once per game (the address is
remembered) and takes its first view from the socket's subscribe answer, not from a GET beside
it: a reload of a followed game makes neither request. Issue 29, the bill: the socket opens with
no subprotocol and the caller's token rides in the subscribe frame.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from local_stack.stack import LocalStack
from tests.web.helpers import nav, shot
from tests.web.test_browser_play import DUMMIES, _create_game, _sign_up

pytestmark = pytest.mark.system
# Polling is off, so whatever shows came by the socket. Issue 33 asks for "within 1 s": it shows
# in about 0.2-0.3 s (printed below; docs/web.md). The bound is looser on purpose: a timed
# assertion at the goal would fail on a loaded test machine, not on a fault (the team's rule:
# figures are printed, not asserted), and 3 s still fails if nothing pushes it.
WITHIN = 3.0  # seconds


def _page(browser: Any, url: str, poll: bool) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    if not poll:
        context.add_init_script("localStorage.setItem('convoy.pollMs', '0')")
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(url + "/")
    return page


def _within(page: Any, what: Any, started: float) -> float:
    """Wait for ``what`` to show on ``page``; the seconds since ``started``."""
    what.wait_for(timeout=10_000)
    return time.monotonic() - started


def _both_playing_with_polling_off(browser: Any, web_stack: LocalStack, shots: Path) -> tuple[Any, Any, str]:
    """Ada creates a game as France, Bert joins it as Germany from the lobby; both pages have
    their poll off and their socket up: (France's page, Germany's page, the game id)."""
    france = _page(browser, web_stack.url, poll=False)
    _sign_up(france, web_stack, "Ada", shots, "01-france")
    germany = _page(browser, web_stack.url, poll=False)
    _sign_up(germany, web_stack, "Bert", shots, "02-germany")
    game_id = _create_game(france, "FRANCE", dummies=DUMMIES, auto_process=False, name="Live table")
    germany.get_by_role("link", name="Lobby").click()
    germany.get_by_test_id(f"join-{game_id}-power").select_option("GERMANY")
    germany.get_by_test_id(f"join-{game_id}-button").click()
    germany.get_by_text("You play Germany").wait_for()
    for page in (france, germany):
        page.get_by_test_id("live").wait_for()  # the socket is up
    return france, germany, game_id


def test_the_other_player_sees_press_and_a_submission_by_the_socket_without_polling(
    browser: Any, web_stack: LocalStack, shots: Path
) -> None:
    # Given France and Germany signed in, the game open on both pages, each page's poll off
    france, germany, game_id = _both_playing_with_polling_off(browser, web_stack, shots)
    germany.get_by_test_id("tab-table").click()
    germany.locator("table.powers tr", has_text="France").get_by_text("waiting").wait_for()
    time.sleep(2.0)  # the joins' own notices have gone out: what follows is measured alone

    # When France sends press to Germany
    france.get_by_test_id("tab-press").click()
    france.get_by_role("tab", name="+ New conversation").click()
    france.get_by_label("Germany").check()
    france.get_by_role("textbox", name="Message").fill("Live from Paris.")
    france.get_by_role("button", name="Send to Germany").click()
    france.get_by_test_id("messages").get_by_text("Live from Paris.").wait_for()  # accepted
    sent = time.monotonic()

    # Then Germany sees the unread badge, and the message in the conversation, pushed
    badge = _within(germany, germany.get_by_test_id("tab-press").locator(".badge.unread"), sent)
    shot(germany, shots, "03-germany-unread-live")
    assert badge <= WITHIN, f"press showed after {badge:.2f} s"
    germany.get_by_test_id("tab-press").click()
    germany.get_by_test_id("channel-FRANCE,GERMANY").click()
    germany.get_by_test_id("messages").get_by_text("Live from Paris.").wait_for()

    # When France submits its orders (every unit holds)
    germany.get_by_test_id("tab-table").click()
    france.get_by_test_id("tab-orders").click()
    with france.expect_response(lambda r: "/orders" in r.url and r.request.method == "POST") as answer:
        france.get_by_role("button", name="Submit: all units hold").click()
    assert answer.value.status == 200
    submitted = time.monotonic()

    # Then Germany's table shows France's orders in, pushed
    france_row = germany.locator("table.powers tr", has_text="France")
    seen = _within(germany, france_row.get_by_text("✓ in"), submitted)
    shot(germany, shots, "04-germany-sees-submission-live")
    assert seen <= WITHIN, f"the submission showed after {seen:.2f} s"
    print(f"live: press after {badge:.2f} s, submission after {seen:.2f} s")

    # When Germany comes back to the page (a new visit: a reload)
    asked: list[str] = []
    germany.on("request", lambda r: asked.append(f"{r.method} {r.url}"))
    frames: list[str] = []
    germany.on("websocket", lambda ws: ws.on("framesent", lambda payload: frames.append(str(payload))))
    germany.reload()
    germany.get_by_test_id("live").wait_for()
    germany.get_by_text("You play Germany").wait_for()
    # the socket opened with no subprotocol (the server selects none: one offered would fail the
    # handshake) and the caller's token rode in the subscribe frame (issue 29: no $connect route)
    subscribed = [json.loads(f) for f in frames if '"subscribe"' in f]
    assert subscribed and subscribed[0]["game_id"] == game_id and subscribed[0]["token"], frames
    # Then the view came by the socket: no GET of the view, no GET of the socket's address
    game_path = f"/games/{game_id}"
    assert not [a for a in asked if a.startswith("GET ") and a.split("?")[0].endswith(game_path)], asked
    assert not [a for a in asked if a.split("?")[0].endswith(f"{game_path}/live")], asked

    # When the socket drops and cannot come back for a while, then answers again
    _polls_while_the_socket_is_down_then_follows_it_again(germany, web_stack, shots)


def _polls_while_the_socket_is_down_then_follows_it_again(page: Any, web_stack: LocalStack,
                                                          shots: Path) -> None:
    """The stack closes the page's socket and every new one is refused for a while (the browser's
    WebSocket routing closes it before it reaches us): the page, its poll back on, polls the
    event log meanwhile, and follows the socket again once it answers."""
    blocked = {"on": True}

    def socket_route(ws: Any) -> None:
        if blocked["on"]:
            ws.close()
        else:
            ws.connect_to_server()

    page.evaluate("localStorage.removeItem('convoy.pollMs')")
    page.route_web_socket(lambda url: True, socket_route)
    with page.expect_request(lambda r: "/events?after=" in r.url, timeout=15_000):
        live = web_stack._live
        assert live is not None  # the web stack serves the live socket
        for connection_id in list(live._open):
            live.close(connection_id)
        page.get_by_test_id("live").wait_for(state="detached")
    # the page polls the event log meanwhile, and follows the socket again once it answers
    shot(page, shots, "05-germany-polling")
    blocked["on"] = False
    page.get_by_test_id("live").wait_for(timeout=40_000)


def test_a_player_chooses_which_notices_come_by_mail_and_push_on_a_phone(
    browser: Any, web_stack: LocalStack, shots: Path
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(web_stack.url + "/")
    _sign_up(page, web_stack, "Cleo", shots, "01-phone")
    nav(page, "Settings")  # on a phone the header's links sit behind its Menu button
    settings = page.get_by_test_id("notification-settings")
    settings.get_by_label("Turn results by mail").select_option("digest")
    settings.get_by_label("Press while you are away by push").select_option("never")
    page.get_by_role("button", name="Get push notices on this device").wait_for()
    shot(page, shots, "02-phone-notice-settings")
    page.reload()
    settings = page.get_by_test_id("notification-settings")
    assert settings.get_by_label("Turn results by mail").input_value() == "digest"
    assert settings.get_by_label("Press while you are away by push").input_value() == "never"
    assert settings.get_by_label("Your orders are due by mail").input_value() == "immediate"
