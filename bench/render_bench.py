"""Map rendering benchmark (issue 14): SVG and PNG at 1200 px, cold and cached.

The last scene is the PNG the product sends most (issue 29): a turn result's 800 px map, drawn as
the product draws PNGs (``crisp_board``), for a mail or a notice's link.

What is timed:
- ``first``: the first picture in this process (loads and checks the geometry, builds the path
  cache, loads resvg and the font): what a fresh Lambda container pays once.
- ``warm``: drawing again in the same process, nothing cached but the geometry (median of N).
- ``cached``: the API use case answering a picture it drew before (``map_picture``: the META
  read from an in-memory store, the ETag, the per-process picture cache), and ``304``: the same
  with a matching If-None-Match.

Aims (issue 14, on this machine): SVG <= 30 ms, PNG <= 150 ms, cached answers <= 5 ms. Printed,
never asserted: the machine is shared and figures vary with its load.

    .venv/bin/python bench/render_bench.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
import render
from render.showcase import showcase_year

WIDTH = 1200


def _ms(fn: Callable[[], object], repeat: int) -> tuple[float, float, float]:
    """(median wall, best wall, median CPU) in milliseconds. On a busy machine the CPU time of
    this process is the better estimate of what a quiet one (or a Lambda) would take."""
    times, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return statistics.median(times), min(times), statistics.median(cpu)


Scene = tuple[str, engine.MapData, engine.GameState, render.Overlay, render.RenderOptions]


def _scenes(options: render.RenderOptions) -> list[Scene]:
    out: list[Scene] = []
    for map_id in ("classical", "1900"):
        board = engine.load_map(map_id)
        out.append((f"{map_id} start", board, engine.initial_state(board), render.NO_OVERLAY, options))
    movement, _, _ = showcase_year()
    classical, results = engine.load_map("classical"), render.results_overlay(movement.results, "Results")
    out.append(("classical F1901M results", classical, movement.state, results, options))
    mail = render.RenderOptions(width=800, crisp_board=True)
    out.append(("F1901M results 800 px, mail", classical, movement.state, results, mail))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    options = render.RenderOptions(width=WIDTH)

    # first picture of the process (geometry load + check, path cache, resvg and font)
    board = engine.load_map("classical")
    state = engine.initial_state(board)
    start = time.perf_counter()
    svg = render.render_svg(board, render.load_geometry("classical"), state, options=options)
    first_svg = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    render.svg_to_png(svg)
    first_png = (time.perf_counter() - start) * 1000

    print(
        f"Render benchmark, {WIDTH} px wide, median (best) of {args.repeat}; "
        f"python {sys.version.split()[0]}, {os.cpu_count()} cpu, load {os.getloadavg()[0]:.1f}"
    )
    print()
    print(f"first picture in a fresh process: SVG {first_svg:.1f} ms, PNG {first_png:.1f} ms")
    print()
    print(f"{'':<28} {'SVG':>9} {'wall ms':>14} {'cpu ms':>6} {'PNG':>9} {'wall ms':>15} {'cpu ms':>6}")
    print(
        f"{'scene':<28} {'bytes':>9} {'median (best)':>14} {'median':>6} {'bytes':>9} {'median (best)':>15} "
        f"{'median':>6}"
    )
    for name, scene_board, scene_state, overlay, scene_options in _scenes(options):
        _scene_row(name, scene_board, scene_state, overlay, scene_options, args.repeat)
    print()
    _cached(args.repeat)


def _scene_row(
    name: str,
    board: engine.MapData,
    state: engine.GameState,
    overlay: render.Overlay,
    options: render.RenderOptions,
    repeat: int,
) -> None:
    geometry = render.load_geometry(board.map_id)
    svg = render.render_svg(board, geometry, state, overlay, options)
    svg_med, svg_best, svg_cpu = _ms(
        lambda: render.render_svg(board, geometry, state, overlay, options), repeat
    )
    png = render.svg_to_png(svg)
    png_med, png_best, png_cpu = _ms(lambda: render.svg_to_png(svg), max(3, repeat // 3))
    print(
        f"{name:<28} {len(svg):>9} {svg_med:>7.1f} ({svg_best:4.1f}) {svg_cpu:>6.1f} {len(png):>9} "
        f"{png_med:>7.1f} ({png_best:5.1f}) {png_cpu:>6.1f}"
    )


def _cached(repeat: int) -> None:
    from functions.usecases.games import CreateGame, create_game
    from functions.usecases.maps import MapRequest, map_picture
    from functions.usecases.players import ANONYMOUS
    from testkit.fakes import FakeClock, InMemoryGameStore

    store, clock = InMemoryGameStore(), FakeClock()
    game_id = create_game(store, clock, CreateGame(variant="classical")).game_id
    print(f"{'cached API answer (map_picture)':<40} {'median ms':>10} {'best ms':>8} {'cpu ms':>7}")
    for fmt in ("svg", "png"):
        request = MapRequest("board", fmt, WIDTH, "standard")
        etag = map_picture(store, game_id, ANONYMOUS, request).etag
        med, best, cpu = _ms(lambda: map_picture(store, game_id, ANONYMOUS, request), repeat)  # noqa: B023
        print(f"{fmt + ' from the picture cache':<40} {med:>10.2f} {best:>8.2f} {cpu:>7.2f}")
        med, best, cpu = _ms(
            lambda: map_picture(store, game_id, ANONYMOUS, request, if_none_match=etag),  # noqa: B023
            repeat,
        )
        print(f"{fmt + ' 304 (If-None-Match)':<40} {med:>10.2f} {best:>8.2f} {cpu:>7.2f}")


if __name__ == "__main__":
    main()
