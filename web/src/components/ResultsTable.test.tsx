import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { ResultsTable } from "./ResultsTable";
import type { ResultEntry } from "../types";

const result = (power: string, order_str: string, result: string, text: string | null, code = "MOVED"): ResultEntry => ({
  order: { type: "MOVE", power, unit: order_str.split(" ")[1] }, result, dislodged: false, retreat_options: [], power, order_str,
  reason: { code, units: [], detail: "" },
  explanation: text === null ? null : { decision: "MOVE", strengths: [], units: {}, text },
});

describe("ResultsTable", () => {
  it("puts the server's explanation under each order, and never words a reason code itself", () => {
    render(<ResultsTable results={[
      result("FRANCE", "A PAR - BUR", "OK", "A PAR moved to BUR: its attack of 2 (supported by A MAR) beat A MUN moving there too (1)."),
      result("GERMANY", "A MUN - BUR", "BOUNCE", "A MUN's move to BUR was beaten by A PAR moving there too (2, supported by A MAR), against its attack of 1; A PAR moved in.", "PREVENTED"),
    ]} />);
    const why = screen.getByRole("row", { name: /^A MUN's move to BUR was beaten by A PAR/ });
    expect(why.previousElementSibling?.textContent).toBe("GermanyA MUN - BURbounced");
    expect(screen.getByTestId("results").textContent).not.toContain("stood off");
  });

  it("shows a phase stored before explanations with its result word alone", () => {
    render(<ResultsTable results={[result("FRANCE", "A PAR - BUR", "BOUNCE", null, "PREVENTED")]} />);
    expect(screen.getByRole("row", { name: "France A PAR - BUR bounced" })).toBeTruthy();
    expect(document.querySelectorAll("tr.why-row")).toHaveLength(0);
  });

  it("says in the server's words what the phase sequence did that no order asked for", () => {
    const notes = [{ kind: "DISBANDED", phase: "F1901R", powers: ["GERMANY"], units: ["A KIE"],
      text: "A KIE (Germany) was dislodged with nowhere to retreat and was disbanded at once." }];
    render(<ResultsTable results={[]} notes={notes} />);
    expect(screen.getByRole("list", { name: "Also this phase" }).textContent).toBe(notes[0].text);
  });

  it("marks the rows of the order explained on the board", () => {
    render(<ResultsTable results={[result("FRANCE", "A PAR - BUR", "OK", "A PAR moved to BUR.")]} chosen="PAR" />);
    expect(document.querySelectorAll("tr.is-chosen")).toHaveLength(2);
  });
});
