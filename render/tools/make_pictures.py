"""Write the PNG pictures of docs/img/ (issue 14, item 5). Run by hand after changing the look:

    .venv/bin/python -m render.tools.make_pictures

Needs only the project's own environment (engine, render, resvg).
"""

from __future__ import annotations

from pathlib import Path

import engine
from engine.fog import seen_position, visible_provinces
from render import (
    COLORBLIND,
    RenderOptions,
    load_geometry,
    orders_overlay,
    render_svg,
    results_overlay,
    svg_to_png,
)
from render.showcase import showcase_year

OUT = Path(__file__).resolve().parents[2] / "docs" / "img"
WIDTH = 1200


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for map_id in engine.available_maps():  # every variant's start board (docs/variants.md)
        board = engine.load_map(map_id)
        svg = render_svg(
            board, load_geometry(map_id), engine.initial_state(board), options=RenderOptions(WIDTH)
        )
        _write(f"{map_id}-start.png", svg)
    board, geometry = engine.load_map("classical"), load_geometry("classical")
    movement, retreat, adjustment = showcase_year()
    pictures = {
        "classical-F1901M-resolution.png": (movement, RenderOptions(WIDTH)),
        "classical-F1901M-resolution-colorblind.png": (movement, RenderOptions(WIDTH, COLORBLIND)),
        "classical-F1901R-resolution.png": (retreat, RenderOptions(WIDTH)),
        "classical-W1901A-resolution.png": (adjustment, RenderOptions(WIDTH)),
    }
    for name, (played, options) in pictures.items():
        overlay = results_overlay(played.results, caption="Results")
        _write(name, render_svg(board, geometry, played.state, overlay, options))
    france = tuple(r.order for r in movement.results if r.order.power == "FRANCE")
    overlay = orders_overlay(france, caption="Orders of France (pending)")
    _write(
        "classical-F1901M-orders-france.png",
        render_svg(board, geometry, movement.state, overlay, RenderOptions(WIDTH)),
    )
    _write("classical-F1901M-fog-france.png", fog_picture("FRANCE"))


def fog_picture(power: str) -> str:
    """The showcase's Fall 1901 results as ``power`` sees them in a fog-of-war game
    (docs/variants.md "Fog of war"): its results and those naming only seen provinces."""
    board, geometry = engine.load_map("classical"), load_geometry("classical")
    movement = showcase_year()[0]
    seen = visible_provinces(movement.state, board, power)
    results = tuple(r for r in movement.results if r.order.power == power or _named(r.order) <= seen)
    overlay = results_overlay(results, caption=f"Results as {board.powers[power].name} sees them")
    fog = frozenset(board.provinces) - seen
    position = seen_position(movement.state, seen)
    return render_svg(board, geometry, position, overlay, RenderOptions(WIDTH, fog=fog))


def _named(order: engine.Order) -> set[str]:
    return {w for w in engine.format_order(order).replace("/", " ").split() if len(w) == 3}


def _write(name: str, svg: str) -> None:
    path = OUT / name
    path.write_bytes(svg_to_png(svg))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
