"""SIGTERM stops ``make run`` even when the kernel hands it to another thread (issue 9 item 3:
"stop it (Ctrl-C or SIGTERM) and start it again").

The main thread blocks SIGTERM, so the kernel must deliver it to the helper thread; Python
runs the handler in the main thread only once that thread runs bytecode again. With one long
wait (the old ``stopping.wait(3600)``) the process ignored the signal for the whole wait.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent(
    """
    import signal, threading, time
    from local_stack.__main__ import wait_until

    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda signum, frame: stopping.set())
    threading.Thread(target=time.sleep, args=(60,), daemon=True).start()  # SIGTERM unblocked here
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})  # ... and blocked in the main thread
    print("ready", flush=True)
    wait_until(stopping)
    print("stopped", flush=True)
    """
)


def test_a_sigterm_delivered_to_another_thread_still_stops_the_stack() -> None:
    child = subprocess.Popen([sys.executable, "-c", CHILD], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.2)
        child.send_signal(signal.SIGTERM)
        out, _ = child.communicate(timeout=20)
        assert out.strip() == "stopped"
        assert child.returncode == 0
    finally:
        child.kill()
