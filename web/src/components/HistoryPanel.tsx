import { useEffect, useState } from "react";
import { ApiError, call } from "../api";
import type { HistoryPhase } from "../types";
import { explain, phaseWords, powerName, reasonWords, resultWords } from "../words";

interface Props {
  gameId: string;
  tick: number;
  /** The phase shown (its resolution map is drawn large by the page). */
  chosen: string | null;
  setChosen: (phase: string | null | ((was: string | null) => string | null)) => void;
}

/** Phase by phase: every order with its result and the reason (the page draws the phase's map). */
export function HistoryPanel({ gameId, tick, chosen, setChosen }: Props) {
  const [phases, setPhases] = useState<HistoryPhase[]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    call<{ phases: HistoryPhase[] }>("GET", `/games/${gameId}/history`).then((h) => {
      setPhases(h.phases);
      setChosen((c) => c ?? h.phases.at(-1)?.phase ?? null);
    }).catch(setError);
  }, [gameId, tick, setChosen]);

  const index = phases.findIndex((p) => p.phase === chosen);
  const entry = index >= 0 ? phases[index] : null;
  if (error) return <p className="error" role="alert">{explain(error.code, error.message)}</p>;
  if (!phases.length) return <p className="muted">No phase has been played yet.</p>;
  const byPower = new Map<string, HistoryPhase["resolution"]["results"]>();
  entry?.resolution.results.forEach((r) => byPower.set(r.power, [...(byPower.get(r.power) ?? []), r]));
  return (
    <section className="history" aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <div className="phase-nav">
        <button disabled={index <= 0} onClick={() => setChosen(phases[index - 1].phase)} aria-label="Previous phase">◀</button>
        <label className="sr-only" htmlFor="history-phase">Phase</label>
        <select id="history-phase" value={chosen ?? ""} onChange={(e) => setChosen(e.target.value)}>
          {phases.map((p) => <option key={p.phase} value={p.phase}>{phaseWords(p.phase)}</option>)}
        </select>
        <button disabled={index >= phases.length - 1} onClick={() => setChosen(phases[index + 1].phase)} aria-label="Next phase">▶</button>
      </div>
      {entry && <>
        {entry.resolution.nmr && entry.resolution.nmr.length > 0 && <p className="muted">No orders from {entry.resolution.nmr.map(powerName).join(", ")}.</p>}
        <table className="results" data-testid="results">
          <thead><tr><th scope="col">Power</th><th scope="col">Order</th><th scope="col">Result</th></tr></thead>
          <tbody>
            {[...byPower.entries()].sort().flatMap(([power, results]) => {
              if (results.every((r) => r.reason?.code === "NO_ORDER")) {
                return [<tr key={power} className="unordered"><td>{powerName(power)}</td>
                  <td colSpan={2}>no orders: {results.map((r) => r.order_str.replace(/ H$/, "")).join(", ")} held</td></tr>];
              }
              return results.map((r, i) => (
                <tr key={`${power}-${i}`} className={`r-${r.result}${r.reason?.code === "NO_ORDER" ? " unordered" : ""}`}>
                  <td>{i === 0 ? powerName(power) : ""}</td>
                  <td>{r.order_str}</td>
                  <td><span className="outcome">{resultWords(r.result)}{r.dislodged ? ", dislodged" : ""}</span>
                    {r.reason && <span className="why"> — {reasonWords(r.reason)}</span>}
                    {r.retreat_options.length > 0 && <span className="why"> (may retreat to {r.retreat_options.join(", ")})</span>}</td>
                </tr>
              ));
            })}
          </tbody>
        </table>
      </>}
    </section>
  );
}
