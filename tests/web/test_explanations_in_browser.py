"""Issue 31 items 4 and 5, "Done when": the web client's results and map show explanations, and
a what-if preview works in the browser and stores nothing (Debian Chromium, touch emulation).

One scenario on a phone (390 x 844), with the desktop size photographed too: Spring 1901's
results list says in the server's words why each order ended as it did (A MUN's move to BUR
*was beaten*, never "stood off"); a tap on an arrow of the resolution map, or Enter on a unit's
hit area, shows that order's explanation; then, in Fall, France previews its pending orders
(A BUR - MUN) against orders it guesses for Germany (A MUN holds, supported by A BER) and sees
the predicted results on the board and in a list, while the game's event sequence, its
picture's ETag (the game's version) and Germany's orders stay as they were. axe-core finds
nothing serious or critical on either screen. Screenshots land in test-artifacts/web/<test>/
(copies in docs/img: web-explain-*, web-whatif-*).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import requests

from local_stack.stack import LocalStack
from tests.web.helpers import axe_serious, board_still, shot, tab_to

pytestmark = pytest.mark.system
# at one device pixel per CSS pixel, so the photographs kept in docs/img stay small
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 1}
DESKTOP = {"width": 1366, "height": 900}
DUMMIES = ["AUSTRIA", "ENGLAND", "ITALY", "RUSSIA", "TURKEY"]

# A point of an order's drawing that a tap lands on (nothing drawn above it there), in page
# coordinates: along the arrow's own stroke, the first point whose topmost element belongs to it.
_POINT_ON_ORDER = """(p) => {
  const g = document.querySelector('#orders g[data-order="' + p + '"]');
  const line = [...g.querySelectorAll('path')].find((e) => e.getTotalLength() > 20);
  const total = line.getTotalLength(), m = line.getScreenCTM();
  for (let i = 3; i <= 17; i++) {
    const at = line.getPointAtLength(total * i / 20).matrixTransform(m);
    const top = document.elementFromPoint(at.x, at.y);
    const mine = top && top.closest('[data-order]');
    if (mine && mine.dataset.order === p) return { x: at.x, y: at.y };
  }
  return null;
}"""


def _api(url: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = requests.request(method, url + path, json=body, headers=headers, timeout=30)
    assert answer.ok, (path, answer.status_code, answer.text)
    return answer


def _why(table: Any, sentence: str) -> Any:
    """The explanation row under an order that begins with ``sentence`` (a sentence about a failed
    move may end with another order's, the move that kept it out)."""
    row = table.get_by_role("row", name=re.compile("^" + re.escape(sentence)))
    row.wait_for()
    return row


def _tap_order(page: Any, province: str) -> None:
    board_still(page)
    point = page.evaluate(_POINT_ON_ORDER, province)
    assert point is not None, f"no tappable point on the drawing of {province}'s order"
    page.touchscreen.tap(point["x"], point["y"])


def _two_sizes(page: Any, shots: Path, name: str, found: dict[str, Any]) -> None:
    """axe-core and a photograph at phone size (as the page is) and at desktop size, then back."""
    found[f"{name} (phone)"] = axe_serious(page)
    shot(page, shots, f"{name}-phone")
    page.set_viewport_size(DESKTOP)
    board_still(page)
    found[f"{name} (desktop)"] = axe_serious(page)
    shot(page, shots, f"{name}-desktop")
    page.set_viewport_size(PHONE["viewport"])
    board_still(page)


def _stored(url: str, game_id: str, token: str, germany: str) -> dict[str, Any]:
    """What a what-if must not change: the event sequence, the game's version (the live
    picture's ETag hashes it), France's pending orders and Germany's (none, not submitted)."""
    view = _api(url, "GET", f"/games/{game_id}", token).json()
    etag = _api(url, "GET", f"/games/{game_id}/map/orders", token).headers["ETag"]
    theirs = _api(url, "GET", f"/games/{game_id}", germany).json()
    return {"event_seq": view["event_seq"], "etag": etag, "france": view["orders"],
            "germany": theirs["orders"], "submitted": view["submitted"]}


def _spring_played_over_the_api(url: str) -> tuple[str, str, str]:
    """France and Germany seated (five dummies) and Spring 1901 processed: A PAR supported by
    A MAR beats A MUN into BUR, and A BER's move to MUN fails as A MUN stays. (game id,
    France's token, Germany's token)."""
    game = _api(url, "POST", "/games", body={"name": "Why table", "dummy_powers": DUMMIES}).json()
    gid = game["game_id"]
    france = _api(url, "POST", f"/games/{gid}/join", body={"power": "FRANCE"}).json()["token"]
    germany = _api(url, "POST", f"/games/{gid}/join", body={"power": "GERMANY"}).json()["token"]
    _api(url, "POST", f"/games/{gid}/orders", france,
         {"orders": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"], "phase": "S1901M"})
    _api(url, "POST", f"/games/{gid}/orders", germany,
         {"orders": ["A MUN - BUR", "A BER - MUN", "F KIE - HOL"], "phase": "S1901M"})
    _api(url, "POST", f"/games/{gid}/process_turn", game["token"], {"phase": "S1901M"})
    return gid, france, germany


def _france_on_a_phone(browser: Any, url: str, gid: str, france: str) -> tuple[Any, Any]:
    """A phone's browser holding France's seat token, the game open at Fall 1901: (context, page)."""
    context = browser.new_context(**PHONE, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(url + "/")
    page.evaluate("([id, seat]) => localStorage.setItem('convoy.seats', JSON.stringify({[id]: seat}))",
                  [gid, {"power": "FRANCE", "token": france}])
    page.goto(f"{url}/#/games/{gid}")
    page.locator(".game-head h1").get_by_text("Fall 1901 movement").wait_for()
    return context, page


def _the_map_explains_spring(page: Any, card: Any) -> None:
    """A tap on A MUN's arrow on the resolution map explains that order (the board still first);
    the legend and the contested arrows name the strengths compared; the keyboard reaches the
    same explanations (Enter on a unit's hit area)."""
    page.wait_for_selector('#orders g[data-order="MUN"]')
    card.get_by_text("Tap an arrow or a unit").wait_for()
    _tap_order(page, "MUN")
    card.get_by_text("A MUN's move to BUR was beaten by A PAR").wait_for()
    assert page.locator('#orders g[data-order="MUN"].chosen').count() == 1
    # the legend and the contested arrows name the strengths compared
    assert page.locator("#legend").get_by_text("attack vs opposing").count() == 1
    strengths = page.locator("#strengths g[data-order]")
    assert {strengths.nth(i).get_attribute("data-order"): strengths.nth(i).text_content()
            for i in range(strengths.count())} == {"PAR": "2 vs 1", "MUN": "1 vs 2", "BER": "0 vs 1"}
    # the keyboard reaches the same explanation: Enter on a unit's hit area
    tab_to(page, "el.dataset.province === 'PAR'")
    page.keyboard.press("Enter")
    card.get_by_text("A PAR moved to BUR").wait_for()
    _tap_order(page, "MUN")
    card.get_by_text("A MUN's move to BUR was beaten by A PAR").wait_for()


def _guess_germany_holds_munich_supported(page: Any) -> None:
    """The what-if panel opened, Germany's two guesses picked from the order box's completion
    (Germany's legal orders): A MUN holds, supported by A BER."""
    page.get_by_text("What if…? Try my orders against guesses").tap()
    page.get_by_label("Guess for").select_option("GERMANY")
    box = page.get_by_role("combobox", name="Guess an order for Germany")
    for typed, order in (("mun h", "A MUN H"), ("ber s mun", "A BER S A MUN")):
        box.fill(typed)
        page.get_by_role("option", name=order, exact=True).tap()
        page.get_by_test_id("guesses").get_by_text(order, exact=True).wait_for()


def test_results_and_the_map_explain_every_order_and_a_what_if_stores_nothing(
    browser: Any, web_stack: LocalStack, shots: Path
) -> None:
    # Given France and Germany seated (five dummies), and Spring 1901 played over the API: A PAR
    # supported by A MAR beats A MUN into BUR, and A BER's move to MUN fails as A MUN stays
    url = web_stack.url
    gid, france, germany = _spring_played_over_the_api(url)
    context, page = _france_on_a_phone(browser, url, gid, france)
    found: dict[str, Any] = {}

    # When France opens the history
    page.get_by_test_id("tab-history").tap()
    results = page.get_by_test_id("results")
    # Then every order's result carries the server's explanation, and a beaten move is not a standoff
    beaten = _why(results, "A MUN's move to BUR was beaten by A PAR")
    assert "(2, supported by A MAR), against its attack of 1" in beaten.inner_text()
    assert "bounced" in results.locator("tr", has_text="A MUN - BUR").inner_text()
    _why(results, "A BER's move to MUN failed because A MUN did not leave")
    assert "stood off" not in results.inner_text()

    # And the resolution map explains each order on a tap or by the keyboard
    card = page.get_by_test_id("explanation")
    _the_map_explains_spring(page, card)
    _two_sizes(page, shots, "explain", found)

    # Given France's Fall orders pending, and nothing from Germany yet
    _api(url, "POST", f"/games/{gid}/orders", france,
         {"orders": ["A BUR - MUN", "A MAR - BUR", "F MAO - POR"], "phase": "F1901M"})
    before = _stored(url, gid, france, germany)
    page.get_by_test_id("tab-orders").tap()
    page.get_by_test_id("my-orders").get_by_text("A BUR - MUN", exact=True).wait_for()

    # When France guesses Germany's orders (the order box's completion, Germany's legal orders)
    _guess_germany_holds_munich_supported(page)
    # And asks for the preview
    page.get_by_test_id("whatif-run").tap()

    # Then the predicted results are listed with their explanations, marked as a preview
    predicted = page.get_by_test_id("preview-results")
    _why(predicted, "A BUR's move to MUN did not beat A MUN holding (2, supported by A BER)")
    assert "Predicted, not sent" in predicted.inner_text()
    page.get_by_test_id("preview-banner").get_by_text("not sent, seen by nobody else").wait_for()
    # And the board marks France's drawn orders with their predicted result; a tap explains one
    page.wait_for_selector('#orders g[data-order="BUR"][data-verdict="fail"]')
    _tap_order(page, "BUR")
    card.get_by_text("predicted: bounced").wait_for()
    assert "did not beat A MUN holding" in card.inner_text()
    _two_sizes(page, shots, "whatif", found)

    # And nothing was stored or shown to anyone: the same events, version and orders as before
    assert _stored(url, gid, france, germany) == before
    assert before["germany"] == {"GERMANY": []} and before["submitted"]["GERMANY"] is False

    # And the preview closes when France's orders change (it answered for the old ones)
    page.get_by_role("button", name="Remove A MAR - BUR").tap()
    page.get_by_test_id("preview-banner").wait_for(state="detached")
    context.close()
    bad = {screen: v for screen, v in found.items() if v}
    assert not bad, bad
