import type { SubmitAnswer } from "../types";
import { explainRejection } from "../words";
import type { LegalOrder } from "../orders";
import { OrderBox } from "./OrderBox";

export interface Sending { order: string; attempt: number }

interface Props {
  pending: string[];
  legal: string[];
  last: SubmitAnswer | null;
  sending: Sending | null;
  choices: LegalOrder[];
  hint: string;
  owed: { builds: number; disbands: number };
  phaseType: string;
  submitted: boolean;
  onOrder: (order: string) => void;
  onChoose: (order: LegalOrder) => void;
  onRemove: (order: string) => void;
  onHoldAll: () => void;
}

const CHOICE_WORDS: Record<string, string> = { H: "Hold", M: "Move", SH: "Support holding", SM: "Support", C: "Convoy", R: "Retreat", D: "Disband", B: "Build", W: "Waive" };

/** My orders for this phase: what the server holds, what it refused and why, and how to add more. */
export function OrderPanel(p: Props) {
  return (
    <section className="orders" aria-labelledby="orders-title">
      <h2 id="orders-title">My orders</h2>
      {p.phaseType === "ADJUSTMENT" && (p.owed.builds > 0 || p.owed.disbands > 0) && (
        <p className="owed">{p.owed.builds > 0 ? `You may build ${p.owed.builds} unit${p.owed.builds > 1 ? "s" : ""}: click a home centre.` : `You must remove ${p.owed.disbands} unit${p.owed.disbands > 1 ? "s" : ""}: click it.`}</p>
      )}
      {p.legal.length === 0 && <p className="muted">Nothing for you to order this phase.</p>}
      {p.hint && <p className="hint" role="status">{p.hint}</p>}
      {p.choices.length > 0 && (
        <div className="choices" role="group" aria-label="Which order?">
          {p.choices.map((c) => <button key={c.text} onClick={() => p.onChoose(c)}>{CHOICE_WORDS[c.kind]}: {c.text}</button>)}
        </div>
      )}
      <ul className="my-orders" data-testid="my-orders">
        {p.pending.length === 0 && p.legal.length > 0 && <li className="muted">{p.submitted ? "Submitted: every unit holds." : "No orders yet: click a unit on the map, or type below."}</li>}
        {p.pending.map((o) => (
          <li key={o}>
            <span className="order-text">{o}</span>
            <button className="link" aria-label={`Remove ${o}`} onClick={() => p.onRemove(o)}>remove</button>
          </li>
        ))}
      </ul>
      {p.sending && <p className="sending" role="status">Sending {p.sending.order}{p.sending.attempt > 0 ? ` — connection trouble, retry ${p.sending.attempt}…` : "…"}</p>}
      {p.last && p.last.rejected.length > 0 && (
        <ul className="rejected" role="alert" aria-label="Refused orders">
          {p.last.rejected.map((r) => <li key={r.order}><strong>{r.order}</strong> was refused: {explainRejection(r)} <span className="code">({r.engine_code || r.code})</span></li>)}
        </ul>
      )}
      {p.last && p.last.accepted.length > 0 && p.last.rejected.length === 0 && (
        <p className="accepted" role="status">Accepted: {p.last.accepted.join(", ")}</p>
      )}
      <OrderBox legal={p.legal} onOrder={p.onOrder} />
      {p.pending.length === 0 && !p.submitted && p.legal.length > 0 && (
        <button onClick={p.onHoldAll}>{p.phaseType === "ADJUSTMENT" ? "Submit: nothing to build" : "Submit: all units hold"}</button>
      )}
    </section>
  );
}
