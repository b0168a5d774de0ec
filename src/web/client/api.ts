/**
 * The API as the web application's scripts call it: the same /v1 operations programs use, with the
 * page's cookie session, which the API accepts only with the page's CSRF token in X-CSRF-Token
 * (src/http/middleware/auth.ts). Every write carries an Idempotency-Key, so a retry never acts twice.
 *
 * One typed client: `client` is Hono's `hc` over the Worker's own route contracts (`AppType`), so an
 * island names an operation by its path and gets its request fields and its answer typed from the
 * contract, with no copy of either. The types come from the declarations `npm run typecheck` emits
 * for src/ (generated/types/, built before the browser's files are checked); the import is type-only,
 * so nothing of the Worker reaches the browser's bundle.
 *
 *   const res = await send(client.v1.shift_request[':id'].claim.$post({ param: { id } }, write()));
 *   if (res.ok) res.data.request_status; // typed from the route's 200 response
 */
import { hc } from 'hono/client';
import type { ClientResponse } from 'hono/client';
import type { SuccessStatusCode } from 'hono/utils/http-status';
import type { AppType } from '@generated/types/src/app';

export interface ApiError {
  code: string;
  message: string;
  details?: unknown;
}

export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; error: ApiError; retryAfter?: number };

const csrfToken = () => document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';

export const newIdempotencyKey = (): string => crypto.randomUUID();

/** The page's fetch: same origin, its cookie session, the CSRF token and JSON asked for on every call. */
const pageFetch: typeof fetch = (input, init = {}) => {
  const headers = new Headers(init.headers);
  headers.set('X-CSRF-Token', csrfToken());
  headers.set('Accept', 'application/json');
  return fetch(input, { ...init, headers, credentials: 'same-origin' });
};

/** The typed client of the /v1 API, on the page's own origin. */
export const client = hc<AppType>(typeof location === 'undefined' ? 'http://localhost' : location.origin, { fetch: pageFetch });

/**
 * What a write sends besides its fields: a new Idempotency-Key (or the one given, to retry the same
 * write after a network error) and the caller's abort signal.
 */
export function write(opts: { idempotencyKey?: string; signal?: AbortSignal } = {}) {
  return {
    headers: { 'Idempotency-Key': opts.idempotencyKey ?? newIdempotencyKey() },
    ...(opts.signal ? { init: { signal: opts.signal } } : {}),
  };
}

/** A read's options: only its abort signal. */
export const read = (signal?: AbortSignal) => (signal ? { init: { signal } } : {});

/** The body of an answer of a success status, from the operation's contract. */
export type OkBody<R> = R extends ClientResponse<infer T, infer S, infer _F> ? (S extends SuccessStatusCode ? T : never) : never;

/**
 * Waits for a call of `client` and reads its answer: the contract's body of a success, else the
 * error envelope (`error.code`, `error.message`, `error.details`) with Retry-After when the service
 * set it. A network failure is an answer too (status 0, NETWORK-ERR), so an island has one case to
 * word, never an exception.
 */
export async function send<R extends ClientResponse<unknown, number, string>>(call: Promise<R>): Promise<ApiResult<OkBody<R>>> {
  let res: R;
  try {
    res = await call;
  } catch {
    return {
      ok: false,
      status: 0,
      error: { code: 'NETWORK-ERR', message: 'The service could not be reached. Check your connection and try again.' },
    };
  }
  let text = '';
  try {
    text = await res.text();
  } catch {
    text = '';
  }
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status, data: json as OkBody<R> };
  const envelope = (json as { error?: ApiError } | null)?.error;
  const retry = Number(res.headers.get('Retry-After'));
  return {
    ok: false,
    status: res.status,
    error: envelope ?? { code: 'HTTP-ERR', message: `The service answered ${res.status}.` },
    ...(Number.isFinite(retry) && retry > 0 ? { retryAfter: retry } : {}),
  };
}

/** "$18.50": an amount in its currency. */
export function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}
