import { useState } from "react";
import { ApiError, call } from "../api";
import { go } from "../router";
import { saveSeat, session } from "../store";
import type { GameView } from "../types";
import { ErrorNote } from "./ErrorNote";

/** Play with a seat token (from join, a bot or a friend's device): checked against the view, then kept here. */
export function SeatTokenForm() {
  const [gameId, setGameId] = useState("");
  const [token, setToken] = useState("");
  const [creator, setCreator] = useState(false);
  const [bind, setBind] = useState(true);
  const who = session();
  const [error, setError] = useState<ApiError | null>(null);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const id = gameId.trim();
      if (creator) {
        saveSeat(id, { creatorToken: token.trim() });
      } else {
        const view = await call<GameView>("GET", `/games/${id}`, { token: token.trim() });
        if (!view.power) throw new ApiError(401, { code: "NOT_A_PLAYER", message: "This token holds no seat in that game." });
        if (who && bind) {
          await call("POST", "/me/seats", { token: who.id_token, body: { game_id: id, token: token.trim() } });
        }
        saveSeat(id, { power: view.power, token: token.trim() });
      }
      go(`/games/${id}`);
    } catch (e) {
      setError(e as ApiError);
    }
  }

  return (
    <form className="card narrow" onSubmit={submit} aria-labelledby="seat-title">
      <h1 id="seat-title">Play with a seat token</h1>
      <p className="muted">The token was shown once when the seat was taken. It stays in this browser only.</p>
      <label>Game id <input required value={gameId} onChange={(e) => setGameId(e.target.value)} name="game_id" autoComplete="off" /></label>
      <label>Token <input required type="password" value={token} onChange={(e) => setToken(e.target.value)} name="token" autoComplete="off" /></label>
      <label><input type="checkbox" checked={creator} onChange={(e) => setCreator(e.target.checked)} /> This is the game's creator token</label>
      {who && !creator && <label><input type="checkbox" checked={bind} onChange={(e) => setBind(e.target.checked)} /> Bind this seat to my account ({who.user.display_name}), so I find it on every device</label>}
      <ErrorNote error={error} />
      <button type="submit">Open the game</button>
    </form>
  );
}
