import { describe, expect, it } from "vitest";
import { orderProvince, orderProvinces, resultsAt, verdictsOf } from "./results";
import type { ResultEntry } from "./types";

const entry = (order: Record<string, unknown>, result = "OK"): ResultEntry => ({
  order, result, dislodged: false, retreat_options: [], power: String(order.power), order_str: "",
});

describe("results on the board", () => {
  it("names an order by its unit's province, as the map's data-order does (a build by its site)", () => {
    expect(orderProvince(entry({ type: "MOVE", power: "RUSSIA", unit: "STP/SC", dest: "BOT" }))).toBe("STP");
    expect(orderProvince(entry({ type: "BUILD", power: "FRANCE", location: "BRE", kind: "F" }))).toBe("BRE");
    expect(orderProvince(entry({ type: "WAIVE", power: "TURKEY" }))).toBe("");
  });

  it("finds the results drawn at a province, and every province with one", () => {
    const rs = [entry({ type: "MOVE", power: "FRANCE", unit: "PAR", dest: "BUR" }), entry({ type: "WAIVE", power: "TURKEY" })];
    expect(resultsAt(rs, "PAR")).toEqual([rs[0]]);
    expect(resultsAt(rs, null)).toEqual([]);
    expect([...orderProvinces(rs)]).toEqual(["PAR"]);
  });

  it("marks a preview's orders ok or fail; a second order for the unit that failed keeps it failed", () => {
    const rs = [
      entry({ type: "MOVE", power: "FRANCE", unit: "BUR", dest: "MUN" }, "BOUNCE"),
      entry({ type: "MOVE", power: "FRANCE", unit: "MAO", dest: "POR" }, "OK"),
      entry({ type: "HOLD", power: "FRANCE", unit: "PAR" }, "VOID"),
      entry({ type: "MOVE", power: "FRANCE", unit: "PAR", dest: "PIC" }, "OK"),
    ];
    expect(verdictsOf(rs)).toEqual({ BUR: "fail", MAO: "ok", PAR: "fail" });
  });
});
