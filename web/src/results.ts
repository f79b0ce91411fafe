/**
 * Reading a resolution's results for the board (issue 31): which order a province's drawing
 * stands for. The resolution map names each drawn order by the province of its unit (`<g data-order="PAR">`, render/svg.py), and so does this
 * module, from the result's own order (`unit`, or `location` for a build), so a tap on an arrow
 * or a unit finds its result without any geometry in the client.
 */
import type { ResultEntry } from "./types";
import { province } from "./orders";

/** The province of the ordered unit (of the build); "" for an order with none (a waive). */
export function orderProvince(r: ResultEntry): string {
  const where = r.order.unit ?? r.order.location;
  return typeof where === "string" ? province(where) : "";
}

/** The results whose order is drawn at ``p`` (usually one; two for a duplicate order). */
export const resultsAt = (results: ResultEntry[], p: string | null): ResultEntry[] =>
  p ? results.filter((r) => orderProvince(r) === p) : [];

/** Every province with a result, for the board's hit areas. */
export const orderProvinces = (results: ResultEntry[]): Set<string> =>
  new Set(results.map(orderProvince).filter((p) => p));

/** Results grouped by power, powers in alphabetical order, each power's in the server's order. */
export function byPower(results: ResultEntry[]): [string, ResultEntry[]][] {
  const groups = new Map<string, ResultEntry[]>();
  results.forEach((r) => groups.set(r.power, [...(groups.get(r.power) ?? []), r]));
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** The result codes of an order that did not do what it asked (render/svg.py draws them failed). */
const FAILED = new Set(["BOUNCE", "CUT", "VOID", "NO_CONVOY", "DISLODGED"]);

/** "ok" or "fail" by the province of each ordered unit: a preview's marks on the board. */
export function verdictsOf(results: ResultEntry[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of results) {
    const p = orderProvince(r);
    if (p) out[p] = FAILED.has(r.result) || out[p] === "fail" ? "fail" : "ok";
  }
  return out;
}
