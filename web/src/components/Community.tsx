import { Fragment, useCallback, useEffect, useState } from "react";
import { ApiError, call } from "../api";
import { href } from "../router";
import type { GameResult, HistoryPhase, Message } from "../types";
import { explain, phaseWords } from "../words";
import { HistoryPanel } from "./HistoryPanel";
import { MapView } from "./MapView";

/**
 * The community's screens (issue 34): the archive of finished games and a game's replay, a
 * variant's leaderboard, a player's record, a tournament's boards and standings. Each reads
 * one or two public routes (docs/community.md); nothing here changes anything.
 */

interface ArchiveGame {
  game_id: string; variant: string; name: string; ended_at: string; result: string; winners: string[];
  centres: Record<string, number>; players: Record<string, string>; rated: boolean; unrated_reason: string | null;
  phases: number;
}
interface RatingRow { rank?: number; player: string; display_name: string; variant: string; mu: number; sigma: number; rating: number; games: number }
interface PlayedRow {
  game_id: string; variant: string; ended_at: string; power: string; result: string; outcome: string;
  centres: number; rated: boolean; rating_before: number | null; rating_after: number | null;
}
interface Profile {
  player: string; display_name: string; games_played: number; games_finished: number;
  results: Record<string, number>; centres: number;
  reliability: Record<string, number | null>; ratings: RatingRow[]; recent_games: PlayedRow[];
}
interface Board {
  round: number; number: number; game_id: string; status: string;
  seats: { power: string; player: string; display_name: string }[];
  result: GameResult | null; points: Record<string, number> | null;
}
interface Tournament { tournament_id: string; name: string; scoring: string; rounds: number; boards: Board[]; repeat_pairs: number[] }
interface Standing { rank: number; player: string; display_name: string; total: number; best: number; boards: number }

const RESULT_WORDS: Record<string, string> = {
  solo: "Solo", draw: "Draw", concession: "Concession", year_limit: "Year limit", abandoned: "Abandoned",
};
const day = (iso: string) => iso.slice(0, 10);

function useLoad<T>(path: string | null): [T | null, ApiError | null] {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    if (!path) return;
    setError(null);
    call<T>("GET", path).then(setData).catch(setError);
  }, [path]);
  return [data, error];
}

function Failure({ error }: { error: ApiError | null }) {
  return error ? <p className="error" role="alert">{explain(error.code, error.message)}</p> : null;
}

/** Finished games, newest first, by variant or player, result and dates; each opens its replay. */
export function ArchivePage() {
  const [form, setForm] = useState({ variant: "classical", player: "", result: "", since: "", until: "" });
  const [query, setQuery] = useState("/archive?variant=classical");
  const [found, error] = useLoad<{ games: ArchiveGame[] }>(query);
  const search = (e: React.FormEvent) => {
    e.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) if (v.trim()) q.set(k, v.trim());
    setQuery(`/archive?${q.toString()}`);
  };
  const field = (name: keyof typeof form, label: string, type = "text") => (
    <label>{label}
      <input type={type} value={form[name]} onChange={(e) => setForm({ ...form, [name]: e.target.value })} />
    </label>
  );
  return (
    <section className="community" aria-labelledby="archive-title">
      <h1 id="archive-title">Archive</h1>
      <form className="card search" onSubmit={search} aria-label="Search finished games">
        {field("variant", "Variant")}
        {field("player", "Player id")}
        <label>Result
          <select value={form.result} onChange={(e) => setForm({ ...form, result: e.target.value })}>
            <option value="">any</option>
            {Object.entries(RESULT_WORDS).map(([k, w]) => <option key={k} value={k}>{w}</option>)}
          </select>
        </label>
        {field("since", "Ended from", "date")}
        {field("until", "Ended until", "date")}
        <button type="submit">Search</button>
      </form>
      <Failure error={error} />
      {found && !found.games.length && <p className="muted">No finished game matches.</p>}
      <ul className="archive" data-testid="archive">
        {found?.games.map((g) => (
          <li key={g.game_id} className="card">
            <a href={href(`/replay/${g.game_id}`)}><strong>{g.name || `${g.variant} ${g.game_id}`}</strong></a>
            <span> · {RESULT_WORDS[g.result] ?? g.result}{g.winners.length ? `: ${g.winners.join(", ")}` : ""}</span>
            <span className="muted"> · ended {day(g.ended_at)} · {g.phases} phases · {g.rated ? "rated" : `unrated (${g.unrated_reason})`}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A finished game phase by phase: the resolution map, every order with its result and why, and the public press. */
export function ReplayPage({ gameId }: { gameId: string }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const [entry, setEntry] = useState<HistoryPhase | null>(null);
  const [press] = useLoad<{ messages: Message[] }>(`/games/${gameId}/messages?channel=ALL&after=0&limit=200`);
  const [history, failed] = useLoad<{ result: GameResult | null; phases: HistoryPhase[] }>(`/games/${gameId}/history?limit=1`);
  useEffect(() => { // a replay starts at the first phase
    if (history?.phases.length) setChosen((c) => c ?? history.phases[0].phase);
  }, [history]);
  const onEntry = useCallback((e: HistoryPhase | null) => setEntry(e), []);
  const said = (press?.messages ?? []).filter((m) => m.phase === chosen);
  const result = history?.result;
  return (
    <section className="replay" aria-labelledby="replay-title">
      <h1 id="replay-title">Replay</h1>
      {result && (
        <p data-testid="replay-result">
          {RESULT_WORDS[result.kind] ?? result.kind}{result.winners.length ? `: ${result.winners.join(", ")}` : ""}
          <span className="muted"> · ended {day(result.ended_at)}</span>
        </p>
      )}
      <Failure error={failed} />
      {history && !history.phases.length && <p className="muted">No phase was played in this game.</p>}
      {chosen && <div className="replay-grid">
        <div className="replay-board">
          <MapView path={`/games/${gameId}/map/resolution?phase=${chosen}`} version={chosen}
            label={`Results of ${phaseWords(chosen)}`} />
        </div>
        <div className="replay-side">
          <HistoryPanel gameId={gameId} tick={0} chosen={chosen} setChosen={setChosen} onEntry={onEntry} />
          <section aria-labelledby="replay-press" className="card">
            <h2 id="replay-press">Public press{entry ? `, ${phaseWords(entry.phase)}` : ""}</h2>
            {said.length === 0 && <p className="muted">Nothing said in public this phase.</p>}
            <ol className="messages" data-testid="replay-press">
              {said.map((m) => <li key={m.message_id}><strong>{m.from}</strong>: {m.text}</li>)}
            </ol>
          </section>
          <p><a href={`/games/${gameId}/export/mila`} download={`${gameId}.mila.json`}>Download as MILA saved game</a></p>
        </div>
      </div>}
    </section>
  );
}

/** A variant's ratings, best first. */
export function LeaderboardPage() {
  const [variant, setVariant] = useState("classical");
  const [board, error] = useLoad<{ ratings: RatingRow[] }>(`/leaderboard?variant=${encodeURIComponent(variant)}&limit=100`);
  return (
    <section className="community" aria-labelledby="leaderboard-title">
      <h1 id="leaderboard-title">Leaderboard</h1>
      <label>Variant <select value={variant} onChange={(e) => setVariant(e.target.value)}>
        <option value="classical">classical</option><option value="1900">1900</option>
      </select></label>
      <Failure error={error} />
      <table className="results" data-testid="leaderboard">
        <thead><tr><th>#</th><th>Player</th><th>Rating</th><th>Games</th></tr></thead>
        <tbody>
          {board?.ratings.map((r) => (
            <tr key={r.player}>
              <td>{r.rank}</td>
              <td><a href={href(`/players/${r.player}`)}>{r.display_name || r.player}</a></td>
              <td title={`mu ${r.mu}, sigma ${r.sigma}`}>{r.rating.toFixed(2)}</td>
              <td>{r.games}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">Rating: OpenSkill's mu − 3σ, per variant; rated games only (no demo, dummies or imports).</p>
    </section>
  );
}

/** A player's record: results, reliability, ratings, recent games. */
export function PlayerPage({ playerId }: { playerId: string }) {
  const [profile, error] = useLoad<Profile>(`/players/${encodeURIComponent(playerId)}`);
  if (error) return <Failure error={error} />;
  if (!profile) return <p className="muted">Loading…</p>;
  const share = profile.reliability.on_time_share;
  return (
    <section className="community" aria-labelledby="player-title">
      <h1 id="player-title">{profile.display_name || profile.player}</h1>
      <dl className="card stats" data-testid="profile">
        <dt>Games</dt><dd>{profile.games_played} played, {profile.games_finished} finished</dd>
        <dt>Results</dt><dd>{Object.entries(profile.results).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(", ") || "none yet"}</dd>
        <dt>Reliability</dt>
        <dd>{share === null ? "no phases yet" : `${Math.round((share as number) * 100)}% on time`} ({profile.reliability.phases_owed} phases;
          {" "}{profile.reliability.missed} missed, {profile.reliability.civil_disorders} civil disorders, {profile.reliability.games_left} left)</dd>
        {profile.ratings.map((r) => (
          <Fragment key={r.variant}><dt>Rating, {r.variant}</dt><dd>{r.rating.toFixed(2)} ({r.games} games)</dd></Fragment>
        ))}
      </dl>
      <h2>Recent games</h2>
      <ul className="archive">
        {profile.recent_games.map((g) => (
          <li key={g.game_id}><a href={href(`/replay/${g.game_id}`)}>{g.variant} {g.game_id}</a> · {g.power} · {g.outcome}
            {g.rated && g.rating_after !== null && g.rating_before !== null ? ` · rating ${g.rating_before.toFixed(2)} → ${g.rating_after.toFixed(2)}` : ""}</li>
        ))}
      </ul>
    </section>
  );
}

/** A tournament's rounds of boards and its standings. */
export function TournamentPage({ tournamentId }: { tournamentId: string }) {
  const [event, error] = useLoad<Tournament>(`/tournaments/${tournamentId}`);
  const [table] = useLoad<{ standings: Standing[]; rounds_finished: number }>(`/tournaments/${tournamentId}/standings`);
  if (error) return <Failure error={error} />;
  if (!event) return <p className="muted">Loading…</p>;
  return (
    <section className="community" aria-labelledby="tournament-title">
      <h1 id="tournament-title">{event.name}</h1>
      <p className="muted">{event.rounds === 1 ? "1 round" : `${event.rounds} rounds`} · scored by {event.scoring}</p>
      <h2>Standings</h2>
      <table className="results" data-testid="standings">
        <thead><tr><th>#</th><th>Player</th><th>Total</th><th>Best board</th><th>Boards</th></tr></thead>
        <tbody>
          {table?.standings.map((s) => (
            <tr key={s.player}><td>{s.rank}</td><td><a href={href(`/players/${s.player}`)}>{s.display_name || s.player}</a></td>
              <td>{s.total.toFixed(2)}</td><td>{s.best.toFixed(2)}</td><td>{s.boards}</td></tr>
          ))}
        </tbody>
      </table>
      <h2>Boards</h2>
      {event.boards.map((b) => (
        <div key={b.game_id} className="card">
          <h3>Round {b.round}, board {b.number} <a href={href(`/replay/${b.game_id}`)}>({b.status === "COMPLETED" ? "replay" : "in play"})</a></h3>
          <ul>{b.seats.map((s) => <li key={s.power}>{s.power}: {s.display_name}{b.points ? ` · ${b.points[s.player].toFixed(2)}` : ""}</li>)}</ul>
        </div>
      ))}
    </section>
  );
}
