import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiError, call } from "../api";
import { click, EMPTY, parseAll, targets, unitOf, type LegalOrder, type Selection } from "../orders";
import type { LiveFrame } from "../live";
import { bearerFor, seatOf, session, useStore } from "../store";
import type { GameEvent, GameView, HistoryPhase, ResultEntry, SubmitAnswer, WhatIfAnswer } from "../types";
import { useLive } from "../useLive";
import { explain, phaseWords, powerName, resultWords } from "../words";
import { orderProvinces, resultsAt, verdictsOf } from "../results";
import { ExplanationCard } from "./ExplanationCard";
import { WhatIfPanel } from "./WhatIfPanel";
import { Countdown } from "./Countdown";
import { ErrorNote } from "./ErrorNote";
import { GameInfo, resultSentence } from "./GameInfo";
import { HistoryPanel } from "./HistoryPanel";
import { MapView } from "./MapView";
import { BoardText } from "./BoardText";
import { go } from "../router";
import { provinceName, useVariant } from "../variants";
import { OrderPanel, type Sending } from "./OrderPanel";
import { PressPanel } from "./PressPanel";

type Tab = "orders" | "press" | "history" | "table";
const NO_RESULTS: ResultEntry[] = [];
const POLL_MS = 2000;
// How long a page waits for its socket's subscribe answer (which carries the view) before it
// loads the view with a GET itself (issue 29: one request a visit less when the socket is up).
const FIRST_VIEW_WAIT_MS = 3000;

/** The poll's period while the socket is down; ``convoy.pollMs`` = "0" turns it off (tests). */
function pollMs(): number {
  const set = globalThis.localStorage?.getItem("convoy.pollMs");
  return set === null || set === undefined || set === "" ? POLL_MS : Number(set);
}

/**
 * One game: the board with click-to-order, my orders, press, history and the table. The
 * page follows the game's live socket (useLive) and, while it is down, the event log
 * (GET /events?after=), so a turn processed elsewhere, a new order count, press or a vote
 * shows up without a reload. Its first view is the socket's subscribe answer; only when the
 * socket is down (or slow to answer) does it GET the view itself.
 */
export function GamePage({ gameId }: { gameId: string }) {
  useStore();
  const token = bearerFor(gameId);
  const [accountCreates, setAccountCreates] = useState(false);
  const creatorToken = seatOf(gameId).creatorToken ?? (accountCreates ? session()?.id_token ?? null : null);
  const [view, setView] = useState<GameView | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [tab, setTab] = useState<Tab>("orders");
  const [tick, setTick] = useState(0);
  const [sel, setSel] = useState<Selection>(EMPTY);
  const [choices, setChoices] = useState<LegalOrder[]>([]);
  const [hint, setHint] = useState("");
  const [last, setLast] = useState<SubmitAnswer | null>(null);
  const [sending, setSending] = useState<Sending | null>(null);
  const [unread, setUnread] = useState(0);
  const [processed, setProcessed] = useState<string | null>(null);
  const [historyPhase, setHistoryPhase] = useState<string | null>(null);
  const [historyEntry, setHistoryEntry] = useState<HistoryPhase | null>(null);
  const [preview, setPreview] = useState<WhatIfAnswer | null>(null);
  const [chosenOrder, setChosenOrder] = useState<string | null>(null);
  const lastSeq = useRef(-1);
  const seated = useRef(false);
  const shownPhase = useRef<string | null>(null);

  /** Show a view of the game, from GET /games/{id} or from the live socket (the same view). */
  const show = useCallback((v: GameView) => {
    if ((v as { game?: string }).game === "backgammon") { go(`/backgammon/${gameId}`); return; }
    if (shownPhase.current && shownPhase.current !== v.phase) {
      // the turn moved on (seen here first, by the socket or by the poll): say so with the same render
      setProcessed(shownPhase.current); setSel(EMPTY); setChoices([]); setLast(null);
    }
    shownPhase.current = v.phase;
    setView(v);
    setUnread(v.unread);
    seated.current = v.power !== null;
    if (lastSeq.current < v.event_seq) lastSeq.current = v.event_seq;
  }, [gameId]);

  const load = useCallback(async () => {
    try {
      show(await call<GameView>("GET", `/games/${gameId}`, { token }));
      setError(null);
    } catch (e) {
      setError(e as ApiError);
    }
  }, [gameId, token, show]);

  // live updates (docs/web.md): views and press as they happen; the poll below runs only while
  // the socket is down
  const viewedWith = useRef<string | null | undefined>(undefined); // the token of the view shown
  const tokenNow = useRef(token);
  tokenNow.current = token;
  const socket = useLive(gameId, token, useCallback((frame: LiveFrame) => {
    if (frame.type === "subscribed") viewedWith.current = tokenNow.current;
    if (frame.type === "subscribed" || frame.type === "view") {
      show(frame.view);
      setTick((t) => t + 1); // press and history look again too
    } else if (frame.type === "message") {
      setUnread(frame.unread);
      setTick((t) => t + 1);
    }
  }, [show]));
  const socketOpen = socket === "open";

  // the first view for this seat: the subscribe answer when the socket opens; a GET when it is
  // down or has not answered within FIRST_VIEW_WAIT_MS. A new token (a seat taken) re-follows
  // the socket, whose answer is the new seat's view, or, with the socket down, GETs it again.
  useEffect(() => {
    if (socket === "open" || viewedWith.current === token) return;
    const first = () => { viewedWith.current = token; void load(); };
    if (socket === "down") { first(); return; }
    const timer = setTimeout(first, FIRST_VIEW_WAIT_MS);
    return () => clearTimeout(timer);
  }, [socket, token, load]);
  useEffect(() => {
    const who = session();
    if (!who || seatOf(gameId).creatorToken) return;
    // a game this account created on another device: its creator rights come with the account
    call<{ games: { game_id: string; is_creator: boolean }[] }>("GET", "/me/games", { token: who.id_token })
      .then((mine) => setAccountCreates(mine.games.some((g) => g.game_id === gameId && g.is_creator)))
      .catch(() => undefined);
  }, [gameId]);

  useEffect(() => {
    const every = pollMs();
    if (socketOpen || every <= 0) return;
    const timer = setInterval(async () => {
      if (lastSeq.current < 0 || document.hidden) return;
      try {
        const page = await call<{ events: GameEvent[]; last_seq: number }>("GET", `/games/${gameId}/events?after=${lastSeq.current}&limit=100`, { retries: 0 });
        setTick((t) => t + 1); // press and history look again too
        if (token && seated.current) {
          // press is not in the event log: its unread count is asked for directly
          const press = await call<{ unread_total: number }>("GET", `/games/${gameId}/channels`, { token, retries: 0 });
          setUnread(press.unread_total);
        }
        if (!page.events.length) return;
        lastSeq.current = page.events.at(-1)!.seq;
        await load();
      } catch {
        /* the next poll tries again */
      }
    }, every);
    return () => clearInterval(timer);
  }, [gameId, load, token, socketOpen]);

  const legal = useMemo(() => parseAll(view?.legal_orders ?? []), [view]);
  const pending = view && view.power ? view.orders[view.power] ?? [] : [];
  const variant = useVariant(view?.variant);
  const highlight = useMemo(() => targets(legal, sel), [legal, sel]);
  const mine = useMemo(() => (view?.power ? (view.units_by_power[view.power] ?? []).map((u) => u.location.split("/")[0]) : []), [view]);

  // Results mode (issue 31): the board of a resolved phase, or of a what-if preview, explains the
  // order whose arrow or unit is tapped. A preview lasts until my orders or the phase change.
  const historyShown = tab === "history" && historyPhase !== null;
  const explained: ResultEntry[] | null = historyShown
    ? (historyEntry?.phase === historyPhase ? historyEntry.resolution.results : NO_RESULTS)
    : tab === "orders" && preview ? preview.resolution.results : null;
  const explainable = useMemo(() => orderProvinces(explained ?? []), [explained]);
  const verdicts = useMemo(() => (preview ? verdictsOf(preview.resolution.results) : undefined), [preview]);
  const pendingKey = view ? `${view.phase}:${pending.join("|")}` : "";
  useEffect(() => { setPreview(null); }, [pendingKey]);
  useEffect(() => { setChosenOrder(null); }, [historyPhase, tab, preview]);

  const send = useCallback(async (method: string, path: string, body: unknown, label: string) => {
    if (!view) return;
    setSending({ order: label, attempt: 0 });
    try {
      const answer = await call<SubmitAnswer>(method, path, { token, body, onRetry: (attempt) => setSending({ order: label, attempt }) });
      setLast(answer);
      setView((v) => (v && v.power ? { ...v, orders: { ...v.orders, [v.power]: answer.orders }, submitted: { ...v.submitted, [v.power]: answer.orders.length > 0 || v.submitted[v.power] } } : v));
      setError(null);
    } catch (e) {
      const err = e as ApiError;
      setError(err);
      if (err.code === "STALE_PHASE") await load();
    } finally {
      setSending(null);
      setTick((t) => t + 1);
    }
  }, [view, token, load]);

  /** In an auto-processing game, ordering raises my wait flag first, so the turn does not
   * close on my first order; "Ready" lowers it (docs/web.md, "Ready and wait"). */
  const holdWhileOrdering = useCallback(async () => {
    if (!view?.auto_process || !view.power || view.wait_flags.includes(view.power)) return;
    await call("POST", `/games/${gameId}/wait`, { token, body: { wait: true } });
    setView((v) => (v && v.power ? { ...v, wait_flags: [...v.wait_flags, v.power] } : v));
  }, [view, gameId, token]);

  const addOrder = useCallback((order: string) => {
    setChoices([]); setHint("");
    void holdWhileOrdering().catch(() => undefined).then(() =>
      send("POST", `/games/${gameId}/orders/add`, { orders: [order], phase: view?.phase }, order));
  }, [gameId, send, view, holdWhileOrdering]);

  function onProvince(p: string) {
    if (!view?.power || view.status !== "ACTIVE") return;
    const step = click(legal, sel, p);
    setSel(step.selection);
    setHint(step.hint);
    if (step.choices.length === 1 && step.selection.unit === null) addOrder(step.choices[0].text);
    else setChoices(step.choices);
  }
  /** What a tap on ``p`` would do now, in words (the hit area's name for a screen reader). */
  function describe(p: string): string {
    const name = provinceName(variant, p);
    const unit = view?.units.find((u) => u.location.split("/")[0] === p);
    const unitText = unit ? `${unit.kind} ${unit.location}` : p;
    if (!sel.unit) {
      const step = click(legal, EMPTY, p);
      if (step.selection.unit) return `${name}: select ${unitText}`;
      return step.choices.length ? `${name}: ${step.choices.map((c) => c.text).join(" or ")}` : name;
    }
    if (p === sel.unit && !sel.via) return `${name}: ${unitText} selected; again to hold`;
    const step = click(legal, sel, p);
    if (step.selection.via && step.selection.via !== sel.via) return `${name}: support or convoy ${unitText}`;
    return step.choices.length ? `${name}: ${step.choices.map((c) => c.text).join(" or ")}` : name;
  }
  function cancel() { setSel(EMPTY); setChoices([]); setHint(""); }
  /** Results mode: a tap on ``p`` explains the order of the unit there (elsewhere: none). */
  function explainAt(p: string) {
    setChosenOrder(resultsAt(explained ?? [], p).length ? p : null);
  }
  function describeResult(p: string): string {
    const found = resultsAt(explained ?? [], p).map((r) => `${r.order_str}, ${preview && !historyShown ? "predicted: " : ""}${resultWords(r.result)}`);
    return `${provinceName(variant, p)}: ${found.join("; ")}. Show why`;
  }
  function onChoose(choice: LegalOrder) {
    setSel(EMPTY);
    addOrder(choice.text);
  }

  async function process() {
    if (!view || !creatorToken) return;
    try {
      await call("POST", `/games/${gameId}/process_turn`, { token: creatorToken, body: { phase: view.phase } });
      setError(null);
    } catch (e) {
      setError(e as ApiError);
    }
  }
  async function setWait(wait: boolean) {
    try {
      await call("POST", `/games/${gameId}/wait`, { token, body: { wait } });
      await load();
    } catch (e) {
      setError(e as ApiError);
    }
  }

  if (!view) {
    return <div className="card"><ErrorNote error={error} />{!error && <p className="muted">Loading game {gameId}…</p>}</div>;
  }
  const mapVersion = pendingKey;
  const live = view.status === "ACTIVE";
  const waiting = view.power ? view.wait_flags.includes(view.power) : false;
  return (
    <div className="game">
      <div className="game-head">
        <h1>{phaseWords(view.phase)} <span className="muted">· {view.variant}{view.demo ? " demo" : ""}</span></h1>
        <div className="status-line">
          {view.power ? <span className={`me swatch-label s-${view.power}`}>You play {powerName(view.power)}</span> : <span className="muted">Observing</span>}
          {live && <Countdown deadline={view.deadline} paused={view.paused} />}
          {socketOpen && <span className="badge live" data-testid="live" title="Updates arrive as they happen">live</span>}
          {!live && <span className="badge">game over</span>}
          {view.open_seats.length > 0 && live && <span className="badge">waiting for {view.open_seats.length} player{view.open_seats.length > 1 ? "s" : ""}</span>}
          {view.power && live && view.auto_process && view.power in view.submitted && (waiting
            ? <button onClick={() => setWait(false)} data-testid="ready">I'm done: ready</button>
            : view.submitted[view.power] && <span className="ready">✓ Ready <button className="link" onClick={() => setWait(true)}>wait, not yet</button></span>)}
          {creatorToken && live && <button className="secondary" onClick={process} data-testid="process-turn">Process turn</button>}
        </div>
      </div>
      {processed && (
        <div className="banner" role="status">
          {phaseWords(processed)} has been resolved. <button className="link" onClick={() => { setHistoryPhase(processed); setTab("history"); setProcessed(null); }}>See the results</button>
          <button className="link" aria-label="Dismiss" onClick={() => setProcessed(null)}>×</button>
        </div>
      )}
      {view.result && <div className="result" role="status">Game over: {resultSentence(view.result)}</div>}
      <ErrorNote error={error} />
      <div className="game-body">
        <div className="board-col">
        {explained && !historyShown && preview && (
          <div className="preview-banner" role="status" data-testid="preview-banner">
            <strong>Preview</strong> of {phaseWords(preview.phase)} against your guesses: predicted, not sent, seen by nobody else.
            On the board your orders are <span className="ok-word">green</span> where they would succeed, <span className="fail-word">red</span> where
            they would fail; tap one (or a unit) for why.{" "}
            <button className="link" onClick={() => setPreview(null)}>Close the preview</button>
          </div>
        )}
        {historyShown ? (
          <MapView path={`/games/${gameId}/map/resolution?phase=${historyPhase}`} version={historyPhase}
            label={`Results of ${phaseWords(historyPhase)}`} explaining onProvince={explainAt} highlight={explainable}
            chosenOrder={chosenOrder} describe={describeResult} onCancel={() => setChosenOrder(null)}
            note={<ExplanationCard chosen={resultsAt(explained ?? NO_RESULTS, chosenOrder)} onClose={() => setChosenOrder(null)} />} />
        ) : explained ? (
          <MapView path={`/games/${gameId}/map/orders`} token={token} version={mapVersion}
            label={`Preview of ${phaseWords(view.phase)}: my orders with their predicted results`} explaining
            onProvince={explainAt} highlight={explainable} chosenOrder={chosenOrder} verdicts={verdicts}
            describe={describeResult} onCancel={() => setChosenOrder(null)} mine={mine}
            note={<ExplanationCard chosen={resultsAt(explained, chosenOrder)} preview onClose={() => setChosenOrder(null)} />} />
        ) : (
          <MapView path={`/games/${gameId}/map/orders`} token={token} version={mapVersion} label={`Board, ${phaseWords(view.phase)}`}
            onProvince={view.power && live ? onProvince : undefined} selected={sel.unit} via={sel.via}
            highlight={view.power && live ? highlight : undefined} describe={describe} onCancel={cancel} mine={mine} />
        )}
          <BoardText view={view} variant={variant} />
        </div>
        <aside className="side">
          <div className="tabs" role="tablist" aria-label="Game panels">
            {(["orders", "press", "history", "table"] as Tab[]).map((t) => (
              <button key={t} role="tab" aria-selected={tab === t} onClick={() => setTab(t)} data-testid={`tab-${t}`}>
                {t === "orders" ? "Orders" : t === "press" ? "Press" : t === "history" ? "History" : "Table"}
                {t === "press" && unread > 0 && <span className="badge unread" aria-label={`${unread} unread`}>{unread}</span>}
              </button>
            ))}
          </div>
          {tab === "orders" && (view.power ? (
            <OrderPanel pending={pending} legal={view.legal_orders} last={last} sending={sending} choices={choices}
              hint={hint} owed={view.owed} phaseType={view.phase_type}
              submitted={Boolean(view.submitted[view.power])} onOrder={addOrder} onChoose={onChoose}
              onRemove={(o) => void send("DELETE", `/games/${gameId}/orders`, { units: [unitOf(o) ?? o] }, `removal of ${o}`)}
              onHoldAll={() => void send("POST", `/games/${gameId}/orders`, { orders: [], phase: view.phase }, "no orders (all hold)")} />
          ) : <p className="muted">{creatorToken ? "You run this game but hold no seat." : "Take a seat from the lobby to give orders."}</p>)}
          {tab === "press" && <PressPanel gameId={gameId} me={view.power} token={token} powers={Object.keys(view.seats).sort()} press={view.press} tick={tick} onUnread={setUnread} />}
          {tab === "orders" && view.power && live && (
            <WhatIfPanel gameId={gameId} token={token} view={view} pending={pending} preview={preview} onPreview={setPreview}
              chosenOrder={chosenOrder} />
          )}
          {tab === "history" && <HistoryPanel gameId={gameId} tick={view.event_seq} chosen={historyPhase} setChosen={setHistoryPhase} onEntry={setHistoryEntry}
            chosenOrder={chosenOrder} />}
          {tab === "table" && <GameInfo view={view} token={token} onChange={load} />}
          {error && !view && <p>{explain(error.code)}</p>}
        </aside>
      </div>
    </div>
  );
}
