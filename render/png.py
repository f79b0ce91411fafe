"""PNG from the same SVG, through resvg (the ``resvg`` wheel on PyPI, MIT).

Why this library: resvg is a complete SVG renderer in Rust, and the ``resvg`` package ships it
as one self-contained manylinux wheel (no cairo, no fontconfig, no system packages), so it
installs with pip on Lambda's Amazon Linux as it does here. It keeps the parsed options (with the
font) between calls, which made it about three times faster here than ``resvg-py`` 0.5.0, which
rebuilds its font database on every call (bench/render_bench.py prints the figures). CairoSVG was
rejected because it needs the system cairo library.

Text needs a font and Lambda has none, so the package ships one: a Latin subset of DejaVu Sans
Bold (Bitstream Vera licence, render/fonts/). System fonts are never loaded, so a PNG is the same
on every machine.

This is the only module of ``render`` that imports a native library; the drawing (render.svg)
stays pure.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

FONT_FILE = "DejaVuSans-Bold-subset.ttf"
IDENTITY = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)


@cache
def _options() -> Any:
    import resvg  # imported here so SVG-only callers never load the native module

    options = resvg.usvg.Options.default()
    options.load_font_data(resources.files("render").joinpath("fonts", FONT_FILE).read_bytes())
    options.font_family = "DejaVu Sans"
    return options


def svg_to_png(svg: str) -> bytes:
    """Rasterise ``svg`` at the pixel size its ``width``/``height`` attributes ask for."""
    import resvg

    tree = resvg.usvg.Tree.from_str(svg, _options())
    return bytes(resvg.render(tree, IDENTITY))
