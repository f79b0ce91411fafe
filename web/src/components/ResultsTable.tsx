import type { PhaseNote, ResultEntry } from "../types";
import { byPower, orderProvince } from "../results";
import { powerName, resultWords, whyWords } from "../words";

interface Props {
  results: ResultEntry[];
  notes?: PhaseNote[];
  nmr?: string[] | null;
  /** The table's test id ("results", or "preview-results" for a what-if). */
  testId?: string;
  caption?: string;
  /** The province whose order is explained on the board: its rows are marked too. */
  chosen?: string | null;
}

/**
 * Every order of a phase with its result and, in a row under it, the server's explanation (why
 * it ended so, in the words of engine/explain.py; a row of its own so that on a phone the
 * sentence runs under the order and result columns together, not down a narrow column); above them what the phase sequence did that no order
 * asked for (a unit disbanded for lack of a retreat, a phase skipped), in the server's words too.
 * A power whose units all held without orders gets one line.
 */
export function ResultsTable({ results, notes, nmr, testId = "results", caption, chosen }: Props) {
  return (
    <>
      {notes && notes.length > 0 && (
        <ul className="phase-notes" aria-label="Also this phase" data-testid={`${testId}-notes`}>
          {notes.map((n, i) => <li key={i}>{n.text}</li>)}
        </ul>
      )}
      {nmr && nmr.length > 0 && <p className="muted">No orders from {nmr.map(powerName).join(", ")}.</p>}
      <table className="results" data-testid={testId}>
        {caption && <caption>{caption}</caption>}
        <thead><tr><th scope="col">Power</th><th scope="col">Order</th><th scope="col">Result</th></tr></thead>
        <tbody>
          {byPower(results).flatMap(([power, rows]) => {
            if (rows.every((r) => r.reason?.code === "NO_ORDER")) {
              return [<tr key={power} className="unordered"><td>{powerName(power)}</td>
                <td colSpan={2}>no orders: {rows.map((r) => r.order_str.replace(/ H$/, "")).join(", ")} held</td></tr>];
            }
            return rows.flatMap((r, i) => {
              const why = whyWords(r);
              const marked = chosen && orderProvince(r) === chosen ? " is-chosen" : "";
              const row = (
                <tr key={`${power}-${i}`} className={`r-${r.result}${r.reason?.code === "NO_ORDER" ? " unordered" : ""}${why ? " explained" : ""}${marked}`}>
                  <td>{i === 0 ? powerName(power) : ""}</td>
                  <td>{r.order_str}</td>
                  <td><span className="outcome">{resultWords(r.result)}{r.dislodged ? ", dislodged" : ""}</span>
                    {r.retreat_options.length > 0 && <span className="why"> (may retreat to {r.retreat_options.join(", ")})</span>}</td>
                </tr>
              );
              // the sentence under its order, as wide as the order and result columns together
              return why ? [row, <tr key={`${power}-${i}-why`} className={`why-row${marked}`}><td /><td colSpan={2}>{why}</td></tr>] : [row];
            });
          })}
        </tbody>
      </table>
    </>
  );
}
