import { useEffect, useRef, useState } from "react";
import { fetchSvg } from "../api";
import { settings, useStore } from "../store";

interface Props {
  /** The map route and its query, without palette (added here from the settings). */
  path: string;
  token?: string | null;
  /** Redraw when this changes (new orders, a new phase). */
  version?: string | number;
  onProvince?: (province: string) => void;
  selected?: string | null;
  via?: string | null;
  highlight?: Set<string>;
  label: string;
}

interface View { scale: number; x: number; y: number }
const IDENTITY: View = { scale: 1, x: 0, y: 0 };
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * The API's own SVG board, inlined so its provinces (`<path id="p-PAR">`) can be clicked;
 * the layers above them (units, labels, orders) let clicks through (styles.css). Pans by
 * dragging, zooms by wheel, pinch or the buttons; a drag is never taken for a click.
 */
export function MapView({ path, token, version, onProvince, selected, via, highlight, label }: Props) {
  useStore();
  const palette = settings().palette;
  const [svg, setSvg] = useState<string>("");
  const [failed, setFailed] = useState<string>("");
  const [view, setView] = useState<View>(IDENTITY);
  const host = useRef<HTMLDivElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const dragged = useRef(false);
  const start = useRef<{ x: number; y: number; view: View; dist: number } | null>(null);

  const url = `${path}${path.includes("?") ? "&" : "?"}palette=${palette}&width=1000`;
  useEffect(() => {
    let live = true;
    fetchSvg(url, token).then((text) => { if (live) { setSvg(text); setFailed(""); } })
      .catch((e: Error) => { if (live) setFailed(e.message || "The map could not be loaded."); });
    return () => { live = false; };
  }, [url, token, version]);

  useEffect(() => {
    const root = host.current;
    if (!root) return;
    root.querySelectorAll("path.selected, path.target, path.via").forEach((p) => p.classList.remove("selected", "target", "via"));
    highlight?.forEach((p) => root.querySelector(`#p-${CSS.escape(p)}`)?.classList.add("target"));
    if (via) root.querySelector(`#p-${CSS.escape(via)}`)?.classList.add("via");
    if (selected) root.querySelector(`#p-${CSS.escape(selected)}`)?.classList.add("selected");
  }, [svg, selected, via, highlight]);

  function onPointerDown(e: React.PointerEvent) {
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    dragged.current = false;
    const pts = [...pointers.current.values()];
    const dist = pts.length === 2 ? Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y) : 0;
    start.current = { x: e.clientX, y: e.clientY, view, dist };
  }
  function onPointerMove(e: React.PointerEvent) {
    if (!pointers.current.has(e.pointerId) || !start.current) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const s = start.current;
    const pts = [...pointers.current.values()];
    if (pts.length === 2 && s.dist > 0) {
      const dist = Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y);
      setView({ ...s.view, scale: clamp(s.view.scale * (dist / s.dist), 1, 6) });
      dragged.current = true;
      return;
    }
    const dx = e.clientX - s.x, dy = e.clientY - s.y;
    if (Math.abs(dx) + Math.abs(dy) > 6) dragged.current = true;
    if (dragged.current && s.view.scale > 1) setView({ ...s.view, x: s.view.x + dx, y: s.view.y + dy });
  }
  function onPointerUp(e: React.PointerEvent) {
    pointers.current.delete(e.pointerId);
    if (pointers.current.size === 0) start.current = null;
  }
  function onClick(e: React.MouseEvent) {
    if (dragged.current) { dragged.current = false; return; }
    const hit = (e.target as Element).closest?.('path[id^="p-"]');
    if (hit && onProvince) onProvince(hit.id.slice(2));
  }
  function onWheel(e: React.WheelEvent) {
    if (!e.ctrlKey && !e.metaKey && view.scale === 1 && e.deltaY > 0) return;
    const rect = host.current!.getBoundingClientRect();
    const px = e.clientX - rect.left, py = e.clientY - rect.top;
    const scale = clamp(view.scale * (e.deltaY < 0 ? 1.2 : 1 / 1.2), 1, 6);
    const k = scale / view.scale;
    setView(scale === 1 ? IDENTITY : { scale, x: px - (px - view.x) * k, y: py - (py - view.y) * k });
  }
  const zoom = (factor: number) => setView((v) => {
    const scale = clamp(v.scale * factor, 1, 6);
    return scale === 1 ? IDENTITY : { scale, x: v.x * (scale / v.scale), y: v.y * (scale / v.scale) };
  });

  return (
    <figure className="map-frame" aria-label={label}>
      <div className="map-tools" role="group" aria-label="Zoom">
        <button type="button" onClick={() => zoom(1.4)} aria-label="Zoom in">+</button>
        <button type="button" onClick={() => zoom(1 / 1.4)} aria-label="Zoom out">−</button>
        <button type="button" onClick={() => setView(IDENTITY)} aria-label="Reset zoom">⟲</button>
      </div>
      <div className="map-viewport" onPointerDown={onPointerDown} onPointerMove={onPointerMove}
        onPointerUp={onPointerUp} onPointerCancel={onPointerUp} onWheel={onWheel} onClick={onClick}>
        {failed && <p className="error" role="alert">{failed}</p>}
        {!svg && !failed && <p className="muted">Loading the map…</p>}
        <div ref={host} className={`map ${onProvince ? "clickable" : ""}`} data-testid="map"
          style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})` }}
          dangerouslySetInnerHTML={{ __html: svg }} />
      </div>
    </figure>
  );
}
