"""Convoy's map renderer: the board as SVG (and PNG) from map, geometry, state and overlay.

    import engine, render
    m = engine.load_map("classical")
    g = render.load_geometry("classical")
    svg = render.render_svg(m, g, engine.initial_state(m))
    png = render.svg_to_png(svg)  # at the SVG's own width (RenderOptions.width)

Non-goals: deciding who may see which orders (the caller passes only what may be shown), any
I/O beyond reading the packaged geometry and font. ``render.svg`` is pure; ``render.png`` is the
one bridge to native libraries (resvg, Pillow).
"""

from render.geometry import BORDER_TOLERANCE, Geometry, GeometryError, build_geometry, load_geometry
from render.overlay import NO_OVERLAY, Overlay, orders_overlay, results_overlay
from render.palette import COLORBLIND, PALETTES, STANDARD, Palette
from render.png import svg_to_png
from render.svg import RenderOptions, render_svg

__all__ = [
    "BORDER_TOLERANCE",
    "COLORBLIND",
    "NO_OVERLAY",
    "PALETTES",
    "STANDARD",
    "Geometry",
    "GeometryError",
    "Overlay",
    "Palette",
    "RenderOptions",
    "build_geometry",
    "load_geometry",
    "orders_overlay",
    "render_svg",
    "results_overlay",
    "svg_to_png",
]
