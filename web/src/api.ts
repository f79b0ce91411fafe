/**
 * The one module that talks to the Convoy API (docs/api.md). Nothing else calls fetch.
 *
 * Every state-changing call carries an Idempotency-Key chosen once per intent; when the
 * network drops or the server answers 502/503/504 (or 409 CONFLICT: the same key still in
 * flight) the very same request is sent again with the same key, so a retry of an order
 * that did reach the server is answered from the server's record instead of applied twice,
 * and an order that did not reach it is not lost.
 */

export type Json = Record<string, unknown>;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: Json;

  constructor(status: number, body: Json) {
    super(typeof body.message === "string" ? body.message : `HTTP ${status}`);
    this.status = status;
    this.code = typeof body.code === "string" ? body.code : `HTTP_${status}`;
    this.body = body;
  }
}

const BASE_KEY = "convoy.apiBase";

/** The API's base URL: a setting (localStorage), else the build's VITE_API_BASE, else this origin. */
export function apiBase(): string {
  const stored = globalThis.localStorage?.getItem(BASE_KEY);
  const built = (import.meta.env.VITE_API_BASE as string | undefined) ?? "";
  return (stored || built || "").replace(/\/+$/, "");
}

export function setApiBase(url: string): void {
  if (url.trim()) localStorage.setItem(BASE_KEY, url.trim());
  else localStorage.removeItem(BASE_KEY);
}

export function newKey(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === "function") return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export interface CallOptions {
  body?: unknown;
  token?: string | null;
  /** The intent's key; state-changing calls get a fresh one when none is given. */
  key?: string;
  /** How many times to resend after a network failure or a transient answer. */
  retries?: number;
  /** Told before each resend (attempt 1, 2, ...), e.g. to show "retrying". */
  onRetry?: (attempt: number, why: string) => void;
  /** Wait between attempts, in ms, for attempt n; tests make it 0. */
  backoff?: (attempt: number) => number;
  signal?: AbortSignal;
  /**
   * A POST that changes nothing (a what-if preview, the sandbox's legal orders): no
   * Idempotency-Key, since there is no intent to keep, and retried like a GET.
   */
  readOnly?: boolean;
}

const TRANSIENT = new Set([502, 503, 504]);

export const defaultBackoff = (attempt: number): number => Math.min(8000, 400 * 2 ** (attempt - 1));

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function readBody(response: Response): Promise<Json> {
  const text = await response.text();
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" ? (parsed as Json) : { value: parsed };
  } catch {
    return { message: text.slice(0, 300) };
  }
}

/** One API call; resolves with the JSON answer or rejects with ApiError (never a raw Response). */
export async function call<T = Json>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  const mutating = method !== "GET" && method !== "HEAD" && !options.readOnly;
  const key = mutating ? (options.key ?? newKey()) : undefined;
  const retries = options.retries ?? (mutating ? 8 : 2);
  const backoff = options.backoff ?? defaultBackoff;
  const headers: Record<string, string> = { Accept: "application/json" };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (key) headers["Idempotency-Key"] = key;
  for (let attempt = 0; ; attempt += 1) {
    let why: string;
    try {
      const response = await fetch(apiBase() + path, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
      const body = await readBody(response);
      if (response.ok) return body as T;
      const error = new ApiError(response.status, body);
      const inFlight = response.status === 409 && error.code === "CONFLICT";
      if (!(TRANSIENT.has(response.status) || inFlight) || attempt >= retries) throw error;
      why = error.message;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if ((error as Error)?.name === "AbortError" || attempt >= retries) {
        throw new ApiError(0, { code: "NETWORK", message: "The server could not be reached. Check your connection." });
      }
      why = "network";
    }
    options.onRetry?.(attempt + 1, why);
    await sleep(backoff(attempt + 1));
  }
}

/** The SVG text of a map route (sent with the caller's token: /map/orders draws its own orders). */
export async function fetchSvg(path: string, token?: string | null): Promise<string> {
  const headers: Record<string, string> = { Accept: "image/svg+xml" };
  if (token) headers.Authorization = `Bearer ${token}`;
  let last: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const response = await fetch(apiBase() + path, { headers });
      if (response.ok) return await response.text();
      throw new ApiError(response.status, await readBody(response));
    } catch (error) {
      last = error;
      if (error instanceof ApiError && !TRANSIENT.has(error.status)) throw error;
      await sleep(defaultBackoff(attempt + 1));
    }
  }
  throw last;
}
