import { useEffect, useState } from "react";
import { ApiError, call } from "../api";
import { unitOf } from "../orders";
import type { GameView, WhatIfAnswer } from "../types";
import { explain, explainRejection, phaseWords, powerName } from "../words";
import { OrderBox } from "./OrderBox";
import { ResultsTable } from "./ResultsTable";

interface Props {
  gameId: string;
  token: string | null;
  view: GameView;
  /** My pending orders: what the preview tests (the server reads them; none means all hold). */
  pending: string[];
  preview: WhatIfAnswer | null;
  onPreview: (answer: WhatIfAnswer | null) => void;
  /** The province whose predicted order the board explains (its rows are marked). */
  chosenOrder?: string | null;
}

type Guesses = Record<string, string[]>;

/**
 * What if…? (issue 31 item 5): my pending orders against orders I guess for the others,
 * adjudicated by `POST /games/{id}/whatif` — which stores nothing and reads no other power's
 * pending orders. The guesses are typed or picked per power with the order box's completion,
 * over that power's legal orders (`POST /adjudicate/legal_orders` for the view's position: a
 * menu only, the server judges every guess again). Guesses stay in this page, sent to nobody
 * but the preview; a power without guesses holds. The page shows the answer on the board.
 */
export function WhatIfPanel({ gameId, token, view, pending, preview, onPreview, chosenOrder }: Props) {
  const [open, setOpen] = useState(false);
  const [menus, setMenus] = useState<Guesses | null>(null);
  const [power, setPower] = useState("");
  const [guesses, setGuesses] = useState<Guesses>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  useEffect(() => { setMenus(null); setGuesses({}); }, [view.phase]);
  useEffect(() => {
    if (!open || menus) return;
    let live = true;
    legalOrdersOfOthers(view).then((m) => {
      if (!live) return;
      setMenus(m);
      setPower((p) => p || Object.keys(m)[0] || "");
    }).catch((e: ApiError) => { if (live) setError(e); });
    return () => { live = false; };
  }, [open, menus, view]);

  function guess(order: string) {
    const unit = unitOf(order);
    setGuesses((g) => ({ ...g, [power]: [...(g[power] ?? []).filter((o) => !unit || unitOf(o) !== unit), order] }));
    onPreview(null);
  }
  function drop(who: string, order: string) {
    setGuesses((g) => ({ ...g, [who]: (g[who] ?? []).filter((o) => o !== order) }));
    onPreview(null);
  }
  async function run() {
    setBusy(true);
    try {
      const answer = await call<WhatIfAnswer>("POST", `/games/${gameId}/whatif`,
        { token, readOnly: true, body: { orders: guesses, phase: view.phase } });
      onPreview(answer);
      setError(null);
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  }

  const listed = Object.entries(guesses).flatMap(([who, orders]) => orders.map((o) => ({ who, o })));
  const refused = preview?.orders.filter((o) => !o.ok) ?? [];
  return (
    <details className="whatif" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>What if…? Try my orders against guesses</summary>
      <p className="hint">Guess what the others will order; the server adjudicates your pending orders against
        those guesses. Nothing is sent, stored or shown to anyone. A power you guess nothing for holds.</p>
      {pending.length === 0 && <p className="hint">You have no orders yet: in the preview your units hold.</p>}
      {menus && Object.keys(menus).length > 0 && <>
        <label className="guess-power">Guess for{" "}
          <select value={power} onChange={(e) => setPower(e.target.value)}>
            {Object.keys(menus).map((p) => <option key={p} value={p}>{powerName(p)}</option>)}
          </select>
        </label>
        <OrderBox legal={menus[power] ?? []} onOrder={guess} label={`Guess an order for ${powerName(power)}`}
          hint="↑ ↓ choose · Tab completes · Enter adds the guess" example={exampleOf(menus[power] ?? [])} />
      </>}
      {menus && Object.keys(menus).length === 0 && <p className="muted">Nobody else has an order to give this phase.</p>}
      {listed.length > 0 && (
        <ul className="guesses" aria-label="My guesses" data-testid="guesses">
          {listed.map(({ who, o }) => (
            <li key={`${who}-${o}`}><span><span className="muted">{powerName(who)}:</span> <span className="order-text">{o}</span></span>
              <button className="link" aria-label={`Remove guess ${o}`} onClick={() => drop(who, o)}>remove</button></li>
          ))}
        </ul>
      )}
      <div className="whatif-actions">
        <button onClick={run} disabled={busy} data-testid="whatif-run">{busy ? "Adjudicating…" : "Preview the results"}</button>
        {preview && <button className="secondary" onClick={() => onPreview(null)}>Close the preview</button>}
      </div>
      {error && <p className="error" role="alert">{explain(error.code, error.message)}</p>}
      {preview && <>
        {refused.length > 0 && (
          <ul className="rejected" aria-label="Guesses not read">
            {refused.map((r) => <li key={`${r.power}-${r.order}`}><strong>{r.order}</strong> ({powerName(r.power)}) was left out:{" "}
              {explainRejection({ code: r.code ?? "", engine_code: r.engine_code, message: r.message ?? "" })}</li>)}
          </ul>
        )}
        <ResultsTable results={preview.resolution.results} notes={preview.resolution.notes} testId="preview-results"
          caption={`Predicted, not sent: ${phaseWords(preview.phase)}`} chosen={chosenOrder} />
      </>}
    </details>
  );
}

/** A move of the power's, to show what a guess looks like. */
const exampleOf = (legal: string[]): string => legal.find((o) => / - /.test(o) && !/ [SC] /.test(o)) ?? legal[0] ?? "A MUN H";

/** Every legal order of each other power with a decision this phase, for the guess box's menu. */
async function legalOrdersOfOthers(view: GameView): Promise<Guesses> {
  const state = {
    year: view.year, season: view.season, phase_type: view.phase_type, units: view.units,
    ownership: view.ownership, dislodged: view.dislodged, contested: view.contested ?? [],
    status: "ACTIVE", winner: null,
  };
  const answer = await call<{ legal_orders: Guesses }>("POST", "/adjudicate/legal_orders",
    { readOnly: true, body: { variant: view.variant, rules: view.rules, state } });
  return Object.fromEntries(Object.entries(answer.legal_orders).filter(([p]) => p !== view.power));
}
