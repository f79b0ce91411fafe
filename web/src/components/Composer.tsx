import { useState } from "react";
import { powerName } from "../words";

interface Props {
  me: string;
  powers: string[];
  /** Recipients preset by the open channel (its members but me), or "ALL". */
  preset?: string[] | "ALL";
  publicOnly?: boolean;
  onSend: (to: string[] | "ALL", text: string) => Promise<boolean>;
}

/** Write to one power, several, or everyone. Sends to exactly the ticked powers; Ctrl+Enter sends. */
export function Composer({ me, powers, preset, publicOnly, onSend }: Props) {
  const others = powers.filter((p) => p !== me);
  const [all, setAll] = useState(publicOnly || preset === "ALL" || preset === undefined);
  const [to, setTo] = useState<string[]>(Array.isArray(preset) ? preset : []);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const ready = text.trim().length > 0 && (all || to.length > 0) && !busy;

  async function send() {
    if (!ready) return;
    setBusy(true);
    const ok = await onSend(all ? "ALL" : [...to].sort(), text.trim());
    setBusy(false);
    if (ok) setText("");
  }

  return (
    <form className="composer" onSubmit={(e) => { e.preventDefault(); void send(); }} aria-label="Write a message">
      <fieldset className="recipients">
        <legend>To</legend>
        <label><input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> Everyone (public)</label>
        {!all && !publicOnly && others.map((p) => (
          <label key={p}>
            <input type="checkbox" checked={to.includes(p)} name={`to-${p}`}
              onChange={(e) => setTo(e.target.checked ? [...to, p] : to.filter((x) => x !== p))} /> {powerName(p)}
          </label>
        ))}
      </fieldset>
      <label htmlFor="press-text" className="sr-only">Message</label>
      <textarea id="press-text" rows={3} maxLength={4000} value={text} placeholder="Your message"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); void send(); } }} />
      <button type="submit" disabled={!ready}>
        {busy ? "Sending…" : all ? "Send to everyone" : to.length ? `Send to ${to.map(powerName).join(", ")}` : "Choose who to write to"}
      </button>
    </form>
  );
}
