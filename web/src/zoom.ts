/**
 * The board's zoom and pan, as pure arithmetic (tested in zoom.test.ts; MapView applies it).
 *
 * The map is first fitted whole into its viewport (W x H CSS px): that is the *content*, cw x ch
 * px, a scale of 1. A view {s, x, y} shows content point q at screen point (x + s*q.x, y + s*q.y)
 * (a CSS `translate(x, y) scale(s)` with origin 0 0). Every zoom keeps a chosen screen point over
 * the same content point: the fingers' midpoint for a pinch, the tapped point for a double tap,
 * the viewport's centre for the + and − buttons — never the top-left corner. The content is
 * kept covering the viewport (centred along an axis where it is smaller).
 */

export interface Point { x: number; y: number }
export interface Size { w: number; h: number }
export interface View { s: number; x: number; y: number }
export interface Rect { x: number; y: number; w: number; h: number }

/** The frame a view lives in: the viewport, the fitted content and the largest zoom. */
export interface Frame { viewport: Size; content: Size; maxScale: number }

export const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/** The size of ``natural`` scaled to fit ``box`` whole (contain). */
export function fitSize(natural: Size, box: Size): Size {
  if (natural.w <= 0 || natural.h <= 0) return { w: box.w, h: box.h };
  const k = Math.min(box.w / natural.w, box.h / natural.h);
  return { w: natural.w * k, h: natural.h * k };
}

function axis(offset: number, scaled: number, room: number): number {
  if (scaled <= room) return (room - scaled) / 2;
  return clamp(offset, room - scaled, 0);
}

/** The view with its scale within [1, max] and the content covering the viewport. */
export function settle(view: View, f: Frame): View {
  const s = clamp(view.s, 1, f.maxScale);
  return {
    s,
    x: axis(view.x, s * f.content.w, f.viewport.w),
    y: axis(view.y, s * f.content.h, f.viewport.h),
  };
}

/** The whole map, centred. */
export const fitView = (f: Frame): View => settle({ s: 1, x: 0, y: 0 }, f);

/**
 * The same view in a new frame (the window or the page around the board changed size): the
 * content point at the viewport's centre stays at its centre and the zoom stays, so a board the
 * player framed does not jump when a banner or a panel appears.
 */
export function reframe(v: View, old: Frame, next: Frame): View {
  if (!old.content.w || !old.content.h || !next.content.w) return settle(v, next);
  const c = contentAt(v, { x: old.viewport.w / 2, y: old.viewport.h / 2 });
  const k = next.content.w / old.content.w;
  return settle({ s: v.s, x: next.viewport.w / 2 - v.s * c.x * k, y: next.viewport.h / 2 - v.s * c.y * k }, next);
}

/** The content point under screen point ``p``. */
export const contentAt = (v: View, p: Point): Point => ({ x: (p.x - v.x) / v.s, y: (p.y - v.y) / v.s });

/** Where content point ``q`` shows on the screen. */
export const screenOf = (v: View, q: Point): Point => ({ x: v.x + v.s * q.x, y: v.y + v.s * q.y });

/** Scale by ``factor`` keeping the content under ``p`` under ``p``. */
export function zoomAbout(v: View, factor: number, p: Point, f: Frame): View {
  const s = clamp(v.s * factor, 1, f.maxScale);
  const q = contentAt(v, p);
  return settle({ s, x: p.x - q.x * s, y: p.y - q.y * s }, f);
}

/** The + and − buttons: about the viewport's centre. */
export const zoomCentre = (v: View, factor: number, f: Frame): View =>
  zoomAbout(v, factor, { x: f.viewport.w / 2, y: f.viewport.h / 2 }, f);

export const mid = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
export const dist = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * A two-finger gesture from (a0, b0) at ``start`` to (a1, b1): the scale follows the fingers'
 * spread and the content point that was under their midpoint stays under their midpoint (so a
 * pinch also pans, as the fingers move together).
 */
export function pinch(start: View, a0: Point, b0: Point, a1: Point, b1: Point, f: Frame): View {
  const d0 = dist(a0, b0);
  const ratio = d0 > 0 ? dist(a1, b1) / d0 : 1;
  const s = clamp(start.s * ratio, 1, f.maxScale);
  const q = contentAt(start, mid(a0, b0));
  const m1 = mid(a1, b1);
  return settle({ s, x: m1.x - q.x * s, y: m1.y - q.y * s }, f);
}

/** A one-finger drag by (dx, dy) from ``start``. */
export const pan = (start: View, dx: number, dy: number, f: Frame): View =>
  settle({ s: start.s, x: start.x + dx, y: start.y + dy }, f);

/** A double tap at ``p``: twice as close about it, or back to the whole map from the top zoom. */
export function doubleTap(v: View, p: Point, f: Frame): View {
  return v.s >= f.maxScale - 1e-6 ? fitView(f) : zoomAbout(v, 2, p, f);
}

/** The view that shows content rectangle ``r`` as large as fits, with ``pad`` px around it. */
export function frameRect(r: Rect, f: Frame, pad = 24): View {
  const s = clamp(Math.min((f.viewport.w - 2 * pad) / Math.max(r.w, 1), (f.viewport.h - 2 * pad) / Math.max(r.h, 1)), 1, f.maxScale);
  return centreOn({ x: r.x + r.w / 2, y: r.y + r.h / 2 }, s, f);
}

/** Content point ``q`` in the viewport's centre at scale ``s`` (as far as the edges allow). */
export function centreOn(q: Point, s: number, f: Frame): View {
  return settle({ s, x: f.viewport.w / 2 - q.x * s, y: f.viewport.h / 2 - q.y * s }, f);
}

/** The smallest content rectangle holding every point. */
export function bounds(points: Point[]): Rect {
  const xs = points.map((p) => p.x), ys = points.map((p) => p.y);
  const x = Math.min(...xs), y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}

/**
 * The least scale at which square hit areas of ``side`` px centred on ``points`` (content
 * coordinates) do not overlap: two squares are apart when their centres are ``side`` apart
 * along x or along y. 1 when nothing overlaps at any scale (fewer than two points).
 */
export function separatingScale(points: Point[], side: number): number {
  let need = 1;
  for (let i = 0; i < points.length; i += 1) {
    for (let j = i + 1; j < points.length; j += 1) {
      const apart = Math.max(Math.abs(points[i].x - points[j].x), Math.abs(points[i].y - points[j].y));
      need = Math.max(need, apart > 0 ? side / apart : Infinity);
    }
  }
  return need;
}

/** Whether every point shows at least ``margin`` px inside the viewport under view ``v``. */
export function allInView(v: View, points: Point[], margin: number, f: Frame): boolean {
  return points.every((q) => {
    const p = screenOf(v, q);
    return p.x >= margin && p.y >= margin && p.x <= f.viewport.w - margin && p.y <= f.viewport.h - margin;
  });
}

/**
 * After a unit is selected: a view in which every one of ``points`` (the unit and its targets,
 * content coordinates) gets a hit area of ``side`` px that no other covers, and — when that
 * zoom allows — all of them are in view. Keeps ``v`` when it already does both; otherwise
 * zooms as little as possible away from ``v``'s scale, about the points' centre.
 */
export function separate(v: View, points: Point[], side: number, f: Frame): View {
  if (points.length === 0) return v;
  const need = Math.min(separatingScale(points, side), f.maxScale);
  if (need <= v.s + 1e-6 && allInView(v, points, side / 2, f)) return v;
  const box = bounds(points);
  const fits = Math.min((f.viewport.w - side) / Math.max(box.w, 1), (f.viewport.h - side) / Math.max(box.h, 1));
  const s = need <= fits ? clamp(v.s, need, fits) : need;
  return centreOn({ x: box.x + box.w / 2, y: box.y + box.h / 2 }, s, f);
}

/**
 * How much larger than drawn the unit glyphs and order strokes must be to stay visible at
 * ``pxPerUnit`` screen px per SVG unit: a unit glyph (22 units across) at least 16 px, an
 * order's line (2.8 units) at least 2.5 px; never smaller than drawn, and at most 2.5 times.
 */
export function markScale(pxPerUnit: number): { units: number; orders: number } {
  if (!(pxPerUnit > 0)) return { units: 1, orders: 1 };
  const round = (k: number) => Math.round(clamp(k, 1, 2.5) * 10) / 10;
  return { units: round(16 / (22 * pxPerUnit)), orders: round(2.5 / (2.8 * pxPerUnit)) };
}
