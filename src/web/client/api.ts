/**
 * The API as the web application's scripts call it: the same /v1 operations programs use, with the
 * page's cookie session, which the API accepts only with the page's CSRF token in X-CSRF-Token
 * (src/http/middleware/auth.ts). Every write carries an Idempotency-Key, so a retry never acts twice.
 */
export interface ApiError {
  code: string;
  message: string;
  details?: unknown;
}

export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; error: ApiError; retryAfter?: number };

const csrfToken = () => document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';

export const newIdempotencyKey = (): string => crypto.randomUUID();

export async function api<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  opts: { idempotencyKey?: string; signal?: AbortSignal } = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { 'X-CSRF-Token': csrfToken(), Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal: opts.signal,
    });
  } catch {
    return {
      ok: false,
      status: 0,
      error: { code: 'NETWORK-ERR', message: 'The service could not be reached. Check your connection and try again.' },
    };
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (res.ok) return { ok: true, status: res.status, data: json as T };
  const envelope = (json as { error?: ApiError } | null)?.error;
  const retry = Number(res.headers.get('Retry-After'));
  return {
    ok: false,
    status: res.status,
    error: envelope ?? { code: 'HTTP-ERR', message: `The service answered ${res.status}.` },
    ...(Number.isFinite(retry) && retry > 0 ? { retryAfter: retry } : {}),
  };
}

/** A query string from the defined values of `q`. */
export function query(q: Record<string, string | number | boolean | undefined | null>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** "$18.50": an amount in its currency. */
export function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}
