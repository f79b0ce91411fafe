"""Fog-of-war redaction (issue 35 item 3, "Done when": 0 leaks across every route for every power).

A fog game of the classical board is played through the API for a year (a bounce in Spring, a
winter with builds) while every power follows it on a live socket. Then every power, by seat
token and by account, and an observer call every GET route of the OpenAPI document (a route added
later is covered as soon as it exists), the what-if preview and every map; each power's socket
frames, its order answers and the creator's process_turn answers are checked too. The truth is played again
here with the engine, and for each viewer:

* no unit (a ``{kind, power, location}`` anywhere in a body) stands where the viewer did not see it
  in some phase of the game, and no unit is named in words ("A MUN") where it was never seen;
* no centre's owner is shown for a centre the viewer did not see;
* no order of another power that names a province the viewer did not see in its phase appears;
* every map draws only the units the viewer sees, and orders only of provinces it sees;
* an observer sees no unit, owner or order at all; after the game ends everything is public.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import pytest

import engine
from engine.fog import seen_position, visible_provinces
from functions.api.handler import openapi_document
from local_stack.stack import LocalStack
from tests.system.client import Api
from tests.system.test_games_run_by_themselves import _wait_for
from tests.system.test_reach_redaction import Listener
from tests.system.test_redaction import _everything, _seat_accounts

pytestmark = pytest.mark.system

BOARD = engine.load_map("classical")
SPRING: dict[str, list[str]] = {
    "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
    "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    "FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"],
    "GERMANY": ["A MUN - BUR", "A BER - KIE", "F KIE - DEN"],  # bounces with France in BUR
    "ITALY": ["A VEN - PIE", "A ROM - APU", "F NAP - ION"],
    "RUSSIA": ["A MOS - UKR", "A WAR - GAL", "F SEV - BLA", "F STP/SC - BOT"],
    "TURKEY": ["A CON - BUL", "A SMY - CON", "F ANK - BLA"],
}
FALL: dict[str, list[str]] = {
    "AUSTRIA": ["A SER S F ALB - GRE", "F ALB - GRE", "A VIE - TRI"],
    "ENGLAND": ["F NWG - NWY", "F NTH S F NWG - NWY", "A YOR H"],
    "FRANCE": ["A PAR - PIC", "A SPA H", "F MAO - POR"],
    "GERMANY": ["F DEN H", "A KIE - HOL", "A MUN - RUH"],
    "ITALY": ["A PIE H", "A APU - TUN", "F ION C A APU - TUN"],
    "RUSSIA": ["A UKR - RUM", "A WAR H", "F SEV H", "F BOT - SWE"],
    "TURKEY": ["A BUL H", "A CON H", "F ANK H"],
}
PHASES = (("S1901M", SPRING), ("F1901M", FALL))


def _truth() -> tuple[list[engine.GameState], list[dict[str, list[str]]]]:
    """The positions (before each phase, and the current one) and each phase's canonical orders."""
    game = engine.Game(map=BOARD)
    positions, orders = [game.current], []
    for _, given in PHASES:
        state = game.current
        parsed = {p: [engine.parse_order(t, power=p, state=state, map=BOARD) for t in texts]
                  for p, texts in given.items()}
        orders.append({p: [engine.format_order(o) for o in os] for p, os in parsed.items()})
        game, _ = game.adjudicate(parsed)
        positions.append(game.current)
    return positions, orders


class Allowed:
    """What ``viewer`` may see anywhere in the game, from the engine's own play of it."""

    def __init__(self, viewer: str | None, positions: list[engine.GameState],
                 orders: list[dict[str, list[str]]]) -> None:
        self.units: set[tuple[str, str]] = set()
        self.owners: set[tuple[str, str]] = set()
        self.unit_words: set[str] = set()
        every_unit_word: set[str] = set()
        for state in positions:
            seen = visible_provinces(state, BOARD, viewer)
            position = seen_position(state, seen)
            shown = [*position.units, *(d.unit for d in position.dislodged)]
            self.units |= {(u.power, str(u.location)) for u in shown}
            self.unit_words |= {_word(u) for u in shown}
            every_unit_word |= {_word(u) for u in [*state.units, *(d.unit for d in state.dislodged)]}
            self.owners |= set(position.ownership.items())
        self.hidden_words = every_unit_word - self.unit_words
        visible_orders: set[str] = set()
        hidden: set[str] = set()
        for state, given in zip(positions, orders, strict=False):
            seen = visible_provinces(state, BOARD, viewer)
            for power, texts in given.items():
                for text in texts:
                    named = {w for w in re.findall(r"[A-Z]+", text) if w in BOARD.provinces}
                    (visible_orders if power == viewer or named <= seen else hidden).add(text)
        self.hidden_orders = hidden - visible_orders
        self.seen_now = visible_provinces(positions[-1], BOARD, viewer)
        self.units_now = len(seen_position(positions[-1], self.seen_now).units)


def _word(unit: engine.Unit) -> str:
    return f"{unit.kind.value} {unit.location}"


def _leaks(body: Any, allowed: Allowed) -> list[str]:
    """Every unit, owner or order in ``body`` that ``allowed`` does not allow."""
    found: list[str] = []
    stack: list[tuple[str, Any]] = [("", body)]
    while stack:
        key, item = stack.pop()
        if isinstance(item, dict):
            unit = {"kind", "power", "location"} <= set(item)
            if unit and (item["power"], item["location"]) not in allowed.units:
                found.append(f"unit {item['kind']} {item['location']} of {item['power']}")
            if key in ("ownership", "supply_centers"):
                found += [f"owner of {p}" for p, o in item.items() if (p, o) not in allowed.owners]
            stack.extend(item.items())
        elif isinstance(item, list):
            stack.extend((key, x) for x in item)
    text = str(body)
    found += [f"order {o!r}" for o in allowed.hidden_orders if o in text]
    found += [f"words {w!r}" for w in allowed.hidden_words
              if re.search(rf"(?<![A-Z]){re.escape(w)}(?![A-Z/])", text)]
    return found


def _map_leaks(svg: str, viewer: str | None, allowed: Allowed, live: bool) -> list[str]:
    """A map draws only seen orders' provinces; the live board only the units the viewer sees."""
    found = [f"map order at {province} of {power}" for province, power in
             re.findall(r'data-order="([A-Z]+)" data-power="([A-Z]+)"', svg)
             if power != viewer and province not in {p.split("/")[0] for _, p in allowed.units}]
    drawn = svg.count('class="unit"')
    if live and drawn != allowed.units_now:
        found.append(f"live board draws {drawn} units, sees {allowed.units_now}")
    return found


def test_a_fog_game_leaks_nothing_to_any_power_or_observer(stack: LocalStack) -> None:
    api = Api(stack.url)
    created = api.call("POST", "/games", body={"variant": "classical", "fog": True}, expect=201)
    game_id, creator = created["game_id"], created["token"]
    tokens, jwts = _seat_accounts(api, stack, game_id)
    # every power follows the game on a live socket (seat token or account, by turns)
    socket_url = api.call("GET", f"/games/{game_id}/live")["url"]
    listeners = {p: Listener(socket_url, jwts[p] if i % 2 else tokens[p], game_id)
                 for i, p in enumerate(sorted(tokens))}
    answers = _play_the_year(api, game_id, creator, tokens)
    positions, orders = _truth()
    assert api.call("GET", f"/games/{game_id}", token=tokens["FRANCE"])["phase"] == "W1901A"
    _wait_for("every socket saw the winter", lambda: all(
        any(f.get("view", {}).get("phase") == "W1901A" for f in listener.frames)
        for listener in listeners.values()))
    for power, listener in listeners.items():
        listener.close()
        answers[power] += [listener.first, *listener.frames]

    # every GET route but /me's (accounts: tests/system/test_accounts.py) and the exports (below)
    exports = ("/export", "/export/mila")
    gets = [p for p, ops in openapi_document()["paths"].items()
            if "get" in ops and not p.startswith("/me") and not p.endswith(exports)]
    for viewer in [*sorted(tokens), None]:
        allowed = Allowed(viewer, positions, orders)
        token = tokens[viewer] if viewer else None
        bodies = [*answers[viewer], *_everything(api, gets, game_id, token, jwts[viewer] if viewer else None)]
        if viewer:
            bodies.append(api.call("POST", f"/games/{game_id}/whatif", token=token, body={"orders": {}}))
        bodies += _maps_drawing_only_what_is_seen(api, game_id, viewer, token, allowed)
        leaks = [leak for body in bodies for leak in _leaks(body, allowed)]
        assert leaks == [], (viewer, sorted(set(leaks)))
        if viewer is None:  # an observer sees no unit, no owner and no other power's order at all
            assert allowed.units == set() and allowed.owners == set()
        else:  # and a power sees something beyond its own, or the test would prove little
            assert any(p != viewer for p, _ in allowed.units), viewer

    # the turn-result mail carries the resolution map its power sees, the same picture the API
    # draws for that power's token (an observer's would be all fog)
    for power in ("FRANCE", "TURKEY"):
        mailed = _wait_for(f"{power}'s turn result mail",
                           partial(_mailed_map, stack, game_id, power, "S1901M"))
        picture = f"{api.base}/games/{game_id}/map/resolution?phase=S1901M&format=png&width=800"
        bearer = {"Authorization": f"Bearer {tokens[power]}"}
        drawn = api.session.get(picture, headers=bearer, timeout=30).content
        assert mailed == drawn, power

    # the export is everyone's, so a fog game's waits for its end
    for export in exports:  # Convoy's own and MILA's saved game (issue 34)
        refused = api.call("GET", f"/games/{game_id}{export}", expect=409)
        assert refused["code"] == "FOG_OF_WAR", export


def _play_the_year(api: Api, game_id: str, creator: str,
                   tokens: dict[str, str]) -> dict[str | None, list[object]]:
    """Spring and Fall 1901 ordered by every power (none refused) and processed by the creator:
    each power's order answers, and the creator's process_turn answers under ``None``, as these
    bodies are checked for leaks too."""
    answers: dict[str | None, list[object]] = {p: [] for p in tokens}
    answers[None] = []
    for phase, given in PHASES:
        for power, texts in given.items():
            sent = api.call("POST", f"/games/{game_id}/orders", token=tokens[power],
                            body={"orders": texts, "phase": phase})
            assert sent["rejected"] == [], (power, sent)
            answers[power].append(sent)
        answers[None].append(api.call("POST", f"/games/{game_id}/process_turn", token=creator,
                                      body={"phase": phase}))
    return answers


def _maps_drawing_only_what_is_seen(api: Api, game_id: str, viewer: str | None, token: str | None,
                                    allowed: Allowed) -> list[object]:
    """Every map kind of every phase as ``viewer`` gets it, each checked for what it draws; the
    pictures are returned to be checked for leaks as bodies too."""
    svgs: list[object] = []
    for kind in ("map", "map/orders", "map/resolution"):
        for phase in ("", "?phase=S1901M", "?phase=F1901M"):
            svg = api.call("GET", f"/games/{game_id}/{kind}{phase}", token=token, expect=None)
            svgs.append(svg)
            leaks = _map_leaks(str(svg), viewer, allowed, live=kind == "map" and not phase)
            assert leaks == [], (viewer, kind, phase, leaks)
    return svgs


def _mailed_map(stack: LocalStack, game_id: str, power: str, phase: str) -> bytes | None:
    """The map inlined in ``power``'s account's mail about ``phase``'s result in ``game_id``, once
    it came. The game is matched too: other system tests seat accounts named the same way
    (``france-<hex>@example.com``) in the same stack, and their mails about S1901M are not this
    game's (run after tests/system/test_reach_redaction.py, this picked that game's map)."""
    for folder in stack.emulator.mailbox.directory.glob(f"{power.lower()}-*@example.com"):
        for mail in stack.emulator.mailbox.mails_for(folder.name):
            if f"{phase} resolved" in str(mail["Subject"]) and game_id in mail.as_string():
                for part in mail.walk():
                    if part.get_content_type() == "image/png":
                        return bytes(part.get_payload(decode=True))
    return None
