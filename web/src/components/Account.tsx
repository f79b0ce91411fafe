import { useState } from "react";
import { ApiError, call } from "../api";
import { go, href } from "../router";
import { saveSession, type Session } from "../store";
import { ErrorNote } from "./ErrorNote";

interface SigninAnswer {
  id_token: string; access_token: string; refresh_token: string; expires_in: number;
  user: { user_id: string; display_name: string };
}

/** A fresh ID token shortly before the old one expires (moto's and Cognito's last an hour). */
export async function refreshSession(current: Session): Promise<void> {
  try {
    const answer = await call<Omit<SigninAnswer, "refresh_token">>("POST", "/auth/refresh", { body: { refresh_token: current.refresh_token } });
    saveSession({ ...current, ...answer, expires_at: Date.now() + answer.expires_in * 1000, user: { ...current.user, ...answer.user } });
  } catch (e) {
    if ((e as ApiError).status === 401) saveSession(null);
  }
}

export async function signIn(email: string, password: string): Promise<Session> {
  const answer = await call<SigninAnswer>("POST", "/auth/signin", { body: { email, password } });
  const value: Session = { ...answer, expires_at: Date.now() + answer.expires_in * 1000, user: { ...answer.user, email } };
  saveSession(value);
  return value;
}

/** Sign in with e-mail and password (accounts, issue 15). */
export function SignIn() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<ApiError | null>(null);
  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await signIn(email.trim(), password);
      go("/");
    } catch (e) {
      setError(e as ApiError);
    }
  }
  return (
    <form className="card narrow" onSubmit={submit} aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in</h1>
      <label>E-mail <input required type="email" value={email} onChange={(e) => setEmail(e.target.value)} name="email" autoComplete="email" /></label>
      <label>Password <input required type="password" value={password} onChange={(e) => setPassword(e.target.value)} name="password" autoComplete="current-password" /></label>
      <ErrorNote error={error} />
      <button type="submit">Sign in</button>
      <p>New here? <a href={href("/signup")}>Create an account</a>.</p>
    </form>
  );
}

/** Sign up; when the server asks for a confirmation code, ask for it, then sign in. */
export function SignUp() {
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [needsCode, setNeedsCode] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      if (!needsCode) {
        const made = await call<{ user_id: string; confirmation: string }>("POST", "/auth/signup", {
          body: { email: email.trim(), password, display_name: name.trim() },
        });
        if (made.confirmation === "required") { setNeedsCode(true); return; }
      } else {
        await call("POST", "/auth/confirm", { body: { email: email.trim(), code: code.trim() } });
      }
      await signIn(email.trim(), password);
      go("/");
    } catch (e) {
      setError(e as ApiError);
    }
  }

  return (
    <form className="card narrow" onSubmit={submit} aria-labelledby="signup-title">
      <h1 id="signup-title">Create an account</h1>
      <label>Name shown to others <input required value={name} onChange={(e) => setName(e.target.value)} name="display_name" disabled={needsCode} /></label>
      <label>E-mail <input required type="email" value={email} onChange={(e) => setEmail(e.target.value)} name="email" autoComplete="email" disabled={needsCode} /></label>
      <label>Password <input required type="password" value={password} onChange={(e) => setPassword(e.target.value)} name="password" autoComplete="new-password" disabled={needsCode} aria-describedby="password-rule" /></label>
      <p id="password-rule" className="hint">8 or more characters, with upper case, lower case and a digit.</p>
      {needsCode && <>
        <label>Confirmation code (sent to your e-mail) <input required value={code} onChange={(e) => setCode(e.target.value)} name="code" autoComplete="one-time-code" inputMode="numeric" /></label>
        <p className="hint">Playing on <code>make run</code>? The code is in <code>.convoy-data/mailbox/</code> and on the server's console.</p>
      </>}
      <ErrorNote error={error} />
      <button type="submit">{needsCode ? "Confirm and sign in" : "Sign up"}</button>
    </form>
  );
}
