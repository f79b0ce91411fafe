/** Codes of the API and the engine said in words a player understands (docs/api.md, Errors). */

const CODES: Record<string, string> = {
  // order entry (rejected[].code / engine_code)
  UNPARSEABLE_ORDER: "Convoy could not read this order. Write it like “A PAR - BUR”.",
  DUPLICATE_ORDER: "This unit (or province) already has an order in the same submission.",
  TOO_MANY_BUILDS: "You have no more builds this winter.",
  TOO_MANY_DISBANDS: "You are removing more units than you owe.",
  NOT_ADJACENT: "The unit cannot reach that province from where it stands.",
  NOT_YOUR_UNIT: "That unit is not yours.",
  NO_SUCH_UNIT: "There is no unit there.",
  WRONG_PHASE: "That kind of order does not belong to this phase.",
  BAD_COAST: "That coast cannot be reached: pick the other coast.",
  COAST_REQUIRED: "Say which coast the fleet goes to (for example SPA/NC).",
  CANNOT_BE_CONVOYED: "Only an army on a coast can be convoyed.",
  CANNOT_CONVOY: "Only a fleet at sea can convoy.",
  CANNOT_SUPPORT: "The unit could not move to that province itself, so it cannot support there.",
  CANNOT_BUILD_HERE: "Units can only be built in your own, empty, home supply centres.",
  NOT_A_HOME_CENTRE: "You can only build in your home supply centres.",
  NOT_OWNED: "You do not own that supply centre.",
  OCCUPIED: "A unit is already there.",
  NOT_DISLODGED: "Only a dislodged unit retreats.",
  RETREAT_NOT_ALLOWED: "The unit cannot retreat there (attacker's origin, a standoff, or occupied).",
  SUPPORT_SELF: "A unit cannot support itself.",
  MOVE_TO_SELF: "A unit cannot move to where it is.",
  NOTHING_TO_SUPPORT: "There is no unit to support there.",
  NOTHING_TO_CONVOY: "There is no army to convoy there.",
  NO_CONVOY_ROUTE: "No chain of fleets can carry the army there.",
  NO_BUILDS_LEFT: "You have no builds left.",
  NO_DISBANDS_DUE: "You owe no removals.",
  UNKNOWN_PROVINCE: "There is no province by that name.",
  UNKNOWN_POWER: "There is no power by that name.",
  GAME_OVER: "The game is over.",
  ILLEGAL: "That order is not legal here.",
  ILLEGAL_ORDER: "That order is not legal here.",
  // requests
  STALE_PHASE: "The turn moved on while you were ordering: look at the new phase.",
  GAME_NOT_ACTIVE: "The game is over.",
  NOT_A_PLAYER: "You are not seated in this game (sign in, or give your seat token).",
  FORBIDDEN: "You may not do that in this game.",
  BAD_PASSWORD: "Wrong password for this private game.",
  GAME_NOT_FOUND: "There is no such game.",
  POWER_TAKEN: "Somebody already plays that power.",
  GAME_FULL: "Every seat of this game is taken.",
  GAME_NOT_FULL: "Not every power has a player yet.",
  DEADLINE_NOT_REACHED: "The deadline has not passed and some powers still owe orders.",
  ORDERS_MISSING: "Some powers still owe orders.",
  GAME_NOT_STARTED: "The game has not started yet: not every seat is taken.",
  PRESS_DISABLED: "This game has no press.",
  PRIVATE_PRESS_DISABLED: "Only public messages (to everyone) are allowed in this game.",
  PRESS_CLOSED: "Press is only open during movement phases in this game.",
  POWER_NOT_ACTIVE: "Your power is in civil disorder or is a dummy, and cannot send messages.",
  RATE_LIMITED: "Too many messages at once; wait a moment.",
  TOO_MANY_CHANNELS: "You opened too many conversations in this game.",
  BAD_RECIPIENTS: "Choose at least one other power.",
  MESSAGE_EMPTY: "Write something first.",
  MESSAGE_TOO_LONG: "The message is longer than 4,000 characters.",
  MESSAGE_NOT_PRINTABLE: "The message holds characters that cannot be sent.",
  CHANNEL_NOT_FOUND: "No such conversation.",
  VALIDATION_ERROR: "Some fields are not valid.",
  NETWORK: "The server could not be reached. Check your connection and try again.",
  STORAGE_UNAVAILABLE: "The server is busy; try again in a moment.",
  CONFLICT: "The server is busy with the same request; try again in a moment.",
  IDEMPOTENT_REPLAY_SECRET: "That request already went through; its secret is shown only once.",
  NO_DEADLINE: "This phase has no running deadline.",
  BAD_CREDENTIALS: "Wrong e-mail or password.",
  USER_EXISTS: "An account with that e-mail already exists: sign in instead.",
  USER_NOT_CONFIRMED: "Confirm your e-mail address first (the code was sent to it).",
  WEAK_PASSWORD: "The password needs 8 or more characters with upper case, lower case and a digit.",
  BAD_CONFIRMATION_CODE: "That confirmation code is not right.",
  BAD_REFRESH_TOKEN: "Your session ended: sign in again.",
  NOT_SIGNED_IN: "Sign in first.",
  TOKEN_EXPIRED: "Your session expired: sign in again.",
  ALREADY_SEATED: "Your account already plays a power in this game.",
  SEAT_ALREADY_BOUND: "That seat already belongs to an account.",
};

/** What a code means, in words; the server's message when it is the better explanation. */
export function explain(code: string | null | undefined, message?: string): string {
  if (code && CODES[code]) return CODES[code];
  return message || code || "Something went wrong.";
}

/** An order's rejection: the engine's own code is the more precise one. */
export function explainRejection(r: { code: string; engine_code?: string | null; message: string }): string {
  const words = explain(r.engine_code || r.code, r.message);
  return r.message && r.message !== words ? `${words} (${r.message})` : words;
}

const RESULTS: Record<string, string> = {
  OK: "succeeded", BOUNCE: "bounced", CUT: "support cut", VOID: "void", NO_CONVOY: "no convoy",
  DISLODGED: "dislodged", DISBAND: "disbanded", BUILD: "built", WAIVE: "waived",
};
export const resultWords = (code: string): string => RESULTS[code] ?? code.toLowerCase();

/**
 * Why an order ended as it did: the server's own sentence (``explanation.text``, made by one
 * engine function from the resolver's decisions), never a wording of reason codes here, so
 * the client can never call a result what it was not. A phase stored before explanations
 * existed has none: its result word stands alone.
 */
export const whyWords = (r: { explanation?: { text: string } | null }): string => r.explanation?.text ?? "";

export const POWER_NAMES: Record<string, string> = {
  AUSTRIA: "Austria", ENGLAND: "England", FRANCE: "France", GERMANY: "Germany",
  ITALY: "Italy", RUSSIA: "Russia", TURKEY: "Turkey",
};
export const powerName = (p: string): string => POWER_NAMES[p] ?? p.charAt(0) + p.slice(1).toLowerCase();

export function phaseWords(phase: string): string {
  const m = /^([SFW])(\d{4})([MRA])$/.exec(phase);
  if (!m) return phase;
  const season = { S: "Spring", F: "Fall", W: "Winter" }[m[1] as "S" | "F" | "W"];
  const kind = { M: "movement", R: "retreats", A: "adjustments" }[m[3] as "M" | "R" | "A"];
  return `${season} ${m[2]} ${kind}`;
}
