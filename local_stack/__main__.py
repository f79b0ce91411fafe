"""``python -m local_stack`` (``make run``): the whole of Convoy on one laptop, until Ctrl-C.

State lives in a data directory (``.convoy-data/`` in the repository unless
``CONVOY_DATA_DIR`` or ``--data-dir`` says otherwise); ``--fresh`` (``make run
FRESH=1``) starts empty. Ctrl-C or SIGTERM stops cleanly (a final snapshot).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path
from types import FrameType

from local_stack.durable import DurableState
from local_stack.emulator import Emulator
from local_stack.stack import LocalStack

DEFAULT_DATA_DIR = Path(__file__).resolve().parents[1] / ".convoy-data"


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m local_stack", description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("CONVOY_PORT", "8000")))
    parser.add_argument("--data-dir", type=Path,
                        default=Path(os.environ.get("CONVOY_DATA_DIR") or DEFAULT_DATA_DIR))
    parser.add_argument("--fresh", action="store_true", default=os.environ.get("FRESH", "") not in ("", "0"),
                        help="delete the data directory's contents and start empty")
    parser.add_argument("--workers", type=int, default=int(os.environ.get("CONVOY_API_WORKERS", "2")),
                        help="API worker processes (Lambda containers); 0 = in this process")
    return parser.parse_args(argv)


STOP_POLL_SECONDS = 0.5


class StopRequest:
    """Whether SIGTERM or SIGINT asked the stack to stop: a flag the signal handler sets and
    nothing else.

    Why no ``threading.Event`` (issue 28 item 9: a SIGTERM hung ``make run`` one time in
    three, and the API then answered ``WORKER_FAILED`` until kill -9): Python runs a signal
    handler in the main thread between two bytecodes, wherever that thread is, so also
    inside ``Event.wait`` or inside an earlier handler's ``Event.set``, while the event's
    lock is held. ``Event.set`` takes that (non-reentrant) lock again, and the main thread
    waits for itself forever. A second signal arriving during the first handler did that
    every time. The handler here takes no lock and calls nothing: it stores ``True``.

    ``wait`` polls the flag in short sleeps. The kernel may deliver the signal to any of the
    stack's threads; Python runs the handler only when the main thread runs bytecode again,
    so a main thread asleep in one long wait would miss it for that long (the soak benchmark
    saw a stop ignored for minutes); ``time.sleep`` wakes at least every half second.
    """

    def __init__(self) -> None:
        self.requested = False

    def on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.requested = True  # no lock, no call: safe wherever the main thread was

    def install(self) -> None:
        signal.signal(signal.SIGTERM, self.on_signal)
        signal.signal(signal.SIGINT, self.on_signal)

    def wait(self) -> None:
        """Return once a stop was requested."""
        while not self.requested:
            time.sleep(STOP_POLL_SECONDS)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    stopping = StopRequest()
    stopping.install()
    durable = DurableState(args.data_dir, fresh=args.fresh)
    stack = LocalStack(port=args.port, api_workers=args.workers, emulator=Emulator(durable=durable))
    stack.start()
    print(f"Convoy is running on {stack.url}  (AWS emulator at {stack.emulator.endpoint}; Ctrl-C stops)")
    print(f"Data directory: {args.data_dir}  ({durable.replayed} journal records replayed)")
    json_header = "-H 'content-type: application/json'"
    print(f"  curl -s -X POST {stack.url}/games {json_header} -d '{{\"variant\": \"classical\"}}'")
    print(f"  curl -s -X POST {stack.url}/games/<game_id>/join {json_header} -d '{{\"power\": \"FRANCE\"}}'")
    print("API docs: GET /openapi.json, docs/api.md; README says what survives a restart.", flush=True)
    try:
        stopping.wait()
    finally:
        print("stopping (writing a snapshot)", file=sys.stderr, flush=True)
        stack.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
