import { afterEach, describe, expect, it, vi } from "vitest";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { WhatIfPanel } from "./WhatIfPanel";
import type { GameView, WhatIfAnswer } from "../types";

afterEach(() => vi.unstubAllGlobals());

const VIEW = {
  game_id: "g1", variant: "classical", rules: "2023", phase: "F1901M", year: 1901, season: "FALL",
  phase_type: "MOVEMENT", power: "FRANCE", units: [], ownership: {}, dislodged: [], contested: [],
} as unknown as GameView;

const MENUS = { legal_orders: { FRANCE: ["A BUR H"], GERMANY: ["A MUN - BUR", "A MUN H", "A BER S A MUN"] } };

describe("WhatIfPanel", () => {
  it("guesses per power from that power's legal orders and previews them, one order per unit", async () => {
    const sent: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal("fetch", vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return new Response(JSON.stringify(url.endsWith("/legal_orders") ? MENUS : { ok: true }), { status: 200 });
    }));
    const onPreview = vi.fn();
    render(<WhatIfPanel gameId="g1" token="seat" view={VIEW} pending={["A BUR - MUN"]} preview={null} onPreview={onPreview} />);
    await userEvent.click(screen.getByText(/What if/));
    const box = await screen.findByRole("combobox", { name: "Guess an order for Germany" });
    expect(screen.queryByRole("option", { name: "Germany" })).toBeTruthy();
    expect(screen.queryByRole("option", { name: "France" })).toBeNull(); // my own orders are my pending ones
    await userEvent.type(box, "mun bur{Enter}");
    await userEvent.type(box, "mun h{Enter}"); // a second order for A MUN replaces the first
    await userEvent.type(box, "ber s{Enter}");
    expect(screen.getByRole("list", { name: "My guesses" }).textContent).toBe("Germany: A MUN Hremove" + "Germany: A BER S A MUNremove");
    await userEvent.click(screen.getByRole("button", { name: "Preview the results" }));
    await waitFor(() => expect(onPreview).toHaveBeenCalledWith({ ok: true } as unknown as WhatIfAnswer));
    const whatif = sent.find((s) => s.url.endsWith("/games/g1/whatif"))!;
    expect(JSON.parse(String(whatif.init.body))).toEqual({ orders: { GERMANY: ["A MUN H", "A BER S A MUN"] }, phase: "F1901M" });
    const headers = whatif.init.headers as Record<string, string>;
    expect(headers.Authorization).toBe("Bearer seat");
    expect(headers["Idempotency-Key"]).toBeUndefined();
  });
});
