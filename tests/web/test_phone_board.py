"""Issue 32, "Done when": the board on a phone (390 x 844, touch emulation, Debian Chromium).

One scenario, as a player would go: a pinch zooms about the fingers (the province under them
stays under them within 10 px), the + button zooms about the centre, "My units" frames the
player's units, and a whole Spring turn is ordered by taps alone — after each unit is tapped,
every legal target has a hit area of at least 44 x 44 CSS px that nothing covers. Screenshots
land in test-artifacts/web/<test>/ (a few are copied to docs/img).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import requests

from local_stack.stack import LocalStack
from tests.web.helpers import board_still, label_centre, pinch, shot, target_areas

pytestmark = pytest.mark.system
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
BOARD_BOX = "document.querySelector('[data-testid=map]').getBoundingClientRect()"
OTHERS = ["AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def _seated_page(browser: Any, url: str, game_id: str, power: str, token: str, **context: Any) -> Any:
    """A browser holding the seat (as the seat-token form leaves it) on the game's page."""
    page = browser.new_context(**context).new_page()
    page.set_default_timeout(20_000)
    page.goto(url + "/")
    page.evaluate("([id, seat]) => localStorage.setItem('convoy.seats', JSON.stringify({[id]: seat}))",
                  [game_id, {"power": power, "token": token}])
    page.goto(f"{url}/#/games/{game_id}")
    page.wait_for_selector("#labels text")
    page.wait_for_timeout(300)  # the board measures itself once drawn
    return page


def _scale(page: Any) -> float:
    return float(page.evaluate("""() => { const m = /scale\\(([\\d.]+)\\)/.exec(
        document.querySelector('[data-testid=map]').style.transform); return m ? Number(m[1]) : 1; }"""))


def _tap_province(page: Any, province: str) -> None:
    """A tap where a thumb goes: the province's hit area (its deepest point) when the board
    offers one, else its name (labels let taps through to the province)."""
    board_still(page)
    hit = page.locator(f"[data-testid=hit-{province}]")
    box = hit.bounding_box() if hit.count() else None
    at = ({"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2} if box
          else label_centre(page, province))
    page.touchscreen.tap(at["x"], at["y"])


def _order_by_taps(page: Any, unit: str, target: str, expect: str, shots: Path, name: str) -> None:
    _tap_province(page, unit)
    page.wait_for_selector(f"[data-testid=hit-{unit}].is-selected")
    areas = target_areas(page)
    shot(page, shots, name)
    assert target in areas, f"{target} is not offered for {unit}: {sorted(areas)}"
    missing = sorted(p for p, area in areas.items() if area is None)
    assert not missing, f"no 44 x 44 area of their own on the screen for {missing} (unit {unit})"
    area = areas[target]
    assert area is not None  # (no target is missing, above)
    page.touchscreen.tap(area["x"], area["y"])
    page.get_by_test_id("my-orders").get_by_text(expect, exact=True).wait_for()


def _france_on_a_phone_in_a_game_the_computer_fills(browser: Any, url: str) -> Any:
    """France's seat, on a phone, in a game of six dummy powers, auto-processed: its page."""
    created: dict[str, Any] = {"name": "Phone table", "dummy_powers": OTHERS, "auto_process": True}
    game = requests.post(f"{url}/games", json=created, timeout=30).json()
    seat = requests.post(f"{url}/games/{game['game_id']}/join", json={"power": "FRANCE"}, timeout=30).json()
    return _seated_page(browser, url, game["game_id"], "FRANCE", seat["token"], **PHONE)


def _zoom_in_moves_the_centre_by(page: Any, box: dict[str, float]) -> float:
    """Tap the + button: how far (CSS px) the board's point under the viewport's centre moved.
    The point is taken as a fraction of the board before, and found again after the zoom."""
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    fraction = "{ fx: (x - m.left) / m.width, fy: (y - m.top) / m.height }"
    probe = page.evaluate(f"([x, y]) => {{ const m = {BOARD_BOX}; return {fraction}; }}", list(centre))
    page.get_by_role("button", name="Zoom in").tap()
    back = "[m.left + fx * m.width, m.top + fy * m.height]"
    moved = page.evaluate(f"([fx, fy]) => {{ const m = {BOARD_BOX}; return {back}; }}",
                          [probe["fx"], probe["fy"]])
    return math.dist(centre, moved)


def test_a_phone_player_pinches_zooms_and_orders_a_spring_turn_by_taps(
    browser: Any, web_stack: LocalStack, shots: Path
) -> None:
    # Given a France seat in a game the computer fills (six dummy powers), auto-processed
    page = _france_on_a_phone_in_a_game_the_computer_fills(browser, web_stack.url)
    shot(page, shots, "01-phone-board")
    board = page.get_by_test_id("map").bounding_box()
    assert board["y"] < 200, "on a phone the board comes first"

    # When two fingers spread over Burgundy
    before = label_centre(page, "BUR")
    pinch(page, before["x"], before["y"], 60, 180)
    after = label_centre(page, "BUR")
    # Then the board is about three times larger and Burgundy stayed under the fingers
    assert _scale(page) == pytest.approx(3, rel=0.1)
    assert math.dist((before["x"], before["y"]), (after["x"], after["y"])) <= 10, (before, after)
    shot(page, shots, "02-phone-pinched")

    # And the + button zooms about the board's centre (whatever is there stays there)
    box = page.locator(".map-viewport").bounding_box()
    assert _zoom_in_moves_the_centre_by(page, box) <= 2
    assert _scale(page) == pytest.approx(4.5, rel=0.1)

    # And a double tap doubles about the tap
    page.get_by_role("button", name="Whole map").tap()
    assert _scale(page) == 1
    before = label_centre(page, "BUR")
    page.touchscreen.tap(before["x"], before["y"])
    page.touchscreen.tap(before["x"], before["y"])
    after = label_centre(page, "BUR")
    assert _scale(page) == 2 and math.dist((before["x"], before["y"]), (after["x"], after["y"])) <= 10

    # When the player asks for the whole map, then for "My units"
    page.get_by_role("button", name="Whole map").tap()
    page.get_by_test_id("my-units").tap()
    for unit in ("PAR", "MAR", "BRE"):  # every French unit framed, on the board
        at = label_centre(page, unit)
        assert box["x"] < at["x"] < box["x"] + box["width"] and box["y"] < at["y"] < box["y"] + box["height"]
    assert _scale(page) > 1.5
    before_shot = page.evaluate(f"{BOARD_BOX}.left")
    shot(page, shots, "03-phone-my-units")
    assert page.evaluate(f"{BOARD_BOX}.left") == before_shot, "the board moved while nobody touched it"

    # Then the whole Spring turn is ordered by taps alone, every target a 44 x 44 area
    _order_by_taps(page, "PAR", "PIC", "A PAR - PIC", shots, "04-phone-paris-selected")
    _order_by_taps(page, "MAR", "SPA", "A MAR - SPA", shots, "05-phone-marseilles-selected")
    _order_by_taps(page, "BRE", "MAO", "F BRE - MAO", shots, "06-phone-brest-selected")
    page.mouse.move(1, 1)
    shot(page, shots, "07-phone-orders")
    page.get_by_test_id("ready").tap()
    page.locator(".game-head h1").get_by_text("Fall 1901 movement").wait_for()
    page.get_by_role("status").get_by_text("Spring 1901 movement has been resolved").wait_for()
    shot(page, shots, "08-phone-resolved")
    page.context.close()
