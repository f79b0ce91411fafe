"""Issue 32, "Done when": the keyboard alone orders a whole Spring turn, and axe-core finds no
serious or critical violation on any screen, at desktop and at phone size.

axe-core is the npm package pinned in web/package-lock.json (web/node_modules/axe-core,
installed by `make web`), injected into the page (the context bypasses the page's CSP for it).
Every screen is also photographed at both sizes (test-artifacts/web/<test>/; docs/img holds
copies).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import requests

from local_stack.stack import LocalStack
from tests.web.helpers import axe_serious, shot, tab_to

pytestmark = pytest.mark.system
OTHERS = ["AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


class Screens:
    """axe-core and a photograph of each screen, at desktop and phone size."""

    def __init__(self, page: Any, shots: Path) -> None:
        self.page, self.shots = page, shots
        self.found: dict[str, list[dict[str, Any]]] = {}

    def check(self, name: str) -> None:
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            self.page.set_viewport_size(viewport)
            self.page.wait_for_timeout(150)  # the board measures itself again
            self.found[f"{name} ({size})"] = axe_serious(self.page)
            shot(self.page, self.shots, f"{name}-{size}")
        self.page.set_viewport_size(DESKTOP)
        self.page.wait_for_timeout(150)


def _press(page: Any, test: str) -> None:
    tab_to(page, test)
    page.keyboard.press("Enter")


def _fits(page: Any) -> None:
    """Nothing of the board is cut off: the board and its buttons end inside the window."""
    bottom = page.evaluate("document.querySelector('.map-tools').getBoundingClientRect().bottom + scrollY")
    assert bottom <= page.viewport_size["height"], (page.viewport_size, bottom)


def _france_and_the_creator_in_this_browser(browser: Any, url: str) -> tuple[Any, dict[str, Any]]:
    """A game with six dummies, France's seat and the creator's token kept in this browser's
    storage, as the client keeps them: (the page, the created game)."""
    created = {"name": "Keyboard table", "dummy_powers": OTHERS}
    game: dict[str, Any] = requests.post(f"{url}/games", json=created, timeout=30).json()
    seat = requests.post(f"{url}/games/{game['game_id']}/join", json={"power": "FRANCE"}, timeout=30).json()
    page = browser.new_context(viewport=DESKTOP, bypass_csp=True, timezone_id="Europe/Berlin").new_page()
    page.set_default_timeout(20_000)
    page.goto(url + "/")
    kept = {"power": "FRANCE", "token": seat["token"], "creatorToken": game["token"]}
    page.evaluate("([id, seat]) => localStorage.setItem('convoy.seats', JSON.stringify({[id]: seat}))",
                  [game["game_id"], kept])
    return page, game


def _spring_orders_by_the_keyboard(page: Any) -> None:
    """France's three orders, each a different way the keyboard has: the board's buttons (a
    unit, then its target), the order box, and the board again after Escape dropped a selection."""
    _press(page, "el.dataset.province === 'PAR'")
    page.wait_for_selector("[data-testid=hit-PAR].is-selected")
    _press(page, "el.dataset.province === 'PIC'")
    page.get_by_test_id("my-orders").get_by_text("A PAR - PIC", exact=True).wait_for()
    # the order box: what is typed is completed; Enter sends the first offer
    tab_to(page, "el.getAttribute('role') === 'combobox'")
    page.keyboard.type("mar spa")
    page.get_by_role("option", name="A MAR - SPA").wait_for()
    page.keyboard.press("Enter")
    page.get_by_test_id("my-orders").get_by_text("A MAR - SPA", exact=True).wait_for()
    # the board again, after Escape has dropped a selection
    _press(page, "el.dataset.province === 'BRE'")
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=hit-BRE]:not(.is-selected)")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=hit-BRE].is-selected")
    _press(page, "el.dataset.province === 'MAO'")
    page.get_by_test_id("my-orders").get_by_text("F BRE - MAO", exact=True).wait_for()


def test_a_spring_turn_by_keyboard_alone_and_axe_on_every_screen(
    browser: Any, web_stack: LocalStack, shots: Path
) -> None:
    # Given France's seat and the creator's token in this browser (the computer fills six powers)
    url = web_stack.url
    page, game = _france_and_the_creator_in_this_browser(browser, url)
    screens = Screens(page, shots)
    page.goto(f"{url}/#/")
    page.get_by_test_id(f"my-game-{game['game_id']}").get_by_text("Keyboard table").wait_for()
    screens.check("lobby")
    page.goto(f"{url}/#/games/{game['game_id']}")
    page.wait_for_selector("[data-testid=hit-PAR]")
    screens.check("game")

    # When France orders by the keyboard alone
    _spring_orders_by_the_keyboard(page)
    shot(page, shots, "keyboard-orders")

    # And the creator processes the turn, and opens the results, by the keyboard
    _press(page, "el.dataset.testid === 'process-turn'")
    page.get_by_role("status").get_by_text("Spring 1901 movement has been resolved").wait_for()
    _fits(page)  # 1366 x 900 with the banner: nothing cut off
    page.set_viewport_size({"width": 1280, "height": 720})
    page.wait_for_timeout(150)
    _fits(page)
    shot(page, shots, "resolved-1280x720")
    page.set_viewport_size(DESKTOP)
    _press(page, "el.textContent === 'See the results'")
    results = page.get_by_test_id("results")
    for order in ("A PAR - PIC", "A MAR - SPA", "F BRE - MAO"):
        assert "succeeded" in results.locator("tr", has_text=order).inner_text()
    screens.check("history")
    _press(page, "el.dataset.testid === 'tab-press'")
    page.get_by_role("textbox", name="Message").wait_for()
    screens.check("press")
    _press(page, "el.dataset.testid === 'tab-table'")
    screens.check("table")

    # Then axe-core finds nothing serious on the other screens either
    for name, path in (("sign-in", "/signin"), ("sign-up", "/signup"), ("new-game", "/new"),
                       ("settings", "/settings"), ("seat-token", "/seat")):
        page.goto(f"{url}/#{path}")
        page.locator("main h1").wait_for()
        screens.check(name)
    page.context.close()
    bad = {screen: v for screen, v in screens.found.items() if v}
    assert not bad, bad
