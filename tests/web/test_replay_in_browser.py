"""Issue 34, "Done when": a browser replays a finished game phase by phase (Debian Chromium).

A game of France and Germany (five dummies) is played over the API: France says something in
public in Spring 1901, both order Spring and Fall, then France concedes and Germany wins. In the
client, on a phone (390 x 844): the archive lists the finished game (the notifier entered it on
GAME_ENDED), its link opens the replay at Spring 1901 with the resolution map, every order with
its result and explanation, and that phase's public press; "Next phase" steps to Fall 1901, whose
results and map follow and whose press is empty; the desktop size is photographed too. axe-core
finds nothing serious or critical. Screenshots land in test-artifacts/web/<test>/ (copies in
docs/img: web-replay-*).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import requests

from local_stack.stack import LocalStack
from tests.web.helpers import axe_serious, board_still, shot

pytestmark = pytest.mark.system
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 1,
}
DESKTOP = {"width": 1366, "height": 900}
DUMMIES = ["AUSTRIA", "ENGLAND", "ITALY", "RUSSIA", "TURKEY"]


def _api(url: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = requests.request(method, url + path, json=body, headers=headers, timeout=30)
    assert answer.ok, (path, answer.status_code, answer.text)
    return answer.json()


def _finished_game(url: str) -> str:
    game = _api(url, "POST", "/games", body={"name": "Replay table", "dummy_powers": DUMMIES})
    gid = game["game_id"]
    france = _api(url, "POST", f"/games/{gid}/join", body={"power": "FRANCE"})["token"]
    germany = _api(url, "POST", f"/games/{gid}/join", body={"power": "GERMANY"})["token"]
    _api(
        url, "POST", f"/games/{gid}/messages", france, {"to": "ALL", "text": "Peace in Burgundy, I promise."}
    )
    _api(
        url,
        "POST",
        f"/games/{gid}/orders",
        france,
        {"orders": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"], "phase": "S1901M"},
    )
    _api(
        url,
        "POST",
        f"/games/{gid}/orders",
        germany,
        {"orders": ["A MUN - BUR", "A BER - KIE", "F KIE - DEN"], "phase": "S1901M"},
    )
    _api(url, "POST", f"/games/{gid}/process_turn", game["token"], {"phase": "S1901M"})
    _api(
        url,
        "POST",
        f"/games/{gid}/orders",
        france,
        {"orders": ["A BUR - BEL", "F MAO - POR"], "phase": "F1901M"},
    )
    _api(
        url,
        "POST",
        f"/games/{gid}/orders",
        germany,
        {"orders": ["A KIE - HOL", "F DEN H"], "phase": "F1901M"},
    )
    _api(url, "POST", f"/games/{gid}/process_turn", game["token"], {"phase": "F1901M"})
    ended = _api(url, "POST", f"/games/{gid}/votes", france, {"concede": True})
    assert ended["game_status"] == "COMPLETED"
    return str(gid)


def _archived(url: str, gid: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if gid in [g["game_id"] for g in _api(url, "GET", "/archive?variant=classical&limit=100")["games"]]:
            return
        time.sleep(0.3)
    raise AssertionError("the finished game never reached the archive")


def test_a_finished_game_replays_phase_by_phase(browser: Any, web_stack: LocalStack, shots: Path) -> None:
    url = web_stack.url
    gid = _finished_game(url)
    _archived(url, gid)
    context = browser.new_context(**PHONE, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    found: dict[str, Any] = {}
    # When the archive is opened and the game's link followed
    page.goto(f"{url}/#/archive")
    archive = page.get_by_test_id("archive")
    archive.get_by_text("Replay table").wait_for()
    assert "Concession: GERMANY" in archive.locator("li", has_text="Replay table").inner_text()
    found["archive"] = axe_serious(page)
    shot(page, shots, "archive-phone")
    archive.get_by_text("Replay table").tap()
    # Then the replay opens at Spring 1901: the map, every order with its result and why, the press
    page.get_by_test_id("replay-result").get_by_text("Concession: GERMANY").wait_for()
    assert page.locator("#history-phase").input_value() == "S1901M"
    results = page.get_by_test_id("results")
    results.get_by_text("A MUN's move to BUR was beaten by A PAR").wait_for()
    page.wait_for_selector('#orders g[data-order="PAR"]')
    assert page.get_by_test_id("replay-press").inner_text().strip() == "FRANCE: Peace in Burgundy, I promise."
    board_still(page)
    found["spring"] = axe_serious(page)
    shot(page, shots, "replay-spring-phone")
    # When the next phase is asked for
    page.get_by_role("button", name="Next phase").tap()
    # Then Fall 1901's results and map follow, and nothing was said in public then
    results.locator("tr", has_text="A BUR - BEL").wait_for()
    assert page.locator("#history-phase").input_value() == "F1901M"
    page.wait_for_selector('#orders g[data-order="BUR"]')
    assert page.get_by_test_id("replay-press").inner_text().strip() == ""
    page.get_by_text("Nothing said in public this phase.").wait_for()
    board_still(page)
    found["fall"] = axe_serious(page)
    shot(page, shots, "replay-fall-phone")
    assert page.get_by_role("button", name="Next phase").is_disabled()
    # And at desktop size the board and the phase's results stand side by side
    page.set_viewport_size(DESKTOP)
    board_still(page)
    found["fall (desktop)"] = axe_serious(page)
    shot(page, shots, "replay-fall-desktop")
    assert not any(found.values()), found
    context.close()


def _a_rated_tournament(web_stack: LocalStack) -> tuple[str, dict[str, str], dict[str, Any]]:
    """A director's one-round tournament of seven accounts on one board, played (scripted 1901,
    year limit) and rated by the notifier: (the director's user id, the entrants' ID tokens by
    user id, the tournament)."""
    from tests.system.client import Api
    from tests.system.test_community import _account, _play_board, _profile, _wait_for

    api = Api(web_stack.url)
    director_id, director = _account(api, web_stack, "Director")
    entrants = dict(
        _account(api, web_stack, name) for name in ("Ada", "Bea", "Cyd", "Dan", "Eve", "Fay", "Gus")
    )
    event: dict[str, Any] = api.call(
        "POST",
        "/tournaments",
        token=director,
        expect=201,
        body={
            "name": "Friday Cup",
            "rounds": 1,
            "scoring": "c_diplo",
            "players": list(entrants),
            "max_year": 1901,
        },
    )
    [board] = api.call("POST", f"/tournaments/{event['tournament_id']}/rounds", token=director)["boards"]
    _play_board(api, board["game_id"], director, {s["power"]: entrants[s["player"]] for s in board["seats"]})
    _wait_for("every entrant's rating", lambda: all(_profile(api, p) for p in entrants))
    return director_id, entrants, event


def test_the_leaderboard_a_players_record_and_a_tournament(
    browser: Any, web_stack: LocalStack, shots: Path
) -> None:
    """Seven accounts play a one-round tournament of one board (scripted 1901, year limit); the
    notifier rates them; the leaderboard, Ada's record and the tournament's standings show it."""
    director_id, entrants, event = _a_rated_tournament(web_stack)
    ada = next(iter(entrants))
    context = browser.new_context(**PHONE, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    found: dict[str, Any] = {}
    ready: Callable[[], Any]
    for name, path, ready in (
        (
            "leaderboard",
            "#/leaderboard",
            lambda: page.get_by_test_id("leaderboard").locator("tbody tr").nth(6),
        ),
        (
            "player",
            f"#/players/{ada}",
            lambda: page.get_by_test_id("profile").get_by_text("Rating, classical"),
        ),
        ("new-game", "#/new", lambda: page.get_by_label("Scoring")),
        (
            "tournament",
            f"#/tournaments/{event['tournament_id']}",
            lambda: page.get_by_test_id("standings").locator("tbody tr").nth(6),
        ),
    ):
        page.set_viewport_size(PHONE["viewport"])
        page.goto(f"{web_stack.url}/{path}")
        ready().wait_for()
        found[f"{name} (phone)"] = axe_serious(page)
        shot(page, shots, f"{name}-phone")
        page.set_viewport_size(DESKTOP)
        found[f"{name} (desktop)"] = axe_serious(page)
        shot(page, shots, f"{name}-desktop")
    rows = page.get_by_test_id("standings").locator("tbody tr")
    assert rows.count() == 7 and rows.nth(0).locator("td").nth(0).inner_text() == "1"
    assert not any(found.values()), found
    assert director_id not in entrants
    context.close()
