/** Fog of war in the client (issue 35 item 3; docs/variants.md "Fog of war"): a fogged view has
 * fewer units and owners than the board, and the client reads it without crashing, takes the
 * centre counts from the server's public ones, and says in words what the map hatches. */
import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { BoardText, boardRows } from "./BoardText";
import { GameInfo, centreCounts } from "./GameInfo";
import { requestBody } from "./CreateGame";
import type { GameView } from "../types";

const fogged = {
  game_id: "g1", variant: "classical", rules: "2023", phase: "S1901M", year: 1901, season: "SPRING",
  phase_type: "MOVEMENT", status: "ACTIVE", winner: null,
  units: [{ kind: "F", power: "ENGLAND", location: "LON" }, { kind: "F", power: "ENGLAND", location: "EDI" },
    { kind: "A", power: "ENGLAND", location: "LVP" }],
  units_by_power: { ENGLAND: [] }, supply_centers: { LON: "ENGLAND", EDI: "ENGLAND", LVP: "ENGLAND" },
  ownership: { LON: "ENGLAND", EDI: "ENGLAND", LVP: "ENGLAND" }, dislodged: [], contested: [],
  players: {}, dummy_powers: [], auto_process: false, wait_flags: [], paused: false, private: false,
  phase_seconds: {}, deadline: null, phase_started_at: "", event_seq: 1, power: "ENGLAND", orders: {},
  submitted: {}, legal_orders: [], seats: { ENGLAND: { status: "player", missed: 0 }, RUSSIA: { status: "player", missed: 0 } },
  open_seats: [], civil_disorder: [], votes: {}, result: null, demo: false, settings: {},
  owed: { builds: 0, disbands: 0 }, press: "full", anonymous: false, unread: 0,
  fog: { visible: ["CLY", "EDI", "ENG", "IRI", "LON", "LVP", "NAO", "NTH", "NWG", "WAL", "YOR"], centres: { ENGLAND: 3, RUSSIA: 4 } },
} as unknown as GameView;

describe("fog of war", () => {
  it("counts centres from the server's public counts, not from the owners it may see", () => {
    expect(centreCounts(fogged).get("RUSSIA")).toBe(4);
    render(<GameInfo view={fogged} token={null} onChange={() => {}} />);
    expect(screen.getByRole("row", { name: /Russia/ }).textContent).toContain("4");
    expect(screen.getByText(/fog of war/)).toBeTruthy();
  });

  it("reads a fogged board and says what is unknown", () => {
    expect(boardRows(fogged, null).map((r) => r.id)).toEqual(["EDI", "LON", "LVP"]);
    render(<BoardText view={fogged} variant={null} />);
    expect(screen.getByTestId("fog-note").textContent).toContain("you see 11 provinces");
  });

  it("an observer's fogged view (nothing seen, no fields to spare) still renders", () => {
    const observer = { ...fogged, power: null, units: [], ownership: {}, supply_centers: {},
      fog: { visible: [], centres: { ENGLAND: 3 } } } as unknown as GameView;
    render(<BoardText view={observer} variant={null} />);
    expect(screen.getByTestId("fog-note").textContent).toContain("only the players see the board");
  });

  it("asks for fog when creating a game only when it is chosen", () => {
    const form = { variant: "classical", rules: "2023", timed: false, hours: {}, useGrid: false, gridTime: "", gridZone: "UTC",
      gridDays: {}, gridGap: "60", auto_process: true, reminder_minutes: "60", private: false, join_password: "",
      press: "full", anonymous: false, fog: true, draw_votes: "secret", max_year: "", nmr_extensions: "0",
      civil_disorder_after: "2", dummy_powers: [], demo: false, demo_power: "", notify: "", seat: "any", name: "",
      game: "diplomacy" } as unknown as Parameters<typeof requestBody>[0];
    expect(requestBody(form).fog).toBe(true);
    expect(requestBody({ ...form, fog: false }).fog).toBeUndefined();
  });
});
