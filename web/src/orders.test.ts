import { describe, expect, it } from "vitest";
import { click, EMPTY, parseAll, parseLegal, targets, unitOf } from "./orders";

// France's legal orders at S1901M, as the view lists them (engine.legal_orders, sorted), trimmed.
const FRANCE = parseAll([
  "A MAR - BUR", "A MAR - GAS", "A MAR - SPA", "A MAR H", "A MAR S A PAR - BUR",
  "A PAR - BUR", "A PAR - GAS", "A PAR - PIC", "A PAR H", "A PAR S A MAR - BUR", "A PAR S F BRE",
  "F BRE - MAO", "F BRE - PIC", "F BRE H", "F BRE S A PAR - PIC",
]);

describe("parseLegal", () => {
  it("reads every order kind of the engine's grammar", () => {
    expect(parseLegal("F MAO - SPA/NC")).toMatchObject({ kind: "M", unit: "MAO", dest: "SPA" });
    expect(parseLegal("A LON - BEL VIA")).toMatchObject({ kind: "M", unit: "LON", dest: "BEL" });
    expect(parseLegal("F NTH C A LON - BEL")).toMatchObject({ kind: "C", unit: "NTH", target: "LON", dest: "BEL" });
    expect(parseLegal("F STP/SC S A MOS - LVN")).toMatchObject({ kind: "SM", unit: "STP", target: "MOS", dest: "LVN" });
    expect(parseLegal("A PAR S F BRE")).toMatchObject({ kind: "SH", unit: "PAR", target: "BRE" });
    expect(parseLegal("A PAR R BUR")).toMatchObject({ kind: "R", dest: "BUR" });
    expect(parseLegal("BUILD F STP/NC")).toMatchObject({ kind: "B", unit: "STP" });
    expect(parseLegal("WAIVE")).toMatchObject({ kind: "W" });
    expect(parseLegal("nonsense")).toBeNull();
  });
});

describe("click: a unit, then a target", () => {
  it("enters a move at once when one order fits", () => {
    const first = click(FRANCE, EMPTY, "PAR");
    expect(first.selection).toEqual({ unit: "PAR", via: null });
    const second = click(FRANCE, first.selection, "PIC");
    expect(second.choices.map((o) => o.text)).toEqual(["A PAR - PIC"]);
    expect(second.selection).toEqual(EMPTY);
  });

  it("holds when the unit's own province is clicked again", () => {
    const step = click(FRANCE, { unit: "PAR", via: null }, "PAR");
    expect(step.choices.map((o) => o.text)).toEqual(["A PAR H"]);
  });

  it("supports by clicking the supported unit, then where it goes", () => {
    const onUnit = click(FRANCE, { unit: "MAR", via: null }, "PAR");
    expect(onUnit.selection).toEqual({ unit: "MAR", via: "PAR" });
    const done = click(FRANCE, onUnit.selection, "BUR");
    expect(done.choices.map((o) => o.text)).toEqual(["A MAR S A PAR - BUR"]);
  });

  it("offers the move while waiting for a support's target, when both fit", () => {
    const step = click(FRANCE, { unit: "PAR", via: null }, "MAR");
    expect(step.selection).toEqual({ unit: "PAR", via: "MAR" });
    expect(step.choices).toEqual([]); // PAR cannot move to MAR: nothing else on offer
    const both = click(FRANCE, { unit: "BRE", via: null }, "PAR");
    expect(both.selection.via).toBe("PAR");
  });

  it("supports holding by clicking the supported unit twice", () => {
    const step = click(FRANCE, { unit: "PAR", via: "BRE" }, "BRE");
    expect(step.choices.map((o) => o.text)).toEqual(["A PAR S F BRE"]);
  });

  it("says so when the target is out of reach, and switches to another own unit", () => {
    expect(click(FRANCE, { unit: "PAR", via: null }, "MOS").hint).toMatch(/cannot reach MOS/);
    expect(click(FRANCE, { unit: "MAR", via: null }, "BRE").selection).toEqual({ unit: "BRE", via: null });
  });

  it("builds by clicking a home centre, offering army or fleet", () => {
    const winter = parseAll(["BUILD A MAR", "BUILD F MAR", "BUILD A PAR", "WAIVE"]);
    expect(click(winter, EMPTY, "MAR").choices.map((o) => o.text)).toEqual(["BUILD A MAR", "BUILD F MAR"]);
    expect(click(winter, EMPTY, "PAR").choices.map((o) => o.text)).toEqual(["BUILD A PAR"]);
  });

  it("removes a unit in winter with one click", () => {
    const removal = parseAll(["A PAR D", "F BRE D"]);
    const step = click(removal, EMPTY, "PAR");
    expect(step.choices.map((o) => o.text)).toEqual(["A PAR D"]);
    expect(step.selection).toEqual(EMPTY);
  });

  it("offers both coasts of a split-coast target", () => {
    const fleet = parseAll(["F MAO - SPA/NC", "F MAO - SPA/SC", "F MAO - POR"]);
    expect(click(fleet, { unit: "MAO", via: null }, "SPA").choices.map((o) => o.text)).toEqual(["F MAO - SPA/NC", "F MAO - SPA/SC"]);
  });

  it("highlights where the selected unit can go", () => {
    expect([...targets(FRANCE, { unit: "BRE", via: null })].sort()).toEqual(["MAO", "PAR", "PIC"]);
  });
});

describe("retractions", () => {
  it("names the unit of an order for a retraction", () => {
    expect(unitOf("A PAR - BUR")).toBe("A PAR");
    expect(unitOf("BUILD F STP/NC")).toBe("F STP/NC");
  });
});
