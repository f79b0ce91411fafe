import { describe, expect, it } from "vitest";
import { socketUrl } from "./live";

describe("socketUrl", () => {
  it("puts a relative address on this page's origin, wss under https", () => {
    expect(socketUrl("/live", { protocol: "https:", host: "convoy.example" })).toBe("wss://convoy.example/live");
    expect(socketUrl("live", { protocol: "http:", host: "127.0.0.1:8000" })).toBe("ws://127.0.0.1:8000/live");
  });
  it("keeps an absolute ws(s) address (the local stack's own port)", () => {
    expect(socketUrl("ws://127.0.0.1:9001", { protocol: "http:", host: "127.0.0.1:8000" })).toBe("ws://127.0.0.1:9001");
  });
});
