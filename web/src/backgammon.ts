/**
 * Backgammon in the client: the view's shape (docs/api.md "Backgammon") and what a tap means.
 * The server says which moves are legal (`legal_moves`: [die index, source]); the client only
 * works out where each one lands, to draw it (docs/backgammon.md: WHITE moves down towards 0
 * and bears off below it, entering from the bar on 24 − d; BLACK moves up, enters on d − 1,
 * bears off above 23).
 */

export type Side = "WHITE" | "BLACK";
export type Source = number | null; // a point 0-23, or null: the bar
export type Dest = number | "off";

export interface BackgammonView {
  game_id: string; game: "backgammon"; status: string; phase: string; side: Side | null;
  to_play: Side | null; stage: "TURN_ROLL" | "MOVE_ROLL" | "MOVING" | "OVER";
  points: Record<Side, number[]>; bar: Record<Side, number>; off: Record<Side, number>;
  turn: Side | null; dice: [number, number] | null; unused: [number, number];
  moves_this_turn: number; rolls: number;
  result: { winner: Side; kind: "SINGLE" | "GAMMON" | "BACKGAMMON"; points: number } | null;
  legal_moves: [number, Source][]; can_undo: boolean; board_text: string;
  players: Record<string, { joined_at: string | null }>; open_seats: Side[]; private: boolean;
  seeded: boolean; event_seq: number;
}

export interface Move { die: number; pips: number; source: Source; dest: Dest }

/** Where a checker of ``side`` on ``source`` lands with a die of ``pips``. */
export function landing(side: Side, source: Source, pips: number): Dest {
  if (side === "WHITE") {
    const to = (source ?? 24) - pips;
    return to < 0 ? "off" : to;
  }
  const to = (source ?? -1) + pips;
  return to > 23 ? "off" : to;
}

/** The legal moves with their pips and landing point; one per (source, destination), the first die that gets there. */
export function movesOf(view: BackgammonView): Move[] {
  if (!view.side || !view.dice) return [];
  const seen = new Set<string>();
  const out: Move[] = [];
  for (const [die, source] of view.legal_moves) {
    const pips = view.dice[die];
    const dest = landing(view.side, source, pips);
    const key = `${source}>${dest}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ die, pips, source, dest });
  }
  return out;
}

/** The sources one may pick from now (the bar first when it must be entered). */
export function sources(moves: Move[]): Source[] {
  return [...new Set(moves.map((m) => m.source))].sort((a, b) => (a ?? -1) - (b ?? -1));
}

/**
 * A point's number for a player: 1-24 counted from the player's own home, as each side calls
 * its points (White's index 0 is its 1-point; Black's index 23 is its 1-point). Observers count
 * as White.
 */
export const pointNumber = (index: number, viewer: Side | null): number => (viewer === "BLACK" ? 24 - index : index + 1);

export const placeName = (p: Source | Dest, viewer: Side | null = null): string =>
  p === null ? "the bar" : p === "off" ? "off the board" : `point ${pointNumber(p, viewer)}`;

/** A move in words for its player: "point 13 to point 8 (5)". */
export const moveWords = (m: Move, viewer: Side | null = null): string =>
  `${placeName(m.source, viewer)} to ${placeName(m.dest, viewer)} (${m.pips})`;

/** The dice as they stand: four for a double; each marked used once played. */
export function diceLeft(view: BackgammonView): { pips: number; used: boolean }[] {
  if (!view.dice) return [];
  const [a, b] = view.dice;
  if (a !== b) return [{ pips: a, used: view.unused[0] === 0 }, { pips: b, used: view.unused[1] === 0 }];
  const left = view.unused[0] + view.unused[1];
  return [0, 1, 2, 3].map((i) => ({ pips: a, used: i < 4 - left }));
}

/** The stage in a sentence, for the player ``me`` (null: an observer). */
export function stageWords(view: BackgammonView, me: Side | null): string {
  const name = (s: Side) => (s === "WHITE" ? "White" : "Black");
  if (view.result) {
    const kind = { SINGLE: "a single game", GAMMON: "a gammon", BACKGAMMON: "a backgammon" }[view.result.kind];
    return `${name(view.result.winner)} won: ${kind}, ${view.result.points} point${view.result.points > 1 ? "s" : ""}.`;
  }
  if (view.open_seats.length) return `Waiting for players: ${view.open_seats.map(name).join(" and ")} open.`;
  if (!view.to_play) return "Rolling…";
  const dice = view.dice ? ` with ${view.dice[0]} and ${view.dice[1]}` : "";
  return view.to_play === me ? `Your move${dice}.` : `${name(view.to_play)} to move${dice}.`;
}
