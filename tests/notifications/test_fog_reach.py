"""Fog of war on the ways a game reaches its players (issue 35 item 3): the live socket's frames and
the turn result's mail (its map) show each power only what it sees; an observer's frame nothing.
The WebSocket frame is ``player_view.view_for``, so it is the REST view's redaction
(tests/functions/test_fog_of_war.py); push and chat texts carry no position (phase names only).
"""

from __future__ import annotations

import json

import engine
from engine.fog import visible_provinces
from functions.ports.notifications import OutboxMessage
from functions.usecases.games import CreateGame, create_game
from functions.usecases.notifications.rendering import render_text
from functions.usecases.seats import join_game
from tests.notifications.test_reach_players import NOW, POWERS, World, _connect

BOARD = engine.load_map("classical")
START = engine.initial_state(BOARD)


class FogWorld(World):
    """test_reach_players' world, its game created with fog."""

    def __init__(self) -> None:
        super().__init__()
        self.game = create_game(self.store, self.clock, CreateGame(variant="classical", fog=True)).game_id
        self.tokens = {p: join_game(self.store, self.clock, self.game, p, owner=self._owner(p)).token
                       for p in POWERS}


def test_each_socket_sees_its_own_fog_and_an_observer_s_sees_no_unit() -> None:
    world = FogWorld()
    _connect(world, "c-fr", user="u-france")
    _connect(world, "c-it", token=world.tokens["ITALY"])
    _connect(world, "c-obs")
    world.order("FRANCE", ["A PAR - BUR"])
    world.deliver(OutboxMessage(f"{world.game}:sub", "ORDERS_SUBMITTED", world.game,
                                {"power": "FRANCE", "phase": "S1901M"}), now=NOW)
    frames = {c: json.loads(d) for c, d in world.poster.frames}
    for connection, power in (("c-fr", "FRANCE"), ("c-it", "ITALY")):
        view = frames[connection]["view"]
        seen = visible_provinces(START, BOARD, power)
        assert {u["location"] for u in view["units"]} <= seen and view["fog"]["visible"] == sorted(seen)
        assert any(u["power"] == power for u in view["units"])
    assert frames["c-obs"]["view"]["units"] == [] and frames["c-obs"]["view"]["ownership"] == {}


def test_a_turn_result_mail_carries_the_map_its_power_sees() -> None:
    world = FogWorld()
    asked: list[tuple[str, str, str]] = []

    def map_png(game: str, phase: str, power: str) -> bytes:
        asked.append((game, phase, power))
        return b"\x89PNG-" + power.encode()

    payload = {"phase": "S1901M", "next_phase": "F1901M", "deadline": None, "map": "/x"}
    message = OutboxMessage(f"{world.game}:processed:0", "PHASE_PROCESSED", world.game, payload)
    world.deliver(message, map_png=map_png)
    assert sorted(asked) == [(world.game, "S1901M", "ENGLAND"), (world.game, "S1901M", "FRANCE")]
    by_address = {m.to: m.inline_png for m in world.mail.sent}
    assert by_address == {"england@example.com": b"\x89PNG-ENGLAND", "france@example.com": b"\x89PNG-FRANCE"}
    # chat and push text name phases, never a unit or an order
    assert "A " not in render_text(message) and "F " not in render_text(message)
