"""Steps a player takes in the client, written once for the browser tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

# A point inside the province's own shape (not just its bounding box, which may lie over a
# neighbour), in page coordinates: the mouse then clicks where a player would.
_POINT_IN = """(id) => {
  const path = document.querySelector('#p-' + id);
  const svg = path.ownerSVGElement, box = path.getBBox();
  const pt = svg.createSVGPoint();
  let best = null;
  for (let i = 1; i < 12; i++) for (let j = 1; j < 12; j++) {
    pt.x = box.x + box.width * i / 12; pt.y = box.y + box.height * j / 12;
    if (!path.isPointInFill(pt)) continue;
    const d = Math.hypot(i - 6, j - 6);
    if (!best || d < best.d) best = { d, x: pt.x, y: pt.y };
  }
  pt.x = best.x; pt.y = best.y;
  const s = pt.matrixTransform(path.getScreenCTM());
  return { x: s.x, y: s.y };
}"""


def click_province(page: Any, province: str) -> None:
    page.wait_for_selector(f"#p-{province}")
    point = page.evaluate(_POINT_IN, province)
    page.mouse.click(point["x"], point["y"])


def shot(page: Any, folder: Path, name: str) -> None:
    page.mouse.move(1, 1)  # no hover highlight left on the last province clicked
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


# --- issue 32: touch gestures, the keyboard, axe-core ------------------------------------------

AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"
_AXE_RUN = """async () => {
  const r = await axe.run(document, { resultTypes: ['violations'] });
  return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ')) }));
}"""


def axe_serious(page: Any) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it stands (the engine is the
    npm package pinned in web/package-lock.json, injected; the context needs bypass_csp)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(_AXE_RUN)
    return [v for v in found if v["impact"] in ("serious", "critical")]


def label_centre(page: Any, province: str) -> dict[str, float]:
    """Where a province's name label shows on the screen now (zoom and pan included)."""
    box = page.evaluate(
        """(id) => { for (const t of document.querySelectorAll('#labels text')) {
             if (t.textContent.trim() === id) { const r = t.getBoundingClientRect();
               return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height }; } }
           return null; }""",
        province,
    )
    assert box is not None, f"no label for {province}"
    return dict(box)


def pinch(page: Any, x: float, y: float, start_gap: float, end_gap: float, steps: int = 10) -> None:
    """Two fingers on either side of (x, y), moving apart from ``start_gap`` to ``end_gap`` px
    (Chromium's own touch input, through the DevTools protocol: real touch and pointer events)."""
    cdp = page.context.new_cdp_session(page)

    def fingers(gap: float) -> list[dict[str, float]]:
        return [{"x": x - gap / 2, "y": y, "id": 1}, {"x": x + gap / 2, "y": y, "id": 2}]

    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": fingers(start_gap)})
    for i in range(1, steps + 1):
        gap = start_gap + (end_gap - start_gap) * i / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": fingers(gap)})
        page.wait_for_timeout(16)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def tab_to(page: Any, test: str, limit: int = 80) -> None:
    """Press Tab until the focused element passes ``test`` (a JS predicate on it): the keyboard
    alone reaches it, or the test fails."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"(() => {{ const el = document.activeElement; return !!el && ({test}); }})()"):
            return
    raise AssertionError(f"Tab never reached an element where {test}")


# A tap acts on a target when it lands on the target's hit area or on its province's own shape
# (labels and units let taps through). A 44 x 44 square of the screen is the target's when its
# centre and corners all land there: first the hit area's square, else a square found inside the
# province's visible shape (a sea wider than the screen, say).
_TARGET_AREA = """(p) => {
  const hit = document.querySelector('[data-testid="hit-' + p + '"]');
  const path = document.getElementById('p-' + p), h = 21.5;
  const vp = document.querySelector('.map-viewport').getBoundingClientRect();
  const mine = (x, y) => {
    const e = document.elementFromPoint(x, y);
    return !!e && (e === hit || e === path);
  };
  const corners = [[0, 0], [-h, -h], [h, -h], [-h, h], [h, h]];
  const square = (x, y) => corners.every(([dx, dy]) => mine(x + dx, y + dy));
  if (hit) {
    const r = hit.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (r.width >= 44 && r.height >= 44 && square(x, y)) return { x, y, via: 'hit area' };
  }
  for (let y = vp.top + h; y <= vp.bottom - h; y += 6)
    for (let x = vp.left + h; x <= vp.right - h; x += 6) if (square(x, y)) return { x, y, via: 'province' };
  return null;
}"""


def target_areas(page: Any) -> dict[str, dict[str, Any] | None]:
    """For each province a tap acts on now: a 44 x 44 square that is all its own (where to tap),
    or None. Read after two frames, once the board has zoomed to the selection."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    provinces = [h.get_attribute("data-province") for h in page.locator(".hits .hit").all()]
    return {p: page.evaluate(_TARGET_AREA, p) for p in provinces}


def nav(page: Any, name: str) -> None:
    """Follow a main link of the header; on a phone it sits behind the "Menu" button."""
    menu = page.get_by_role("button", name="Menu")
    if menu.is_visible() and menu.get_attribute("aria-expanded") != "true":
        menu.click()
    page.get_by_role("navigation", name="Main").get_by_role("link", name=name, exact=True).click()


def board_still(page: Any) -> None:
    """Wait until the board's transform stops changing: a thumb aims at what it sees, and after
    an order the board goes back to where the player had it, a render or two later on a busy
    machine."""
    transform = "() => document.querySelector('[data-testid=map]').style.transform"
    seen = page.evaluate(transform)
    for _ in range(50):
        page.wait_for_timeout(100)
        now = page.evaluate(transform)
        if now == seen:
            return
        seen = now
    raise AssertionError(f"the board never came to rest: {seen}")
