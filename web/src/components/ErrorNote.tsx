import type { ApiError } from "../api";
import { explain } from "../words";

/** An API error in words, with the code for whoever reports it. */
export function ErrorNote({ error }: { error: ApiError | null }) {
  if (!error) return null;
  const fields = Array.isArray(error.body.errors)
    ? (error.body.errors as { loc?: unknown[]; msg?: string }[]).map((e) => `${(e.loc ?? []).slice(1).join(".")}: ${e.msg}`)
    : [];
  return (
    <div className="error" role="alert">
      {explain(error.code, error.message)} <span className="code">({error.code})</span>
      {fields.length > 0 && <ul>{fields.map((f) => <li key={f}>{f}</li>)}</ul>}
    </div>
  );
}
