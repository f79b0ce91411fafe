import type { GameView, Variant } from "../types";
import { province } from "../orders";
import { powerName } from "../words";

const KIND: Record<string, string> = { A: "army", F: "fleet" };

interface Row { id: string; name: string; units: string[]; centre: string; orders: string[] }

/** One row per province that holds something: units (dislodged too), a supply centre, my orders. */
export function boardRows(view: GameView, variant: Variant | null): Row[] {
  const rows = new Map<string, Row>();
  const row = (id: string): Row => {
    let r = rows.get(id);
    if (!r) {
      r = { id, name: variant?.provinces?.[id] ?? id, units: [], centre: "", orders: [] };
      rows.set(id, r);
    }
    return r;
  };
  for (const u of view.units) {
    const coast = u.location.includes("/") ? ` (${u.location.split("/")[1].toLowerCase()} coast)` : "";
    row(province(u.location)).units.push(`${powerName(u.power)} ${KIND[u.kind] ?? u.kind}${coast}`);
  }
  for (const d of view.dislodged) {
    row(province(d.unit.location)).units.push(`${powerName(d.unit.power)} ${KIND[d.unit.kind] ?? d.unit.kind}, dislodged` +
      (d.retreats.length ? `: may retreat to ${d.retreats.join(", ")}` : ": must disband"));
  }
  for (const [id, owner] of Object.entries(view.supply_centers ?? {})) row(id).centre = powerName(owner);
  for (const order of view.power ? view.orders[view.power] ?? [] : []) {
    const at = /^(?:BUILD )?[AF] (\S+)/.exec(order)?.[1];
    if (at) row(province(at)).orders.push(order);
  }
  return [...rows.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** What the fog hides, in words (a screen reader hears it before the rows; the map hatches it). */
export function fogWords(visible: number): string {
  return visible
    ? `Fog of war: you see ${visible} provinces (your units' and centres' and their neighbours); the rest of the board is unknown until the game ends.`
    : "Fog of war: only the players see the board, each its own part, until the game ends.";
}

/**
 * The board in words, province by province (issue 32): what a screen reader reads instead of
 * the picture, and what anyone can search. Units, supply centres (with their owner: the words
 * say what the colours show) and my orders this phase.
 */
export function BoardText({ view, variant }: { view: GameView; variant: Variant | null }) {
  const rows = boardRows(view, variant);
  return (
    <details className="board-text">
      <summary>The board as text ({rows.length} provinces)</summary>
      {view.fog && <p className="muted" data-testid="fog-note">{fogWords(view.fog.visible.length)}</p>}
      <table className="powers" data-testid="board-text">
        <caption className="sr-only">Units, supply centres and my orders by province</caption>
        <thead><tr><th scope="col">Province</th><th scope="col">Units</th><th scope="col">Supply centre</th><th scope="col">My order</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <th scope="row">{r.name} <span className="code">{r.id}</span></th>
              <td>{r.units.join("; ") || "—"}</td>
              <td>{r.centre ? `owned by ${r.centre}` : "—"}</td>
              <td className="order-text">{r.orders.join("; ") || "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
