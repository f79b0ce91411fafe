import { useEffect, useState } from "react";
import { ApiError, call } from "../api";
import { session, useStore } from "../store";
import { ErrorNote } from "./ErrorNote";

type Mode = "immediate" | "digest" | "never";
interface Preferences {
  preferences: Record<"mail" | "push", Record<string, Mode>>;
  kinds: string[]; modes: Mode[]; push_key: string | null; mail: boolean;
}
const KIND_WORDS: Record<string, string> = {
  reminder: "Your orders are due", turn_result: "Turn results", press: "Press while you are away",
  game_over: "Game over",
};
const MODE_WORDS: Record<Mode, string> = { immediate: "At once", digest: "Daily", never: "Never" };

/**
 * Mail and push, per kind of notice (docs/notifications.md): at once, in a daily digest or never;
 * and this browser as a push device (each device is its own subscription).
 */
export function NotificationSettings() {
  useStore();
  const who = session();
  const [prefs, setPrefs] = useState<Preferences | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [pushNote, setPushNote] = useState("");

  useEffect(() => {
    if (!who) return;
    call<Preferences>("GET", "/me/notifications", { token: who.id_token }).then(setPrefs).catch((e) => setError(e as ApiError));
  }, [who?.id_token]);

  if (!who) return <p className="muted">Sign in to choose which mail and push notices you get.</p>;
  if (!prefs) return <ErrorNote error={error} />;

  async function choose(channel: "mail" | "push", kind: string, mode: Mode) {
    try {
      setPrefs(await call<Preferences>("PUT", "/me/notifications", {
        token: who!.id_token, body: { preferences: { [channel]: { [kind]: mode } } },
      }));
    } catch (e) {
      setError(e as ApiError);
    }
  }

  async function enablePush() {
    if (!prefs?.push_key || !("serviceWorker" in navigator) || !("PushManager" in window)) {
      setPushNote("This browser cannot receive push notices.");
      return;
    }
    if ((await Notification.requestPermission()) !== "granted") {
      setPushNote("Notifications are blocked for this site: allow them in the browser's settings.");
      return;
    }
    const worker = await navigator.serviceWorker.register("/sw.js");
    const subscription = await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: prefs.push_key });
    await call("POST", "/me/push_devices", { token: who!.id_token, body: { subscription: subscription.toJSON(), label: navigator.platform || "browser" } });
    setPushNote("Push notices are on for this device.");
  }

  return (
    <fieldset className="notices" data-testid="notification-settings">
      <legend>Notices</legend>
      <ErrorNote error={error} />
      <table className="notice-table">
        <thead><tr><th scope="col">Notice</th><th scope="col">Mail</th><th scope="col">Push</th></tr></thead>
        <tbody>
          {prefs.kinds.map((kind) => (
            <tr key={kind}>
              <th scope="row">{KIND_WORDS[kind] ?? kind}</th>
              {(["mail", "push"] as const).map((channel) => (
                <td key={channel}>
                  <select aria-label={`${KIND_WORDS[kind] ?? kind} by ${channel}`} value={prefs.preferences[channel][kind]}
                    disabled={channel === "mail" ? !prefs.mail : !prefs.push_key}
                    onChange={(e) => void choose(channel, kind, e.target.value as Mode)}>
                    {prefs.modes.map((mode) => <option key={mode} value={mode}>{MODE_WORDS[mode]}</option>)}
                  </select>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {prefs.push_key && <p><button type="button" onClick={() => void enablePush().catch(() => setPushNote("Push could not be turned on."))}>Get push notices on this device</button> <span className="muted" role="status">{pushNote}</span></p>}
      <p className="muted">Every mail has a link to stop that kind of mail at once.</p>
    </fieldset>
  );
}
