import { useEffect, useState } from "react";
import { ApiError, call } from "../api";
import { deadlineWords, detailWords, fromListing, gamePath, sortMine, statusOf, type LobbyGame } from "../lobby";
import { go, href } from "../router";
import { bearerFor, saveSeat, seats, session, useStore } from "../store";
import type { GameView } from "../types";
import { explain, powerName } from "../words";
import { ErrorNote } from "./ErrorNote";

/**
 * The lobby (issue 32): my games and the games waiting for players, each by its name with its
 * variant, seats filled, phase, deadline in my own time zone and one status in words.
 */
export function Lobby() {
  useStore();
  const [listed, setListed] = useState<LobbyGame[] | null>(null);
  const [mine, setMine] = useState<LobbyGame[]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    call<{ games: Record<string, unknown>[] }>("GET", "/games?limit=50")
      .then((answer) => {
        const games = answer.games.map(fromListing);
        setListed(games);
        return loadMine(games);
      })
      .then(setMine)
      .catch((e: ApiError) => setError(e));
    const timer = setInterval(() => setTick((t) => t + 1), 15000);
    return () => clearInterval(timer);
  }, [tick]);

  const seated = new Set(mine.map((g) => g.game_id));
  const open = (listed ?? []).filter((g) => g.stage !== "finished" && (g.open_seats?.length ?? 0) > 0 && !seated.has(g.game_id));
  return (
    <div className="lobby">
      <section aria-labelledby="my-games">
        <h1 id="my-games">My games</h1>
        {mine.length === 0 && <p className="muted">No games yet: join one, <a href={href("/new")}>create one</a>, or <a href={href("/seat")}>use a seat token</a>.</p>}
        <ul className="game-list">{sortMine(mine).map((g) => <MyGameRow key={g.game_id} game={g} />)}</ul>
      </section>
      <section aria-labelledby="open-games">
        <h1 id="open-games">Waiting for players</h1>
        <ErrorNote error={error} />
        {listed === null && !error && <p className="muted">Loading…</p>}
        {listed !== null && open.length === 0 && <p className="muted">No game is waiting for players. <a href={href("/new")}>Start one.</a></p>}
        <ul className="game-list">{open.map((g) => <OpenGame key={g.game_id} game={g} />)}</ul>
      </section>
    </div>
  );
}

function Status({ game }: { game: LobbyGame }) {
  const status = statusOf(game);
  return <span className={`badge ${status.kind}`} data-testid="status">{status.text}</span>;
}

function Deadline({ game }: { game: LobbyGame }) {
  if (game.stage !== "in play" || !game.deadline) return null;
  return <span className="deadline">due <time dateTime={game.deadline}>{deadlineWords(game.deadline, Date.now())}</time></span>;
}

function MyGameRow({ game }: { game: LobbyGame }) {
  return (
    <li className="game-row" data-testid={`my-game-${game.game_id}`}>
      <a className="game-name" href={href(gamePath(game))}>{game.name}</a>
      <span className="detail">{detailWords(game)} <Deadline game={game} /></span>
      <span className="badges">
        <Status game={game} />
        {(game.unread ?? 0) > 0 && <span className="badge unread">{game.unread} unread</span>}
      </span>
    </li>
  );
}

/** My games: the account's (GET /me/games) and the seats kept in this browser. */
async function loadMine(listed: LobbyGame[]): Promise<LobbyGame[]> {
  const out = new Map<string, LobbyGame>();
  const who = session();
  if (who) {
    try {
      const answer = await call<{ games: Record<string, unknown>[] }>("GET", "/me/games", { token: who.id_token });
      answer.games.forEach((item) => out.set(String(item.game_id), fromListing(item)));
    } catch {
      /* the account's list is a bonus; seats kept here still show */
    }
  }
  const byId = new Map(listed.map((g) => [g.game_id, g]));
  const kept = Object.entries(seats()).filter(([id]) => !out.has(id));
  const rows = await Promise.all(kept.map(async ([id, seat]) => {
    try {
      const view = await call<GameView & Record<string, unknown>>("GET", `/games/${id}`, { token: bearerFor(id) });
      return fromView(view, byId.get(id), Boolean(seat.creatorToken));
    } catch {
      return null;
    }
  }));
  rows.forEach((g) => g && out.set(g.game_id, g));
  return [...out.values()];
}

/** A seat kept in this browser, described from the game's view (and the listing, when it has the game). */
function fromView(view: GameView & Record<string, unknown>, listing: LobbyGame | undefined, creator: boolean): LobbyGame {
  if (view.game === "backgammon") {
    const open = (view.open_seats as string[]) ?? [];
    const side = (view.side as string | null) ?? null;
    return { ...base(view, listing, creator), game: "backgammon", power: side, seats_total: 2, seats_filled: 2 - open.length,
      stage: listing?.stage ?? (view.status !== "ACTIVE" ? "finished" : open.length ? "waiting for players" : "in play"),
      orders_due: side !== null && view.to_play === side };
  }
  const total = Object.keys(view.seats).length - view.dummy_powers.length;
  const stage = listing?.stage ?? (view.status !== "ACTIVE" ? "finished" : view.open_seats.length ? "waiting for players" : view.paused ? "paused" : "in play");
  return { ...base(view, listing, creator), power: view.power, seats_total: total, seats_filled: total - view.open_seats.length, stage,
    orders_due: stage === "in play" && view.power !== null && view.submitted[view.power] === false, unread: view.unread };
}

function base(view: GameView, listing: LobbyGame | undefined, creator: boolean): LobbyGame {
  return { game_id: view.game_id, name: listing?.name ?? `${view.variant} ${view.game_id}`, game: "diplomacy",
    variant: view.variant, phase: view.phase, seats_filled: 0, seats_total: 0, stage: "in play",
    deadline: view.deadline ?? null, is_creator: creator };
}

function OpenGame({ game }: { game: LobbyGame }) {
  const [power, setPower] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const backgammon = game.game === "backgammon";
  const seatName = (p: string) => (backgammon ? (p === "WHITE" ? "White" : "Black") : powerName(p));

  async function join() {
    setBusy(true);
    setError(null);
    const body: Record<string, string> = {};
    if (power) body.power = power;
    if (game.private) body.password = password;
    try {
      const answer = await call<{ power: string; token: string }>("POST", `/games/${game.game_id}/join`, { body, token: session()?.id_token });
      saveSeat(game.game_id, { power: answer.power, token: answer.token });
      go(gamePath(game));
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  }

  const id = `join-${game.game_id}`;
  return (
    <li className="game-row open-game" data-testid={`open-game-${game.game_id}`}>
      <span className="game-name">{game.name}{game.private ? " (private)" : ""}</span>
      <span className="detail">{detailWords(game)}{game.demo ? " · demo" : ""}</span>
      <span className="badges"><Status game={game} /></span>
      <span className="join">
        <label htmlFor={`${id}-power`} className="sr-only">{backgammon ? "Side" : "Power"} in {game.name}</label>
        <select id={`${id}-power`} value={power} onChange={(e) => setPower(e.target.value)} data-testid={`${id}-power`}>
          <option value="">{backgammon ? "either side" : "any power"}</option>
          {(game.open_seats ?? []).map((p) => <option key={p} value={p}>{seatName(p)}</option>)}
        </select>
        {game.private && <input aria-label={`Join password for ${game.name}`} type="password" value={password} onChange={(e) => setPassword(e.target.value)} placeholder="password" />}
        <button onClick={join} disabled={busy} data-testid={`${id}-button`} aria-label={`Join ${game.name}`}>Join</button>
      </span>
      {error && <span className="error" role="alert">{explain(error.code, error.message)}</span>}
    </li>
  );
}
