"""Issue 32, "Done when": the lobby shows names, seats and the right status; a backgammon game
is played in the browser, on its own page, never on the Diplomacy screen.

One scenario: France's browser sees its games by name ("H1 newcomer game", 1/7 seats, waiting
for players — no "orders due" — and a running game with orders due and its deadline in the
viewer's own time zone). Then White (a phone) creates a backgammon game from the New game
screen, Black joins it from the lobby, an observer opens it by the Diplomacy link and lands
on the backgammon page, and the two sides play turns in the browser (a move from the list, a
move by tapping the board, an undo) while the observer watches. The rest of the game is
played over the API (the same moves a player would pick, faster than clicks) until it ends,
and every browser shows the winner.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import requests

from local_stack.stack import LocalStack
from tests.web.helpers import axe_serious, nav, shot

pytestmark = pytest.mark.system
ZONE = "Europe/Berlin"
OTHERS = ["AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def _context(browser: Any, url: str, seats: dict[str, dict[str, str]] | None = None, **kw: Any) -> Any:
    kw.setdefault("viewport", {"width": 1280, "height": 900})
    page = browser.new_context(bypass_csp=True, timezone_id=ZONE, **kw).new_page()
    page.set_default_timeout(20_000)
    page.goto(url + "/")
    if seats:
        page.evaluate("(s) => localStorage.setItem('convoy.seats', JSON.stringify(s))", seats)
    return page


def _post(url: str, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = requests.post(url + path, json=body, headers=headers, timeout=30)
    assert answer.status_code < 300, answer.text
    return dict(answer.json())


def _lobby_games(url: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    forming = _post(url, "/games", {"name": "H1 newcomer game"})
    france = _post(url, f"/games/{forming['game_id']}/join", {"power": "FRANCE"})
    timed = {"name": "Tuesday table", "dummy_powers": OTHERS, "phase_seconds": {"MOVEMENT": 86400}}
    running = _post(url, "/games", timed)
    seat = _post(url, f"/games/{running['game_id']}/join", {"power": "FRANCE"})
    seats = {forming["game_id"]: {"power": "FRANCE", "token": france["token"]},
             running["game_id"]: {"power": "FRANCE", "token": seat["token"]}}
    open_game = _post(url, "/games", {"name": "Open table", "press": "none", "fog": True})
    return seats, running, open_game


def _check_lobby(page: Any, url: str, seats: dict[str, Any], running: dict[str, Any],
                 open_game: dict[str, Any]) -> None:
    forming_id, running_id = list(seats)
    row = page.get_by_test_id(f"my-game-{forming_id}")
    row.get_by_text("H1 newcomer game").wait_for()
    assert "1/7 seats" in row.inner_text() and "Spring 1901 movement" in row.inner_text()
    assert row.get_by_test_id("status").inner_text() == "waiting for players"
    assert "orders due" not in row.inner_text()
    due = page.get_by_test_id(f"my-game-{running_id}")
    assert due.get_by_test_id("status").inner_text() == "orders due"
    deadline = requests.get(f"{url}/games/{running_id}", timeout=30).json()["deadline"]
    local = datetime.fromisoformat(deadline.replace("Z", "+00:00")).astimezone(ZoneInfo(ZONE))
    assert f"due {local:%a %H:%M} {local:%Z}" in due.inner_text(), due.inner_text()
    listed = page.get_by_test_id(f"open-game-{open_game['game_id']}")
    assert "Open table" in listed.inner_text() and "0/7 seats" in listed.inner_text()
    # what a player picks a game by before joining: its press mode and fog (issue 35 item 3)
    assert "gunboat (no press) · fog of war" in listed.inner_text()


def _play_in_browser(page: Any, shots: Path, name: str) -> bool:
    """Play one move from the list if it is this side's turn; True if a move was made."""
    moves = page.get_by_test_id("bg-moves").get_by_role("button")
    if moves.count() == 0 or not moves.first.is_enabled():
        return False
    moves.first.click()
    page.wait_for_timeout(150)
    return True


def _finish_over_the_api(url: str, tokens: dict[str, str], game_id: str) -> dict[str, Any]:
    """Both sides play their first legal move until the game ends (what the list offers first)."""
    for _ in range(2000):
        view = requests.get(f"{url}/games/{game_id}", timeout=30).json()
        if view["status"] != "ACTIVE":
            return dict(view)
        side = view["to_play"]
        mine = requests.get(f"{url}/games/{game_id}", headers={"Authorization": f"Bearer {tokens[side]}"},
                            timeout=30).json()
        if not mine["legal_moves"]:
            continue  # the turn passes on its own (rule 6)
        _post(url, f"/games/{game_id}/moves", {"input": "MOVE", "move": mine["legal_moves"][0],
                                               "phase": mine["phase"]}, tokens[side])
    raise AssertionError("the game did not end")


def _white_creates_backgammon_on_a_phone(browser: Any, url: str) -> tuple[Any, str]:
    """White's phone creates a backgammon game from the New game screen, lands on its own page
    and waits for Black: (White's page, the game id)."""
    white = _context(browser, url, **PHONE)
    nav(white, "New game")
    white.locator("select[name=game]").select_option("backgammon")
    white.get_by_label(re.compile("^Name")).fill("Backgammon at lunch")
    white.get_by_label("Take a seat").select_option("WHITE")
    white.get_by_test_id("create-game").click()
    white.wait_for_url(re.compile(r"#/backgammon/"))
    game_id: str = white.url.rsplit("/", 1)[-1]
    white.get_by_test_id("bg-stage").get_by_text("Waiting for players: Black open.").wait_for()
    return white, game_id


def _black_joins_from_the_lobby(browser: Any, url: str, game_id: str, shots: Path) -> Any:
    """The lobby offers the game with one seat of two filled; Black takes the other; its page."""
    black = _context(browser, url)
    black.goto(f"{url}/#/")
    offer = black.get_by_test_id(f"open-game-{game_id}")
    offer.get_by_text("Backgammon at lunch", exact=True).wait_for()
    assert "1/2 seats" in offer.inner_text()
    shot(black, shots, "02-lobby-with-backgammon")
    black.get_by_test_id(f"join-{game_id}-power").select_option("BLACK")
    black.get_by_test_id(f"join-{game_id}-button").click()
    black.wait_for_url(re.compile(rf"#/backgammon/{game_id}"))
    return black


def _play_turns_in_the_browser(white: Any, black: Any, shots: Path) -> tuple[dict[str, int], bool, bool]:
    """Turn about, each side plays from the list; once, a side that has played undoes a move
    (the very moves offered before come back) and once White moves by tapping the board. Stops
    when each side has four moves from the list and both other ways were done, or after 60
    rounds: (moves from the list per side, undone, tapped)."""
    played = {"white": 0, "black": 0}
    undone = tapped = False
    for _ in range(60):
        for name, page in (("white", white), ("black", black)):
            page.wait_for_timeout(100)
            offered = page.get_by_test_id("bg-moves").inner_text()
            if not undone and played[name] > 0 and _play_in_browser(page, shots, name):
                undo = page.get_by_role("button", name="Undo my last move")
                try:  # the move may have ended the turn: then there is nothing to undo yet
                    undo.wait_for(timeout=1500)
                except Exception:
                    continue
                undo.click()  # the very moves offered before come back
                same = "(m) => document.querySelector('[data-testid=bg-moves]').innerText === m"
                page.wait_for_function(same, arg=offered)
                undone = True
            if not tapped and name == "white" and _tap_a_move(page):
                tapped = True
                continue
            if _play_in_browser(page, shots, name):
                played[name] += 1
        if min(played.values()) >= 4 and undone and tapped:
            break
    return played, undone, tapped


def test_the_lobby_reads_like_a_lobby_and_backgammon_is_played_in_the_browser(
    browser: Any, web_stack: LocalStack, shots: Path
) -> None:
    url = web_stack.url
    # Given France's browser holds a seat in a game still forming and in a running one
    seats, running, open_game = _lobby_games(url)
    france = _context(browser, url, seats)
    france.goto(f"{url}/#/")
    _check_lobby(france, url, seats, running, open_game)
    shot(france, shots, "01-lobby-desktop")

    # When White, on a phone, creates a backgammon game from the New game screen
    white, game_id = _white_creates_backgammon_on_a_phone(browser, url)

    # And Black joins it from the lobby, where it waits for players with one seat of two filled
    black = _black_joins_from_the_lobby(browser, url, game_id, shots)

    # And an observer follows the game's Diplomacy link: it lands on the backgammon page
    watcher = _context(browser, url)
    watcher.goto(f"{url}/#/games/{game_id}")
    watcher.wait_for_url(re.compile(rf"#/backgammon/{game_id}"))
    watcher.locator(".game-head h1").get_by_text("watching").wait_for()
    assert watcher.locator(".map-viewport").count() == 0  # never the Diplomacy board

    # Then the two sides play in the browser: moves from the list, one by the board, one undone
    for page in (white, black):
        page.get_by_test_id("bg-stage").filter(has_text=re.compile("to move|Your move")).wait_for()
    played, undone, tapped = _play_turns_in_the_browser(white, black, shots)
    assert min(played.values()) >= 4 and undone and tapped, (played, undone, tapped)
    shot(white, shots, "03-backgammon-phone")
    shot(black, shots, "04-backgammon-desktop")
    for page in (white, black, watcher):
        assert axe_serious(page) == []
    watcher.get_by_test_id("bg-board-text").get_by_text(re.compile("point")).first.wait_for(state="attached")

    # And once the game has been played to its end, every browser shows who won
    tokens = {side: white.evaluate(f"JSON.parse(localStorage.getItem('convoy.seats'))['{game_id}'].token")
              for side in ("WHITE",)}
    tokens["BLACK"] = black.evaluate(f"JSON.parse(localStorage.getItem('convoy.seats'))['{game_id}'].token")
    final = _finish_over_the_api(url, tokens, game_id)
    winner = {"WHITE": "White", "BLACK": "Black"}[final["result"]["winner"]]
    for page in (white, black, watcher):
        page.get_by_test_id("bg-stage").get_by_text(f"{winner} won").wait_for()
    shot(watcher, shots, "05-backgammon-over")
    nav(white, "Lobby")
    mine = white.get_by_test_id(f"my-game-{game_id}")
    assert mine.get_by_test_id("status").inner_text() == "finished"
    shot(white, shots, "06-lobby-phone")
    for page in (france, white, black, watcher):
        page.context.close()  # no page left polling for the tests after this one


def _tap_a_move(page: Any) -> bool:
    """A move by the board: a tap on a checker that may move, then on where it lands."""
    source = page.locator(".bg-point.choosable").first
    if source.count() == 0:
        return False
    _tap_centre(page, source.locator("rect").first)
    target = page.locator("[data-testid=bg-board] circle[stroke-dasharray]").first
    target.wait_for()
    position = "document.querySelector('[data-testid=bg-board-text]').textContent"
    before = page.evaluate(f"() => {position}")
    _tap_centre(page, target)
    page.wait_for_function(f"(p) => {position} !== p", arg=before)  # the checker moved
    return True


def _tap_centre(page: Any, element: Any) -> None:
    box = element.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
