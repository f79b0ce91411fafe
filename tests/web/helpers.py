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
