import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import type { AppBindings } from '../../src/env';
import worker from '../../src';

export const BASE = 'http://example.com';

/** Something that answers requests as the Worker does. */
export type WorkerFetch = (req: Request) => Promise<Response>;

/** The Worker with operator settings changed (a fresh env object, so the settings are parsed anew). */
export function workerWith(vars: Record<string, string>): WorkerFetch {
  const bindings = { ...env, ...vars } as AppBindings;
  return async (req) => {
    const ctx = createExecutionContext();
    const res = await worker.fetch(req, bindings, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };
}

export interface CallOptions {
  /** Another Worker configuration (workerWith); default: the Worker under test as configured. */
  worker?: WorkerFetch;
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
}

export interface ApiResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  raw: Response;
}

/** Calls the Worker's fetch handler in-process, exactly as a client would over HTTP. */
export async function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResult<T>> {
  const url = new URL(path, BASE);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers = new Headers(opts.headers);
  if (opts.key) headers.set('Authorization', `Bearer ${opts.key}`);
  let body: BodyInit | undefined;
  if (opts.body !== undefined) {
    if (opts.body instanceof FormData || typeof opts.body === 'string' || opts.body instanceof ArrayBuffer) body = opts.body as BodyInit;
    else {
      body = JSON.stringify(opts.body);
      if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
    }
  }
  const req = new Request(url, { method, headers, body });
  const raw = await (opts.worker ? opts.worker(req) : exports.default.fetch(req));
  const text = await raw.clone().text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* non-JSON body (HTML docs) */
  }
  return { status: raw.status, headers: raw.headers, body: parsed as T, raw };
}

/** Asserts the one error envelope and returns it. */
export function expectError(res: ApiResult, status: number, code: string) {
  if (res.status !== status || res.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  if (typeof res.body.request_id !== 'string' || typeof res.body.error.message !== 'string') {
    throw new Error(`error envelope malformed: ${JSON.stringify(res.body)}`);
  }
  return res.body.error as { code: string; message: string; details?: unknown };
}
