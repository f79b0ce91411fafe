"""``python -m daide_bridge --api http://127.0.0.1:8000 --game GAME_ID [--game ...]``.

Serves DAIDE bots on ``--host``/``--port`` (default 127.0.0.1:16713, the port DAIDE
servers customarily use) until interrupted; each bot gets a free seat of the first listed
game that has one, one seat per peer address unless ``--seats-per-host`` allows more.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging

from daide_bridge.rest import Convoy
from daide_bridge.server import Bridge


def _arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m daide_bridge", description=__doc__)
    parser.add_argument("--api", required=True, help="Convoy's base URL, e.g. http://127.0.0.1:8000")
    parser.add_argument("--game", action="append", required=True, help="a game id (repeat for several)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=16713)
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between polls of each game")
    parser.add_argument(
        "--seats-per-host", type=int, default=1, metavar="N",
        help="seats one peer address may hold (default 1: raise it to run several bots from one machine)",
    )
    return parser.parse_args(argv)


async def _serve(args: argparse.Namespace) -> None:
    bridge = Bridge(
        Convoy(args.api), list(args.game), poll_seconds=args.poll, seats_per_host=args.seats_per_host
    )
    port = await bridge.start(args.host, args.port)
    logging.getLogger("daide_bridge").info(
        "DAIDE bridge on %s:%d for %s", args.host, port, ", ".join(args.game)
    )
    try:
        await asyncio.Event().wait()
    finally:
        await bridge.stop()


def main(argv: list[str] | None = None) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how an operator stops it
        asyncio.run(_serve(_arguments(argv)))


if __name__ == "__main__":
    main()
