import { describe, expect, it } from "vitest";
import { requestBody, START } from "./CreateGame";

describe("a new game's body (issue 34: scoring and joining by record)", () => {
  it("sends the scoring system and the minimums only when chosen", () => {
    const plain = requestBody(START);
    expect(plain).not.toHaveProperty("scoring");
    expect(plain).not.toHaveProperty("min_reliability");
    expect(plain).not.toHaveProperty("min_rating");
    const body = requestBody({ ...START, scoring: "c_diplo", min_reliability: "80", min_rating: "-2" });
    expect(body).toMatchObject({ scoring: "c_diplo", min_reliability: 80, min_rating: -2 });
  });
});
