import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, call } from "../api";
import { diceLeft, movesOf, moveWords, placeName, sources, stageWords, type BackgammonView, type Move, type Side, type Source } from "../backgammon";
import { go } from "../router";
import { bearerFor, useStore } from "../store";
import type { GameEvent } from "../types";
import { BackgammonBoard } from "./BackgammonBoard";
import { ErrorNote } from "./ErrorNote";

const POLL_MS = 1500;
const NAME: Record<Side, string> = { WHITE: "White", BLACK: "Black" };

/**
 * A backgammon game (issue 32): the board drawn from the view, the dice the server rolled, the
 * moves it allows (a tap on a checker, then where it goes; or a move from the list), undo, and
 * the game followed through its event log like a Diplomacy game — observers watch the same way.
 */
export function BackgammonPage({ gameId }: { gameId: string }) {
  useStore();
  const token = bearerFor(gameId);
  const [view, setView] = useState<BackgammonView | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [picked, setPicked] = useState<Source | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [rolled, setRolled] = useState("");
  const lastSeq = useRef(-1);

  const load = useCallback(async () => {
    try {
      const v = await call<BackgammonView & { game?: string }>("GET", `/games/${gameId}`, { token });
      if (v.game !== "backgammon") { go(`/games/${gameId}`); return; }
      setView(v);
      setError(null);
      if (lastSeq.current < 0) lastSeq.current = v.event_seq;
    } catch (e) {
      setError(e as ApiError);
    }
  }, [gameId, token]);
  useEffect(() => { void load(); }, [load]);
  useEffect(() => {
    const timer = setInterval(async () => {
      if (lastSeq.current < 0 || document.hidden) return;
      try {
        const page = await call<{ events: GameEvent[] }>("GET", `/games/${gameId}/events?after=${lastSeq.current}&limit=200`, { retries: 0 });
        if (!page.events.length) return;
        lastSeq.current = page.events.at(-1)!.seq;
        setRolled((was) => rollWords(page.events) || was);
        await load();
      } catch { /* the next poll tries again */ }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [gameId, load]);

  async function send(body: Record<string, unknown>) {
    if (!view) return;
    setBusy(true);
    try {
      const answer = await call<{ view: BackgammonView; events: GameEvent[] }>("POST", `/games/${gameId}/moves`, { token, body: { ...body, phase: view.phase } });
      setView(answer.view);
      setRolled((was) => rollWords(answer.events) || was);
      setError(null);
    } catch (e) {
      setError(e as ApiError);
      if ((e as ApiError).code === "STALE_PHASE") await load();
    } finally {
      setPicked(undefined);
      setBusy(false);
    }
  }
  const move = (m: Move) => void send({ input: "MOVE", move: [m.die, m.source] });

  if (!view) return <div className="card"><ErrorNote error={error} />{!error && <p className="muted">Loading game {gameId}…</p>}</div>;
  const moves = movesOf(view);
  const from = picked === undefined ? [] : moves.filter((m) => m.source === picked);
  function onPoint(p: Source | "off") {
    const landing = from.find((m) => m.dest === p);
    if (landing) return move(landing);
    setPicked(p !== "off" && sources(moves).includes(p) ? p : undefined);
  }
  return (
    <div className="bg-game">
      <div className="game-head">
        <h1>Backgammon <span className="muted">· {view.side ? `you play ${NAME[view.side]}` : "watching"}</span></h1>
        <p className="status-line" role="status" data-testid="bg-stage">{stageWords(view, view.side)}{rolled && view.rolls <= 2 && !view.result ? ` ${rolled}` : ""}</p>
      </div>
      <ErrorNote error={error} />
      <div className="game-body">
        <div className="board-col">
          <BackgammonBoard view={view} picked={picked} targets={from.map((m) => m.dest)} choosable={sources(moves)} onPoint={onPoint} />
        </div>
        <aside className="side">
          <MovePanel view={view} moves={moves} busy={busy} onMove={move} onUndo={() => void send({ input: "UNDO" })} />
          <BoardList view={view} />
        </aside>
      </div>
    </div>
  );
}

/** The last roll of a page of events, in words ("Black rolled 6 and 2."). */
function rollWords(events: GameEvent[]): string {
  const roll = [...events].reverse().find((e) => e.type === "MOVE_ROLLS" || e.type === "TURN_ROLLS");
  const dice = roll?.data.dice as number[] | undefined;
  if (!roll || !dice) return "";
  // the opening roll says who moves first; every later roll is the dice the stage names
  return roll.type === "TURN_ROLLS" ? `Opening roll: White ${dice[0]}, Black ${dice[1]}.` : "";
}

function MovePanel({ view, moves, busy, onMove, onUndo }: { view: BackgammonView; moves: Move[]; busy: boolean; onMove: (m: Move) => void; onUndo: () => void }) {
  const mine = view.side !== null && view.to_play === view.side;
  return (
    <section aria-labelledby="bg-moves-title">
      <h2 id="bg-moves-title">Moves</h2>
      {view.dice && <p className="dice">
        <span className="sr-only">Dice: {view.dice[0]} and {view.dice[1]}; {diceLeft(view).filter((d) => !d.used).length} to play.</span>
        {diceLeft(view).map((d, i) => <span key={i} className={`die${d.used ? " used" : ""}`} aria-hidden="true">{d.pips}</span>)}
      </p>}
      {mine && moves.length === 0 && <p className="muted">No move is possible: the turn passes.</p>}
      {!mine && <p className="muted">{view.side ? "Wait for your turn." : "You are watching this game."}</p>}
      <ul className="bg-moves" data-testid="bg-moves">
        {moves.map((m) => (
          <li key={`${m.source}-${m.dest}`}><button disabled={busy} onClick={() => onMove(m)}>{moveWords(m, view.side)}</button></li>
        ))}
      </ul>
      {view.can_undo && <button className="secondary" disabled={busy} onClick={onUndo}>Undo my last move</button>}
    </section>
  );
}

/** The position in words, point by point: the board's text alternative. */
function BoardList({ view }: { view: BackgammonView }) {
  const rows: string[] = [];
  for (let p = 23; p >= 0; p -= 1) {
    const w = view.points.WHITE[p], b = view.points.BLACK[p];
    if (w || b) rows.push(`${placeName(p, view.side)}: ${w ? `${w} White` : `${b} Black`}`);
  }
  return (
    <details className="board-text">
      <summary>The board as text</summary>
      <ul data-testid="bg-board-text">
        {rows.map((r) => <li key={r}>{r}</li>)}
        <li>Bar: {view.bar.WHITE} White, {view.bar.BLACK} Black</li>
        <li>Borne off: {view.off.WHITE} White, {view.off.BLACK} Black</li>
      </ul>
    </details>
  );
}
