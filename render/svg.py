"""The board as SVG: a pure function of (map, geometry, state, overlay) to SVG text.

Drawn in named layers, bottom to top, each a ``<g id=...>`` a client may restyle or hide (as
godip/diplicity maps do): ``provinces``, ``crossings``, ``supply-centres``, ``labels``,
``units``, ``dislodged``, ``orders``, ``standoffs``, ``strengths``, ``legend``, ``title``. Orders
are drawn above the units and every arrow stops short of the unit glyphs, so no arrow hides
under a unit and no unit under an arrow head.

Every order's drawing is a ``<g data-order="PAR" data-power="FRANCE">`` (``data-result`` too on
a results map), ``data-order`` naming the province of the ordered unit (of the build, for a
build), so a client can find the order an arrow stands for — the web client shows that
order's explanation when the arrow is tapped — without reading the geometry. On a results
map, a contested move carries the strengths its move decision compared ("2 vs 1": its attack
against the strongest hold, defend or prevent strength), from the result's explanation.

Deterministic: everything is iterated in sorted order and numbers are formatted with one
decimal, so one position always gives the same bytes (the golden test pins them).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from xml.sax.saxutils import escape

from engine import (
    Build,
    Convoy,
    Decision,
    Disband,
    GameState,
    Hold,
    MapData,
    Move,
    Order,
    OrderResult,
    ResultCode,
    Retreat,
    StrengthKind,
    SupportHold,
    SupportMove,
    Unit,
    UnitKind,
)
from engine.types import Location
from render.geometry import Geometry, Point, rings_path
from render.overlay import NO_OVERLAY, Overlay
from render.palette import RESULT_WORDS, STANDARD, Palette, tint

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
TITLE_HEIGHT = 34.0
UNIT_RADIUS = 10.0
DISLODGED_OFFSET = (12.0, 10.0)
FAILED = frozenset(
    {ResultCode.BOUNCE, ResultCode.CUT, ResultCode.VOID, ResultCode.NO_CONVOY, ResultCode.DISLODGED}
)
SEASON_WORDS = {"SPRING": "Spring", "FALL": "Fall", "WINTER": "Winter"}
PHASE_WORDS = {"MOVEMENT": "Movement", "RETREAT": "Retreats", "ADJUSTMENT": "Adjustments"}


@dataclass(frozen=True)
class RenderOptions:
    """``width``: the pixel width the SVG asks for (its viewBox never changes). ``fog``: the
    provinces of a fog-of-war game the viewer does not see, drawn as unknown (hatched grey,
    no owner's colour: the state given holds nothing of them). ``crisp_board``: the provinces
    and their borders drawn without anti-aliasing (``shape-rendering="crispEdges"``), for a
    PNG: its pixels then come in few colours and the picture compresses to about 40 % of the
    size (issue 29 item 5: map pictures were most of the bytes sent); units, order arrows and
    text stay smooth. A browser's SVG never asks for it."""

    width: int = 1000
    palette: Palette = STANDARD
    fog: frozenset[str] = frozenset()
    crisp_board: bool = False


def render_svg(
    board: MapData,
    geometry: Geometry,
    state: GameState,
    overlay: Overlay = NO_OVERLAY,
    options: RenderOptions = RenderOptions(),
) -> str:
    """The whole picture as one SVG document (UTF-8 text)."""
    pal = options.palette.for_powers(board.power_ids)
    height = geometry.height + TITLE_HEIGHT
    px_height = round(options.width * height / geometry.width)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{options.width}" height="{px_height}" '
        f'viewBox="0 0 {_n(geometry.width)} {_n(height)}" font-family="{FONT}" font-weight="bold">',
        f'<rect width="{_n(geometry.width)}" height="{_n(height)}" fill="{pal.sea}"/>',
        f'<g id="board" transform="translate(0 {_n(TITLE_HEIGHT)})">',
        _provinces(board, geometry, state, pal, options.crisp_board),
        _crossings(geometry, pal),
        _supply_centres(board, geometry, state, pal),
        *([_fog(geometry, options.fog)] if options.fog else []),
        _labels(board, geometry, pal),
        _units(geometry, state, overlay, pal),
        _orders(geometry, state, overlay, pal),
        _standoffs(geometry, state, overlay, pal),
        _strengths(geometry, overlay, pal),
        _legend(overlay, pal),
        "</g>",
        _title(board, state, overlay, geometry.width),
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


# ------------------------------------------------------------------------------------ layers


@lru_cache(maxsize=8)
def _static_paths(geometry: Geometry) -> dict[str, str]:
    """Path data of every province and of the neutral areas, built once per geometry."""
    paths = {pid: shape.path for pid, shape in geometry.provinces.items()}
    paths["#land"] = rings_path(geometry.neutral_land) if geometry.neutral_land else ""
    paths["#water"] = rings_path(geometry.neutral_water) if geometry.neutral_water else ""
    return paths


def _provinces(board: MapData, geometry: Geometry, state: GameState, pal: Palette,
               crisp: bool = False) -> str:
    paths = _static_paths(geometry)
    out = ['<g id="provinces" stroke-linejoin="round"' + (' shape-rendering="crispEdges">' if crisp else ">")]
    if paths["#water"]:
        out.append(f'<path d="{paths["#water"]}" fill="{pal.neutral_water}" stroke="none"/>')
    for pid in sorted(p for p in board.provinces if board.provinces[p].is_sea):
        out.append(
            f'<path id="p-{pid}" d="{paths[pid]}" fill="{pal.sea}" stroke="#8fb0c9" stroke-width="0.7"/>'
        )
    if paths["#land"]:
        out.append(
            f'<path d="{paths["#land"]}" fill="{pal.neutral_land}" stroke="{pal.border}" '
            'stroke-width="0.6" fill-rule="evenodd"/>'
        )
    for pid in sorted(p for p in board.provinces if not board.provinces[p].is_sea):
        owner = state.ownership.get(pid)
        fill = tint(pal.power(owner), 0.55) if owner else pal.land
        out.append(
            f'<path id="p-{pid}" d="{paths[pid]}" fill="{fill}" stroke="{pal.border}" '
            'stroke-width="0.8" fill-rule="evenodd"/>'
        )
    out.append("</g>")
    return "\n".join(out)


FOG_FILL = "#8a8f96"


def _fog(geometry: Geometry, fogged: frozenset[str]) -> str:
    """The provinces the viewer does not see, under a grey hatch (their labels stay readable
    above it: a player still needs the names to write orders)."""
    if not fogged:
        return ""
    paths = _static_paths(geometry)
    out = ['<defs><pattern id="fog-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
           'patternTransform="rotate(45)"><rect width="6" height="6" fill="' + FOG_FILL + '"/>'
           '<line x1="0" y1="0" x2="0" y2="6" stroke="#6d7279" stroke-width="2"/></pattern></defs>',
           '<g id="fog" fill="url(#fog-hatch)" fill-opacity="0.85" stroke="none">']
    out += [f'<path data-fog="{pid}" d="{paths[pid]}" fill-rule="evenodd"/>'
            for pid in sorted(fogged) if pid in paths]
    out.append("</g>")
    return "\n".join(out)


def _crossings(geometry: Geometry, pal: Palette) -> str:
    out = ['<g id="crossings" fill="none">']
    for c in geometry.crossings:
        if c.kind == "strait" and len(c.points) >= 2:
            (x1, y1), (x2, y2) = c.points[0], c.points[-1]
            out.append(
                f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
                f'stroke="{pal.border}" stroke-width="1.6" stroke-dasharray="2 2.5"/>'
            )
    far_ends: dict[tuple[Point, str], list[str]] = {}
    for c in geometry.crossings:
        if c.kind == "offmap" and len(c.points) == 2:
            out.append(_note(c.points[0], f"to {c.provinces[1]} {c.label}", pal, geometry.width))
            far_ends.setdefault((c.points[1], c.label), []).append(c.provinces[0])
    for (point, route), names in sorted(far_ends.items()):
        out.append(_note(point, f"to {', '.join(sorted(names))} {route}", pal, geometry.width))
    out.append("</g>")
    return "\n".join(out)


def _note(point: Point, text: str, pal: Palette, width: float) -> str:
    """A route that leaves the board: a note with a dashed tick down to the board's edge."""
    x, y = point
    tx = min(max(x, 2.2 * len(text) + 6), width - 2.2 * len(text) - 6)  # keep the words on the board
    return (
        f'<path d="M{_n(x)} {_n(y + 1.5)}V{_n(y + 7)}" stroke="{pal.sea_text}" stroke-width="1.2" '
        f'stroke-dasharray="1.5 1.5"/><text x="{_n(tx)}" y="{_n(y - 1)}" font-size="7" text-anchor="middle" '
        f'fill="{pal.sea_text}" stroke="#ffffff" stroke-width="2" paint-order="stroke">{escape(text)}</text>'
    )


def _supply_centres(board: MapData, geometry: Geometry, state: GameState, pal: Palette) -> str:
    out = ['<g id="supply-centres" stroke="#222" stroke-width="1">']
    for pid in sorted(board.supply_centers):
        point = geometry.provinces[pid].supply_center
        if point is None:
            continue
        owner = state.ownership.get(pid)
        fill = pal.power(owner) if owner else "#ffffff"
        out.append(
            f'<circle cx="{_n(point[0])}" cy="{_n(point[1])}" r="4.2" fill="{fill}"/>'
            f'<circle cx="{_n(point[0])}" cy="{_n(point[1])}" r="1.5" fill="#222" stroke="none"/>'
        )
    out.append("</g>")
    return "\n".join(out)


def _labels(board: MapData, geometry: Geometry, pal: Palette) -> str:
    out = [
        '<g id="labels" text-anchor="middle" stroke="#ffffff" stroke-width="2.2" '
        'stroke-linejoin="round" paint-order="stroke">'
    ]
    for pid in sorted(board.provinces):
        shape = geometry.provinces[pid]
        colour = pal.sea_text if board.provinces[pid].is_sea else pal.text
        size = 9.5 if board.provinces[pid].is_sea else 8.5
        x, y = shape.label
        out.append(
            f'<text x="{_n(x)}" y="{_n(y + size * 0.36)}" font-size="{size}" fill="{colour}">{pid}</text>'
        )
        for coast, (cx, cy) in sorted(shape.coasts.items()):
            out.append(
                f'<text x="{_n(cx)}" y="{_n(cy + 17)}" font-size="7" fill="{pal.sea_text}" '
                f'stroke-width="1.8">{coast.lower()}</text>'
            )
    out.append("</g>")
    return "\n".join(out)


def _units(geometry: Geometry, state: GameState, overlay: Overlay, pal: Palette) -> str:
    dislodged = {r.order.unit.province for r in overlay.results if r.dislodged and hasattr(r.order, "unit")}
    out = ['<g id="units">']
    for unit in sorted(state.units):
        x, y = _unit_point(geometry, unit.location)
        out.append(_glyph(unit, x, y, pal))
        if unit.province in dislodged:
            out.append(
                f'<circle cx="{_n(x)}" cy="{_n(y)}" r="12.5" fill="none" stroke="{pal.standoff}" '
                'stroke-width="1.8" stroke-dasharray="3 2"/>'
            )
    out.append("</g>")
    out.append('<g id="dislodged">')
    for d in state.dislodged:
        x, y = _dislodged_point(geometry, d.unit.location)
        out.append(
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="11" fill="#ffffff" fill-opacity="0.75" '
            f'stroke="{pal.standoff}" stroke-width="1.6" stroke-dasharray="3 2"/>'
        )
        out.append(_glyph(d.unit, x, y, pal, scale=0.85))
    out.append("</g>")
    return "\n".join(out)


ARMY = (
    '<path d="M-10.5 2.5L-8.5 -1.5L7.5 -7L9.5 -3.5L-6 4Z"/>'
    '<circle cx="-3" cy="3.5" r="4.6"/><circle cx="-3" cy="3.5" r="1.3" fill="#222"/>'
    '<path d="M-11 8.5H10" fill="none"/>'
)
FLEET = (
    '<path d="M-11.5 1H11.5L7.5 7H-8Z"/><path d="M-1 1V-10" fill="none"/>'
    '<path d="M0.5 -9L8 -1H0.5Z"/><path d="M-2.5 -7.5L-9 -1H-2.5Z"/>'
)


def _glyph(unit: Unit, x: float, y: float, pal: Palette, scale: float = 1.0, ghost: bool = False) -> str:
    body = ARMY if unit.kind is UnitKind.ARMY else FLEET
    opacity = ' opacity="0.55"' if ghost else ""
    scaled = f" scale({scale})" if scale != 1.0 else ""
    out = (
        f'<g class="unit" transform="translate({_n(x)} {_n(y)}){scaled}" fill="{pal.power(unit.power)}" '
        f'stroke="#1d1d1d" stroke-width="1.2" stroke-linejoin="round"{opacity}>{body}'
    )
    if pal.initials:
        out += (
            '<circle cx="8" cy="-8" r="4.6" fill="#ffffff" stroke-width="0.8"/>'
            f'<text x="8" y="-5.9" font-size="6" text-anchor="middle" fill="#111" stroke="none">'
            f"{unit.power[0]}</text>"
        )
    return out + "</g>"


def _unit_point(geometry: Geometry, location: Location) -> Point:
    return geometry.anchor(location.province, location.coast)


def _dislodged_point(geometry: Geometry, location: Location) -> Point:
    x, y = _unit_point(geometry, location)
    return (x + DISLODGED_OFFSET[0], y + DISLODGED_OFFSET[1])


# ------------------------------------------------------------------------------------ orders


@dataclass(frozen=True)
class _Stroke:
    colour: str
    dashed: bool


def _orders(geometry: Geometry, state: GameState, overlay: Overlay, pal: Palette) -> str:
    drawn: list[tuple[Order, _Stroke, ResultCode | None]] = []
    for order in overlay.orders:
        drawn.append((order, _Stroke(_darker(pal.power(order.power)), False), None))
    for result in overlay.results:
        colour = pal.results[result.result]
        stroke = _Stroke(colour, pal.initials and result.result in FAILED)
        drawn.append((result.order, stroke, result.result))
    out = ['<g id="orders" fill="none" stroke-linecap="round" stroke-linejoin="round">']
    # supports and convoys first, so the moves they point at are drawn over them
    for order, stroke, code in sorted(drawn, key=lambda d: (_draw_rank(d[0]), _order_key(d[0]))):
        body = _order(geometry, state, order, stroke, pal)
        if body:
            out.append(f"<g {_order_data(order, code)}>{body}</g>")
    out.append("</g>")
    return "\n".join(out)


def _order_data(order: Order, code: ResultCode | None) -> str:
    """The data attributes naming a drawn order: its unit's province (a build's), its power,
    and on a results map its result code."""
    result = f' data-result="{code.value}"' if code is not None else ""
    return f'data-order="{_ordered_province(order)}" data-power="{escape(order.power)}"{result}'


def _ordered_province(order: Order) -> str:
    where = order.location if isinstance(order, Build) else getattr(order, "unit", None)
    return where.province if isinstance(where, Location) else ""


def _draw_rank(order: Order) -> int:
    return 0 if isinstance(order, (SupportHold, SupportMove, Convoy)) else 1


def _order_key(order: Order) -> str:
    return f"{order.power} {type(order).__name__} {getattr(order, 'unit', getattr(order, 'location', ''))}"


def _order(geometry: Geometry, state: GameState, order: Order, s: _Stroke, pal: Palette) -> str:
    if isinstance(order, Move):
        a, b = _unit_point(geometry, order.unit), _unit_point(geometry, order.dest)
        return _arrow(a, b, s, curve=0.18 if order.via_convoy else 0.0)
    if isinstance(order, Retreat):
        a, b = _dislodged_point(geometry, order.unit), _unit_point(geometry, order.dest)
        return _arrow(a, b, _Stroke(s.colour, True), curve=0.0)
    if isinstance(order, Hold):
        x, y = _unit_point(geometry, order.unit)
        return _ring(x, y, 13.5, s, width=2.4)
    if isinstance(order, SupportHold):
        a, b = _unit_point(geometry, order.unit), _unit_point(geometry, order.target)
        return _support_line(a, b, s, end_gap=14.5) + _ring(
            b[0], b[1], 14.5, _Stroke(s.colour, True), width=1.8
        )
    if isinstance(order, SupportMove):
        a = _unit_point(geometry, order.unit)
        o, d = _unit_point(geometry, order.origin), _unit_point(geometry, order.dest)
        target = _lerp(o, d, 0.62)
        return _support_line(a, target, s, end_gap=0.0) + _dot(target, s.colour)
    if isinstance(order, Convoy):
        a = _unit_point(geometry, order.unit)
        o, d = _unit_point(geometry, order.origin), _unit_point(geometry, order.dest)
        mid = _curve_point(o, d, 0.18)
        return _convoy_line(a, mid, s) + _dot(mid, s.colour, r=3.0)
    if isinstance(order, Build):
        x, y = _unit_point(geometry, order.location)
        ghost = Unit(order.kind, order.power, order.location)
        plus = (
            f'<path d="M{_n(x + 9)} {_n(y - 13)}h8M{_n(x + 13)} {_n(y - 17)}v8" stroke="{s.colour}" '
            'stroke-width="2.6"/>'
        )
        return _glyph(ghost, x, y, pal, ghost=True) + _ring(x, y, 13.5, _Stroke(s.colour, True), 2.2) + plus
    if isinstance(order, Disband):
        dislodged = any(d.unit.location.province == order.unit.province for d in state.dislodged)
        x, y = _dislodged_point(geometry, order.unit) if dislodged else _unit_point(geometry, order.unit)
        return (
            f'<path d="M{_n(x - 9)} {_n(y - 9)}L{_n(x + 9)} {_n(y + 9)}M{_n(x + 9)} {_n(y - 9)}'
            f'L{_n(x - 9)} {_n(y + 9)}" stroke="#ffffff" stroke-width="5.5"/>'
            f'<path d="M{_n(x - 9)} {_n(y - 9)}L{_n(x + 9)} {_n(y + 9)}M{_n(x + 9)} {_n(y - 9)}'
            f'L{_n(x - 9)} {_n(y + 9)}" stroke="{s.colour}" stroke-width="3"/>'
        )
    return ""  # Waive: nothing on the board


def _arrow(a: Point, b: Point, s: _Stroke, curve: float) -> str:
    """A move arrow from unit to unit, leaving both glyphs clear, with a solid head."""
    length = math.dist(a, b)
    if length < 2 * UNIT_RADIUS + 4:
        return ""
    ctrl = _control(a, b, curve)
    start = _towards(a, ctrl, UNIT_RADIUS)
    tip = _towards(b, ctrl, UNIT_RADIUS)
    head_base = _towards(tip, ctrl, 9.0)
    dx, dy = _unit_vector(ctrl, tip)
    w = 4.8
    left = (head_base[0] - dy * w, head_base[1] + dx * w)
    right = (head_base[0] + dy * w, head_base[1] - dx * w)
    path = f"M{_p(start)}Q{_p(ctrl)} {_p(head_base)}" if curve else f"M{_p(start)}L{_p(head_base)}"
    dash = ' stroke-dasharray="6 3.5"' if s.dashed else ""
    head = f"M{_p(tip)}L{_p(left)}L{_p(right)}Z"
    return (
        f'<path d="{path}" stroke="#ffffff" stroke-width="5.2" stroke-opacity="0.85"/>'
        f'<path d="{head}" fill="#ffffff" stroke="#ffffff" stroke-width="2.6"/>'
        f'<path d="{path}" stroke="{s.colour}" stroke-width="2.8"{dash}/>'
        f'<path d="{head}" fill="{s.colour}" stroke="{s.colour}" stroke-width="0.8"/>'
    )


def _support_line(a: Point, b: Point, s: _Stroke, end_gap: float) -> str:
    start = _towards(a, b, UNIT_RADIUS)
    end = _towards(b, a, end_gap) if end_gap else b
    path = f"M{_p(start)}L{_p(end)}"
    return (
        f'<path d="{path}" stroke="#ffffff" stroke-width="4.2" stroke-opacity="0.8"/>'
        f'<path d="{path}" stroke="{s.colour}" stroke-width="2" stroke-dasharray="5 3"/>'
    )


def _convoy_line(a: Point, b: Point, s: _Stroke) -> str:
    start = _towards(a, b, UNIT_RADIUS)
    path = f"M{_p(start)}L{_p(b)}"
    return (
        f'<path d="{path}" stroke="#ffffff" stroke-width="4.2" stroke-opacity="0.8"/>'
        f'<path d="{path}" stroke="{s.colour}" stroke-width="2.2" stroke-dasharray="0.5 3.5"/>'
    )


def _ring(x: float, y: float, r: float, s: _Stroke, width: float) -> str:
    dash = ' stroke-dasharray="4 2.5"' if s.dashed else ""
    return (
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" stroke="#ffffff" stroke-width="{_n(width + 2)}" '
        'stroke-opacity="0.8"/>'
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" stroke="{s.colour}" '
        f'stroke-width="{_n(width)}"{dash}/>'
    )


def _dot(p: Point, colour: str, r: float = 2.6) -> str:
    centre = f'cx="{_n(p[0])}" cy="{_n(p[1])}" r="{_n(r)}"'
    return f'<circle {centre} fill="{colour}" stroke="#ffffff" stroke-width="1"/>'


def _standoffs(geometry: Geometry, state: GameState, overlay: Overlay, pal: Palette) -> str:
    """A star on every province two or more moves bounced over (resolution maps only)."""
    bounced = Counter(
        r.order.dest.province
        for r in overlay.results
        if isinstance(r.order, Move) and r.result is ResultCode.BOUNCE
    )
    holders = {u.province for u in state.units}
    out = ['<g id="standoffs">']
    for pid in sorted(p for p, n in bounced.items() if n >= 2):
        x, y = geometry.provinces[pid].unit
        if pid in holders:
            x, y = x + 11, y - 11
        out.append(f'<path d="{_star(x, y)}" fill="{pal.standoff}" stroke="#ffffff" stroke-width="1.2"/>')
    out.append("</g>")
    return "\n".join(out)


def _star(x: float, y: float, outer: float = 7.5, inner: float = 3.2) -> str:
    pts = []
    for i in range(16):
        r = outer if i % 2 == 0 else inner
        a = math.pi * i / 8 - math.pi / 2
        pts.append((x + r * math.cos(a), y + r * math.sin(a)))
    return "M" + "L".join(_p(p) for p in pts) + "Z"


def _contest(result: OrderResult) -> tuple[float, float] | None:
    """(attack, strongest opposing strength) of a move whose move decision compared strengths
    and met any opposition (hold, defend or prevent above 0); None otherwise (an unopposed move,
    a failed convoy, an order of another kind, a phase stored before explanations)."""
    e = result.explanation
    if not isinstance(result.order, Move) or e is None or e.decision is not Decision.MOVE:
        return None
    if not e.strengths or e.strengths[0].kind is not StrengthKind.ATTACK:
        return None
    opposing = max((s.value for s in e.strengths[1:]), default=0)
    return (e.strengths[0].value, opposing) if opposing > 0 else None


def _strengths(geometry: Geometry, overlay: Overlay, pal: Palette) -> str:
    """A label "2 vs 1" on every contested move of a results map, two fifths along its arrow
    (clear of the dot a support draws at three fifths and of the unit glyphs)."""
    out = ['<g id="strengths">']
    for result in sorted(overlay.results, key=lambda r: _order_key(r.order)):
        contest = _contest(result)
        if contest is None or not isinstance(result.order, Move):
            continue
        order = result.order
        a, b = _unit_point(geometry, order.unit), _unit_point(geometry, order.dest)
        at = _quad(a, _control(a, b, 0.18 if order.via_convoy else 0.0), b, 0.4)
        chip = _chip(at, _strength_words(*contest), pal.results[result.result])
        out.append(f"<g {_order_data(order, result.result)}>{chip}</g>")
    out.append("</g>")
    return "\n".join(out)


def _strength_words(attack: float, opposing: float) -> str:
    """"2 vs 1": the numbers players count supports in (a half-strength edge gives halves)."""
    return f"{_count(attack)} vs {_count(opposing)}"


def _count(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _chip(at: Point, text: str, colour: str) -> str:
    """Words in a small white box outlined in ``colour``, centred on ``at``."""
    width = 4.3 * len(text) + 4
    x, y = at
    return (
        f'<rect x="{_n(x - width / 2)}" y="{_n(y - 5.5)}" width="{_n(width)}" height="11" rx="3" '
        f'fill="#ffffff" stroke="{colour}" stroke-width="1.4"/>'
        f'<text x="{_n(x)}" y="{_n(y + 2.6)}" font-size="7.5" text-anchor="middle" fill="#1d1d1d">'
        f"{escape(text)}</text>"
    )


# ------------------------------------------------------------------------------------ legend and title


KIND_WORDS = (
    (Move, "move"),
    (SupportHold, "support hold"),
    (SupportMove, "support move"),
    (Convoy, "convoy"),
    (Hold, "hold"),
    (Retreat, "retreat"),
    (Build, "build"),
    (Disband, "disband"),
)


LEGEND_WIDTH = 152.0  # the longest line, "NO_CONVOY - no convoy", fits


def _legend(overlay: Overlay, pal: Palette) -> str:
    orders = [r.order for r in overlay.results] + list(overlay.orders)
    if not orders:
        return '<g id="legend"/>'
    kinds = [word for cls, word in KIND_WORDS if any(isinstance(o, cls) for o in orders)]
    codes = [c for c in ResultCode if any(r.result is c for r in overlay.results)]
    standoff = any(
        n >= 2
        for n in Counter(
            r.order.dest.province
            for r in overlay.results
            if isinstance(r.order, Move) and r.result is ResultCode.BOUNCE
        ).values()
    )
    contested = any(_contest(r) is not None for r in overlay.results)
    rows = len(kinds) + len(codes) + (1 if standoff else 0) + (1 if codes else 0) + (1 if contested else 0)
    height = 16 + rows * 12.5
    out = [
        '<g id="legend" font-size="8">',
        f'<rect x="6" y="6" width="{_n(LEGEND_WIDTH)}" height="{_n(height)}" rx="4" fill="#ffffff" '
        'fill-opacity="0.88" stroke="#777" stroke-width="0.6"/>',
    ]
    y = 19.0
    grey = _Stroke("#444444", False)
    for word in kinds:
        out.append(_legend_sample(word, 14, y, grey))
        out.append(f'<text x="44" y="{_n(y + 3)}" fill="#222">{escape(word)}</text>')
        y += 12.5
    if codes:
        out.append(f'<text x="14" y="{_n(y + 3)}" fill="#222">results:</text>')
        y += 12.5
    for code in codes:
        dash = ' stroke-dasharray="5 3"' if pal.initials and code in FAILED else ""
        out.append(f'<path d="M14 {_n(y)}H38" stroke="{pal.results[code]}" stroke-width="3.2"{dash}/>')
        out.append(f'<text x="44" y="{_n(y + 3)}" fill="#222">{code.value} - {RESULT_WORDS[code]}</text>')
        y += 12.5
    if standoff:
        out.append(
            f'<path d="{_star(26, y, 5.5, 2.4)}" fill="{pal.standoff}" stroke="#fff" stroke-width="0.8"/>'
        )
        out.append(f'<text x="44" y="{_n(y + 3)}" fill="#222">standoff</text>')
        y += 12.5
    if contested:
        out.append(_chip((26, y), "2 vs 1", "#444444"))
        out.append(f'<text x="44" y="{_n(y + 3)}" fill="#222">attack vs opposing</text>')
    out.append("</g>")
    return "\n".join(out)


def _legend_sample(word: str, x: float, y: float, s: _Stroke) -> str:
    a, b = (x, y), (x + 24, y)
    if word in ("move", "retreat"):
        return _arrow(
            (x - UNIT_RADIUS, y), (x + 24 + UNIT_RADIUS, y), _Stroke(s.colour, word == "retreat"), 0.0
        )
    if word in ("support hold", "support move"):
        return f'<path d="M{_p(a)}L{_p(b)}" stroke="{s.colour}" stroke-width="2" stroke-dasharray="5 3"/>'
    if word == "convoy":
        return (
            f'<path d="M{_p(a)}L{_p(b)}" stroke="{s.colour}" stroke-width="2.2" stroke-dasharray="0.5 3.5"/>'
        )
    if word == "hold":
        return (
            f'<circle cx="{_n(x + 12)}" cy="{_n(y)}" r="5" fill="none" stroke="{s.colour}" stroke-width="2"/>'
        )
    if word == "build":
        return (
            f'<path d="M{_n(x + 8)} {_n(y)}h8M{_n(x + 12)} {_n(y - 4)}v8" stroke="{s.colour}" '
            'stroke-width="2.4"/>'
        )
    return f'<path d="M{_n(x + 8)} {_n(y - 4)}l8 8m0 -8l-8 8" stroke="{s.colour}" stroke-width="2.4"/>'


def _title(board: MapData, state: GameState, overlay: Overlay, width: float) -> str:
    title = f"{SEASON_WORDS[state.season.value]} {state.year} \u2013 {PHASE_WORDS[state.phase_type.value]}"
    caption = overlay.caption or board.name
    return (
        f'<g id="title"><rect width="{_n(width)}" height="{_n(TITLE_HEIGHT)}" fill="#2b2b2b"/>'
        f'<text x="14" y="23" font-size="17" fill="#ffffff">{escape(title)}</text>'
        f'<text x="{_n(width - 14)}" y="22" font-size="11.5" fill="#d6d6d6" text-anchor="end">'
        f"{escape(caption)}</text></g>"
    )


# ------------------------------------------------------------------------------------ helpers


def _n(value: float) -> str:
    text = f"{value:.1f}"
    if text == "-0.0":
        return "0"
    return text[:-2] if text.endswith(".0") else text


def _p(p: Point) -> str:
    return f"{_n(p[0])} {_n(p[1])}"


def _lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _unit_vector(a: Point, b: Point) -> Point:
    d = math.dist(a, b) or 1.0
    return ((b[0] - a[0]) / d, (b[1] - a[1]) / d)


def _towards(a: Point, b: Point, distance: float) -> Point:
    ux, uy = _unit_vector(a, b)
    return (a[0] + ux * distance, a[1] + uy * distance)


def _control(a: Point, b: Point, curve: float) -> Point:
    mx, my = _lerp(a, b, 0.5)
    dx, dy = b[0] - a[0], b[1] - a[1]
    return (mx - dy * curve, my + dx * curve)


def _quad(a: Point, c: Point, b: Point, t: float) -> Point:
    """The point at ``t`` of the quadratic curve from ``a`` to ``b`` with control ``c``."""
    u = 1 - t
    return (u * u * a[0] + 2 * u * t * c[0] + t * t * b[0], u * u * a[1] + 2 * u * t * c[1] + t * t * b[1])


def _curve_point(a: Point, b: Point, curve: float) -> Point:
    c = _control(a, b, curve)
    return (0.25 * a[0] + 0.5 * c[0] + 0.25 * b[0], 0.25 * a[1] + 0.5 * c[1] + 0.25 * b[1])


def _darker(colour: str) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c * 0.82):02x}" for c in (r, g, b))

