"""Issue 16, "Done when": people play Convoy in a real browser against the running local stack.

Two players in two browser contexts create and join a game, exchange a private message, give
their Spring orders by clicking the map, the creator processes the turn and both see the
resolution; a third context plays a demo game to a winter build. Every step leaves a
screenshot in test-artifacts/web/<test>/.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import pytest

from local_stack.stack import LocalStack
from tests.web.helpers import click_province, nav, shot

pytestmark = pytest.mark.system
DUMMIES = ["AUSTRIA", "ENGLAND", "ITALY", "RUSSIA", "TURKEY"]


def _page(browser: Any, url: str, **kw: Any) -> Any:
    context = browser.new_context(viewport=kw.pop("viewport", {"width": 1280, "height": 900}), **kw)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(url + "/")
    return page


PASSWORD = "Convoy-web-1"


def _sign_up(page: Any, stack: LocalStack, name: str, shots: Path, prefix: str) -> None:
    """Sign up, confirm with the code the local pool "mailed" (docs/accounts.md), be signed in."""
    email = f"{name.lower()}-{uuid.uuid4().hex[:8]}@example.com"
    nav(page, "Sign in")
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Name shown to others").fill(name)
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill("short")
    page.get_by_role("button", name="Sign up").click()
    page.get_by_role("alert").get_by_text("WEAK_PASSWORD").wait_for()
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.get_by_label(re.compile("Confirmation code")).wait_for()
    shot(page, shots, f"{prefix}-sign-up-code")
    code = stack.emulator.mailbox.code_for(email)
    assert code is not None
    page.get_by_label(re.compile("Confirmation code")).fill(code)
    page.get_by_role("button", name="Confirm and sign in").click()
    page.get_by_test_id("signed-in-as").get_by_text(name).wait_for()


def _create_game(page: Any, seat: str, *, dummies: list[str], auto_process: bool, name: str = "") -> str:
    page.get_by_role("link", name="New game").click()
    if name:
        page.get_by_label(re.compile("^Name")).fill(name)
    page.get_by_label("Take a seat").select_option(seat)
    for power in dummies:
        page.get_by_role("group", name=re.compile("Dummy powers")).get_by_label(power.capitalize()).check()
    box = page.get_by_label("Process as soon as every power has ordered")
    if box.is_checked() != auto_process:
        box.click()
    page.get_by_test_id("create-game").click()
    page.wait_for_url(re.compile(r"#/games/"))
    game_id: str = page.url.rsplit("/", 1)[-1]
    return game_id


def _order_by_clicks(page: Any, *provinces: str, expect: str, choose: str | None = None) -> None:
    """Click the provinces; where the clicks fit several orders, pick ``choose`` from the offer."""
    first, *rest = provinces
    click_province(page, first)
    if rest:
        # The first click selects the unit (MapView marks it ``selected``). A click that lands
        # while the new phase's menus are still loading is not taken: click it once more.
        try:
            page.wait_for_selector(f"#p-{first}.selected", timeout=5000)
        except Exception:
            click_province(page, first)
            page.wait_for_selector(f"#p-{first}.selected")
    for province in rest:
        click_province(page, province)
    if choose:
        page.get_by_role("group", name="Which order?").get_by_role("button", name=choose).click()
    page.get_by_test_id("my-orders").get_by_text(expect, exact=True).wait_for()


def test_two_players_sign_up_create_join_talk_order_and_see_the_resolution(
    browser: Any, web_stack: LocalStack, shots: Path
) -> None:
    # Given two people sign up (each confirms with the code mailed to them)
    france = _page(browser, web_stack.url)
    shot(france, shots, "01-lobby")
    _sign_up(france, web_stack, "Ada", shots, "02-france")
    phone = {"width": 390, "height": 844}
    germany = _page(browser, web_stack.url, viewport=phone, is_mobile=True, has_touch=True)
    _sign_up(germany, web_stack, "Bert", shots, "03-germany")

    # And Ada creates a game (five dummies, so two players fill it) and takes France
    game_id = _create_game(france, "FRANCE", dummies=DUMMIES, auto_process=False, name="Friday table")
    france.get_by_text("You play France").wait_for()
    shot(france, shots, "04-france-created")

    # When Bert joins it from the lobby on his phone
    nav(germany, "Lobby")
    germany.get_by_test_id(f"join-{game_id}-power").select_option("GERMANY")
    shot(germany, shots, "05-germany-lobby-phone")
    germany.get_by_test_id(f"join-{game_id}-button").click()
    germany.get_by_text("You play Germany").wait_for()

    # And France writes to Germany alone, and Germany reads it and answers
    _france_writes_and_germany_answers(france, germany, shots)

    # And both order by clicking on the map: a unit, then its target (support: unit, unit, target)
    _both_order_spring_by_clicks(france, germany, shots)

    # And an order typed in the box that the engine refuses is explained in words
    box = france.get_by_label("Type an order")
    box.fill("A PAR - MOS")
    box.press("Enter")
    france.get_by_role("alert", name="Refused orders").wait_for()
    assert "cannot reach" in france.get_by_role("alert", name="Refused orders").inner_text()
    shot(france, shots, "11-france-refused-order")

    # When France, the creator, processes the turn
    france.get_by_test_id("process-turn").click()

    # Then both see it resolved without reloading, with every order's result
    for name, page in (("france", france), ("germany", germany)):
        _sees_the_spring_resolution(page, shots, name)

    # And the account's game list (GET /me/games) shows the game by name with its orders due
    france.get_by_role("link", name="Lobby").click()
    mine = france.get_by_test_id(f"my-game-{game_id}")
    mine.get_by_text("Friday table").wait_for()
    france.locator(".game-list li", has_text="Friday table").locator(".badge.due").wait_for()
    shot(france, shots, "13-france-lobby-account")
    for page in (france, germany):
        page.context.close()  # no page left polling for the tests after this one


def _france_writes_and_germany_answers(france: Any, germany: Any, shots: Path) -> None:
    """A private conversation: Germany's press tab shows an unread badge, the message is read in
    the FRANCE,GERMANY channel and answered, and France reads the answer."""
    france.get_by_test_id("tab-press").click()
    france.get_by_role("tab", name="+ New conversation").click()
    france.get_by_label("Germany").check()
    france.get_by_role("textbox", name="Message").fill("Burgundy stays empty if you keep out of it.")
    france.get_by_role("button", name="Send to Germany").click()
    france.get_by_test_id("messages").get_by_text("Burgundy stays empty").wait_for()
    germany.get_by_test_id("tab-press").locator(".badge.unread").wait_for()
    shot(germany, shots, "06-germany-unread-badge")
    germany.get_by_test_id("tab-press").click()
    germany.get_by_test_id("channel-FRANCE,GERMANY").click()
    germany.get_by_test_id("messages").get_by_text("Burgundy stays empty").wait_for()
    germany.get_by_role("textbox", name="Message").fill("Agreed. I go east, to Silesia.")
    germany.get_by_role("button", name="Send to France").click()
    germany.get_by_test_id("messages").get_by_text("Agreed. I go east, to Silesia.").wait_for()
    shot(germany, shots, "07-germany-press")
    france.get_by_test_id("channel-FRANCE,GERMANY").click()
    france.get_by_test_id("messages").get_by_text("Agreed. I go east, to Silesia.").wait_for()
    shot(france, shots, "08-france-press")


def _both_order_spring_by_clicks(france: Any, germany: Any, shots: Path) -> None:
    """France's three moves, and Germany's (on the phone) with a support: unit, unit, target."""
    france.get_by_test_id("tab-orders").click()
    _order_by_clicks(france, "PAR", "PIC", expect="A PAR - PIC")
    _order_by_clicks(france, "MAR", "SPA", expect="A MAR - SPA")
    _order_by_clicks(france, "BRE", "MAO", expect="F BRE - MAO")
    shot(france, shots, "09-france-orders")
    germany.get_by_test_id("tab-orders").click()
    _order_by_clicks(germany, "MUN", "SIL", expect="A MUN - SIL")
    _order_by_clicks(germany, "BER", "MUN", "SIL", expect="A BER S A MUN - SIL")
    _order_by_clicks(germany, "KIE", "HOL", expect="F KIE - HOL")
    shot(germany, shots, "10-germany-orders-phone")


def _sees_the_spring_resolution(page: Any, shots: Path, name: str) -> None:
    """The results table (both powers' orders, each with its outcome) and the Fall heading."""
    page.get_by_role("button", name="See the results").click()
    results = page.get_by_test_id("results")
    results.get_by_text("A PAR - PIC").wait_for()
    results.get_by_role("row", name="Germany A MUN - SIL succeeded").wait_for()
    assert "succeeded" in results.locator("tr", has_text="F BRE - MAO").inner_text()
    page.locator(".game-head h1").get_by_text("Fall 1901 movement").wait_for()
    shot(page, shots, f"12-{name}-resolution")


def _seat_view(page: Any, url: str, game_id: str) -> dict[str, Any]:
    """What the player's own browser holds: its seat token, then the API's view for it."""
    import requests

    token = page.evaluate(f"JSON.parse(localStorage.getItem('convoy.seats'))['{game_id}'].token")
    answer = requests.get(f"{url}/games/{game_id}", headers={"Authorization": f"Bearer {token}"}, timeout=30)
    view: dict[str, Any] = answer.json()
    return view


def _ready(page: Any, phase_words: str) -> None:
    """Declare the orders done (the wait flag comes down) and wait for the next phase on screen."""
    page.get_by_test_id("ready").click()
    page.locator(".game-head h1").filter(has_not_text=phase_words).wait_for()


def test_a_demo_game_is_played_to_a_winter_build(browser: Any, web_stack: LocalStack, shots: Path) -> None:
    # Given a player starts a demo game as France (the computer plays the six others)
    page = _page(browser, web_stack.url)
    page.get_by_role("link", name="New game").click()
    page.get_by_label("Demo game").check()
    page.get_by_label("My power").select_option("FRANCE")
    shot(page, shots, "01-demo-settings")
    page.get_by_test_id("create-game").click()
    page.get_by_text("You play France").wait_for()
    game_id = page.url.rsplit("/", 1)[-1]

    # When France orders Spring 1901 by clicks and says it is ready
    _order_by_clicks(page, "MAR", "SPA", expect="A MAR - SPA")
    _order_by_clicks(page, "BRE", "MAO", expect="F BRE - MAO")
    _order_by_clicks(page, "PAR", "PAR", expect="A PAR H")
    shot(page, shots, "02-demo-spring-orders")
    _ready(page, "Spring 1901 movement")
    page.locator(".game-head h1").get_by_text("Fall 1901 movement").wait_for()

    # And takes Portugal (and holds Spain) in the fall
    _fall_orders_take_portugal(page, _seat_view(page, web_stack.url, game_id))
    shot(page, shots, "03-demo-fall-orders")
    _ready(page, "Fall 1901 movement")

    # Then a winter comes in which France builds (the computer's moves are its own: if it took
    # centres back this year, France plays on, all units holding, until it may build)
    view = _play_on_until_france_may_build(page, web_stack.url, game_id)
    page.locator(".game-head h1").get_by_text(_phase_words(view["phase"])).wait_for()
    page.get_by_text(re.compile("You may build")).wait_for()
    site = next(o.split()[2] for o in view["legal_orders"] if o.startswith("BUILD A "))
    click_province(page, site)
    if f"BUILD F {site}" in view["legal_orders"]:  # a coastal centre: army or fleet is asked
        offer = page.get_by_role("group", name="Which order?")
        offer.get_by_role("button", name=f"Build: BUILD A {site}").click()
    page.get_by_test_id("my-orders").get_by_text(f"BUILD A {site}").wait_for()
    shot(page, shots, "04-demo-winter-build")
    _ready(page, _phase_words(view["phase"]))
    page.get_by_role("button", name="See the results").click()
    page.get_by_test_id("results").get_by_text(f"BUILD A {site}").wait_for()
    shot(page, shots, "05-demo-build-result")
    row = page.get_by_test_id("results").locator("tr", has_text=f"BUILD A {site}")
    assert "built" in row.inner_text()

    # And the board can be switched to the colour-blind palette (units then carry initials)
    page.get_by_role("link", name="Settings").click()
    page.get_by_label(re.compile("Colour-blind safe")).check()
    page.go_back()
    page.get_by_test_id("tab-orders").click()
    page.get_by_test_id("map").locator("svg").wait_for()
    shot(page, shots, "06-demo-colour-blind")
    page.context.close()


def _fall_orders_take_portugal(page: Any, view: dict[str, Any]) -> None:
    """The fleet in MAO moves to Portugal; every other French unit, wherever Spring left it, holds."""
    where = {u["location"].split("/")[0] for u in view["units_by_power"]["FRANCE"]}
    for unit in sorted(where):
        if unit == "MAO":
            _order_by_clicks(page, "MAO", "POR", expect="F MAO - POR")
        else:
            kind = next(u["kind"] for u in view["units_by_power"]["FRANCE"] if u["location"].startswith(unit))
            _order_by_clicks(page, unit, unit, expect=f"{kind} {unit} H")


def _play_on_until_france_may_build(page: Any, url: str, game_id: str) -> dict[str, Any]:
    """Phase by phase (at most eight), France submits its holds or, with nothing to order,
    processes the phase, until an adjustment phase owes France a build; that phase's view."""
    for _ in range(8):
        page.wait_for_timeout(300)
        view = _seat_view(page, url, game_id)
        if view["phase_type"] == "ADJUSTMENT" and view["owed"]["builds"] > 0:
            return view
        page.locator(".game-head h1").get_by_text(_phase_words(view["phase"])).wait_for()
        if view["submitted"].get("FRANCE") is False:
            page.get_by_role("button", name=re.compile("^Submit: ")).click()
            _ready(page, _phase_words(view["phase"]))
        else:  # nothing for France to decide (the computer's retreats): France, the creator, processes it
            page.get_by_text("Nothing for you to order").wait_for()
            page.get_by_test_id("process-turn").click()
            page.locator(".game-head h1").filter(has_not_text=_phase_words(view["phase"])).wait_for()
    raise AssertionError(f"no winter build for France by {view['phase']}")


def _phase_words(phase: str) -> str:
    season = {"S": "Spring", "F": "Fall", "W": "Winter"}[phase[0]]
    kind = {"M": "movement", "R": "retreats", "A": "adjustments"}[phase[-1]]
    return f"{season} {phase[1:5]} {kind}"


def test_a_seat_token_opens_the_seat_in_a_fresh_browser(
    browser: Any, web_stack: LocalStack, shots: Path
) -> None:
    import requests

    # Given a seat taken over the API (a bot, or another device), with its token
    game = requests.post(f"{web_stack.url}/games", json={"dummy_powers": DUMMIES}, timeout=30).json()
    join = f"{web_stack.url}/games/{game['game_id']}/join"
    assert requests.post(join, json={"power": "ITALY"}, timeout=30).status_code == 409  # a dummy
    seat = requests.post(join, json={"power": "GERMANY"}, timeout=30).json()

    # When the player pastes it into the client
    page = _page(browser, web_stack.url)
    page.get_by_role("link", name="Seat token", exact=True).click()
    page.get_by_label("Game id").fill(game["game_id"])
    page.get_by_role("textbox", name="Token").fill("not-the-token")
    page.get_by_role("button", name="Open the game").click()
    page.get_by_role("alert").get_by_text("NOT_A_PLAYER").wait_for()
    page.get_by_role("textbox", name="Token").fill(seat["token"])
    page.get_by_role("button", name="Open the game").click()

    # Then the game opens on that seat, and the lobby lists it with its orders due
    page.get_by_text("You play Germany").wait_for()
    shot(page, shots, "01-seat-token-game")
    page.get_by_role("link", name="Lobby").click()
    page.get_by_test_id(f"my-game-{game['game_id']}").wait_for()
    listed = page.locator(".game-list li", has_text=game["game_id"])
    assert listed.locator(".badge.due").count() == 0  # France is still open: nothing is due yet
    shot(page, shots, "02-seat-token-lobby")
    page.context.close()
