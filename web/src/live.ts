/**
 * The game's live socket (docs/notifications.md, "Live updates"): the API's WebSocket, opened
 * with no subprotocol (the API has no $connect route and selects none; a browser that offered one
 * would fail the handshake), then one "subscribe" frame that carries the caller's token (a browser
 * cannot set Authorization on a socket, and a token in the URL would sit in access logs). From
 * then on the server sends the game's view (redacted for this caller exactly as GET /games/{id}
 * is) on every phase change, submission or join, and each press message the caller may read.
 * One socket per game page, closed when the page leaves the game: nothing tells the server, the
 * subscription is forgotten when the next frame finds the socket gone (issue 29).
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

export type LiveState = "connecting" | "open" | "down";

export interface LiveHandlers {
  onFrame: (frame: LiveFrame) => void;
  onState: (state: LiveState) => void;
}

// API Gateway closes a socket idle for 10 minutes. The keepalive is a "ping" frame: the
// WebSocket API's ping route has no function behind it and sends nothing back (template.yaml
// LivePingRoute), so it costs one message, not a subscribe's invocation and view (issue 29).
const KEEPALIVE_MS = 5 * 60 * 1000;
const MAX_BACKOFF_MS = 30_000;
export const PING = JSON.stringify({ action: "ping" });
const ADDRESS_KEY = "convoy.liveUrl.";

/** The subscribe frame: the game and, for a player, the token that says who is asking. */
export function subscribeFrame(gameId: string, token: string | null): string {
  if (!token) return JSON.stringify({ action: "subscribe", game_id: gameId });
  return JSON.stringify({ action: "subscribe", game_id: gameId, token });
}

/** The socket's absolute ws(s) URL from the API's answer (relative: this page's origin). */
export function socketUrl(url: string, location: { protocol: string; host: string }): string {
  if (/^wss?:\/\//.test(url)) return url;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}${url.startsWith("/") ? url : `/${url}`}`;
}

/**
 * Where the game's socket is: asked of ``GET /games/{id}/live`` once per game and remembered
 * (localStorage), so a visit does not ask again (issue 29: a request each visit was a tenth of
 * the bill). ``null``: the API has no live socket (the page polls). A remembered address that
 * fails to open is forgotten (``forgetAddress``) and asked for again on the next attempt.
 */
export async function socketAddress(gameId: string): Promise<string | null> {
  const remembered = globalThis.localStorage?.getItem(ADDRESS_KEY + gameId);
  if (remembered) return remembered;
  const where = await call<{ url: string | null }>("GET", `/games/${gameId}/live`, { retries: 0 });
  if (where.url) globalThis.localStorage?.setItem(ADDRESS_KEY + gameId, where.url);
  return where.url;
}

export function forgetAddress(gameId: string): void {
  globalThis.localStorage?.removeItem(ADDRESS_KEY + gameId);
}

/**
 * Follow one game until the returned function is called; reconnects with backoff. The state is
 * "connecting" until the first subscribe answer ("open") or a failure ("down": the page loads
 * its view with a GET and polls); the subscribe answer carries the view, so a page whose socket
 * opens needs no GET of its own.
 */
export function follow(gameId: string, token: string | null, handlers: LiveHandlers): () => void {
  let socket: WebSocket | null = null;
  let stopped = false;
  let attempt = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let keepalive: ReturnType<typeof setInterval> | undefined;

  const again = () => {
    handlers.onState("down");
    clearInterval(keepalive);
    if (stopped) return;
    attempt += 1;
    retry = setTimeout(open, Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(attempt - 1, 5)));
  };

  async function open() {
    let url: string | null;
    try {
      url = await socketAddress(gameId);
    } catch {
      again();
      return;
    }
    if (stopped) return;
    if (!url || typeof WebSocket === "undefined") {
      handlers.onState("down");
      return;
    }
    const subscribe = subscribeFrame(gameId, token);
    let opened = false;
    socket = new WebSocket(socketUrl(url, window.location));
    socket.onopen = () => {
      opened = true;
      attempt = 0;
      socket?.send(subscribe);
      keepalive = setInterval(() => socket?.send(PING), KEEPALIVE_MS);
    };
    socket.onmessage = (event) => {
      let frame: LiveFrame;
      try {
        frame = JSON.parse(String(event.data)) as LiveFrame;
      } catch {
        return;
      }
      if (frame.type === "subscribed") handlers.onState("open");
      handlers.onFrame(frame);
    };
    socket.onclose = () => {
      if (!opened) forgetAddress(gameId); // never opened: the address may be stale, ask again
      again();
    };
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
