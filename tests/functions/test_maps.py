"""Map routes (issue 14, item 3): formats, phases, ETag/304, and redaction for every power.

Driven through the API handler (functions/api/handler.py) over the in-memory store, so the
route declarations, the use case (functions/usecases/maps/map_view.py) and the renderer are all in
play. Rule under test: nobody sees another power's orders before adjudication (ARCHITECTURE §4).
"""

from __future__ import annotations

import base64
import re
import struct
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest

from composition import api, wiring
from composition.settings import load_settings
from functions.api.services import Services
from functions.usecases.maps import map_view
from functions.usecases.players import Actor
from functions.usecases.turns import process_turn, submit_orders
from local_stack.http_adapter import LocalContext
from render.palette import STANDARD
from render.svg import _darker
from testkit.openings import FALL_1901, SPRING_1901
from tests.functions.conftest import POWERS, Table


@pytest.fixture
def api_table(table: Table) -> Iterator[Table]:
    """The seven-player table behind the API; Spring 1901 played, every Fall order pending."""
    wiring.override(
        Services(settings=load_settings(), store=table.store, clock=table.clock, idempotency=None)
    )
    map_view._CACHE.clear()
    for power, orders in SPRING_1901.items():
        submit_orders(table.store, table.clock, table.game_id, Actor("player", power), orders)
    process_turn(table.store, table.clock, table.game_id, Actor("creator"),
                 expected_phase=table.store.load(table.game_id).phase)
    for power, orders in FALL_1901.items():
        submit_orders(table.store, table.clock, table.game_id, Actor("player", power), orders)
    try:
        yield table
    finally:
        wiring.reset()


def _get(
    path: str,
    token: str | None = None,
    query: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    sent = dict(headers or {})
    if token:
        sent["authorization"] = f"Bearer {token}"
    event = {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": path,
        "rawQueryString": urlencode(query or {}),
        "queryStringParameters": query or None,
        "headers": sent,
        "isBase64Encoded": False,
        "requestContext": {
            "http": {"method": "GET", "path": path, "sourceIp": "127.0.0.1"},
            "requestId": "r1",
            "stage": "$default",
        },
    }
    answer: dict[str, Any] = api.lambda_handler(event, LocalContext())
    return answer


def _orders_layer(svg: str) -> str:
    found = re.search(r'<g id="orders"[^>]*>(.*?)</g>\n<g id="standoffs">', svg, re.S)
    assert found is not None
    return found.group(1)


def _order_colours(svg: str) -> set[str]:
    return set(re.findall(r'stroke="(#[0-9a-f]{6})"', _orders_layer(svg))) - {"#ffffff"}


@pytest.mark.parametrize("power", POWERS)
def test_each_power_sees_only_its_own_pending_orders_on_every_map_route(api_table: Table, power: str) -> None:
    token, base = api_table.tokens[power], f"/games/{api_table.game_id}"
    # When the power asks for the orders map of the live phase
    own = _get(f"{base}/map/orders", token)
    assert own["statusCode"] == 200 and own["headers"]["Content-Type"] == "image/svg+xml"
    # Then its own orders are drawn, in its colour, and nobody else's
    assert _order_colours(own["body"]) == {_darker(STANDARD.power(power))}
    assert "(pending)</text>" in own["body"]
    # And the plain board draws no orders at all
    board = _get(f"{base}/map", token)
    assert board["statusCode"] == 200 and _orders_layer(board["body"]).strip() == ""
    # And the resolution map (the adjudicated Spring) is the same picture anyone gets
    resolution = _get(f"{base}/map/resolution", token)
    assert resolution["statusCode"] == 200
    assert resolution["body"] == _get(f"{base}/map/resolution")["body"]


def test_observers_and_the_creator_see_no_pending_orders(api_table: Table) -> None:
    base = f"/games/{api_table.game_id}"
    for token in (None, api_table.creator_token):
        answer = _get(f"{base}/map/orders", token)
        assert answer["statusCode"] == 200 and _orders_layer(answer["body"]).strip() == ""


def test_another_powers_new_orders_do_not_change_my_map(api_table: Table) -> None:
    base, token = f"/games/{api_table.game_id}", api_table.tokens["FRANCE"]
    before = _get(f"{base}/map/orders", token)
    submit_orders(
        api_table.store,
        api_table.clock,
        api_table.game_id,
        Actor("player", "GERMANY"),
        ["A KIE H", "A RUH H", "F DEN H"],
    )
    after = _get(f"{base}/map/orders", token)
    assert _orders_layer(after["body"]) == _orders_layer(before["body"])


def test_a_matching_if_none_match_is_a_304_without_a_body(api_table: Table) -> None:
    path = f"/games/{api_table.game_id}/map/resolution"
    first = _get(path)
    etag = first["headers"]["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    again = _get(path, headers={"if-none-match": etag})
    assert again["statusCode"] == 304 and again["body"] == "" and again["headers"]["ETag"] == etag
    assert _get(path, headers={"if-none-match": '"something-else"'})["statusCode"] == 200


def test_the_etag_names_viewer_format_phase_and_version(api_table: Table) -> None:
    base, tokens = f"/games/{api_table.game_id}", api_table.tokens
    tags = {
        "france": _get(f"{base}/map/orders", tokens["FRANCE"])["headers"]["ETag"],
        "italy": _get(f"{base}/map/orders", tokens["ITALY"])["headers"]["ETag"],
        "png": _get(f"{base}/map/orders", tokens["FRANCE"], {"format": "png"})["headers"]["ETag"],
        "spring": _get(f"{base}/map", query={"phase": "S1901M"})["headers"]["ETag"],
        "fall": _get(f"{base}/map")["headers"]["ETag"],
    }
    assert len(set(tags.values())) == len(tags)
    # a new version of the live game (France changes its orders) is a new picture for France
    submit_orders(api_table.store, api_table.clock, api_table.game_id, Actor("player", "FRANCE"), ["A BUR H"])
    assert _get(f"{base}/map/orders", tokens["FRANCE"])["headers"]["ETag"] != tags["france"]
    # an adjudicated phase's picture never changes
    assert _get(f"{base}/map", query={"phase": "S1901M"})["headers"]["ETag"] == tags["spring"]


def test_png_by_format_or_accept_at_the_width_asked_for(api_table: Table) -> None:
    path = f"/games/{api_table.game_id}/map"
    for answer in (
        _get(path, query={"format": "png", "width": "640"}),
        _get(path, query={"width": "640"}, headers={"accept": "image/png"}),
    ):
        assert answer["statusCode"] == 200 and answer["isBase64Encoded"]
        assert answer["headers"]["Content-Type"] == "image/png"
        png = base64.b64decode(answer["body"])
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">I", png[16:20])[0] == 640


def test_a_past_phase_shows_its_position_and_all_its_orders(api_table: Table) -> None:
    base = f"/games/{api_table.game_id}"
    spring = _get(f"{base}/map/orders", query={"phase": "S1901M"})
    assert "Spring 1901" in spring["body"]
    # after adjudication every power's orders are public history
    assert _order_colours(spring["body"]) == {_darker(STANDARD.power(p)) for p in POWERS}
    assert "Results" in _get(f"{base}/map/resolution", query={"phase": "S1901M"})["body"]


def test_unknown_phase_format_or_width_are_clear_errors(api_table: Table) -> None:
    base = f"/games/{api_table.game_id}"
    missing = _get(f"{base}/map/resolution", query={"phase": "F1999M"})
    assert missing["statusCode"] == 404 and '"PHASE_NOT_FOUND"' in missing["body"]
    assert _get(f"{base}/map", query={"format": "gif"})["statusCode"] == 422
    assert _get(f"{base}/map", query={"width": "10"})["statusCode"] == 422
    assert _get("/games/nope/map")["statusCode"] == 404


def test_no_resolution_map_before_the_first_adjudication(table: Table) -> None:
    wiring.override(
        Services(settings=load_settings(), store=table.store, clock=table.clock, idempotency=None)
    )
    try:
        answer = _get(f"/games/{table.game_id}/map/resolution")
        named = _get(f"/games/{table.game_id}/map/resolution", query={"phase": "S1901M"})
    finally:
        wiring.reset()
    assert answer["statusCode"] == 404 and '"PHASE_NOT_FOUND"' in answer["body"]
    assert named["statusCode"] == 404 and '"PHASE_NOT_FOUND"' in named["body"]


def test_the_phase_processed_notice_links_to_that_phases_resolution_map(api_table: Table) -> None:
    # Given Spring 1901 adjudicated (by the fixture): its PHASE_PROCESSED outbox item
    from functions.ports.notifications import OutboxMessage
    from functions.usecases.notifications.rendering import render_text

    items = [o for o in api_table.store.outbox[api_table.game_id] if o.kind == "PHASE_PROCESSED"]
    assert len(items) == 1
    path = items[0].payload["map"]
    assert path == f"/games/{api_table.game_id}/map/resolution?phase=S1901M&format=png&width=800"
    # Then the link answers with that phase's resolution as a PNG
    route, _, query = str(path).partition("?")
    answer = _get(route, query=dict(q.split("=") for q in query.split("&")))
    assert answer["statusCode"] == 200 and answer["headers"]["Content-Type"] == "image/png"
    # And the notice's text (Discord, webhook "text") carries the full link
    message = OutboxMessage(
        dedupe_key="k", kind="PHASE_PROCESSED", game_id=api_table.game_id, payload=dict(items[0].payload)
    )
    assert f"Map: https://api.example{path}" in render_text(message, "https://api.example")


def test_the_chat_bots_map_is_the_seats_own_orders_map(api_table: Table) -> None:
    # /map in Telegram draws what GET /map/orders shows that seat's player, as a 1280 px PNG
    png = map_view.seat_board_png(api_table.store, {"game_id": api_table.game_id, "power": "ITALY"})
    assert struct.unpack(">I", png[16:20])[0] == 1280
    query = {"format": "png", "width": "1280"}
    answer = _get(f"/games/{api_table.game_id}/map/orders", api_table.tokens["ITALY"], query)
    assert base64.b64decode(answer["body"]) == png
    other = _get(f"/games/{api_table.game_id}/map/orders", api_table.tokens["FRANCE"], query)
    assert base64.b64decode(other["body"]) != png


# --- issue 28 item 2: a map reads only the phase it draws ----------------------------------------


class CountingStore:
    """The in-memory store, counting the PHASE items each read hands out."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.phase_items = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def phases(self, game_id: str, *, after: int = -1, limit: int | None = None) -> list[Any]:
        found = self._store.phases(game_id, after=after, limit=limit)
        self.phase_items += len(found)
        return list(found)

    def last_phase(self, game_id: str) -> Any:
        found = self._store.last_phase(game_id)
        self.phase_items += found is not None
        return found


def _long_history(table: Table, phases: int) -> list[str]:
    """``phases`` phases of a game in which every unit holds; their names, oldest first."""
    names = []
    for _ in range(phases):
        names.append(table.store.load(table.game_id).phase)
        process_turn(table.store, table.clock, table.game_id, Actor("operator"), expected_phase=names[-1])
    return names


def test_a_past_phase_is_found_reading_a_logarithmic_number_of_phases(table: Table) -> None:
    # Given a game of 120 adjudicated phases (the issue: one picture read all of them, 1.2-1.4 s
    # on a 2,000-phase game)
    names = _long_history(table, 120)
    counting = CountingStore(table.store)
    map_view._CACHE.clear()
    for name in names:
        # When one past phase is drawn, by name
        counting.phase_items = 0
        request = map_view.MapRequest("board", "svg", 400, "standard", name)
        picture = map_view.map_picture(counting, table.game_id, Actor("anonymous"), request)
        # Then it is that phase, found in at most ceil(log2(121)) = 7 single-item reads
        assert picture.phase == name and picture.body is not None
        assert counting.phase_items <= 7, (name, counting.phase_items)


def test_a_304_for_a_past_phase_reads_no_phase_at_all(table: Table) -> None:
    names = _long_history(table, 30)
    counting = CountingStore(table.store)
    map_view._CACHE.clear()
    request = map_view.MapRequest("resolution", "svg", 400, "standard", names[11])
    first = map_view.map_picture(counting, table.game_id, Actor("anonymous"), request)
    counting.phase_items = 0
    again = map_view.map_picture(counting, table.game_id, Actor("anonymous"), request,
                                 if_none_match=first.etag)
    assert again.body is None and again.etag == first.etag and counting.phase_items == 0
    # and a name that is no adjudicated phase is refused without a read, ETag or not
    current = table.store.load(table.game_id).phase
    for kind, name in (("board", "S9999M"), ("board", "X1901M"), ("board", "S1901M" * 50),
                       ("resolution", current)):
        with pytest.raises(Exception) as refused:
            wanted = map_view.MapRequest(kind, "svg", 400, "standard", name)
            map_view.map_picture(counting, table.game_id, Actor("anonymous"), wanted,
                                 if_none_match=first.etag)
        assert getattr(refused.value, "code", None) == "PHASE_NOT_FOUND", (kind, name)
    assert counting.phase_items == 0


def test_phases_skipped_by_the_game_are_not_found(table: Table) -> None:
    names = _long_history(table, 12)
    assert "S1902R" not in names
    request = map_view.MapRequest("board", "svg", 400, "standard", "S1902R")
    with pytest.raises(Exception) as refused:
        map_view.map_picture(table.store, table.game_id, Actor("anonymous"), request)
    assert getattr(refused.value, "code", None) == "PHASE_NOT_FOUND"


def test_a_named_adjudicated_phase_is_cacheable_for_good_and_the_live_board_is_revalidated(
    api_table: Table,
) -> None:
    """Issue 29: CloudFront keeps the public pictures of adjudicated phases (template.yaml's
    MapCachePolicy honours these headers); the live board and a seat's orders are asked again."""
    base, tokens = f"/games/{api_table.game_id}", api_table.tokens
    named = _get(f"{base}/map/resolution", query={"phase": "S1901M", "format": "png"})["headers"]
    assert named["Cache-Control"] == "public, max-age=31536000, immutable"
    assert _get(f"{base}/map", query={"phase": "S1901M"})["headers"]["Cache-Control"].endswith("immutable")
    assert _get(f"{base}/map")["headers"]["Cache-Control"] == "public, max-age=0, must-revalidate"
    last = _get(f"{base}/map/resolution")["headers"]["Cache-Control"]  # "the last" moves on
    assert last == "public, max-age=0, must-revalidate"
    mine = _get(f"{base}/map/orders", tokens["FRANCE"])["headers"]["Cache-Control"]
    assert mine.startswith("private")
