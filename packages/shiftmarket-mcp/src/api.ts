/**
 * The Shiftmarket HTTP API as this tool server calls it: JSON in and out (multipart for file uploads), the personal key as a
 * bearer token, and the API's one error envelope turned into an ApiError carrying its code and the
 * server's own message (which the tools show as they are).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export interface Api {
  readonly baseUrl: string;
  call<T = unknown>(
    method: string,
    path: string,
    opts?: { key?: string | null; body?: unknown; form?: FormData; query?: Record<string, unknown> },
  ): Promise<T>;
}

export const USER_AGENT = 'shiftmarket-mcp/0.1.0';

export function createApi(baseUrl: string, fetchImpl: typeof fetch = fetch): Api {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    baseUrl: base,
    async call<T>(
      method: string,
      path: string,
      opts: { key?: string | null; body?: unknown; form?: FormData; query?: Record<string, unknown> } = {},
    ) {
      const url = new URL(base + path);
      for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
      const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': USER_AGENT };
      if (opts.key) headers.Authorization = `Bearer ${opts.key}`;
      // A multipart form (file uploads) sets its own Content-Type with the boundary.
      if (opts.body !== undefined && !opts.form) headers['Content-Type'] = 'application/json';
      const payload = opts.form ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
      let res: Response;
      try {
        res = await fetchImpl(url, { method, headers, body: payload });
      } catch (err) {
        throw new ApiError(
          0,
          'UNREACHABLE',
          `Shiftmarket is not reachable at ${base} (${(err as Error).message}). Is the service running? (SHIFTMARKET_BASE_URL)`,
        );
      }
      const text = await res.text();
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      if (!res.ok) {
        const e = (body as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
        throw new ApiError(res.status, e?.code ?? `HTTP-${res.status}`, e?.message ?? `HTTP ${res.status}`, e?.details);
      }
      return body as T;
    },
  };
}
