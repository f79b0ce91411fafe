import { describe, expect, it } from "vitest";
import { parseRoute } from "./router";

describe("the community's screens have hash routes (issue 34)", () => {
  it("names the archive, the leaderboard, a replay, a player and a tournament", () => {
    expect(parseRoute("#/archive")).toEqual({ name: "archive" });
    expect(parseRoute("#/leaderboard")).toEqual({ name: "leaderboard" });
    expect(parseRoute("#/replay/4874fddfea95")).toEqual({ name: "replay", gameId: "4874fddfea95" });
    expect(parseRoute("#/players/0a1b-2c3d")).toEqual({ name: "player", playerId: "0a1b-2c3d" });
    expect(parseRoute("#/tournaments/ab12cd")).toEqual({ name: "tournament", tournamentId: "ab12cd" });
  });

  it("sends anything else to the lobby, as before", () => {
    expect(parseRoute("#/replay/")).toEqual({ name: "lobby" });
    expect(parseRoute("#/players/a/b")).toEqual({ name: "lobby" });
  });
});
