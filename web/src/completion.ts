/**
 * The order box's completion: which legal orders fit what was typed, ranked by what players
 * type (issue 32). People type a unit's province first ("par", "a par", "f bre - m"), often
 * the order type ("mar s", "bre c"), seldom the unit letter, and words may be cut short: each
 * typed word must begin a word of the order, in the order typed ("par bur" fits
 * "A PAR - BUR"; "-" needs no spaces around it).
 *
 * Rank, best first:
 * 1. orders *of* the unit whose province was typed first (before orders that merely name it);
 * 2. orders of the typed type ("-", "S", "C", "H", "R", "D", "BUILD"); untyped, the common
 *    kinds first: a move or retreat, then a hold, a support to hold, a support, a convoy;
 * 3. the typed text as the order's exact beginning;
 * 4. last, supports and convoys of a unit that is not next to the ordered one: the long,
 *    mostly convoy-only supports nobody means when typing "par". "Next to" is read off the
 *    ordered unit's own legal orders (where it may move, whom it may support holding), so the
 *    client needs no map of its own;
 * then the shorter order, then alphabetical.
 */
import { parseLegal, type LegalOrder } from "./orders";

const UNIT_LETTERS = new Set(["A", "F"]);
const TYPES = new Set(["-", "S", "C", "H", "R", "D", "BUILD", "WAIVE"]);
const KIND_PREFERENCE: Record<string, number> = { M: 6, R: 6, B: 6, D: 5, H: 5, W: 4, SH: 3, SM: 2, C: 1 };

export const words = (text: string): string[] =>
  text.toUpperCase().replace(/-/g, " - ").split(/\s+/).filter(Boolean);

/** Index in ``order`` of each typed word, each matching a later word's beginning; null if one does not. */
function matchWords(typed: string[], order: string[]): number[] | null {
  const at: number[] = [];
  let from = 0;
  for (const word of typed) {
    let i = from;
    while (i < order.length && !order[i].startsWith(word)) i += 1;
    if (i >= order.length) return null;
    at.push(i);
    from = i + 1;
  }
  return at;
}

/** The provinces next to each unit, as its own orders show them (moves, supports to hold). */
function neighbourhoods(parsed: LegalOrder[]): Map<string, Set<string>> {
  const near = new Map<string, Set<string>>();
  for (const o of parsed) {
    const set = near.get(o.unit) ?? new Set([o.unit]);
    if ((o.kind === "M" || o.kind === "R") && o.dest && !o.text.endsWith(" VIA")) set.add(o.dest);
    if (o.kind === "SH" && o.target) set.add(o.target);
    near.set(o.unit, set);
  }
  return near;
}

interface Ranked { text: string; score: number }

function score(o: LegalOrder, typed: string[], q: string, near: Map<string, Set<string>>): Ranked | null {
  const order = words(o.text);
  const at = matchWords(typed, order);
  if (!at) return null;
  const unitIndex = o.kind === "B" ? 2 : 1;
  const firstPlace = typed.findIndex((w, i) => !UNIT_LETTERS.has(w) && !(o.kind === "B" && i === 0 && "BUILD".startsWith(w)));
  let points = firstPlace >= 0 && at[firstPlace] === unitIndex ? 100 : 0;
  const typeWord = typed.find((w, i) => TYPES.has(w) && i > 0) ?? (typed[0] === "BUILD" ? "BUILD" : undefined);
  const orderType = o.kind === "B" ? "BUILD" : o.kind === "W" ? "WAIVE" : order[2];
  if (typeWord !== undefined) points += typeWord === orderType ? 50 : 0;
  else points += KIND_PREFERENCE[o.kind] ?? 0;
  if (o.text.startsWith(q)) points += 20;
  const helped = o.kind === "SM" || o.kind === "C" ? o.target : undefined;
  if (helped && !near.get(o.unit)?.has(helped)) points -= 30;
  if (o.text.endsWith(" VIA")) points -= 3; // by convoy: after the same move overland
  return { text: o.text, score: points };
}

/** The legal orders that fit what was typed, best first (at most ``limit``). */
export function complete(legalTexts: string[], typed: string, limit = 8): string[] {
  const typedWords = words(typed);
  if (!typedWords.length) return [];
  const q = typedWords.join(" ");
  const parsed = legalTexts.map((t) => parseLegal(t) ?? { text: t, kind: "W" as const, unit: "" });
  const near = neighbourhoods(parsed);
  return parsed
    .map((o) => score(o, typedWords, q, near))
    .filter((r): r is Ranked => r !== null)
    .sort((a, b) => b.score - a.score || a.text.length - b.text.length || a.text.localeCompare(b.text))
    .slice(0, limit)
    .map((r) => r.text);
}
