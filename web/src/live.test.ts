import { afterEach, describe, expect, it, vi } from "vitest";
import { follow, PING, socketUrl, subscribeFrame, type LiveState } from "./live";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("socketUrl", () => {
  it("puts a relative address on this page's origin, wss under https", () => {
    expect(socketUrl("/live", { protocol: "https:", host: "convoy.example" })).toBe("wss://convoy.example/live");
    expect(socketUrl("live", { protocol: "http:", host: "127.0.0.1:8000" })).toBe("ws://127.0.0.1:8000/live");
  });
  it("keeps an absolute ws(s) address (the local stack's own port)", () => {
    expect(socketUrl("ws://127.0.0.1:9001", { protocol: "http:", host: "127.0.0.1:8000" })).toBe("ws://127.0.0.1:9001");
  });
});

describe("subscribeFrame", () => {
  it("carries a player's token, and none for an observer", () => {
    expect(JSON.parse(subscribeFrame("g1", "tok"))).toEqual({ action: "subscribe", game_id: "g1", token: "tok" });
    expect(JSON.parse(subscribeFrame("g1", null))).toEqual({ action: "subscribe", game_id: "g1" });
  });
});

/** A WebSocket stand-in: records what is sent; the test opens, answers and closes it. */
class FakeSocket {
  static made: FakeSocket[] = [];
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  readonly protocols: unknown[];
  constructor(readonly url: string, ...protocols: unknown[]) {
    this.protocols = protocols;
    FakeSocket.made.push(this);
  }
  send(text: string) { this.sent.push(text); }
  close() { this.onclose?.(); }
  answer(frame: unknown) { this.onmessage?.({ data: JSON.stringify(frame) }); }
}

function stubbed(url: string | null) {
  FakeSocket.made = [];
  const fetch = vi.fn(async () => new Response(JSON.stringify({ url }), { status: 200 }));
  vi.stubGlobal("fetch", fetch);
  vi.stubGlobal("WebSocket", FakeSocket);
  return fetch;
}

const flush = () => new Promise((done) => setTimeout(done, 0));

// issue 29 item 1: GET /live once per game, not once per visit
describe("follow", () => {
  it("asks where the socket is once per game and remembers it for the next visit", async () => {
    const fetch = stubbed("ws://127.0.0.1:9001");
    const states: LiveState[] = [];
    const stop = follow("g1", "tok", { onFrame: () => undefined, onState: (s) => states.push(s) });
    await flush();
    const first = FakeSocket.made[0];
    first.onopen?.();
    // no subprotocol (the API selects none: a browser would fail the handshake); the token rides in the frame
    expect(first.protocols).toEqual([]);
    expect(first.sent).toEqual([JSON.stringify({ action: "subscribe", game_id: "g1", token: "tok" })]);
    first.answer({ type: "subscribed", game_id: "g1", view: {} });
    expect(states).toEqual(["open"]);
    stop();
    // the next visit of the same game opens the socket without asking the API again
    const again = follow("g1", "tok", { onFrame: () => undefined, onState: () => undefined });
    await flush();
    expect(FakeSocket.made).toHaveLength(2);
    expect(FakeSocket.made[1].url).toBe("ws://127.0.0.1:9001");
    expect(fetch).toHaveBeenCalledTimes(1);
    again();
  });

  it("forgets a remembered address whose socket never opens, and asks again", async () => {
    const fetch = stubbed("ws://127.0.0.1:9001");
    localStorage.setItem("convoy.liveUrl.g2", "ws://stale.example:1");
    const states: LiveState[] = [];
    const stop = follow("g2", null, { onFrame: () => undefined, onState: (s) => states.push(s) });
    await flush();
    expect(FakeSocket.made[0].url).toBe("ws://stale.example:1");
    expect(fetch).not.toHaveBeenCalled();
    FakeSocket.made[0].onclose?.(); // refused before it opened
    expect(states).toEqual(["down"]);
    expect(localStorage.getItem("convoy.liveUrl.g2")).toBeNull();
    stop();
  });

  it("says the socket is down when the API has none, so the page loads and polls", async () => {
    stubbed(null);
    const states: LiveState[] = [];
    const stop = follow("g3", null, { onFrame: () => undefined, onState: (s) => states.push(s) });
    await flush();
    expect(states).toEqual(["down"]);
    expect(FakeSocket.made).toHaveLength(0);
    stop();
  });

  // issue 29 item 2: the keepalive is a ping (no function, no view back), not a re-subscribe
  it("keeps the socket alive with a ping every five minutes, never a second subscribe", async () => {
    stubbed("ws://127.0.0.1:9001");
    vi.useFakeTimers();
    const stop = follow("g4", "tok", { onFrame: () => undefined, onState: () => undefined });
    await vi.advanceTimersByTimeAsync(0);
    const socket = FakeSocket.made[0];
    socket.onopen?.();
    await vi.advanceTimersByTimeAsync(10 * 60 * 1000);
    expect(socket.sent).toEqual([subscribeFrame("g4", "tok"), PING, PING]);
    stop();
  });
});
