/**
 * The game's live socket (docs/notifications.md, "Live updates"): the API's WebSocket, opened
 * with the caller's token as a subprotocol beside "convoy" (a browser cannot set Authorization on
 * a socket, and a token in the URL would sit in access logs). After "subscribe" the server sends
 * the game's view (redacted for this caller exactly as GET /games/{id} is) on every phase change,
 * submission or join, and each press message the caller may read.
 *
 * The socket is a hint, not the record: on every (re)connect the subscribe answer carries the whole
 * current view, so nothing missed while it was down is lost. While it is down the page polls.
 */
import { call } from "./api";
import type { GameView, Message } from "./types";

export type LiveFrame =
  | { type: "subscribed"; game_id: string; view: GameView }
  | { type: "view"; kind: string; game_id: string; view: GameView }
  | { type: "message"; game_id: string; message: Message; unread: number }
  | { type: "error"; code: string; message: string };

export interface LiveHandlers {
  onFrame: (frame: LiveFrame) => void;
  onState: (open: boolean) => void;
}

const KEEPALIVE_MS = 5 * 60 * 1000; // API Gateway closes a socket idle for 10 minutes
const MAX_BACKOFF_MS = 30_000;

/** The socket's absolute ws(s) URL from the API's answer (relative: this page's origin). */
export function socketUrl(url: string, location: { protocol: string; host: string }): string {
  if (/^wss?:\/\//.test(url)) return url;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}${url.startsWith("/") ? url : `/${url}`}`;
}

/** Follow one game until the returned function is called; reconnects with backoff. */
export function follow(gameId: string, token: string | null, handlers: LiveHandlers): () => void {
  let socket: WebSocket | null = null;
  let stopped = false;
  let attempt = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let keepalive: ReturnType<typeof setInterval> | undefined;

  const again = () => {
    handlers.onState(false);
    clearInterval(keepalive);
    if (stopped) return;
    attempt += 1;
    retry = setTimeout(open, Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(attempt - 1, 5)));
  };

  async function open() {
    let where: { url: string | null };
    try {
      where = await call<{ url: string | null }>("GET", `/games/${gameId}/live`, { retries: 0 });
    } catch {
      again();
      return;
    }
    if (stopped || !where.url || typeof WebSocket === "undefined") return;
    const subscribe = JSON.stringify({ action: "subscribe", game_id: gameId });
    socket = new WebSocket(socketUrl(where.url, window.location), token ? ["convoy", token] : ["convoy"]);
    socket.onopen = () => {
      attempt = 0;
      socket?.send(subscribe);
      keepalive = setInterval(() => socket?.send(subscribe), KEEPALIVE_MS);
    };
    socket.onmessage = (event) => {
      let frame: LiveFrame;
      try {
        frame = JSON.parse(String(event.data)) as LiveFrame;
      } catch {
        return;
      }
      if (frame.type === "subscribed") handlers.onState(true);
      handlers.onFrame(frame);
    };
    socket.onclose = again;
  }

  void open();
  return () => {
    stopped = true;
    clearTimeout(retry);
    clearInterval(keepalive);
    if (socket) {
      socket.onclose = null;
      socket.close();
    }
  };
}
