/**
 * Order entry by clicking, driven only by the view's legal_orders (the engine's own list,
 * in the engine's canonical text). The client never decides what is legal: it reads the
 * structure of each legal order once and offers the ones that fit the clicks.
 *
 * Clicks, as on Backstabbr: a unit, then a target province (move or retreat; the unit's own
 * province is hold, or disband in a retreat phase); or a unit, then another unit (support or
 * convoy it), then where that unit goes (the same unit again: support it to hold). Builds:
 * click a home centre. Several fitting orders (two coasts, convoy or not) give a choice.
 */

export type OrderKind = "H" | "M" | "SH" | "SM" | "C" | "R" | "D" | "B" | "W";

export interface LegalOrder {
  text: string;
  kind: OrderKind;
  /** Province of the ordered unit (or of the build); "" for WAIVE. */
  unit: string;
  /** Province a move, retreat, supported move or convoy ends in. */
  dest?: string;
  /** Province of the supported or convoyed unit. */
  target?: string;
}

export const province = (location: string): string => location.split("/")[0];

const PATTERNS: [RegExp, (m: RegExpExecArray) => Omit<LegalOrder, "text">][] = [
  [/^WAIVE$/, () => ({ kind: "W", unit: "" })],
  [/^BUILD [AF] (\S+)$/, (m) => ({ kind: "B", unit: province(m[1]) })],
  [/^[AF] (\S+) H$/, (m) => ({ kind: "H", unit: province(m[1]) })],
  [/^[AF] (\S+) - (\S+)( VIA)?$/, (m) => ({ kind: "M", unit: province(m[1]), dest: province(m[2]) })],
  [/^[AF] (\S+) S [AF] (\S+) - (\S+)$/, (m) => ({ kind: "SM", unit: province(m[1]), target: province(m[2]), dest: province(m[3]) })],
  [/^[AF] (\S+) S [AF] (\S+)$/, (m) => ({ kind: "SH", unit: province(m[1]), target: province(m[2]) })],
  [/^[AF] (\S+) C [AF] (\S+) - (\S+)$/, (m) => ({ kind: "C", unit: province(m[1]), target: province(m[2]), dest: province(m[3]) })],
  [/^[AF] (\S+) R (\S+)$/, (m) => ({ kind: "R", unit: province(m[1]), dest: province(m[2]) })],
  [/^[AF] (\S+) D$/, (m) => ({ kind: "D", unit: province(m[1]) })],
];

/** The structure of one legal order; null for a text this client does not know (left to the box). */
export function parseLegal(text: string): LegalOrder | null {
  for (const [pattern, build] of PATTERNS) {
    const m = pattern.exec(text);
    if (m) return { text, ...build(m) };
  }
  return null;
}

export function parseAll(texts: string[]): LegalOrder[] {
  return texts.map(parseLegal).filter((o): o is LegalOrder => o !== null);
}

export interface Selection {
  unit: string | null;
  via: string | null;
}

export const EMPTY: Selection = { unit: null, via: null };

export interface Step {
  selection: Selection;
  /** The orders that fit: with the selection cleared and one choice it is entered at once;
   * otherwise they are offered while the next click may still decide. */
  choices: LegalOrder[];
  hint: string;
}

const ofUnit = (legal: LegalOrder[], unit: string) => legal.filter((o) => o.unit === unit && o.kind !== "B");

/** What a click on province ``p`` means, given what was clicked before. */
export function click(legal: LegalOrder[], sel: Selection, p: string): Step {
  if (sel.unit === null) return clickFirst(legal, p);
  const mine = ofUnit(legal, sel.unit);
  if (sel.via !== null) {
    const choices = sel.via === p
      ? mine.filter((o) => o.kind === "SH" && o.target === p)
      : mine.filter((o) => (o.kind === "SM" || o.kind === "C") && o.target === sel.via && o.dest === p);
    if (choices.length) return { selection: EMPTY, choices, hint: "" };
    return { selection: sel, choices: [], hint: `The unit in ${sel.via} cannot be helped to ${p}.` };
  }
  if (p === sel.unit) {
    const choices = mine.filter((o) => o.kind === "H" || o.kind === "D");
    return { selection: EMPTY, choices, hint: choices.length ? "" : "Pick a target." };
  }
  const direct = mine.filter((o) => ((o.kind === "M" || o.kind === "R") && o.dest === p) || (o.kind === "SH" && o.target === p));
  const helps = mine.some((o) => (o.kind === "SM" || o.kind === "C") && o.target === p);
  if (helps) {
    // a unit to support or convoy: the next click says where it goes; a move there stays on offer
    const moves = direct.filter((o) => o.kind !== "SH");
    return { selection: { unit: sel.unit, via: p }, choices: moves,
      hint: `Click where the unit in ${p} goes (${p} again: support it holding)${moves.length ? ", or move there:" : "."}` };
  }
  if (!direct.length) {
    if (ofUnit(legal, p).length) return clickFirst(legal, p); // another of my units: select it instead
    return { selection: sel, choices: [], hint: `The unit in ${sel.unit} cannot reach ${p}.` };
  }
  return { selection: direct.length === 1 ? EMPTY : sel, choices: direct, hint: "" };
}

function clickFirst(legal: LegalOrder[], p: string): Step {
  const own = ofUnit(legal, p);
  if (own.length && own.every((o) => o.kind === "D")) return { selection: EMPTY, choices: own, hint: "" }; // winter removal
  if (own.length) {
    return { selection: { unit: p, via: null }, choices: [], hint: `${p} selected: click a target, ${p} again to hold, or another unit to support it.` };
  }
  const builds = legal.filter((o) => o.kind === "B" && o.unit === p);
  if (builds.length) return { selection: EMPTY, choices: builds, hint: "" };
  return { selection: EMPTY, choices: [], hint: "" };
}

/** Provinces worth highlighting after the clicks so far. */
export function targets(legal: LegalOrder[], sel: Selection): Set<string> {
  const out = new Set<string>();
  if (sel.unit === null) {
    legal.forEach((o) => o.unit && out.add(o.unit));
    return out;
  }
  for (const o of ofUnit(legal, sel.unit)) {
    if (sel.via === null) {
      if (o.dest && (o.kind === "M" || o.kind === "R")) out.add(o.dest);
      if (o.target) out.add(o.target);
    } else if (o.target === sel.via) {
      out.add(o.kind === "SH" ? o.target : o.dest ?? "");
    }
  }
  out.delete("");
  return out;
}

/** The unit an order is for, as the API's DELETE /orders {"units"} names it ("A PAR"). */
export function unitOf(order: string): string | null {
  const m = /^([AF] \S+)/.exec(order) ?? /^BUILD ([AF] \S+)/.exec(order);
  return m ? m[1] : null;
}
