"""The board as a picture (issue 14): ``/map``, ``/map/orders``, ``/map/resolution``.

What each draws, for ``phase`` = the current phase (default) or any adjudicated one:

- ``board``: the position at the start of that phase.
- ``orders``: the current phase with the caller's OWN pending orders only (a player sees its
  own, everybody else sees none: nobody sees another power's orders before adjudication). For
  an adjudicated phase every order is public history, so all of them are drawn (uncoloured).
- ``resolution``: an adjudicated phase (default: the last one), its orders coloured by result;
  404 ``PHASE_NOT_FOUND`` before the first adjudication (there is no such picture yet).

Caching: the picture is a pure function of its inputs, so its ETag is a hash of them (game,
phase, version, format, viewer, width, palette, style) and is known before anything is drawn.
``version`` is META's version and event counter for the live phase (an order set writes only
the power's own item, and an event: issue 29) and ``P<name>`` for an adjudicated phase (its
PHASE item never changes, and a game has one phase of a name). ``viewer`` is the power whose
pending orders are drawn, else ``public``. A matching ``If-None-Match`` answers 304 without
drawing; recent pictures are kept in a small per-process cache.

Reads (issue 28 item 2: one picture of a long game read its whole history, also for a 304):
META, then for an adjudicated phase named by ``?phase=`` nothing more when the ETag matches
or the picture is cached, else the one PHASE item, found by bisection
(functions/usecases/game/phase_lookup.py: at most ceil(log2(phases + 1)) single-item reads); for
the last phase (``/map/resolution`` without ``?phase=``) the one newest PHASE item.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import engine
import render
from functions.errors import PhaseNotFound
from functions.ports import GameRecord, GameStore, PhaseRecord
from functions.usecases.game import find_phase, game_map, load, phase_key, state_of
from functions.usecases.players import Actor, fogged, names_in, seen_by, seer, sight

KINDS = ("board", "orders", "resolution")
FORMATS = {"svg": "image/svg+xml", "png": "image/png"}
# bump when the drawing changes, so cached pictures are not served across a change
# (2: every order names its unit, data-order, and contested moves show strengths: issue 31;
# 3: a PNG's provinces without anti-aliasing, a picture ~40 % the size: issue 29;
# 4: a PNG in a 256-colour palette, a third of the bytes again: issue 29, render/png.py)
STYLE = "4"
CACHE_SIZE = 64


@dataclass(frozen=True)
class MapRequest:
    kind: str  # one of KINDS
    fmt: str  # "svg" | "png"
    width: int
    palette: str  # a name in render.PALETTES
    phase: str | None = None


@dataclass(frozen=True)
class MapPicture:
    etag: str  # quoted, strong
    content_type: str
    body: bytes | None  # None: the caller's If-None-Match matched (304)
    phase: str
    public: bool  # False when the picture shows a power's pending orders
    # an adjudicated phase named by the request: that URL's picture never changes (issue 29: the
    # API lets CloudFront and browsers keep it; a live or "the last" picture is revalidated)
    immutable: bool = False


@dataclass(frozen=True)
class _Scene:
    state: engine.GameState
    overlay: render.Overlay
    phase: str
    version: str
    viewer: str
    fog: frozenset[str] | None = None  # a fog game: the provinces drawn as unknown


def map_picture(
    store: GameStore, game_id: str, actor: Actor, request: MapRequest, if_none_match: str | None = None
) -> MapPicture:
    game = load(store, game_id)
    live = request.phase in (None, game.phase) and request.kind != "resolution"
    if not live and request.phase is not None:
        _could_be_adjudicated(game, request.phase)
    record = None if live or request.phase is not None else _last_phase(store, game)
    phase = game.phase if live else (record.phase if record is not None else str(request.phase))
    scene: _Scene | None = _live_scene(game, actor, request) if live else None
    viewer = scene.viewer if scene is not None else "public"
    if fogged(game):  # each power sees its own fog, an observer none of the board
        viewer = f"fog:{seer(actor) or 'observer'}"
    etag = _etag(game_id, phase, scene.version if scene is not None else f"P{phase}", viewer, request)
    content_type = FORMATS[request.fmt]
    fixed = not live and request.phase is not None  # an adjudicated phase named by the request
    if if_none_match and etag in {t.strip() for t in if_none_match.split(",")}:
        return MapPicture(etag, content_type, None, phase, viewer == "public", fixed)
    body = _CACHE.get(etag)
    if body is None:
        if scene is None:
            scene = _history_scene(game, record or _phase_record(store, game, phase), request)
        body = _draw(game, _fogged(game, actor, scene), request)
        _CACHE.put(etag, body)
    return MapPicture(etag, content_type, body, phase, viewer == "public", fixed)


def seat_board_png(store: GameStore, picture: Mapping[str, Any], width: int = 1280) -> bytes:
    """The chat bot's ``/map``: the live board with the seat's own pending orders, as PNG."""
    actor = Actor("player", str(picture["power"]))
    request = MapRequest("orders", "png", width, "standard")
    body = map_picture(store, str(picture["game_id"]), actor, request).body
    assert body is not None  # no If-None-Match was given
    return body


def _live_scene(game: GameRecord, actor: Actor, request: MapRequest) -> _Scene:
    """The current phase: its board, or the caller's own pending orders on it."""
    state = state_of(game)
    overlay = render.NO_OVERLAY
    viewer = "public"
    if request.kind == "orders":
        viewer, overlay = _own_orders(game, actor, state)
    # META's version and the event counter: an order set changes only the power's own item
    # and always appends an event (issue 29), so the pair moves whenever the picture may
    return _Scene(state, overlay, game.phase, f"{game.version}.{game.event_seq}", viewer)


def _history_scene(game: GameRecord, record: PhaseRecord, request: MapRequest) -> _Scene:
    """An adjudicated phase: its board, all its orders, or its results (public history)."""
    state = engine.state_from_dict(record.state_before)
    if request.kind == "board":
        overlay = render.NO_OVERLAY
    elif request.kind == "orders":
        overlay = render.orders_overlay(_recorded_orders(game, record, state), caption="Orders")
    else:
        results = engine.resolution_from_dict(record.resolution).results
        overlay = render.results_overlay(results, caption="Results")
    return _Scene(state, overlay, record.phase, f"P{record.phase}", "public")


def _fogged(game: GameRecord, actor: Actor, scene: _Scene) -> _Scene:
    """``scene`` as ``actor`` sees it in a fog game (functions/usecases/players/fog_of_war.py): the
    position cut to what it sees, only the orders and results it sees, the rest drawn as fog."""
    seen = sight(game, actor, scene.state)
    if seen is None:
        return scene
    board = game_map(game.variant)
    power = seer(actor)
    overlay = scene.overlay
    kept_orders = tuple(o for o in overlay.orders if o.power == power or _seen(game, o, seen))
    # a result's strengths count supports from the fog: its explanation is not drawn
    kept_results = tuple(replace(r, explanation=None) for r in overlay.results
                         if r.order.power == power or _seen(game, r.order, seen))
    overlay = render.Overlay(orders=kept_orders, results=kept_results, caption=overlay.caption)
    return replace(scene, state=seen_by(game, actor, scene.state), overlay=overlay,
                   fog=frozenset(board.provinces) - seen)


def _seen(game: GameRecord, order: engine.Order, seen: frozenset[str]) -> bool:
    """Every province ``order`` names is seen (fog_of_war's rule: its text is what names)."""
    return names_in(game, engine.format_order(order)) <= seen


def _own_orders(game: GameRecord, actor: Actor, state: engine.GameState) -> tuple[str, render.Overlay]:
    """Only the caller's own pending orders; anyone who is not a seated player sees none."""
    if actor.kind != "player" or actor.power is None:
        return "public", render.orders_overlay((), caption="Orders (none visible)")
    power = actor.power
    board = game_map(game.variant)
    orders = []
    for text in game.pending_orders.get(power, []):
        try:
            orders.append(engine.parse_order(text, power=power, state=state, map=board))
        except (engine.OrderSyntaxError, ValueError):
            continue  # an order that no longer parses is drawn by nobody; submit reports it
    name = board.powers[power].name if power in board.powers else power
    return f"power:{power}", render.orders_overlay(tuple(orders), caption=f"Orders of {name} (pending)")


def _recorded_orders(
    game: GameRecord, record: PhaseRecord, state: engine.GameState
) -> tuple[engine.Order, ...]:
    board = game_map(game.variant)
    out = []
    for power, texts in sorted(record.orders.items()):
        for text in texts:
            try:
                out.append(engine.parse_order(text, power=power, state=state, map=board))
            except (engine.OrderSyntaxError, ValueError):
                continue
    return tuple(out)


def _last_phase(store: GameStore, game: GameRecord) -> PhaseRecord:
    last = store.last_phase(game.game_id)
    if last is None:
        raise PhaseNotFound("no phase has been adjudicated yet", phase=game.phase)
    return last


def _could_be_adjudicated(game: GameRecord, phase: str) -> None:
    """``PHASE_NOT_FOUND`` at once, without a read, for a name that is no phase or is not
    before the current one (so a forged ETag can never get a 304 for it either)."""
    wanted, current = phase_key(phase), phase_key(game.phase)
    if wanted is None or current is None or wanted >= current:
        raise PhaseNotFound(f"no adjudicated phase {phase[:20]!r} in this game", phase=phase[:20])


def _phase_record(store: GameStore, game: GameRecord, phase: str) -> PhaseRecord:
    found = find_phase(store, game, phase)
    if found is None:
        raise PhaseNotFound(f"no phase {phase[:20]!r} in this game", phase=phase[:20])
    return found


def _etag(game_id: str, phase: str, version: str, viewer: str, request: MapRequest) -> str:
    parts = (game_id, phase, version, request.fmt, viewer, request.kind, str(request.width), request.palette)
    key = "|".join((*parts, STYLE))
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def _draw(game: GameRecord, scene: _Scene, request: MapRequest) -> bytes:
    board = game_map(game.variant)
    options = render.RenderOptions(width=request.width, palette=render.PALETTES[request.palette],
                                   fog=scene.fog or frozenset(), crisp_board=request.fmt == "png")
    svg = render.render_svg(board, render.load_geometry(game.variant), scene.state, scene.overlay, options)
    return render.svg_to_png(svg) if request.fmt == "png" else svg.encode()


class _PictureCache:
    """A small LRU of rendered pictures by ETag (bounded memory; thread-safe for the local stack)."""

    def __init__(self, size: int) -> None:
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: str, value: bytes) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


_CACHE = _PictureCache(CACHE_SIZE)
