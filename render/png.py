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

import threading
from importlib import resources
from typing import Any

FONT_FILE = "DejaVuSans-Bold-subset.ttf"
IDENTITY = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)
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
    """Rasterise ``svg`` at the pixel size its ``width``/``height`` attributes ask for."""
    import resvg

    tree = resvg.usvg.Tree.from_str(svg, _options())
    return bytes(resvg.render(tree, IDENTITY))
