import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, call } from "../api";
import type { Channel, Message } from "../types";
import { explain, powerName } from "../words";
import { Composer } from "./Composer";

interface Props {
  gameId: string;
  me: string | null;
  token: string | null;
  powers: string[];
  press: string;
  /** Bumped by the page's poll so new press shows up without a reload. */
  tick: number;
  onUnread: (n: number) => void;
}

const channelName = (c: string, me: string | null) =>
  c === "ALL" ? "Everyone" : c.split(",").filter((p) => p !== me).map(powerName).join(", ");

/** Press: the caller's channels with unread counts, one channel's messages, and the composer. */
export function PressPanel({ gameId, me, token, powers, press, tick, onUnread }: Props) {
  const [channels, setChannels] = useState<Channel[]>([]);
  const [open, setOpen] = useState<string>("ALL");
  const [messages, setMessages] = useState<Message[]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  const [composeNew, setComposeNew] = useState(false);
  const list = useRef<HTMLOListElement>(null);

  const load = useCallback(async () => {
    try {
      const answer = await call<{ channels: Channel[]; unread_total: number }>("GET", `/games/${gameId}/channels`, { token });
      setChannels(answer.channels);
      onUnread(answer.unread_total);
      const known = answer.channels.some((c) => c.channel === open);
      if (!known && open !== "ALL") return;
      const page = await call<{ messages: Message[] }>("GET", `/games/${gameId}/messages?channel=${encodeURIComponent(open)}&after=0&limit=200`, { token });
      setMessages(page.messages);
      const ch = answer.channels.find((c) => c.channel === open);
      if (me && ch && ch.unread > 0) {
        const read = await call<{ unread_total: number }>("POST", `/games/${gameId}/channels/${encodeURIComponent(open)}/read`, { token, body: { upto: ch.last_seq } });
        onUnread(read.unread_total);
        setChannels((cs) => cs.map((c) => (c.channel === open ? { ...c, unread: 0, read_upto: c.last_seq } : c)));
      }
    } catch (e) {
      const err = e as ApiError;
      if (err.code !== "CHANNEL_NOT_FOUND") setError(err);
    }
  }, [gameId, token, open, me, onUnread]);

  useEffect(() => { void load(); }, [load, tick]);
  useEffect(() => { list.current?.lastElementChild?.scrollIntoView({ block: "nearest" }); }, [messages]);

  async function send(to: string[] | "ALL", text: string): Promise<boolean> {
    setError(null);
    try {
      const sent = await call<{ channel: string }>("POST", `/games/${gameId}/messages`, { token, body: { to, text, client_timestamp: new Date().toISOString() } });
      setComposeNew(false);
      if (sent.channel !== open) setOpen(sent.channel);
      else await load();
      return true;
    } catch (e) {
      setError(e as ApiError);
      return false;
    }
  }

  const current = channels.find((c) => c.channel === open);
  const preset: string[] | "ALL" = open === "ALL" ? "ALL" : (current?.members ?? open.split(",")).filter((p) => p !== me);
  const names = channels.some((c) => c.channel === "ALL") ? channels : [{ channel: "ALL", members: [], last_seq: 0, read_upto: 0, unread: 0, last_message: null }, ...channels];
  return (
    <section className="press" aria-labelledby="press-title">
      <h2 id="press-title">Press</h2>
      {press === "none" && <p className="muted">This game has no press.</p>}
      <div className="channels" role="tablist" aria-label="Conversations">
        {names.map((c) => (
          <button key={c.channel} role="tab" aria-selected={c.channel === open && !composeNew}
            onClick={() => { setComposeNew(false); setOpen(c.channel); }} data-testid={`channel-${c.channel}`}>
            {channelName(c.channel, me)}
            {c.unread > 0 && <span className="badge unread" aria-label={`${c.unread} unread`}>{c.unread}</span>}
          </button>
        ))}
        {me && press !== "none" && press !== "public_only" && <button role="tab" aria-selected={composeNew} onClick={() => setComposeNew(true)}>+ New conversation</button>}
      </div>
      {!composeNew && (
        <ol className="messages" ref={list} aria-live="polite" data-testid="messages">
          {messages.length === 0 && <li className="muted">No messages yet.</li>}
          {messages.map((m) => (
            <li key={m.message_id} className={m.from === me ? "mine" : ""}>
              <span className="from">{powerName(m.from)}</span> <span className="when">{new Date(m.sent_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}</span>
              <p>{m.text}</p>
            </li>
          ))}
        </ol>
      )}
      {error && <p className="error" role="alert">{explain(error.code, error.message)}</p>}
      {me && press !== "none" && (
        <Composer key={composeNew ? "new" : open} me={me} powers={powers} publicOnly={press === "public_only"}
          preset={composeNew ? [] : preset} onSend={send} />
      )}
      {!me && <p className="muted">Only seated players can write.</p>}
    </section>
  );
}
