"""``python -m local_stack`` in a subprocess, as ``make run`` starts it: for tests that stop it,
kill it, restart it on the same data directory, or need its API worker processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import requests

from local_stack.emulator import free_port

ROOT = Path(__file__).resolve().parents[2]
OPERATOR_TOKEN = "operator-secret-for-tests-0123456789"  # >= 32 characters (infra/secrets.py)


class ServerProcess:
    def __init__(self, data_dir: Path, port: int | None = None, workers: int = 2) -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        self.workers = workers
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 120.0) -> ServerProcess:
        env = {**os.environ, "CONVOY_OPERATOR_TOKEN": OPERATOR_TOKEN, "POWERTOOLS_LOG_LEVEL": "ERROR"}
        env.pop("AWS_ENDPOINT_URL", None)  # the child starts its own emulator
        self.process = subprocess.Popen(
            [sys.executable, "-m", "local_stack", "--port", str(self.port), "--data-dir", str(self.data_dir),
             "--workers", str(self.workers)],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        give_up = time.monotonic() + timeout
        while time.monotonic() < give_up:
            if self.process.poll() is not None:
                stderr = self.process.stderr
                assert stderr is not None  # opened with stderr=PIPE above
                raise AssertionError(f"server exited: {stderr.read().decode()[-2000:]}")
            try:
                if requests.get(self.url + "/variants", timeout=10).status_code == 200:
                    return self
            except requests.RequestException:
                time.sleep(0.2)
        self.kill()
        raise AssertionError("server did not come up")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 120.0) -> int:
        assert self.process is not None
        self.process.send_signal(sig)
        code = self.process.wait(timeout=timeout)
        if self.process.stderr is not None:
            self.process.stderr.close()
        self.process = None
        return code

    def kill(self) -> None:
        if self.process is not None:
            self.stop(signal.SIGKILL)
