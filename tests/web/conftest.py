"""Browser tests of the web client (issue 16): Debian's headless Chromium driven by Playwright.

Playwright (PyPI) never downloads a browser here: it launches ``/usr/bin/chromium`` (Debian's
``chromium`` package; ``.ci/run`` installs it) with the flags this machine needs. The client must
have been built (``make web``; ``make test`` does it) so the local stack serves it at ``/``.
Without the browser or the build the tests are skipped with the reason said plainly — and in CI
(``CI`` set) they fail instead, so a missing browser can never pass unnoticed.

Screenshots of every step go to ``test-artifacts/web/`` (kept by CI as artefacts; a few are
copied by hand to docs/img/).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from local_stack.stack import LocalStack
from local_stack.web_static import DEFAULT_BUILD

CHROMIUM = Path(os.environ.get("CONVOY_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
OPERATOR_TOKEN = "operator-secret-for-tests-0123456789"  # >= 32 characters (infra/secrets.py)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _missing() -> str | None:
    if not CHROMIUM.exists():
        return (f"browser tests skipped: {CHROMIUM} is not installed "
                "(apt-get install chromium chromium-driver)")
    if not (DEFAULT_BUILD / "index.html").exists():
        return "browser tests skipped: the web client is not built (make web)"
    if not (DEFAULT_BUILD.parent / "node_modules" / "axe-core" / "axe.min.js").exists():
        return "browser tests skipped: axe-core is not installed (make web runs npm ci)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "browser tests skipped: playwright is not installed (pip install -e '.[dev]')"
    return None


@pytest.fixture(scope="session")
def web_stack() -> Iterator[LocalStack]:
    reason = _missing()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(reason.replace("skipped", "cannot run in CI"))
        pytest.skip(reason)
    os.environ["CONVOY_OPERATOR_TOKEN"] = OPERATOR_TOKEN
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    running = LocalStack(port=0, pump_interval=0.5).start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser(web_stack: LocalStack) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    # Playwright starts every launch on a fresh, empty profile directory of its own (the
    # --user-data-dir the machine notes ask for), and removes it on close.
    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture()
def shots(request: pytest.FixtureRequest) -> Path:
    folder: Path = ARTIFACTS / request.node.name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder
