"""PNG from the same SVG: rasterised by resvg (the ``resvg`` wheel on PyPI, MIT), then stored in a
256-colour palette by Pillow (MIT-CMU).

Why resvg: resvg is a complete SVG renderer in Rust, and the ``resvg`` package ships it as one
self-contained manylinux wheel (no cairo, no fontconfig, no system packages), so it installs with
pip on Lambda's Amazon Linux as it does here. It keeps the parsed options (with the font) between
calls, which made it about three times faster here than ``resvg-py`` 0.5.0, which rebuilds its
font database on every call (bench/render_bench.py prints the figures). CairoSVG was rejected
because it needs the system cairo library.

Why a palette (issue 29: most of CloudFront's bytes out were map PNGs): resvg writes 8-bit RGBA,
but a board drawn with crisp provinces (RenderOptions.crisp_board) has only ~5,000 distinct
colours, nearly all of them the anti-aliased edges of units, arrows and text. Mapped to 256 of
them (Pillow's fast octree: each pixel takes its bucket's mean colour, never dithered; Pillow's
``dither`` argument only applies to a palette given in advance) the 800 px results map is about a
third of the bytes and looks the same
(tests/render/test_render.py bounds the colour error; docs/performance.md has the figures).
Why Pillow: the reference imaging library for Python, kept up for decades, with manylinux wheels
for py3.12 on x86_64 and arm64 (no system libraries either). Quantizing ~600k pixels in pure
Python would take about a second; Pillow's C octree takes a few milliseconds. The palette is
saved at zlib's default level, not ``optimize=True`` (level 9): level 9 made the 800 px map ~9 %
smaller (45,949 bytes against 50,585) for ~45 ms more per picture here (about three times that on
a 512 MB Lambda), which put the 1200 px picture over issue 14's 150 ms aim; the player who asks
first for a picture waits for it, while 4.6 KB more is nothing a phone notices
(docs/performance.md, "Map pictures in a palette").

Text needs a font and Lambda has none, so the package ships one: a Latin subset of DejaVu Sans
Bold (Bitstream Vera licence, render/fonts/). System fonts are never loaded, so a PNG is the same
on every machine.

This is the only module of ``render`` that imports native libraries (both lazily: SVG-only
callers never load them); the drawing (render.svg) stays pure.
"""

from __future__ import annotations

import io
import threading
from importlib import resources
from typing import Any

FONT_FILE = "DejaVuSans-Bold-subset.ttf"
IDENTITY = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)
COLOURS = 256  # the most a PNG palette holds (8-bit indices)
_per_thread = threading.local()


def _options() -> Any:
    """The parsed options, one per thread: resvg's ``Options`` is unsendable (pyo3 panics when
    another thread uses it), and a process serving requests on several threads (the local
    stack's HTTP server in process, as the benchmarks and tests run it) draws on each."""
    found = getattr(_per_thread, "options", None)
    if found is None:
        import resvg  # imported here so SVG-only callers never load the native module

        found = resvg.usvg.Options.default()
        found.load_font_data(resources.files("render").joinpath("fonts", FONT_FILE).read_bytes())
        found.font_family = "DejaVu Sans"
        _per_thread.options = found
    return found


def svg_to_png(svg: str) -> bytes:
    """``svg`` as a palette PNG (colour type 3) at the pixel size its ``width``/``height`` ask for:
    every PNG the product sends (map route, mail, Telegram) is made here."""
    return in_palette(rasterise(svg))


def rasterise(svg: str) -> bytes:
    """resvg's full-colour RGBA PNG of ``svg``: what ``svg_to_png`` maps to a palette."""
    import resvg

    tree = resvg.usvg.Tree.from_str(svg, _options())
    return bytes(resvg.render(tree, IDENTITY))


def in_palette(png: bytes) -> bytes:
    """``png`` re-encoded with at most 256 colours. An opaque picture (every map: the sea is
    drawn under the whole canvas) is quantized without its alpha channel, so the palette spends
    no entries on alpha and the file carries no transparency chunk: quantized with alpha, the
    octree left ~40 % of an opaque map's pixels at alpha 254."""
    from PIL import Image  # imported here so SVG-only callers never load the native module

    with Image.open(io.BytesIO(png)) as picture:
        opaque = picture.mode != "RGBA" or picture.getchannel("A").getextrema() == (255, 255)
        source = picture.convert("RGB" if opaque else "RGBA")
    mapped = source.quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    mapped.save(out, format="PNG")  # zlib's default level: why, above
    return out.getvalue()
