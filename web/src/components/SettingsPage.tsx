import { useState } from "react";
import { apiBase, setApiBase } from "../api";
import { saveSettings, settings, useStore } from "../store";
import { NotificationSettings } from "./NotificationSettings";

/** The colour palette (the renderer's colour-blind one), mail and push notices, the API's base URL. */
export function SettingsPage() {
  useStore();
  const [base, setBase] = useState(apiBase());
  const current = settings();
  return (
    <div className="card narrow">
      <h1>Settings</h1>
      <fieldset>
        <legend>Map colours</legend>
        <label><input type="radio" name="palette" checked={current.palette === "standard"} onChange={() => saveSettings({ palette: "standard" })} /> Standard (the boxed game's colours)</label>
        <label><input type="radio" name="palette" checked={current.palette === "colorblind"} onChange={() => saveSettings({ palette: "colorblind" })} /> Colour-blind safe (Okabe–Ito, with power initials on units)</label>
      </fieldset>
      <NotificationSettings />
      <form onSubmit={(e) => { e.preventDefault(); setApiBase(base); window.location.reload(); }}>
        <label>API base URL (empty: this site) <input value={base} onChange={(e) => setBase(e.target.value)} placeholder="https://api.example.org" /></label>
        <button type="submit">Save</button>
      </form>
    </div>
  );
}
