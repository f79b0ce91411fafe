import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, call } from "./api";

afterEach(() => vi.unstubAllGlobals());

describe("call", () => {
  it("resends a dropped order with the same Idempotency-Key until it gets through", async () => {
    const keys: string[] = [];
    let n = 0;
    vi.stubGlobal("fetch", vi.fn(async (_url: string, init: RequestInit) => {
      keys.push((init.headers as Record<string, string>)["Idempotency-Key"]);
      n += 1;
      if (n === 1) throw new TypeError("Failed to fetch");
      if (n === 2) return new Response(JSON.stringify({ code: "STORAGE_UNAVAILABLE", message: "busy" }), { status: 503 });
      return new Response(JSON.stringify({ phase: "S1901M", accepted: ["A PAR - BUR"], rejected: [], orders: ["A PAR - BUR"] }), { status: 200 });
    }));
    const retries: number[] = [];
    const answer = await call<{ accepted: string[] }>("POST", "/games/g/orders/add", {
      body: { orders: ["A PAR - BUR"] }, token: "t", backoff: () => 0, onRetry: (a) => retries.push(a),
    });
    expect(answer.accepted).toEqual(["A PAR - BUR"]);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBeTruthy();
    expect(retries).toEqual([1, 2]);
  });

  it("does not resend a refusal, and gives its code", async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ code: "STALE_PHASE", message: "moved on" }), { status: 409 }));
    vi.stubGlobal("fetch", fetch);
    const error = await call("POST", "/games/g/orders", { body: {}, backoff: () => 0 }).catch((e: ApiError) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("STALE_PHASE");
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("sends a read-only POST (a preview) with its body and no Idempotency-Key", async () => {
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response(JSON.stringify({ ok: true }), { status: 200 }));
    vi.stubGlobal("fetch", fetch);
    await call("POST", "/games/g/whatif", { body: { orders: {} }, token: "t", readOnly: true });
    const init = fetch.mock.calls[0][1];
    expect((init.headers as Record<string, string>)["Idempotency-Key"]).toBeUndefined();
    expect(init.body).toBe(JSON.stringify({ orders: {} }));
  });

  it("gives up after its retries with a NETWORK error in words", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => { throw new TypeError("offline"); }));
    const error = await call("GET", "/games", { retries: 1, backoff: () => 0 }).catch((e: ApiError) => e);
    expect((error as ApiError).code).toBe("NETWORK");
  });
});
