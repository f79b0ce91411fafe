/** The shapes of the API answers the client reads (docs/api.md; functions/schemas/api.py). */

export interface Unit { kind: string; power: string; location: string }
export interface Vote { draw: boolean; concede: boolean }
export interface GameResult {
  kind: "solo" | "draw" | "concession" | "year_limit" | "abandoned";
  winners: string[];
  centers: Record<string, number>;
  final_phase: string | null;
  ended_at: string;
  scores: Record<string, Record<string, number>>;
}
export interface GameView {
  game_id: string; variant: string; rules: string; phase: string; year: number; season: string;
  phase_type: string; status: string; winner: string | null; units: Unit[];
  units_by_power: Record<string, Unit[]>; supply_centers: Record<string, string>;
  ownership: Record<string, string>;
  dislodged: { unit: Unit; attacker_origin: string | null; retreats: string[] }[]; contested: string[];
  players: Record<string, { joined_at: string | null; is_active: boolean }>;
  dummy_powers: string[]; auto_process: boolean; wait_flags: string[]; paused: boolean;
  private: boolean; phase_seconds: Record<string, number | null>; deadline: string | null;
  phase_started_at: string; event_seq: number; power: string | null;
  orders: Record<string, string[]>; submitted: Record<string, boolean>; legal_orders: string[];
  seats: Record<string, { status: string; missed: number }>; open_seats: string[];
  civil_disorder: string[]; votes: Record<string, Vote>; result: GameResult | null; demo: boolean;
  settings: Record<string, unknown>; owed: { builds: number; disbands: number };
  press: string; anonymous: boolean; unread: number;
  /** A fog-of-war game until it ends: the provinces the caller sees (units, owners, dislodged
   * units and standoffs are cut to them) and every power's centre count; null or absent otherwise. */
  fog?: FogView | null;
}
export interface FogView { visible: string[]; centres: Record<string, number> }
export interface Rejected { order: string; code: string; message: string; engine_code?: string | null }
export interface SubmitAnswer { phase: string; accepted: string[]; rejected: Rejected[]; orders: string[] }
export interface Reason { code: string; units: string[]; detail: string }
/** Why an order ended as it did (docs/api.md, "explanation"): the server's words in ``text``. */
export interface Explanation {
  decision: string;
  strengths: { kind: string; unit: string; value: number; supporters: string[]; cut: { unit: string; by: string[] }[]; excluded: string[] }[];
  units: Record<string, string[]>;
  text: string;
}
export interface ResultEntry {
  order: Record<string, unknown>; result: string; dislodged: boolean; retreat_options: string[];
  reason?: Reason | null; explanation?: Explanation | null; power: string; order_str: string;
}
/** What the phase sequence did that no order asked for (a unit disbanded, a phase skipped). */
export interface PhaseNote { kind: string; phase: string; powers: string[]; units: string[]; text: string }
export interface Resolution { phase?: string | null; results: ResultEntry[]; notes?: PhaseNote[]; nmr?: string[] | null }
export interface HistoryPhase {
  n: number; phase: string; orders: Record<string, string[]>; resolution: Resolution; processed_at: string;
}
/** One order's answer in a preview: read and checked as order entry would, or refused. */
export interface PreviewOrder {
  power: string; order: string; ok: boolean; canonical: string | null;
  code: string | null; engine_code: string | null; message: string | null;
}
/** ``POST /games/{id}/whatif``: the predicted resolution; nothing was stored. */
export interface WhatIfAnswer {
  game_id: string; power: string; own_orders: "pending" | "given"; phase: string;
  orders: PreviewOrder[]; resolution: Resolution; next: { phase: string; status: string };
}
export interface GameSummary {
  game_id: string; variant: string; rules: string; phase: string; status: string; private: boolean;
  players: string[]; open_seats: string[]; dummy_powers: string[]; demo: boolean;
  result: GameResult | null; created_at: string; game?: string;
}
export interface Message {
  message_id: string; channel: string; seq: number; from: string; to: string[] | string;
  members: string[]; text: string; sent_at: string; phase: string; cursor: number;
}
export interface Channel {
  channel: string; members: string[]; last_seq: number; read_upto: number; unread: number;
  last_message: Message | null;
}
export interface GameEvent { seq: number; type: string; phase: string; data: Record<string, unknown>; at: string }
export interface Variant { name: string; powers: string[]; rules: string[]; provinces?: Record<string, string> }
