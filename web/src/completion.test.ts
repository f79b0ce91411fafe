import { describe, expect, it } from "vitest";
import { complete } from "./completion";

// France's legal orders (engine.legal_orders, as the view lists them) with F BRE, A MAR, A PAR,
// F MAO against A LON, F ENG (England) and A TUN, F WES, F LYO (Italy): convoys abound, and
// with them the convoy-only supports ("A MAR S A LON - GAS").
const LEGAL: string[] = [
  "A MAR - BEL VIA", "A MAR - BRE VIA", "A MAR - BUR", "A MAR - GAS", "A MAR - GAS VIA", "A MAR - LON VIA",
  "A MAR - NAF VIA", "A MAR - PIC VIA", "A MAR - PIE", "A MAR - PIE VIA", "A MAR - POR VIA", "A MAR - SPA",
  "A MAR - SPA VIA", "A MAR - TUN VIA", "A MAR - TUS VIA", "A MAR - WAL VIA", "A MAR H",
  "A MAR S A LON - GAS", "A MAR S A LON - PIE", "A MAR S A LON - SPA", "A MAR S A PAR - BUR",
  "A MAR S A PAR - GAS", "A MAR S A TUN - GAS", "A MAR S A TUN - PIE", "A MAR S A TUN - SPA",
  "A MAR S F BRE - GAS", "A MAR S F LYO - PIE", "A MAR S F LYO - SPA/SC", "A MAR S F MAO - GAS",
  "A MAR S F MAO - SPA/NC", "A MAR S F MAO - SPA/SC", "A MAR S F WES - SPA/SC", "A PAR - BRE", "A PAR - BUR",
  "A PAR - GAS", "A PAR - PIC", "A PAR H", "A PAR S A LON - BRE", "A PAR S A LON - GAS",
  "A PAR S A LON - PIC", "A PAR S A MAR - BRE", "A PAR S A MAR - BUR", "A PAR S A MAR - GAS",
  "A PAR S A MAR - PIC", "A PAR S A TUN - BRE", "A PAR S A TUN - GAS", "A PAR S A TUN - PIC",
  "A PAR S F BRE", "A PAR S F BRE - GAS", "A PAR S F BRE - PIC", "A PAR S F ENG - BRE",
  "A PAR S F ENG - PIC", "A PAR S F MAO - BRE", "A PAR S F MAO - GAS", "F BRE - ENG", "F BRE - GAS",
  "F BRE - MAO", "F BRE - PIC", "F BRE H", "F BRE S A LON - GAS", "F BRE S A LON - PIC",
  "F BRE S A MAR - GAS", "F BRE S A MAR - PIC", "F BRE S A PAR - GAS", "F BRE S A PAR - PIC",
  "F BRE S A TUN - GAS", "F BRE S A TUN - PIC", "F BRE S F ENG", "F BRE S F ENG - MAO",
  "F BRE S F ENG - PIC", "F BRE S F MAO", "F BRE S F MAO - ENG", "F BRE S F MAO - GAS",
  "F BRE S F WES - MAO", "F MAO - BRE", "F MAO - ENG", "F MAO - GAS", "F MAO - IRI", "F MAO - NAF",
  "F MAO - NAO", "F MAO - POR", "F MAO - SPA/NC", "F MAO - SPA/SC", "F MAO - WES", "F MAO C A LON - GAS",
  "F MAO C A LON - MAR", "F MAO C A LON - NAF", "F MAO C A LON - PIE", "F MAO C A LON - POR",
  "F MAO C A LON - SPA", "F MAO C A LON - TUN", "F MAO C A LON - TUS", "F MAO C A MAR - BEL",
  "F MAO C A MAR - BRE", "F MAO C A MAR - GAS", "F MAO C A MAR - LON", "F MAO C A MAR - PIC",
  "F MAO C A MAR - POR", "F MAO C A MAR - WAL", "F MAO C A TUN - BEL", "F MAO C A TUN - BRE",
  "F MAO C A TUN - GAS", "F MAO C A TUN - LON", "F MAO C A TUN - PIC", "F MAO C A TUN - POR",
  "F MAO C A TUN - WAL", "F MAO H", "F MAO S A LON - BRE", "F MAO S A LON - GAS", "F MAO S A LON - NAF",
  "F MAO S A LON - POR", "F MAO S A LON - SPA", "F MAO S A MAR - BRE", "F MAO S A MAR - GAS",
  "F MAO S A MAR - NAF", "F MAO S A MAR - POR", "F MAO S A MAR - SPA", "F MAO S A PAR - BRE",
  "F MAO S A PAR - GAS", "F MAO S A TUN - BRE", "F MAO S A TUN - GAS", "F MAO S A TUN - NAF",
  "F MAO S A TUN - POR", "F MAO S A TUN - SPA", "F MAO S F BRE", "F MAO S F BRE - ENG",
  "F MAO S F BRE - GAS", "F MAO S F ENG", "F MAO S F ENG - BRE", "F MAO S F ENG - IRI",
  "F MAO S F LYO - SPA/SC", "F MAO S F LYO - WES", "F MAO S F WES", "F MAO S F WES - NAF",
  "F MAO S F WES - SPA/SC"
];

describe("completion ranked by what players type (issue 32)", () => {
  it("puts the typed unit's own orders first, moves before supports, convoy-only supports last", () => {
    const par = complete(LEGAL, "par", 40);
    expect(par.slice(0, 5)).toEqual(["A PAR - BRE", "A PAR - BUR", "A PAR - GAS", "A PAR - PIC", "A PAR H"]);
    expect(par[5]).toBe("A PAR S F BRE");
    expect(par.indexOf("A PAR S F BRE - GAS")).toBeLessThan(par.indexOf("A PAR S A LON - GAS"));
    const own = par.filter((o) => o.startsWith("A PAR"));
    expect(par.slice(0, own.length)).toEqual(own); // orders that merely name PAR come after
  });

  it("after \"F BRE - M\" offers the fleet's move, not another unit's support", () => {
    expect(complete(LEGAL, "F BRE - M")).toEqual(["F BRE - MAO", "F BRE S F ENG - MAO", "F BRE S F WES - MAO"]);
    expect(complete(LEGAL, "f bre-m")[0]).toBe("F BRE - MAO");
    expect(complete(LEGAL, "bre m")[0]).toBe("F BRE - MAO");
  });

  it("honours a typed order type and words cut short", () => {
    expect(complete(LEGAL, "mar s par")).toEqual(["A MAR S A PAR - BUR", "A MAR S A PAR - GAS"]);
    expect(complete(LEGAL, "mao c")[0]).toMatch(/^F MAO C /);
    expect(complete(LEGAL, "mar sp")[0]).toBe("A MAR - SPA");
    expect(complete(LEGAL, "mar - sp").slice(0, 2)).toEqual(["A MAR - SPA", "A MAR - SPA VIA"]);
    expect(complete(LEGAL, "a mar h")).toEqual(["A MAR H"]);
  });

  it("matches nothing for a word no order has, and nothing for an empty box", () => {
    expect(complete(LEGAL, "par mos")).toEqual([]);
    expect(complete(LEGAL, "  ")).toEqual([]);
  });

  it("completes builds by their site", () => {
    const winter = ["BUILD A MAR", "BUILD A PAR", "BUILD F BRE", "BUILD F MAR", "WAIVE"];
    expect(complete(winter, "mar")).toEqual(["BUILD A MAR", "BUILD F MAR"]);
    expect(complete(winter, "build f")).toEqual(["BUILD F BRE", "BUILD F MAR"]);
  });
});
