import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { fetchSvg } from "../api";
import { markOrders, markProvinces, readPlaces, scaleMarks, seaColour, svgSize, type Places } from "../mapDom";
import { settings, useStore } from "../store";
import {
  bounds, centreOn, doubleTap, fitSize, fitView, frameRect, markScale, pan, pinch, reframe, screenOf,
  separate, separatingScale, settle, zoomAbout, zoomCentre, type Frame, type Point, type Size, type View,
} from "../zoom";

interface Props {
  /** The map route and its query, without palette (added here from the settings). */
  path: string;
  token?: string | null;
  /** Redraw when this changes (new orders, a new phase). */
  version?: string | number;
  label: string;
  /** A province was tapped, clicked or chosen with the keyboard. */
  onProvince?: (province: string) => void;
  /** Escape: drop the selection. */
  onCancel?: () => void;
  selected?: string | null;
  via?: string | null;
  /** The provinces a tap acts on now (the selected unit's targets, or my units to select). */
  highlight?: Set<string>;
  /** Words for a province's hit area ("Picardy (PIC): A PAR - PIC"). */
  describe?: (province: string) => string;
  /** Provinces of the player's units: "My units" frames them whole. */
  mine?: string[];
  /**
   * Results mode (a resolution, or a what-if preview): a tap explains an order instead of
   * giving one. ``highlight`` then names the provinces with an order to explain (hit areas,
   * no outlines), and a tap on an order's drawing (render/svg.py names it: `data-order`, the
   * province of its unit) counts as a tap on that province.
   */
  explaining?: boolean;
  /** The order being explained (its unit's province): its drawing stands out, the rest step back. */
  chosenOrder?: string | null;
  /** Words marked on order drawings by their unit's province (a preview's "ok" / "fail"). */
  verdicts?: Record<string, string>;
  /**
   * The explanation of the order tapped: over the bottom of the board where the board fills
   * the window's height (two columns; below it, it would be out of sight), right under the
   * board on a phone (over it, it would hide a third of a small board).
   */
  note?: React.ReactNode;
}

/** A hit area's side in CSS px: at least 44 x 44 (WCAG 2.5.5), at any zoom. */
export const HIT = 48;
const TAP_MS = 300;

/**
 * The API's own SVG board, inlined so its provinces (`<path id="p-PAR">`) can be tapped; the
 * layers above them (units, labels, orders) let taps through (styles.css). Zoom (zoom.ts) keeps
 * the point it is about still: a pinch its fingers, a double tap the tap, the buttons the
 * centre; "My units" frames the player's units. Every province a tap acts on gets a hit area of
 * HIT px (a button, so the keyboard reaches it too), and selecting a unit zooms in just enough
 * that its targets' hit areas do not overlap; unit glyphs and order arrows are drawn larger
 * when the board is small. The board is sized to fit the window's height, so nothing is cut off.
 */
export function MapView(props: Props) {
  const { path, token, version, label, onProvince, selected, via, highlight, mine, explaining, chosenOrder, verdicts } = props;
  useStore();
  const palette = settings().palette;
  const [svg, setSvg] = useState("");
  const [failed, setFailed] = useState("");
  const [viewport, setViewport] = useState<Size>({ w: 0, h: 0 });
  const [view, setView] = useState<View>({ s: 1, x: 0, y: 0 });
  const [places, setPlaces] = useState<Places>({ anchors: new Map(), boxes: new Map() });
  const anchors = places.anchors;
  const box = useRef<HTMLDivElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const restore = useRef<View | null>(null);

  const url = `${path}${path.includes("?") ? "&" : "?"}palette=${palette}&width=1000`;
  useEffect(() => {
    let live = true;
    fetchSvg(url, token).then((text) => { if (live) { setSvg(text); setFailed(""); } })
      .catch((e: Error) => { if (live) setFailed(e.message || "The map could not be loaded."); });
    return () => { live = false; };
  }, [url, token, version]);

  const size = useMemo(() => svgSize(svg), [svg]);
  const frame: Frame = useMemo(() => ({
    viewport, content: size ? fitSize(size.natural, viewport) : viewport, maxScale: 6,
  }), [viewport, size]);
  useFitToWindow(box, size?.natural ?? null, setViewport);
  const shown = useRef<Frame | null>(null); // the frame the view was last laid out in
  useEffect(() => {
    // A frame a layout passes through for a moment (the page re-flowing around the board can
    // squeeze it to a sliver) is not one to lay the view out in: clamped into it and back, the
    // view the player framed would be lost. Wait for a frame the board can be seen in.
    if (!usable(frame)) return;
    const old = shown.current;
    shown.current = frame;
    if (old && restore.current) restore.current = reframe(restore.current, old, frame);
    setView((v) => {
      const kept = old ? reframe(v, old, frame) : v;
      return restore.current ? kept : v.s === 1 ? fitView(frame) : kept;
    });
  }, [frame]);

  useLayoutEffect(() => {
    if (host.current && svg) setPlaces(readPlaces(host.current, view.s));
  }, [svg, frame]); // eslint-disable-line react-hooks/exhaustive-deps -- anchors are in scale-1 px

  const ppu = size && frame.content.w ? (frame.content.w / size.viewBoxWidth) * view.s : 1;
  const marks = markScale(ppu);
  useEffect(() => { if (host.current) scaleMarks(host.current, marks.units, marks.orders); }, [svg, marks.units, marks.orders]);
  useEffect(() => {
    if (!host.current) return;
    if (explaining) markProvinces(host.current, [], chosenOrder, null);
    else markProvinces(host.current, highlight ?? [], selected, via);
    markOrders(host.current, explaining ? chosenOrder : null, verdicts);
  }, [svg, selected, via, highlight, explaining, chosenOrder, verdicts]);

  const pressed = explaining ? chosenOrder : selected;
  const acting = useMemo(() => actionable(highlight, explaining ? null : selected), [highlight, selected, explaining]);
  const points = useMemo(() => acting.map((p) => anchors.get(p)).filter((p): p is Point => !!p), [acting, anchors]);
  const separated = separatingScale(points, HIT) <= view.s + 1e-6;

  // A unit selected: zoom in just enough to tell its targets apart; back where it was after.
  useEffect(() => {
    if (!selected) {
      const back = restore.current;
      restore.current = null;
      if (back) setView(settle(back, frame));
      return;
    }
    setView((v) => {
      const next = separate(v, points, HIT, frame);
      if (next !== v && !restore.current) restore.current = v;
      return next;
    });
  }, [selected, points]); // eslint-disable-line react-hooks/exhaustive-deps

  // Keyboard: when the hit area that had the focus goes (its order was entered), the focus
  // moves to the first one now on the board instead of falling back to the top of the page.
  const hits = useRef<HTMLDivElement>(null);
  const focusInside = useRef(false);
  useEffect(() => {
    if (focusInside.current && document.activeElement === document.body) hits.current?.querySelector("button")?.focus();
  }, [acting]);

  const userView = useCallback((next: View | ((v: View) => View)) => { restore.current = null; setView(next); }, []);
  const gestures = useGestures(view, frame, userView, (p) => onProvince?.(p));
  useWheelZoom(box, frame, userView);

  function frameMine() {
    const corners = (mine ?? []).flatMap((p) => {
      const b = places.boxes.get(p);
      return b ? [{ x: b.x, y: b.y }, { x: b.x + b.w, y: b.y + b.h }] : [];
    });
    if (corners.length) userView(frameRect(bounds(corners), frame, 12));
  }
  function reveal(p: string) {
    const at = anchors.get(p);
    if (!at) return;
    const s = screenOf(view, at);
    if (s.x < HIT / 2 || s.y < HIT / 2 || s.x > viewport.w - HIT / 2 || s.y > viewport.h - HIT / 2) setView(centreOn(at, view.s, frame));
  }

  return (
    <figure className="map-frame" aria-label={label}>
      <div className="map-stage">
      <div ref={box} className="map-viewport" style={{ height: viewport.h || undefined, background: seaColour(svg) }} {...gestures}
        onKeyDown={(e) => { if (e.key === "Escape") props.onCancel?.(); }}>
        {failed && <p className="error" role="alert">{failed}</p>}
        {!svg && !failed && <p className="muted">Loading the map…</p>}
        <div ref={host} data-testid="map"
          className={`map${onProvince ? " clickable" : ""}${explaining ? " explaining" : ""}${explaining && chosenOrder ? " has-chosen" : ""}`}
          style={{ width: frame.content.w || "100%", height: frame.content.h || undefined,
            transform: `translate(${view.x}px, ${view.y}px) scale(${view.s})`,
            ["--px" as string]: `${1 / ppu}px` }}
          dangerouslySetInnerHTML={{ __html: svg }} />
        {onProvince && acting.length > 0 && (
          <div className="hits" role="group" aria-label="On the board" ref={hits}
            onFocus={() => { focusInside.current = true; }}
            onBlur={(e) => { focusInside.current = e.relatedTarget === null; }}>
            {acting.map((p) => {
              const at = anchors.get(p);
              if (!at) return null;
              const place = hitPlace(screenOf(view, at), viewport);
              return (
                <button key={p} type="button" data-province={p} data-testid={`hit-${p}`}
                  className={`hit${p === pressed ? " is-selected" : ""}${separated && place.shown ? "" : " passive"}`}
                  style={{ left: place.left, top: place.top, width: HIT, height: HIT }}
                  aria-label={props.describe?.(p) ?? p} aria-pressed={p === pressed}
                  onFocus={(e) => { if (e.currentTarget.matches(":focus-visible")) reveal(p); }} />
              );
            })}
          </div>
        )}
      </div>
      {props.note && <div className="map-note">{props.note}</div>}
      </div>
      <div className="map-tools" role="group" aria-label="Zoom">
        <button type="button" onClick={() => userView((v) => zoomCentre(v, 1 / 1.5, frame))} aria-label="Zoom out">−</button>
        <button type="button" onClick={() => userView((v) => zoomCentre(v, 1.5, frame))} aria-label="Zoom in">+</button>
        <button type="button" onClick={() => userView(fitView(frame))}>Whole map</button>
        {mine && mine.length > 0 && <button type="button" onClick={frameMine} data-testid="my-units">My units</button>}
      </div>
    </figure>
  );
}

/**
 * Where a hit area goes for an anchor at screen point ``s``: centred on it, moved inside the
 * board when it would stick out of an edge (so all of it can be tapped); an anchor farther out
 * is not shown (its button stays for the keyboard, which brings it into view).
 */
function hitPlace(s: Point, viewport: Size): { left: number; top: number; shown: boolean } {
  const shown = s.x > -HIT / 4 && s.y > -HIT / 4 && s.x < viewport.w + HIT / 4 && s.y < viewport.h + HIT / 4;
  const inside = (v: number, room: number) => Math.min(Math.max(v - HIT / 2, 0), Math.max(0, room - HIT));
  return { left: inside(s.x, viewport.w), top: inside(s.y, viewport.h), shown };
}

/** The provinces with a hit area: the selected unit first (hold), then the targets, sorted. */
function actionable(highlight: Set<string> | undefined, selected: string | null | undefined): string[] {
  const rest = [...(highlight ?? [])].filter((p) => p !== selected).sort();
  return selected ? [selected, ...rest] : rest;
}

/**
 * Size the board's viewport: its container's width, and a height that fits the window below
 * the board's top (so a banner above it never pushes its bottom out of sight). On a narrow
 * screen the board may be taller than the map (room to zoom into); never shorter than 240 px.
 */
function useFitToWindow(box: React.RefObject<HTMLDivElement | null>, natural: Size | null, set: (s: Size) => void) {
  const last = useRef<Size>({ w: 0, h: 0 });
  const measure = useCallback(() => {
    const el = box.current;
    if (!el || !natural) return;
    const w = el.clientWidth;
    const top = el.getBoundingClientRect().top + window.scrollY;
    const room = window.innerHeight - top - 64; // the zoom buttons and a margin below
    const ratio = natural.h / natural.w;
    const want = w * (window.innerWidth < 900 ? Math.max(ratio, 1.2) : ratio);
    const h = Math.round(Math.max(240, Math.min(want, room)));
    if (w !== last.current.w || h !== last.current.h) { last.current = { w, h }; set({ w, h }); }
  }, [box, natural, set]);
  useLayoutEffect(measure);
  useEffect(() => {
    const observer = new ResizeObserver(measure);
    if (box.current?.parentElement) observer.observe(box.current.parentElement);
    window.addEventListener("resize", measure);
    return () => { observer.disconnect(); window.removeEventListener("resize", measure); };
  }, [box, measure]);
}

interface Gesture { view: View; a: Point; b?: Point }

/**
 * Pointer gestures on the board: one finger (or the mouse) drags, two pinch, a double tap
 * (touch) or ctrl/⌘-wheel zooms about its point; a tap on a hit area or a province acts. A drag
 * or a pinch is never taken for a tap.
 */
function useGestures(view: View, frame: Frame, setView: (v: View | ((v: View) => View)) => void, act: (p: string) => void) {
  const pointers = useRef(new Map<number, Point>());
  const start = useRef<Gesture | null>(null);
  const dragged = useRef(false);
  const lastTap = useRef<{ t: number; p: Point } | null>(null);
  const touch = useRef(false);
  const local = (e: { clientX: number; clientY: number; currentTarget: Element }): Point => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const begin = (v: View) => {
    const [a, b] = [...pointers.current.values()];
    start.current = a ? { view: v, a, b } : null;
  };
  return {
    onPointerDown(e: React.PointerEvent<HTMLDivElement>) {
      touch.current = e.pointerType === "touch";
      pointers.current.set(e.pointerId, local(e));
      if (pointers.current.size === 1) dragged.current = false;
      begin(view);
    },
    onPointerMove(e: React.PointerEvent<HTMLDivElement>) {
      if (!pointers.current.has(e.pointerId) || !start.current) return;
      pointers.current.set(e.pointerId, local(e));
      const g = start.current;
      const [a, b] = [...pointers.current.values()];
      if (g.b && b) { dragged.current = true; setView(pinch(g.view, g.a, g.b, a, b, frame)); return; }
      const dx = a.x - g.a.x, dy = a.y - g.a.y;
      if (Math.abs(dx) + Math.abs(dy) > 8) dragged.current = true;
      if (dragged.current) setView(pan(g.view, dx, dy, frame));
    },
    onPointerUp(e: React.PointerEvent<HTMLDivElement>) {
      pointers.current.delete(e.pointerId);
      begin(view);
    },
    onPointerCancel(e: React.PointerEvent<HTMLDivElement>) {
      pointers.current.delete(e.pointerId);
      begin(view);
    },
    onClick(e: React.MouseEvent<HTMLDivElement>) {
      const keyboard = e.detail === 0; // Enter or Space on a hit area: no pointer was involved
      if (dragged.current && !keyboard) { dragged.current = false; return; }
      const p = local(e);
      const before = lastTap.current;
      lastTap.current = keyboard ? null : { t: e.timeStamp, p };
      if (!keyboard && touch.current && before && e.timeStamp - before.t < TAP_MS && Math.hypot(p.x - before.p.x, p.y - before.p.y) < 30) {
        lastTap.current = null;
        setView((v) => doubleTap(v, p, frame));
        return;
      }
      // The element a tap ends on may not be the one it began on when the board re-rendered in
      // between (a hit area turning active under the finger): the click then goes to their common
      // ancestor, so a click with no province of its own asks what is under its point.
      const hit = provinceOf(e.target as Element)
        ?? (keyboard ? null : document.elementsFromPoint(e.clientX, e.clientY).map(provinceOf).find((p) => p));
      if (hit) act(hit);
    },
  };
}

/** Whether a board can be shown in ``f`` at all (not a sliver a re-flow passes through). */
function usable(f: Frame): boolean {
  return f.viewport.w >= HIT * 2 && f.viewport.h >= HIT * 2 && f.content.w > 0 && f.content.h > 0;
}

/**
 * The province an element of the board stands for: a hit area's, an order drawing's unit (only
 * tappable in results mode, styles.css), or a province shape's.
 */
function provinceOf(el: Element): string | null {
  return el.closest?.("[data-province]")?.getAttribute("data-province")
    ?? el.closest?.("[data-order]")?.getAttribute("data-order")
    ?? el.closest?.('path[id^="p-"]')?.id.slice(2) ?? null;
}

/** Ctrl/⌘ + wheel zooms the board about the pointer, not the page (a listener that may cancel). */
function useWheelZoom(box: React.RefObject<HTMLDivElement | null>, frame: Frame, setView: (f: (v: View) => View) => void) {
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      const r = el.getBoundingClientRect();
      const p = { x: e.clientX - r.left, y: e.clientY - r.top };
      setView((v) => zoomAbout(v, e.deltaY < 0 ? 1.25 : 1 / 1.25, p, frame));
    };
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => el.removeEventListener("wheel", onWheel);
  }, [box, frame, setView]);
}
