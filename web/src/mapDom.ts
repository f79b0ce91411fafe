/**
 * What MapView reads from and writes to the API's inlined SVG board (render/svg.py draws it in
 * named layers: `#p-<ID>` province paths, `#labels`, `#units` with `g.unit` glyphs, `#orders`
 * with one `g[data-order]` per order, `#strengths`).
 * Kept apart from the component so the gesture code reads as gestures.
 */
import type { Point, Rect, Size } from "./zoom";

/** The SVG's own pixel size (its width/height attributes) and its viewBox width, from its text. */
export function svgSize(text: string): { natural: Size; viewBoxWidth: number } | null {
  const head = /<svg[^>]*>/.exec(text)?.[0] ?? "";
  const w = Number(/\swidth="([\d.]+)"/.exec(head)?.[1]);
  const h = Number(/\sheight="([\d.]+)"/.exec(head)?.[1]);
  const box = /viewBox="[\d.-]+ [\d.-]+ ([\d.]+) [\d.]+"/.exec(head)?.[1];
  if (!(w > 0 && h > 0)) return null;
  return { natural: { w, h }, viewBoxWidth: Number(box) || w };
}

/** The sea's colour (the SVG's background rectangle), to fill the board's margins with. */
export const seaColour = (text: string): string | undefined => /<rect width="[\d.]+" height="[\d.]+" fill="(#[0-9a-fA-F]{3,8})"/.exec(text)?.[1];

/**
 * The point of a province's shape farthest inside it (near enough: on a 12 x 12 grid over its
 * box, the inside point farthest from any outside one), in the path's own units. Hit areas
 * centred there sit as far from the neighbours' as the shapes allow, so a board needs less
 * zoom before they stop overlapping than with the name labels, which hug borders.
 */
export function innermost(path: SVGPathElement): { x: number; y: number } {
  const box = path.getBBox();
  const n = 12, inside: [number, number][] = [], outside: [number, number][] = [];
  const pt = path.ownerSVGElement!.createSVGPoint();
  for (let i = -1; i <= n + 1; i += 1) {
    for (let j = -1; j <= n + 1; j += 1) {
      pt.x = box.x + (box.width * (i + 0.5)) / (n + 1);
      pt.y = box.y + (box.height * (j + 0.5)) / (n + 1);
      (i >= 0 && j >= 0 && i <= n && j <= n && path.isPointInFill(pt) ? inside : outside).push([pt.x, pt.y]);
    }
  }
  let best = { x: box.x + box.width / 2, y: box.y + box.height / 2 }, bestGap = -1;
  for (const [x, y] of inside) {
    const gap = Math.min(...outside.map(([ox, oy]) => Math.hypot(ox - x, oy - y)));
    if (gap > bestGap) { bestGap = gap; best = { x, y }; }
  }
  return best;
}

/** Where each province is, in content px (the map at scale 1): its innermost point, its box. */
export interface Places { anchors: Map<string, Point>; boxes: Map<string, Rect> }

/**
 * Read every province's place. ``content`` is the transformed element, ``scale`` its current
 * scale; a path's on-screen box maps its own units to the screen (the board is only ever
 * translated and scaled).
 */
export function readPlaces(content: HTMLElement, scale: number): Places {
  const anchors = new Map<string, Point>(), boxes = new Map<string, Rect>();
  const origin = content.getBoundingClientRect();
  content.querySelectorAll<SVGPathElement>('path[id^="p-"]').forEach((path) => {
    const box = path.getBBox(), r = path.getBoundingClientRect();
    if (!box.width || !box.height) return;
    const at = innermost(path), id = path.id.slice(2);
    anchors.set(id, {
      x: (r.left + ((at.x - box.x) / box.width) * r.width - origin.left) / scale,
      y: (r.top + ((at.y - box.y) / box.height) * r.height - origin.top) / scale,
    });
    boxes.set(id, { x: (r.left - origin.left) / scale, y: (r.top - origin.top) / scale, w: r.width / scale, h: r.height / scale });
  });
  return { anchors, boxes };
}

/**
 * Draw unit glyphs ``units`` times and order strokes ``orders`` times their size, so they stay
 * visible on a small screen (zoom.markScale). The drawn values are kept in data attributes, so
 * this can run again with other factors.
 */
export function scaleMarks(root: HTMLElement, units: number, orders: number): void {
  root.querySelectorAll<SVGGElement>("g.unit").forEach((g) => {
    const drawn = g.dataset.transform ?? (g.dataset.transform = g.getAttribute("transform") ?? "");
    g.setAttribute("transform", units === 1 ? drawn : `${drawn} scale(${units})`);
  });
  root.querySelectorAll<SVGCircleElement>("#orders circle").forEach((c) => {
    if (c.closest("g.unit")) return; // rings around units (holds, builds) grow with the units
    const drawn = c.dataset.r ?? (c.dataset.r = c.getAttribute("r") ?? "0");
    c.setAttribute("r", String(Number(drawn) * units));
  });
  root.querySelectorAll<SVGElement>("#orders [stroke-width]").forEach((el) => {
    if (el.closest("g.unit")) return;
    const drawn = el.dataset.strokeWidth ?? (el.dataset.strokeWidth = el.getAttribute("stroke-width") ?? "1");
    el.setAttribute("stroke-width", String(Number(drawn) * orders));
  });
}

/** Mark the selected unit, the unit a support or convoy is for, and the targets on offer. */
export function markProvinces(root: HTMLElement, targets: Iterable<string>, selected?: string | null, via?: string | null): void {
  root.querySelectorAll("path.selected, path.target, path.via").forEach((p) => p.classList.remove("selected", "target", "via"));
  const find = (id: string) => root.querySelector(`#p-${CSS.escape(id)}`);
  for (const p of targets) find(p)?.classList.add("target");
  if (via) find(via)?.classList.add("via");
  if (selected) find(selected)?.classList.add("selected");
}

/**
 * Mark order drawings (render/svg.py: `g[data-order]`, the province of the ordered unit): the
 * one of ``chosen`` as chosen, and each in ``verdicts`` with its word (`data-verdict`: a
 * preview's predicted "ok" or "fail", drawn by styles.css over the server's own drawing).
 */
export function markOrders(root: HTMLElement, chosen: string | null | undefined, verdicts?: Record<string, string>): void {
  root.querySelectorAll<SVGGElement>("g[data-order]").forEach((g) => {
    const p = g.dataset.order ?? "";
    g.classList.toggle("chosen", !!chosen && p === chosen);
    const verdict = verdicts?.[p];
    if (verdict) g.dataset.verdict = verdict;
    else delete g.dataset.verdict;
  });
}
