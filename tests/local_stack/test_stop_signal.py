"""SIGTERM always stops ``make run`` (issue 9 item 3: "stop it (Ctrl-C or SIGTERM) and start it
again"; issue 28 item 9: a SIGTERM hung it one time in three).

Two ways it used to fail:
- the kernel handed the signal to another thread while the main thread slept in one long
  wait, and Python runs a handler only when the main thread runs bytecode again (issue 9);
- the handler called ``Event.set()``, which takes the event's lock, and Python may run a
  handler while the main thread holds that very lock: inside ``Event.wait``, or inside the
  ``Event.set()`` of a first handler when a second signal arrives. The main thread then
  waited for itself forever (issue 28). The handler now only stores a flag.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from local_stack.__main__ import StopRequest
from local_stack.emulator import free_port

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent(
    """
    import signal, threading, time
    from local_stack.__main__ import StopRequest

    stopping = StopRequest()
    stopping.install()
    threading.Thread(target=time.sleep, args=(60,), daemon=True).start()  # SIGTERM unblocked here
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})  # ... and blocked in the main thread
    print("ready", flush=True)
    stopping.wait()
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


def test_the_handler_takes_no_lock_so_it_cannot_wait_for_its_own_thread() -> None:
    """Where a handler may run: while this very thread holds a lock the stop machinery uses.
    ``on_signal`` must return at once whatever is held (it takes nothing)."""
    stopping = StopRequest()
    done = threading.Event()

    def handler_inside_a_held_region() -> None:
        held = threading.Lock()
        with held:  # e.g. Event.wait's condition, or an earlier handler's Event.set
            stopping.on_signal(signal.SIGTERM, None)
            stopping.on_signal(signal.SIGTERM, None)  # a second signal during the first
        done.set()

    worker = threading.Thread(target=handler_inside_a_held_region, daemon=True)
    worker.start()
    worker.join(timeout=5)
    assert done.is_set() and stopping.requested
    stopping.wait()  # returns at once


RACING_MAIN = textwrap.dedent(
    """
    import os, signal, sys, threading, time
    import local_stack.__main__ as main_module

    class Stack:  # the stop path only: no emulator, no server
        url = "http://stand-in"
        def __init__(self, **_): self.emulator = type("E", (), {"endpoint": "e"})()
        def start(self): return self
        def stop(self): print("stopped", flush=True)

    class Durable:
        replayed = 0
        def __init__(self, *_, **__): pass

    main_module.LocalStack, main_module.DurableState = Stack, Durable
    main_module.Emulator = lambda **_: None

    class RacingEvent(threading.Event):
        # The signal lands while the waiting thread holds the event's lock: Python runs the
        # handler at the next bytecode (the loop below), the lock still held.
        def wait(self, timeout=None):
            with self._cond:
                os.kill(os.getpid(), signal.SIGTERM)
                for _ in range(100_000):
                    pass
            return super().wait(timeout)

    def later():  # and a plain SIGTERM a second later, for a main() that waits on no event
        time.sleep(1.0)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=later, daemon=True).start()
    threading.Event = RacingEvent
    sys.exit(main_module.main(["--data-dir", sys.argv[1]]))
    """
)


def test_main_stops_when_the_signal_lands_while_a_stop_lock_is_held(tmp_path: Path) -> None:
    """``main`` itself, its stack stood in for: a SIGTERM handled while the main thread holds
    the lock of whatever it waits on must still stop it (the old handler's ``Event.set()``
    waited for that lock, held by its own thread, forever)."""
    child = subprocess.Popen([sys.executable, "-c", RACING_MAIN, str(tmp_path)], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        out, _ = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        pytest.fail("main() hung: the signal handler waited for a lock its own thread held")
    assert child.returncode == 0 and out.strip().endswith("stopped")


def _serve(data_dir: Path, port: int) -> subprocess.Popen[str]:
    env = {**os.environ, "POWERTOOLS_LOG_LEVEL": "ERROR", "CONVOY_PORT": str(port)}
    command = [sys.executable, "-m", "local_stack", "--data-dir", str(data_dir), "--workers", "1", "--fresh"]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, start_new_session=True)  # its own process group, like make's
    assert server.stdout is not None
    give_up = time.monotonic() + 120
    while time.monotonic() < give_up:
        line = server.stdout.readline()
        if line.startswith("Convoy is running") or not line:
            break
    assert server.poll() is None, "the stack did not start"
    return server


@pytest.mark.parametrize("to_group", [False, True], ids=["server", "process-group"])
def test_sigterm_bursts_to_make_run_stop_it_every_time(tmp_path: Path, to_group: bool) -> None:
    """``python -m local_stack`` (what ``make run`` starts), started and stopped again and
    again, each time by a burst of signals: SIGTERM, then SIGTERM and SIGINT again while the
    first is being handled (a second Ctrl-C, systemd's and make's repeats). Before the fix a
    burst made the main thread wait for itself in ``Event.set``."""
    port = free_port()
    for round_ in range(4):
        server = _serve(tmp_path / "data", port)
        try:
            for signum in (signal.SIGTERM, signal.SIGTERM, signal.SIGINT, signal.SIGTERM):
                if to_group:
                    os.killpg(server.pid, signum)
                else:
                    server.send_signal(signum)
                time.sleep(0.002)
            assert server.wait(timeout=60) == 0, f"round {round_}: exit status {server.returncode}"
        finally:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
                pytest.fail(f"round {round_}: the stack hung after the signals")
