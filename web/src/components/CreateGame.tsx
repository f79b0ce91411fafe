import { useEffect, useState } from "react";
import { ApiError, call } from "../api";
import { go } from "../router";
import { saveSeat, session } from "../store";
import type { Variant } from "../types";
import { powerName } from "../words";
import { ErrorNote } from "./ErrorNote";

type Press = "full" | "public_only" | "none" | "rulebook";
const PHASES = ["MOVEMENT", "RETREAT", "ADJUSTMENT"] as const;

export interface Form {
  variant: string; rules: "2023" | "2000"; timed: boolean; hours: Record<string, string>;
  useGrid: boolean; gridTime: string; gridZone: string; gridDays: Record<string, string>; gridGap: string;
  auto_process: boolean; reminder_minutes: string; private: boolean; join_password: string;
  press: Press; anonymous: boolean; fog: boolean; draw_votes: "secret" | "public"; max_year: string;
  nmr_extensions: string; civil_disorder_after: string; dummy_powers: string[];
  demo: boolean; demo_power: string; notify: string; seat: string; name: string;
  game: "diplomacy" | "backgammon";
  scoring: string; min_reliability: string; min_rating: string;
}

export const START: Form = {
  variant: "classical", rules: "2023", timed: false, hours: { MOVEMENT: "24", RETREAT: "12", ADJUSTMENT: "12" },
  useGrid: false, gridTime: "20:00", gridZone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
  gridDays: { MOVEMENT: "1", RETREAT: "1", ADJUSTMENT: "1" }, gridGap: "60",
  auto_process: true, reminder_minutes: "60", private: false, join_password: "", press: "full",
  anonymous: false, fog: false, draw_votes: "secret", max_year: "", nmr_extensions: "0", civil_disorder_after: "2",
  dummy_powers: [], demo: false, demo_power: "", notify: "", seat: "any", name: "", game: "diplomacy",
  scoring: "", min_reliability: "", min_rating: "",
};

/** The scoring systems a game may be played for (engine/scoring.py; docs/community.md). */
export const SCORING: Record<string, string> = {
  draw_size: "Draw size", sum_of_squares: "Sum of squares", c_diplo: "C-Diplo (solo 100)",
  c_diplo_73: "C-Diplo (solo 73)", tribute: "Tribute", open_tribute: "OpenTribute",
};

/** POST /games for a backgammon game: a name and privacy; the Diplomacy settings do not apply. */
export function backgammonBody(f: Form): Record<string, unknown> {
  const body: Record<string, unknown> = { game: "backgammon" };
  if (f.name.trim()) body.name = f.name.trim();
  if (f.private) { body.private = true; if (f.join_password) body.join_password = f.join_password; }
  return body;
}

/** POST /games with every setting it takes (functions/schemas/api.py CreateGameRequest). */
export function requestBody(f: Form): Record<string, unknown> {
  const body: Record<string, unknown> = { variant: f.variant, rules: f.rules, auto_process: f.auto_process, press: f.press,
    anonymous: f.anonymous, draw_votes: f.draw_votes, nmr_extensions: Number(f.nmr_extensions),
    civil_disorder_after: Number(f.civil_disorder_after) };
  if (f.fog) body.fog = true;
  if (f.timed && !f.useGrid) {
    body.phase_seconds = Object.fromEntries(PHASES.map((p) => [p, Math.max(1, Math.round(Number(f.hours[p]) * 3600))]));
  }
  if (f.timed && f.useGrid) {
    body.deadline_at = { time: f.gridTime, zone: f.gridZone, min_gap_minutes: Number(f.gridGap),
      every_days: Object.fromEntries(PHASES.map((p) => [p, Number(f.gridDays[p])])) };
  }
  if (f.timed) body.reminder_seconds = Math.round(Number(f.reminder_minutes) * 60);
  if (f.private) { body.private = true; if (f.join_password) body.join_password = f.join_password; }
  if (f.max_year) body.max_year = Number(f.max_year);
  if (f.scoring) body.scoring = f.scoring;
  if (f.min_reliability) body.min_reliability = Number(f.min_reliability);
  if (f.min_rating) body.min_rating = Number(f.min_rating);
  if (f.name.trim()) body.name = f.name.trim();
  if (f.dummy_powers.length && !f.demo) body.dummy_powers = f.dummy_powers;
  if (f.demo) { body.demo = true; if (f.demo_power) body.demo_power = f.demo_power; }
  const targets = f.notify.split("\n").map((line) => line.trim()).filter(Boolean).map((line) => {
    const [type, value] = line.split(/\s+/, 2);
    return type === "telegram" ? { type, chat_id: value } : { type, url: value };
  });
  if (targets.length) body.notify = targets;
  return body;
}

export function CreateGame() {
  const [variants, setVariants] = useState<Variant[]>([]);
  const [form, setForm] = useState<Form>(START);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    call<{ variants: Variant[] }>("GET", "/variants").then((v) => setVariants(v.variants)).catch(setError);
  }, []);
  const powers = variants.find((v) => v.name === form.variant)?.powers ?? [];
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const backgammon = form.game === "backgammon";
      const made = await call<{ game_id: string; token: string; power?: string; player_token?: string }>("POST", "/games", {
        body: backgammon ? backgammonBody(form) : requestBody(form), token: session()?.id_token });
      saveSeat(made.game_id, { creatorToken: made.token, ...(made.player_token ? { power: made.power, token: made.player_token } : {}) });
      if (backgammon ? form.seat !== "none" : !form.demo && form.seat !== "none") {
        const joined = await call<{ power: string; token: string }>("POST", `/games/${made.game_id}/join`, {
          body: { ...(form.seat !== "any" ? { power: form.seat } : {}), ...(form.private && form.join_password ? { password: form.join_password } : {}) },
          token: session()?.id_token,
        });
        saveSeat(made.game_id, { power: joined.power, token: joined.token });
      }
      go(backgammon ? `/backgammon/${made.game_id}` : `/games/${made.game_id}`);
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="create card" onSubmit={submit} aria-labelledby="create-title">
      <h1 id="create-title">New game</h1>
      <label>Game <select value={form.game} onChange={(e) => setForm((f) => ({ ...f, game: e.target.value as Form["game"], seat: "any" }))} name="game">
        <option value="diplomacy">Diplomacy</option><option value="backgammon">Backgammon (two players)</option></select></label>
      {form.game === "backgammon" ? <BackgammonFields form={form} set={set} /> : <>
      <fieldset>
        <legend>Board</legend>
        <label>Name (shown in your list of games) <input value={form.name} maxLength={80} onChange={(e) => set("name", e.target.value)} name="name" placeholder="e.g. Friday night" /></label>
        <label>Variant <select value={form.variant} onChange={(e) => set("variant", e.target.value)} name="variant">
          {(variants.length ? variants.map((v) => v.name) : ["classical"]).map((v) => <option key={v}>{v}</option>)}
        </select></label>
        <label>Rulebook <select value={form.rules} onChange={(e) => set("rules", e.target.value as Form["rules"])}>
          <option value="2023">2023</option><option value="2000">2000</option></select></label>
        <label><input type="checkbox" checked={form.demo} onChange={(e) => set("demo", e.target.checked)} name="demo" /> Demo game: I play one power, the computer plays the others</label>
        {form.demo && <label>My power <select value={form.demo_power} onChange={(e) => set("demo_power", e.target.value)} name="demo_power">
          <option value="">random</option>{powers.map((p) => <option key={p} value={p}>{powerName(p)}</option>)}</select></label>}
        {!form.demo && <label>Take a seat <select value={form.seat} onChange={(e) => set("seat", e.target.value)} name="seat">
          <option value="any">any power</option><option value="none">no, I only run the game</option>
          {powers.map((p) => <option key={p} value={p}>{powerName(p)}</option>)}</select></label>}
        {!form.demo && <div className="checks" role="group" aria-label="Dummy powers (nobody plays them)">
          <span>Dummy powers:</span>
          {powers.map((p) => <label key={p}><input type="checkbox" checked={form.dummy_powers.includes(p)}
            onChange={(e) => set("dummy_powers", e.target.checked ? [...form.dummy_powers, p] : form.dummy_powers.filter((x) => x !== p))} /> {powerName(p)}</label>)}
        </div>}
        <label>Last year (empty: play to the end) <input inputMode="numeric" value={form.max_year} onChange={(e) => set("max_year", e.target.value)} placeholder="e.g. 1910" /></label>
        <label>Scoring <select value={form.scoring} onChange={(e) => set("scoring", e.target.value)} name="scoring">
          <option value="">none chosen</option>
          {Object.entries(SCORING).map(([k, w]) => <option key={k} value={k}>{w}</option>)}
        </select></label>
        <label>Players must have ordered on time (%, empty: anyone) <input inputMode="numeric" value={form.min_reliability} onChange={(e) => set("min_reliability", e.target.value)} name="min_reliability" placeholder="e.g. 80" /></label>
        <label>Players' minimum rating (empty: anyone) <input inputMode="numeric" value={form.min_rating} onChange={(e) => set("min_rating", e.target.value)} name="min_rating" placeholder="e.g. 5" /></label>
      </fieldset>
      <fieldset>
        <legend>Deadlines</legend>
        <label><input type="checkbox" checked={form.auto_process} onChange={(e) => set("auto_process", e.target.checked)} /> Process as soon as every power has ordered</label>
        <label><input type="checkbox" checked={form.timed} onChange={(e) => set("timed", e.target.checked)} name="timed" /> Timed phases</label>
        {form.timed && <>
          <label><input type="checkbox" checked={form.useGrid} onChange={(e) => set("useGrid", e.target.checked)} /> Fixed time of day instead of phase lengths</label>
          {!form.useGrid && PHASES.map((p) => <label key={p}>{p.toLowerCase()} phase, hours <input inputMode="decimal" value={form.hours[p]} onChange={(e) => set("hours", { ...form.hours, [p]: e.target.value })} /></label>)}
          {form.useGrid && <>
            <label>Due at <input type="time" value={form.gridTime} onChange={(e) => set("gridTime", e.target.value)} /></label>
            <label>Time zone <input value={form.gridZone} onChange={(e) => set("gridZone", e.target.value)} /></label>
            {PHASES.map((p) => <label key={p}>{p.toLowerCase()}: every N days <input inputMode="numeric" value={form.gridDays[p]} onChange={(e) => set("gridDays", { ...form.gridDays, [p]: e.target.value })} /></label>)}
            <label>At least N minutes per phase <input inputMode="numeric" value={form.gridGap} onChange={(e) => set("gridGap", e.target.value)} /></label>
          </>}
          <label>Reminder, minutes before the deadline (0: none) <input inputMode="numeric" value={form.reminder_minutes} onChange={(e) => set("reminder_minutes", e.target.value)} /></label>
        </>}
        <label>Missed-orders extensions per power <input inputMode="numeric" value={form.nmr_extensions} onChange={(e) => set("nmr_extensions", e.target.value)} /></label>
        <label>Civil disorder after N missed phases (0: never) <input inputMode="numeric" value={form.civil_disorder_after} onChange={(e) => set("civil_disorder_after", e.target.value)} /></label>
      </fieldset>
      <fieldset>
        <legend>Table</legend>
        <label>Press <select value={form.press} onChange={(e) => set("press", e.target.value as Press)} name="press">
          <option value="full">full: public and private</option><option value="public_only">public only</option>
          <option value="rulebook">rulebook: movement phases only</option><option value="none">none (gunboat)</option></select></label>
        <label><input type="checkbox" checked={form.anonymous} onChange={(e) => set("anonymous", e.target.checked)} /> Anonymous</label>
        <label><input type="checkbox" checked={form.fog} onChange={(e) => set("fog", e.target.checked)} name="fog" /> Fog of war (each power sees only near its own units and centres)</label>
        <label>Draw votes <select value={form.draw_votes} onChange={(e) => set("draw_votes", e.target.value as Form["draw_votes"])}>
          <option value="secret">secret</option><option value="public">public</option></select></label>
        <label><input type="checkbox" checked={form.private} onChange={(e) => set("private", e.target.checked)} /> Private (needs a password to join)</label>
        {form.private && <label>Join password <input type="password" value={form.join_password} onChange={(e) => set("join_password", e.target.value)} /></label>}
        <label>Notify (one per line: <code>webhook https://…</code>, <code>discord https://…</code>, <code>telegram CHAT_ID</code>)
          <textarea rows={2} value={form.notify} onChange={(e) => set("notify", e.target.value)} /></label>
      </fieldset>
      </>}
      <ErrorNote error={error} />
      <button type="submit" disabled={busy} data-testid="create-game">{busy ? "Creating…" : "Create game"}</button>
    </form>
  );
}

type Setter = <K extends keyof Form>(key: K, value: Form[K]) => void;

/** A backgammon game's few settings: its name, my side, privacy (docs/backgammon.md). */
function BackgammonFields({ form, set }: { form: Form; set: Setter }) {
  return (
    <fieldset>
      <legend>Backgammon</legend>
      <label>Name (shown in the lobby) <input value={form.name} maxLength={80} onChange={(e) => set("name", e.target.value)} name="name" placeholder="e.g. Rematch" /></label>
      <label>Take a seat <select value={form.seat} onChange={(e) => set("seat", e.target.value)} name="seat">
        <option value="any">either side</option><option value="WHITE">White</option><option value="BLACK">Black</option>
        <option value="none">no, I only run the game</option></select></label>
      <label><input type="checkbox" checked={form.private} onChange={(e) => set("private", e.target.checked)} /> Private (needs a password to join)</label>
      {form.private && <label>Join password <input type="password" value={form.join_password} onChange={(e) => set("join_password", e.target.value)} /></label>}
      <p className="muted">The dice are rolled by the server once both sides are seated; no deadlines.</p>
    </fieldset>
  );
}
