"""The client works under its own Content-Security-Policy (issue 27): a real browser loads it
from the local stack, which sends template.yaml's WebSecurityHeaders as CloudFront does, and
nothing the client does on its screens is refused by the policy.

A CSP that breaks the client is worse than none: this is the test that says it does not.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from local_stack.security_headers import security_headers, with_live_origin
from local_stack.stack import LocalStack
from tests.web.helpers import click_province, shot

pytestmark = pytest.mark.system

# Registered before any page script runs (Playwright injects it outside the page's CSP).
_RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(
  e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + e.sourceFile + ':' + e.lineNumber));
"""


def test_the_client_loads_draws_the_board_and_orders_with_no_csp_violation(
    browser: Any, web_stack: LocalStack, shots: Path
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(_RECORD_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(20_000)
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)

    response = page.goto(web_stack.url + "/")
    assert response is not None
    # template.yaml's headers, with the one local difference: the live socket's own port in
    # connect-src (on AWS it is on the same origin; local_stack/security_headers.py)
    expected = with_live_origin(security_headers(), os.environ["LIVE_URL"])
    assert "ws://127.0.0.1:" in expected["Content-Security-Policy"]
    sent = {k: v for k, v in response.headers.items() if k in {h.lower() for h in expected}}
    assert sent == {k.lower(): v for k, v in expected.items()}

    # the lobby, the settings and a demo game's board (inline SVG, styled and zoomed by script)
    page.get_by_role("link", name="New game").click()
    page.get_by_label("Demo game").check()
    page.get_by_label("My power").select_option("FRANCE")
    page.get_by_test_id("create-game").click()
    page.get_by_text("You play France").wait_for()
    page.get_by_test_id("live").wait_for()  # the live socket opened under the policy (issue 33)
    click_province(page, "PAR")
    page.wait_for_selector("#p-PAR.selected")
    before = page.get_by_test_id("map").evaluate("el => el.style.transform")
    page.get_by_role("button", name="Zoom in").click()
    transform = page.get_by_test_id("map").evaluate("el => el.style.transform")
    # React's style prop still applies under style-src 'self'
    assert transform != before and "scale(" in transform
    shot(page, shots, "board-under-csp")

    assert page.evaluate("window.__csp") == [] and refused == []
    context.close()
