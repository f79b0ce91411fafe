import { useEffect, useState } from "react";
import { ApiError, call } from "../api";
import type { HistoryPhase } from "../types";
import { explain, phaseWords } from "../words";
import { ResultsTable } from "./ResultsTable";

interface Props {
  gameId: string;
  tick: number;
  /** The phase shown (its resolution map is drawn large by the page). */
  chosen: string | null;
  setChosen: (phase: string | null | ((was: string | null) => string | null)) => void;
  /** Told the phase shown (the page explains its map's arrows from its results). */
  onEntry?: (entry: HistoryPhase | null) => void;
  /** The province whose order the board explains (its rows are marked). */
  chosenOrder?: string | null;
}

/** Phase by phase: every order with its result and why (the page draws the phase's map). */
export function HistoryPanel({ gameId, tick, chosen, setChosen, onEntry, chosenOrder }: Props) {
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
  useEffect(() => { onEntry?.(entry); }, [entry, onEntry]);
  if (error) return <p className="error" role="alert">{explain(error.code, error.message)}</p>;
  if (!phases.length) return <p className="muted">No phase has been played yet.</p>;
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
      {entry && <ResultsTable results={entry.resolution.results} notes={entry.resolution.notes} nmr={entry.resolution.nmr}
        chosen={chosenOrder} />}
    </section>
  );
}
