import { useId, useState } from "react";
import { complete } from "../completion";

/**
 * Type an order; the legal orders that match are offered (arrow keys and Enter, or a click).
 * Enter on a text that matches nothing still sends it, so the server's rejection (in words)
 * teaches the grammar instead of a silent refusal.
 */
export function OrderBox({ legal, onOrder, disabled, label = "Type an order", hint = "↑ ↓ choose · Tab completes · Enter sends",
  example = "A PAR - BUR" }: {
  legal: string[]; onOrder: (order: string) => void; disabled?: boolean;
  /** The box's name, the keys' hint and an example order (the what-if panel's box guesses
   * other powers' orders). */
  label?: string; hint?: string; example?: string;
}) {
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const id = useId();
  const options = complete(legal, text);
  const open = options.length > 0;

  function pick(order: string) {
    onOrder(order);
    setText("");
    setActive(0);
  }
  function onKeyDown(e: React.KeyboardEvent<HTMLInputElement>) {
    if (e.key === "ArrowDown" && open) { e.preventDefault(); setActive((a) => (a + 1) % options.length); }
    else if (e.key === "ArrowUp" && open) { e.preventDefault(); setActive((a) => (a - 1 + options.length) % options.length); }
    else if (e.key === "Tab" && open && text.toUpperCase() !== options[active]) { e.preventDefault(); setText(options[active]); }
    else if (e.key === "Escape") { setText(""); setActive(0); }
    else if (e.key === "Enter") {
      e.preventDefault();
      const chosen = open ? options[active] : text.trim();
      if (chosen) pick(chosen);
    }
  }

  return (
    <div className="order-box">
      <label htmlFor={id}>{label}</label>
      <input id={id} role="combobox" aria-expanded={open} aria-controls={`${id}-list`} aria-autocomplete="list"
        aria-activedescendant={open ? `${id}-${active}` : undefined} value={text} disabled={disabled}
        placeholder={`e.g. ${example}`} autoComplete="off" spellCheck={false}
        onChange={(e) => { setText(e.target.value); setActive(0); }} onKeyDown={onKeyDown} />
      {open && (
        <ul id={`${id}-list`} role="listbox" className="completions">
          {options.map((o, i) => (
            <li key={o} id={`${id}-${i}`} role="option" aria-selected={i === active}
              onMouseDown={(e) => { e.preventDefault(); pick(o); }}>{o}</li>
          ))}
        </ul>
      )}
      <p className="hint">{hint}</p>
    </div>
  );
}
