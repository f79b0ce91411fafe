import { useEffect, useState } from "react";
import { ApiError, call } from "../api";
import { go, href } from "../router";
import { bearerFor, saveSeat, seats, session, useStore } from "../store";
import type { GameSummary, GameView } from "../types";
import { explain, phaseWords, powerName } from "../words";
import { ErrorNote } from "./ErrorNote";

interface MyGame {
  game_id: string; power: string | null; phase: string; ordersDue: boolean; unread: number;
  status: string; isCreator: boolean; name?: string;
}

/** The lobby: my games (orders due, unread press) and the open games one can join. */
export function Lobby() {
  useStore();
  const [open, setOpen] = useState<GameSummary[] | null>(null);
  const [mine, setMine] = useState<MyGame[]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    call<{ games: GameSummary[] }>("GET", "/games?limit=50")
      .then((answer) => setOpen(answer.games.filter((g) => (g.game ?? "diplomacy") === "diplomacy")))
      .catch((e: ApiError) => setError(e));
    loadMine().then(setMine).catch((e: ApiError) => setError(e));
    const timer = setInterval(() => setTick((t) => t + 1), 15000);
    return () => clearInterval(timer);
  }, [tick]);

  return (
    <div className="lobby">
      <section aria-labelledby="my-games">
        <h1 id="my-games">My games</h1>
        {mine.length === 0 && <p className="muted">No games yet: join one below, <a href={href("/new")}>create one</a>, or <a href={href("/seat")}>use a seat token</a>.</p>}
        <ul className="game-list">
          {mine.map((g) => (
            <li key={g.game_id}>
              <a href={href(`/games/${g.game_id}`)} data-testid={`my-game-${g.game_id}`}>
                <strong>{g.name || g.game_id}</strong> · {g.power ? powerName(g.power) : g.isCreator ? "creator" : "observer"} · {phaseWords(g.phase)}
              </a>
              {g.ordersDue && <span className="badge due">orders due</span>}
              {g.unread > 0 && <span className="badge unread" aria-label={`${g.unread} unread messages`}>{g.unread} unread</span>}
              {g.status !== "ACTIVE" && <span className="badge">{g.status.toLowerCase()}</span>}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="open-games">
        <h1 id="open-games">Open games</h1>
        <ErrorNote error={error} />
        {open === null && <p className="muted">Loading…</p>}
        {open !== null && open.filter((g) => g.open_seats.length && g.status === "ACTIVE").length === 0 && (
          <p className="muted">No game is waiting for players. <a href={href("/new")}>Start one.</a></p>
        )}
        <ul className="game-list">
          {open?.filter((g) => g.open_seats.length && g.status === "ACTIVE").map((g) => <OpenGame key={g.game_id} game={g} />)}
        </ul>
      </section>
    </div>
  );
}

async function loadMine(): Promise<MyGame[]> {
  const out = new Map<string, MyGame>();
  const who = session();
  if (who) {
    try {
      const answer = await call<{ items?: Record<string, unknown>[]; games?: Record<string, unknown>[] }>("GET", "/me/games", { token: who.id_token });
      for (const item of answer.items ?? answer.games ?? []) {
        const id = String(item.game_id);
        out.set(id, {
          game_id: id, power: (item.power as string) ?? null, phase: String(item.phase ?? ""),
          ordersDue: Boolean(item.orders_due), unread: Number(item.unread_press ?? 0),
          status: String(item.status ?? "ACTIVE"), isCreator: Boolean(item.is_creator), name: item.name as string | undefined,
        });
      }
    } catch {
      /* the account list is a bonus; seats kept here still show */
    }
  }
  const kept = Object.entries(seats()).filter(([id]) => !out.has(id));
  const views = await Promise.all(kept.map(async ([id, seat]) => {
    try {
      const view = await call<GameView>("GET", `/games/${id}`, { token: bearerFor(id) });
      // a game still waiting for players has nothing due yet
      const due = view.power !== null && view.submitted[view.power] === false && view.status === "ACTIVE" && view.open_seats.length === 0;
      return { game_id: id, power: view.power, phase: view.phase, ordersDue: due, unread: view.unread, status: view.status, isCreator: Boolean(seat.creatorToken) };
    } catch {
      return null;
    }
  }));
  views.forEach((v) => v && out.set(v.game_id, v));
  return [...out.values()];
}

function OpenGame({ game }: { game: GameSummary }) {
  const [power, setPower] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  async function join() {
    setBusy(true);
    setError(null);
    const body: Record<string, string> = {};
    if (power) body.power = power;
    if (game.private) body.password = password;
    try {
      const answer = await call<{ power: string; token: string }>("POST", `/games/${game.game_id}/join`, { body, token: session()?.id_token });
      saveSeat(game.game_id, { power: answer.power, token: answer.token });
      go(`/games/${game.game_id}`);
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  }

  const id = `join-${game.game_id}`;
  return (
    <li className="open-game">
      <span><strong>{game.game_id}</strong> · {game.variant} · {game.demo ? "demo" : `${game.open_seats.length} seat${game.open_seats.length === 1 ? "" : "s"} open`}{game.private ? " · private" : ""}</span>
      <label htmlFor={`${id}-power`} className="sr-only">Power</label>
      <select id={`${id}-power`} value={power} onChange={(e) => setPower(e.target.value)} data-testid={`${id}-power`}>
        <option value="">any power</option>
        {game.open_seats.map((p) => <option key={p} value={p}>{powerName(p)}</option>)}
      </select>
      {game.private && (
        <input aria-label="Join password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} placeholder="password" />
      )}
      <button onClick={join} disabled={busy} data-testid={`${id}-button`}>Join</button>
      {error && <span className="error" role="alert">{explain(error.code, error.message)}</span>}
    </li>
  );
}
