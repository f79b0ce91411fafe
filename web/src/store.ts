/**
 * What the browser remembers: seats (game id -> power and token), the creator tokens of games
 * made here, the signed-in session and the settings. localStorage only; a token never goes
 * into a URL. Components read it through useStore so a change re-renders every reader.
 */
import { useSyncExternalStore } from "react";

export interface Seat { power?: string; token?: string; creatorToken?: string }
export interface Session {
  id_token: string; access_token: string; refresh_token: string; expires_at: number;
  user: { user_id: string; display_name: string; email?: string };
}
export interface Settings { palette: "standard" | "colorblind" }

const SEATS = "convoy.seats";
const SESSION = "convoy.session";
const SETTINGS = "convoy.settings";
const listeners = new Set<() => void>();
let version = 0;

function read<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

function write(key: string, value: unknown): void {
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, JSON.stringify(value));
  version += 1;
  listeners.forEach((listener) => listener());
}

export const seats = (): Record<string, Seat> => read(SEATS, {});
export const seatOf = (gameId: string): Seat => seats()[gameId] ?? {};
export function saveSeat(gameId: string, change: Seat): void {
  const all = seats();
  all[gameId] = { ...all[gameId], ...change };
  write(SEATS, all);
}
export function forgetSeat(gameId: string): void {
  const all = seats();
  delete all[gameId];
  write(SEATS, all);
}

export const session = (): Session | null => read<Session | null>(SESSION, null);
export const saveSession = (value: Session | null): void => write(SESSION, value);

export const settings = (): Settings => ({ palette: "standard", ...read<Partial<Settings>>(SETTINGS, {}) });
export const saveSettings = (change: Partial<Settings>): void => write(SETTINGS, { ...settings(), ...change });

/** The bearer for a game's seat routes: the seat token kept here, else the signed-in account. */
export function bearerFor(gameId: string): string | null {
  return seatOf(gameId).token ?? session()?.id_token ?? null;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = () => { version += 1; listener(); };
  window.addEventListener("storage", onStorage);
  return () => { listeners.delete(listener); window.removeEventListener("storage", onStorage); };
}

/** Re-render when anything stored changes (here or in another tab). */
export function useStore(): number {
  return useSyncExternalStore(subscribe, () => version);
}
