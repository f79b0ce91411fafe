"""Fog of war in the browser (issue 35 item 3: "the web client: fogged provinces drawn as unknown,
no crash on missing data"). A fog game with six dummy powers, France's seat, on a desktop and on a
phone (390 x 844): the board hatches every province France does not see and draws only the units
it sees, the table shows every power's public centre count, the board in words says what is
unknown, and a unit is still ordered by taps. An observer's page shows an all-fog board. Screenshots
land in test-artifacts/web/<test>/ (one is copied to docs/img).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import requests

import engine
from engine.fog import visible_provinces
from local_stack.stack import LocalStack
from tests.web.helpers import click_province, shot
from tests.web.test_phone_board import OTHERS, PHONE, _seated_page

pytestmark = pytest.mark.system
BOARD = engine.load_map("classical")
SEEN = visible_provinces(engine.initial_state(BOARD), BOARD, "FRANCE")
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def _fogged(page: Any) -> set[str]:
    return set(page.evaluate("() => [...document.querySelectorAll('#fog path')].map((p) => p.dataset.fog)"))


def test_a_fog_game_in_the_browser_shows_france_its_part_of_the_board(
    browser: Any, web_stack: LocalStack, shots: Path
) -> None:
    url = web_stack.url
    created: dict[str, Any] = {"name": "Fog table", "dummy_powers": OTHERS, "fog": True}
    game = requests.post(f"{url}/games", json=created, timeout=30).json()
    seat = requests.post(f"{url}/games/{game['game_id']}/join", json={"power": "FRANCE"}, timeout=30).json()
    for name, context in (("desktop", DESKTOP), ("phone", PHONE)):
        page = _seated_page(browser, url, game["game_id"], "FRANCE", seat["token"], **context)
        # the fog: every province France does not see, hatched; France's three units and nothing else
        assert _fogged(page) == set(BOARD.provinces) - SEEN
        assert page.locator("#units g.unit").count() == 3
        # every power's centre count is public (Russia 4), the footer names the rule
        page.get_by_test_id("tab-table").click()
        assert "4" in page.get_by_role("row", name="Russia").inner_text()
        assert page.get_by_text("fog of war", exact=False).count() >= 1
        page.get_by_text("The board as text").click()
        assert "you see 11 provinces" in page.get_by_test_id("fog-note").inner_text()
        shot(page, shots, f"01-fog-{name}")
        page.close()

    # a unit is still ordered on a fogged board (the hatch lets clicks through)
    page = _seated_page(browser, url, game["game_id"], "FRANCE", seat["token"], **DESKTOP)
    # the board is drawn before the seat's legal orders come; a click before them selects nothing
    # (a loaded make test once clicked too soon), and the hit areas exist only once they are in
    page.get_by_test_id("hit-PAR").wait_for(state="attached")
    click_province(page, "PAR")
    click_province(page, "BUR")
    page.get_by_test_id("my-orders").get_by_text("A PAR - BUR", exact=True).wait_for()
    shot(page, shots, "02-fog-ordered")
    page.close()

    # an observer sees only fog, and the page still renders
    watcher = browser.new_context(**PHONE).new_page()
    watcher.set_default_timeout(20_000)
    watcher.goto(f"{url}/#/games/{game['game_id']}")
    watcher.wait_for_selector("#labels text")
    assert _fogged(watcher) == set(BOARD.provinces) and watcher.locator("#units g.unit").count() == 0
    shot(watcher, shots, "03-fog-observer-phone")
    watcher.close()
