import { useState } from "react";
import { ApiError, call } from "../api";
import type { GameView } from "../types";
import { explain, powerName } from "../words";


/** The result in one sentence: "France won alone.", "A draw between England, France." */
export function resultSentence(result: NonNullable<GameView["result"]>): string {
  const names = result.winners.map(powerName).join(", ");
  switch (result.kind) {
    case "solo": return `${names} won alone.`;
    case "concession": return `${names} won by concession.`;
    case "draw": return `A draw between ${names}.`;
    case "year_limit": return `The last year was played: a draw between ${names}.`;
    default: return "The game was abandoned.";
  }
}

/**
 * Each power's centres: in a fog game the server's public counts (the owners shown are only
 * those the caller sees), else counted from the owners.
 */
export function centreCounts(view: GameView): Map<string, number> {
  if (view.fog) return new Map(Object.entries(view.fog.centres ?? {}));
  const counts = new Map<string, number>();
  Object.values(view.supply_centers ?? {}).forEach((p) => counts.set(p, (counts.get(p) ?? 0) + 1));
  return counts;
}

/** The table: who plays what, supply centres, draw and concede votes, and the result. */
export function GameInfo({ view, token, onChange }: { view: GameView; token: string | null; onChange: () => void }) {
  const [error, setError] = useState<ApiError | null>(null);
  const mine = view.power ? view.votes[view.power] : undefined;
  const counts = centreCounts(view);

  async function vote(kind: "draw" | "concede", value: boolean) {
    setError(null);
    try {
      await call("POST", `/games/${view.game_id}/votes`, { token, body: { [kind]: value } });
      onChange();
    } catch (e) {
      setError(e as ApiError);
    }
  }

  return (
    <section className="game-info" aria-labelledby="info-title">
      <h2 id="info-title">The table</h2>
      {view.result && (
        <div className="result" role="status" data-testid="result">
          <strong>Game over:</strong> {resultSentence(view.result)}
        </div>
      )}
      <table className="powers">
        <thead><tr><th scope="col">Power</th><th scope="col">Seat</th><th scope="col">Centres</th><th scope="col">Orders</th></tr></thead>
        <tbody>
          {Object.keys(view.seats).sort().map((p) => (
            <tr key={p} className={p === view.power ? "me" : ""}>
              <td><span className={`swatch s-${p}`} aria-hidden="true" />{powerName(p)}{p === view.power ? " (you)" : ""}</td>
              <td>{view.seats[p].status === "player" ? "played" : view.seats[p].status.replace("_", " ")}</td>
              <td>{view.result?.centers[p] ?? counts.get(p) ?? 0}</td>
              <td>{p in view.submitted ? (view.submitted[p] ? "✓ in" : "waiting") : "—"}{view.wait_flags.includes(p) ? " · wait" : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {view.power && view.status === "ACTIVE" && (
        <fieldset className="votes">
          <legend>Votes</legend>
          <label><input type="checkbox" checked={mine?.draw ?? false} onChange={(e) => vote("draw", e.target.checked)} /> I vote for a draw among the survivors</label>
          <label><input type="checkbox" checked={mine?.concede ?? false} onChange={(e) => vote("concede", e.target.checked)} /> I concede to the leader</label>
          {view.settings.draw_votes === "public" && <p className="muted">Votes are public: {Object.entries(view.votes).filter(([, v]) => v.draw).map(([p]) => powerName(p)).join(", ") || "no draw votes yet"}.</p>}
        </fieldset>
      )}
      {error && <p className="error" role="alert">{explain(error.code, error.message)}</p>}
      <p className="muted">Game {view.game_id} · {view.variant} · rules {view.rules} · press {view.press}{view.anonymous ? " · anonymous" : ""}{view.fog ? " · fog of war" : ""}{view.private ? " · private" : ""}</p>
    </section>
  );
}
