/**
 * Hash routes (/#/games/<id>): the part after "#" never reaches a server, so no screen of the
 * client can collide with an API path (GET /games/<id> is the API's, /#/games/<id> the page's).
 */
import { useSyncExternalStore } from "react";

export type Route =
  | { name: "lobby" }
  | { name: "new" }
  | { name: "seat" }
  | { name: "signin" }
  | { name: "signup" }
  | { name: "settings" }
  | { name: "game"; gameId: string }
  | { name: "backgammon"; gameId: string }
  | { name: "archive" }
  | { name: "leaderboard" }
  | { name: "replay"; gameId: string }
  | { name: "player"; playerId: string }
  | { name: "tournament"; tournamentId: string };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, "") || "/";
  const game = /^\/games\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (game) return { name: "game", gameId: game[1] };
  const board = /^\/backgammon\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (board) return { name: "backgammon", gameId: board[1] };
  const replay = /^\/replay\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (replay) return { name: "replay", gameId: replay[1] };
  const player = /^\/players\/([A-Za-z0-9_.-]+)\/?$/.exec(path);
  if (player) return { name: "player", playerId: player[1] };
  const event = /^\/tournaments\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (event) return { name: "tournament", tournamentId: event[1] };
  const named: Record<string, Route> = {
    "/new": { name: "new" }, "/seat": { name: "seat" }, "/signin": { name: "signin" },
    "/signup": { name: "signup" }, "/settings": { name: "settings" },
    "/archive": { name: "archive" }, "/leaderboard": { name: "leaderboard" },
  };
  return named[path] ?? { name: "lobby" };
}

export const href = (path: string): string => `#${path}`;
export function go(path: string): void {
  window.location.hash = path;
}

function subscribe(listener: () => void): () => void {
  window.addEventListener("hashchange", listener);
  return () => window.removeEventListener("hashchange", listener);
}

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return parseRoute(hash);
}
