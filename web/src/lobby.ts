/**
 * What the lobby says of a game (issue 32): its name, variant, seats filled ("5/7"), phase,
 * deadline in the viewer's own time zone, and one status in words — "waiting for players"
 * before the board is full, "orders due" only when this player owes orders. The API's
 * listings carry these (GET /games, /me/games: name, seats_filled, seats_total, stage); a seat
 * kept only in this browser is described from the game's view.
 */
import { phaseWords, powerName } from "./words";

export type Stage = "waiting for players" | "in play" | "paused" | "finished";

export interface LobbyGame {
  game_id: string; name: string; game: string; variant: string; phase: string;
  seats_filled: number; seats_total: number; stage: Stage; deadline: string | null;
  /** Mine only: my seat, whether I owe orders, unread press, whether I created it. */
  power?: string | null; orders_due?: boolean; unread?: number; is_creator?: boolean;
  open_seats?: string[]; private?: boolean; demo?: boolean;
  /** Diplomacy: the press mode and fog of war, what a player picks a game by before joining. */
  press?: string | null; fog?: boolean;
}

/** A press mode other than full press, in words (full press is the default: not said). */
const PRESS_WORDS: Record<string, string> = {
  none: "gunboat (no press)", public_only: "public press only", rulebook: "press in movement phases only",
};

/** The game page's route: backgammon games have their own page, never the Diplomacy screen. */
export const gamePath = (g: { game_id: string; game?: string }): string =>
  g.game === "backgammon" ? `/backgammon/${g.game_id}` : `/games/${g.game_id}`;

/** "Fri 18:00 CET" in the viewer's zone (``zone`` for tests), with the day's date past a week. */
export function deadlineWords(iso: string | null, now: number, zone?: string): string {
  if (!iso) return "no deadline";
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "";
  const far = Math.abs(at - now) > 6 * 86400_000;
  const format = new Intl.DateTimeFormat("en-GB", {
    weekday: "short", ...(far ? { day: "numeric", month: "short" } : {}), hour: "2-digit", minute: "2-digit",
    hour12: false, timeZoneName: "short", ...(zone ? { timeZone: zone } : {}),
  });
  return format.format(at).replace(",", "");
}

/** The one status a row shows, in words, with its badge's kind. */
export function statusOf(g: LobbyGame): { text: string; kind: "due" | "waiting" | "done" | "paused" | "plain" } {
  if (g.stage === "finished") return { text: "finished", kind: "done" };
  if (g.stage === "waiting for players") return { text: "waiting for players", kind: "waiting" };
  if (g.orders_due) return { text: g.game === "backgammon" ? "your move" : "orders due", kind: "due" };
  if (g.stage === "paused") return { text: "paused", kind: "paused" };
  return { text: "in play", kind: "plain" };
}

/** The row's second line: "classical · France · 5/7 seats · Spring 1901 movement", with the
 * press mode when it is not full press and "fog of war" when the game is fogged. */
export function detailWords(g: LobbyGame): string {
  const seat = g.power ? (g.game === "backgammon" ? (g.power === "WHITE" ? "White" : "Black") : powerName(g.power))
    : g.is_creator ? "you run it" : undefined;
  const phase = g.game === "backgammon" ? (g.stage === "waiting for players" ? "" : `turn ${g.phase.replace(/^T/, "")}`) : phaseWords(g.phase);
  const rules = [g.press ? PRESS_WORDS[g.press] : undefined, g.fog ? "fog of war" : undefined];
  return [g.game === "backgammon" ? "backgammon" : g.variant, seat, `${g.seats_filled}/${g.seats_total} seats`, phase, ...rules]
    .filter(Boolean).join(" · ");
}

const ORDER: Record<string, number> = { due: 0, waiting: 1, paused: 2, plain: 2, done: 3 };

/** My games: those owing orders first, then those forming, then the rest; finished last. */
export function sortMine(games: LobbyGame[]): LobbyGame[] {
  return [...games].sort((a, b) => ORDER[statusOf(a).kind] - ORDER[statusOf(b).kind] || a.name.localeCompare(b.name));
}

/** A listing item (GET /games or /me/games) as a lobby row. */
export function fromListing(item: Record<string, unknown>): LobbyGame {
  const text = (k: string, d = "") => (typeof item[k] === "string" ? (item[k] as string) : d);
  return {
    game_id: text("game_id"), name: text("name", text("game_id")), game: text("game", "diplomacy"),
    variant: text("variant"), phase: text("phase"), seats_filled: Number(item.seats_filled ?? 0),
    seats_total: Number(item.seats_total ?? 0), stage: text("stage", "in play") as Stage,
    deadline: (item.deadline as string | null) ?? null, power: (item.power as string | null) ?? null,
    orders_due: Boolean(item.orders_due), unread: Number(item.unread_press ?? 0), is_creator: Boolean(item.is_creator),
    open_seats: (item.open_seats as string[] | undefined) ?? [], private: Boolean(item.private), demo: Boolean(item.demo),
    press: typeof item.press === "string" ? item.press : null, fog: Boolean(item.fog),
  };
}
