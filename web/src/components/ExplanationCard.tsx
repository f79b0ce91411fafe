import type { ResultEntry } from "../types";
import { powerName, resultWords, whyWords } from "../words";

interface Props {
  /** The results of the order tapped on the board (none yet: say how to choose one). */
  chosen: ResultEntry[];
  /** A what-if preview: the results are predicted, not what happened. */
  preview?: boolean;
  /** Put the explanation away (the board shows every order again). */
  onClose?: () => void;
}

/**
 * Over the board in results mode: why the order whose arrow (or unit) was tapped ended as it
 * did, in the server's words. A live region, so a keyboard user hears it after Enter on a unit.
 */
export function ExplanationCard({ chosen, preview, onClose }: Props) {
  return (
    <section className={`explain-card${preview ? " preview" : ""}${chosen.length ? "" : " empty"}`} role="status" aria-label="Why"
      data-testid="explanation">
      {chosen.length > 0 && onClose && <button className="link close" aria-label="Close the explanation" onClick={onClose}>×</button>}
      {chosen.length === 0
        ? <p className="muted">Tap an arrow or a unit to see why its order {preview ? "would end" : "ended"} as it did.</p>
        : chosen.map((r, i) => (
          <p key={i} className={`r-${r.result}`}>
            <span className="order-text">{r.order_str}</span> <span className="muted">({powerName(r.power)})</span>{" "}
            <span className="outcome">{preview ? "predicted: " : ""}{resultWords(r.result)}{r.dislodged ? ", dislodged" : ""}</span>
            {whyWords(r) && <span className="explanation">{whyWords(r)}</span>}
          </p>
        ))}
    </section>
  );
}
