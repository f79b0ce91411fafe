import { describe, expect, it } from "vitest";
import { deadlineWords, detailWords, fromListing, gamePath, sortMine, statusOf } from "./lobby";
import { diceLeft, landing, movesOf, moveWords, stageWords, type BackgammonView } from "./backgammon";

const FORMING = fromListing({
  game_id: "768171169745", name: "H1 newcomer game", game: "diplomacy", variant: "classical", phase: "S1901M",
  seats_filled: 1, seats_total: 7, stage: "waiting for players", deadline: null, power: "FRANCE", orders_due: false,
});

describe("a lobby row (issue 32)", () => {
  it("names the game, its variant, my power, seats filled and phase", () => {
    expect(FORMING.name).toBe("H1 newcomer game");
    expect(detailWords(FORMING)).toBe("classical · France · 1/7 seats · Spring 1901 movement");
  });

  it("says the press mode unless it is full press, and fog of war (issue 35 item 3; docs/variants.md)", () => {
    expect(detailWords({ ...FORMING, press: "full" })).toBe("classical · France · 1/7 seats · Spring 1901 movement");
    const fogged = fromListing({ ...FORMING, seats_filled: 1, seats_total: 7, phase: "S1901M", stage: "waiting for players",
      variant: "classical", name: "x", press: "none", fog: true });
    expect(detailWords(fogged)).toBe("classical · France · 1/7 seats · Spring 1901 movement · gunboat (no press) · fog of war");
  });

  it("says 'waiting for players' before the board is full, 'orders due' only when I owe orders", () => {
    expect(statusOf(FORMING)).toEqual({ text: "waiting for players", kind: "waiting" });
    expect(statusOf({ ...FORMING, orders_due: true })).toEqual({ text: "waiting for players", kind: "waiting" });
    const playing = { ...FORMING, stage: "in play" as const, seats_filled: 7 };
    expect(statusOf({ ...playing, orders_due: true }).text).toBe("orders due");
    expect(statusOf(playing).text).toBe("in play");
    expect(statusOf({ ...playing, stage: "finished" }).text).toBe("finished");
  });

  it("puts the games that owe orders first and finished ones last", () => {
    const due = { ...FORMING, game_id: "b", name: "B", stage: "in play" as const, orders_due: true };
    const over = { ...FORMING, game_id: "c", name: "A", stage: "finished" as const };
    expect(sortMine([over, FORMING, due]).map((g) => g.game_id)).toEqual(["b", "768171169745", "c"]);
  });

  it("shows a deadline in the viewer's own time zone", () => {
    const now = Date.parse("2026-03-02T12:00:00Z");
    expect(deadlineWords("2026-03-06T17:00:00Z", now, "Europe/Berlin")).toBe("Fri 18:00 CET");
    expect(deadlineWords("2026-03-06T17:00:00Z", now, "America/New_York")).toBe("Fri 12:00 GMT-5");
    expect(deadlineWords("2026-04-06T17:00:00Z", now, "UTC")).toBe("Mon 6 Apr 17:00 UTC");
    expect(deadlineWords(null, now)).toBe("no deadline");
  });

  it("opens a backgammon game on its own page, never the Diplomacy screen", () => {
    expect(gamePath({ game_id: "x1", game: "backgammon" })).toBe("/backgammon/x1");
    expect(gamePath({ game_id: "x2", game: "diplomacy" })).toBe("/games/x2");
  });
});

const BG = {
  side: "WHITE", to_play: "WHITE", dice: [5, 3], unused: [1, 1], result: null, open_seats: [],
  legal_moves: [[0, 12], [1, 7], [0, 7], [1, 5], [1, 12]],
} as unknown as BackgammonView;

describe("backgammon moves in the client", () => {
  it("shows four dice for a double, the played ones marked", () => {
    const double = { ...BG, dice: [4, 4], unused: [1, 2] } as unknown as BackgammonView;
    expect(diceLeft(double).map((d) => d.used)).toEqual([true, false, false, false]);
    expect(diceLeft({ ...BG, unused: [0, 1] } as BackgammonView).map((d) => d.used)).toEqual([true, false]);
  });

  it("lands White downwards and Black upwards, entering from the bar and bearing off", () => {
    expect(landing("WHITE", 12, 5)).toBe(7);
    expect(landing("WHITE", null, 3)).toBe(21);
    expect(landing("WHITE", 2, 4)).toBe("off");
    expect(landing("BLACK", 0, 6)).toBe(6);
    expect(landing("BLACK", null, 1)).toBe(0);
    expect(landing("BLACK", 21, 5)).toBe("off");
  });

  it("lists each legal move once, in words people use (points 1-24)", () => {
    expect(movesOf(BG).map((m) => moveWords(m))).toEqual([
      "point 13 to point 8 (5)", "point 8 to point 5 (3)", "point 8 to point 3 (5)", "point 6 to point 3 (3)",
      "point 13 to point 10 (3)",
    ]);
    expect(stageWords(BG, "WHITE")).toBe("Your move with 5 and 3.");
    expect(moveWords(movesOf(BG)[0], "BLACK")).toBe("point 12 to point 17 (5)");
    expect(stageWords(BG, "BLACK")).toBe("White to move with 5 and 3.");
  });
});
