"""Issue 16, "Done when": people play Convoy in a real browser against the running local stack.

Two players in two browser contexts create and join a game, exchange a private message, give
their Spring orders by clicking the map, the creator processes the turn and both see the
resolution; a third context plays a demo game to a winter build. Every step leaves a
screenshot in test-artifacts/web/<test>/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from local_stack.stack import LocalStack
from tests.web.helpers import click_province, shot

pytestmark = pytest.mark.system
DUMMIES = ["AUSTRIA", "ENGLAND", "ITALY", "RUSSIA", "TURKEY"]


def _page(browser: Any, url: str, **kw: Any) -> Any:
    context = browser.new_context(viewport=kw.pop("viewport", {"width": 1280, "height": 900}), **kw)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(url + "/")
    return page


def _create_game(page: Any, seat: str, *, dummies: list[str], auto_process: bool) -> str:
    page.get_by_role("link", name="New game").click()
    page.get_by_label("Take a seat").select_option(seat)
    for power in dummies:
        page.get_by_role("group", name=re.compile("Dummy powers")).get_by_label(power.capitalize()).check()
    box = page.get_by_label("Process as soon as every power has ordered")
    if box.is_checked() != auto_process:
        box.click()
    page.get_by_test_id("create-game").click()
    page.wait_for_url(re.compile(r"#/games/"))
    return page.url.rsplit("/", 1)[-1]


def _order_by_clicks(page: Any, *provinces: str, expect: str, choose: str | None = None) -> None:
    """Click the provinces; where the clicks fit several orders, pick ``choose`` from the offer."""
    for province in provinces:
        click_province(page, province)
    if choose:
        page.get_by_role("group", name="Which order?").get_by_role("button", name=choose).click()
    page.get_by_test_id("my-orders").get_by_text(expect, exact=True).wait_for()


def test_two_players_create_join_talk_order_and_see_the_resolution(
    browser: Any, web_stack: LocalStack, shots: Path
) -> None:
    # Given France creates a game (five dummies, so two players fill it) and takes a seat
    france = _page(browser, web_stack.url)
    shot(france, shots, "01-lobby")
    game_id = _create_game(france, "FRANCE", dummies=DUMMIES, auto_process=False)
    france.get_by_text("You play France").wait_for()
    shot(france, shots, "02-france-created")

    # When Germany joins it from the lobby in another browser
    phone = {"width": 390, "height": 844}
    germany = _page(browser, web_stack.url, viewport=phone, is_mobile=True, has_touch=True)
    germany.get_by_test_id(f"join-{game_id}-power").select_option("GERMANY")
    shot(germany, shots, "03-germany-lobby-phone")
    germany.get_by_test_id(f"join-{game_id}-button").click()
    germany.get_by_text("You play Germany").wait_for()

    # And France writes to Germany alone, and Germany reads it and answers
    france.get_by_test_id("tab-press").click()
    france.get_by_role("tab", name="+ New conversation").click()
    france.get_by_label("Germany").check()
    france.get_by_role("textbox", name="Message").fill("Burgundy stays empty if you keep out of it.")
    france.get_by_role("button", name="Send to Germany").click()
    france.get_by_test_id("messages").get_by_text("Burgundy stays empty").wait_for()
    germany.get_by_test_id("tab-press").locator(".badge.unread").wait_for()
    shot(germany, shots, "04-germany-unread-badge")
    germany.get_by_test_id("tab-press").click()
    germany.get_by_test_id("channel-FRANCE,GERMANY").click()
    germany.get_by_test_id("messages").get_by_text("Burgundy stays empty").wait_for()
    germany.get_by_role("textbox", name="Message").fill("Agreed. I go east, to Silesia.")
    germany.get_by_role("button", name="Send to France").click()
    germany.get_by_test_id("messages").get_by_text("Agreed. I go east, to Silesia.").wait_for()
    shot(germany, shots, "05-germany-press")
    france.get_by_test_id("channel-FRANCE,GERMANY").click()
    france.get_by_test_id("messages").get_by_text("Agreed. I go east, to Silesia.").wait_for()
    shot(france, shots, "06-france-press")

    # And both order by clicking on the map: a unit, then its target (support: unit, unit, target)
    france.get_by_test_id("tab-orders").click()
    _order_by_clicks(france, "PAR", "PIC", expect="A PAR - PIC")
    _order_by_clicks(france, "MAR", "SPA", expect="A MAR - SPA")
    _order_by_clicks(france, "BRE", "MAO", expect="F BRE - MAO")
    shot(france, shots, "07-france-orders")
    germany.get_by_test_id("tab-orders").click()
    _order_by_clicks(germany, "MUN", "SIL", expect="A MUN - SIL")
    _order_by_clicks(germany, "BER", "MUN", "SIL", expect="A BER S A MUN - SIL")
    _order_by_clicks(germany, "KIE", "HOL", expect="F KIE - HOL")
    shot(germany, shots, "08-germany-orders-phone")

    # And an order typed in the box that the engine refuses is explained in words
    box = france.get_by_label("Type an order")
    box.fill("A PAR - MOS")
    box.press("Enter")
    france.get_by_role("alert", name="Refused orders").wait_for()
    assert "cannot reach" in france.get_by_role("alert", name="Refused orders").inner_text()
    shot(france, shots, "09-france-refused-order")

    # When France, the creator, processes the turn
    france.get_by_test_id("process-turn").click()

    # Then both see it resolved without reloading, with every order's result
    for name, page in (("france", france), ("germany", germany)):
        page.get_by_role("button", name="See the results").click()
        results = page.get_by_test_id("results")
        results.get_by_text("A PAR - PIC").wait_for()
        results.get_by_role("row", name="Germany A MUN - SIL succeeded").wait_for()
        assert "succeeded" in results.locator("tr", has_text="F BRE - MAO").inner_text()
        page.locator(".game-head h1").get_by_text("Fall 1901 movement").wait_for()
        shot(page, shots, f"10-{name}-resolution")
