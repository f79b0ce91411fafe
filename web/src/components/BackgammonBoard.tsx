import { pointNumber, type BackgammonView, type Dest, type Side, type Source } from "../backgammon";

// The board in SVG units: two halves of six points with the bar between, the off tray at the right.
const W = 540, H = 400, PT = 36, LEFT = 14, BAR = 40, R = 16, DEPTH = 165;
const RIGHT = LEFT + 6 * PT + BAR;
const TRAY = RIGHT + 6 * PT + 8;
const FILL: Record<Side, string> = { WHITE: "#f7f3e8", BLACK: "#2a2623" };
const INK: Record<Side, string> = { WHITE: "#1d1d1d", BLACK: "#f7f3e8" };

/** Column of point p, 0 (left) to 11; top row holds 12..23 left to right, bottom 11..0. */
const column = (p: number): number => (p >= 12 ? p - 12 : 11 - p);
const colX = (c: number): number => (c < 6 ? LEFT + c * PT : RIGHT + (c - 6) * PT) + PT / 2;
const top = (p: number): boolean => p >= 12;

interface Props {
  view: BackgammonView;
  picked: Source | undefined;
  targets: Dest[];
  choosable: Source[];
  onPoint: (p: Source | "off") => void;
}

/**
 * The position drawn from the view (points, bar, borne off). White and Black checkers differ in
 * lightness and carry their count when stacked, so colour is never the only signal. A tap on a
 * point with a checker that may move picks it; a tap on a marked point moves it there. The list
 * of moves beside the board does the same for the keyboard and screen readers (this picture is
 * hidden from them; the board's text alternative sits beside it).
 */
export function BackgammonBoard({ view, picked, targets, choosable, onPoint }: Props) {
  const points = Array.from({ length: 24 }, (_, p) => p);
  return (
    <figure className="bg-board" aria-label="Backgammon board (its text alternative is beside it)">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-hidden="true" data-testid="bg-board">
        <rect width={W} height={H} rx="10" fill="#6b4f36" />
        <rect x={LEFT - 4} y="8" width={6 * PT + 8} height={H - 16} fill="#d9c7a0" />
        <rect x={RIGHT - 4} y="8" width={6 * PT + 8} height={H - 16} fill="#d9c7a0" />
        <rect x={TRAY - 2} y="8" width={W - TRAY - 6} height={H - 16} rx="4" fill="#4a3526" />
        {points.map((p) => <Point key={p} p={p} view={view} picked={picked === p} target={targets.includes(p)}
          choosable={choosable.includes(p)} onPoint={onPoint} />)}
        <Bar view={view} picked={picked === null} choosable={choosable.includes(null)} onPoint={onPoint} />
        <Off view={view} target={targets.includes("off")} onPoint={onPoint} />
      </svg>
    </figure>
  );
}

function Stack({ side, count, x, fromTop, base }: { side: Side; count: number; x: number; fromTop: boolean; base: number }) {
  const shown = Math.min(count, 5);
  return <>{Array.from({ length: shown }, (_, i) => {
    const y = fromTop ? base + R + i * 2 * R : base - R - i * 2 * R;
    return (
      <g key={i}>
        <circle cx={x} cy={y} r={R - 1} fill={FILL[side]} stroke={side === "WHITE" ? "#1d1d1d" : "#b9a68a"} strokeWidth="1.5" />
        {i === shown - 1 && count > 1 && <text x={x} y={y + 5} textAnchor="middle" fontSize="14" fontWeight="700" fill={INK[side]}>{count}</text>}
      </g>
    );
  })}</>;
}

function Point({ p, view, picked, target, choosable, onPoint }: { p: number; view: BackgammonView; picked: boolean; target: boolean; choosable: boolean; onPoint: (p: Source) => void }) {
  const x = colX(column(p));
  const up = top(p);
  const tip = up ? 8 + DEPTH : H - 8 - DEPTH;
  const base = up ? 8 : H - 8;
  const side: Side | null = view.points.WHITE[p] ? "WHITE" : view.points.BLACK[p] ? "BLACK" : null;
  const shade = column(p) % 2 === 0 ? "#9c3b2e" : "#35514a";
  return (
    <g className={`bg-point${choosable ? " choosable" : ""}`} data-point={p} onClick={() => onPoint(p)}>
      <rect x={x - PT / 2} y={up ? 8 : H / 2} width={PT} height={H / 2 - 8} fill="transparent" />
      <path d={`M${x - PT / 2 + 1} ${base}L${x} ${tip}L${x + PT / 2 - 1} ${base}Z`} fill={shade} />
      {side && <Stack side={side} count={view.points[side][p]} x={x} fromTop={up} base={base} />}
      {picked && <rect x={x - PT / 2 + 1} y={up ? 9 : H / 2 + 1} width={PT - 2} height={H / 2 - 10} fill="none" stroke="#111" strokeWidth="3" />}
      {target && <circle cx={x} cy={up ? tip + 18 : tip - 18} r="9" fill="#f2c14e" stroke="#111" strokeWidth="2" strokeDasharray="4 2" />}
      <text x={x} y={up ? H / 2 - 8 : H / 2 + 18} textAnchor="middle" fontSize="11" fill="#3b2a1a">{pointNumber(p, view.side)}</text>
    </g>
  );
}

function Bar({ view, picked, choosable, onPoint }: { view: BackgammonView; picked: boolean; choosable: boolean; onPoint: (p: Source) => void }) {
  const x = LEFT + 6 * PT + BAR / 2;
  return (
    <g className={`bg-point${choosable ? " choosable" : ""}`} data-point="bar" onClick={() => onPoint(null)}>
      <rect x={x - BAR / 2 + 2} y="8" width={BAR - 4} height={H - 16} fill="#54402d" />
      {view.bar.BLACK > 0 && <Stack side="BLACK" count={view.bar.BLACK} x={x} fromTop base={40} />}
      {view.bar.WHITE > 0 && <Stack side="WHITE" count={view.bar.WHITE} x={x} fromTop={false} base={H - 40} />}
      {picked && <rect x={x - BAR / 2 + 2} y="9" width={BAR - 4} height={H - 18} fill="none" stroke="#f2c14e" strokeWidth="3" />}
    </g>
  );
}

function Off({ view, target, onPoint }: { view: BackgammonView; target: boolean; onPoint: (p: "off") => void }) {
  const x = TRAY + (W - TRAY - 8) / 2;
  return (
    <g className="bg-point" data-point="off" onClick={() => onPoint("off")}>
      <rect x={TRAY} y="10" width={W - TRAY - 10} height={H - 20} fill="transparent" />
      <text x={x} y="40" textAnchor="middle" fontSize="13" fill="#f7f3e8">{view.off.BLACK}</text>
      <text x={x} y={H - 28} textAnchor="middle" fontSize="13" fill="#f7f3e8">{view.off.WHITE}</text>
      <text x={x} y={H / 2 + 4} textAnchor="middle" fontSize="10" fill="#f7f3e8">off</text>
      {target && <circle cx={x} cy={H / 2 + 30} r="10" fill="#f2c14e" stroke="#111" strokeWidth="2" strokeDasharray="4 2" />}
    </g>
  );
}
