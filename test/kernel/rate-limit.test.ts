import { createExecutionContext, evictDurableObject, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RateLimiter } from '../../src/durable-objects/rate-limiter';
import worker from '../../src';
import { type ApiResult, BASE, call, expectError } from '../helpers/api';
import { fromIp, randomIp } from '../helpers/auth';
import { makeUser, TEST_PASSWORD } from '../helpers/factory';

// The real operator setting (wrangler.toml, DECISIONS.md): 600 requests per 5 minutes per key.
const LIMIT = 600;
const WINDOW_S = 300;
const WINDOW_MS = WINDOW_S * 1000;

function rateHeaders(res: ApiResult) {
  return {
    limit: res.headers.get('X-RateLimit-Limit'),
    remaining: res.headers.get('X-RateLimit-Remaining'),
    reset: res.headers.get('X-RateLimit-Reset'),
  };
}

/** Sends `n` requests in parallel chunks. */
async function burst(n: number, chunk: number, send: () => Promise<ApiResult>): Promise<ApiResult[]> {
  const out: ApiResult[] = [];
  for (let done = 0; done < n; done += chunk) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(chunk, n - done) }, send))));
  }
  return out;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('personal key rate limit (600 per 5 minutes)', () => {
  it('lets 600 requests through, counting down, then answers 429 RATE-LIMIT-ERR with Retry-After', async () => {
    // Pin the clock (the Worker and its Durable Objects share this isolate) just after a window
    // starts, so the burst cannot straddle a window edge and pick up the sliding weight.
    const now = Math.ceil(Date.now() / WINDOW_MS) * WINDOW_MS + 1000;
    vi.useFakeTimers({ toFake: ['Date'], now });
    const nowS = Math.floor(now / 1000);

    const u = await makeUser({ shifter: true });
    const other = await makeUser({ shifter: true });

    const results = await burst(LIMIT, 50, () => call('GET', '/v1/user/details', { key: u.key }));
    const remaining: number[] = [];
    for (const res of results) {
      expect(res.status).toBe(200);
      const h = rateHeaders(res);
      expect(h.limit).toBe(String(LIMIT));
      const reset = Number(h.reset);
      expect(Number.isInteger(reset)).toBe(true);
      expect(reset).toBeGreaterThan(nowS);
      expect(reset).toBeLessThanOrEqual(nowS + WINDOW_S);
      remaining.push(Number(h.remaining));
    }
    // Every request used exactly one unit: the remaining counts are 599 down to 0, each once.
    expect(remaining.sort((a, b) => b - a)).toEqual(Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i));

    const limited = await call('GET', '/v1/user/details', { key: u.key });
    expectError(limited, 429, 'RATE-LIMIT-ERR');
    expect(limited.headers.get('X-Request-Id')).toBe(limited.body.request_id);
    const retryAfter = Number(limited.headers.get('Retry-After'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_S);
    expect(rateHeaders(limited)).toEqual({ limit: String(LIMIT), remaining: '0', reset: expect.stringMatching(/^\d+$/) });
    expect(Number(rateHeaders(limited).reset)).toBeGreaterThan(nowS);

    // Refused requests do not count: it stays limited, and stays at 0.
    const again = await call('GET', '/v1/user/details', { key: u.key });
    expectError(again, 429, 'RATE-LIMIT-ERR');
    expect(again.headers.get('X-RateLimit-Remaining')).toBe('0');

    // Another user's key has its own budget.
    const theirs = await call('GET', '/v1/user/details', { key: other.key });
    expect(theirs.status).toBe(200);
    expect(rateHeaders(theirs)).toMatchObject({ limit: String(LIMIT), remaining: String(LIMIT - 1) });

    // Two windows later the key is fully usable again.
    vi.setSystemTime(now + 2 * WINDOW_MS);
    const later = await call('GET', '/v1/user/details', { key: u.key });
    expect(later.status).toBe(200);
    expect(later.headers.get('X-RateLimit-Remaining')).toBe(String(LIMIT - 1));
  }, 120_000);

  it('puts the headers on error answers to key-authenticated requests too', async () => {
    const u = await makeUser({ shifter: true });
    const other = await makeUser({ shifter: true });
    const cases: Array<[ApiResult, number, string]> = [
      [await call('GET', '/v1/no/such/route', { key: u.key }), 404, 'NOT-FOUND-ERR'],
      [await call('GET', '/v1/user/details', { key: u.key, query: { user_id: other.userId } }), 403, 'FORBIDDEN-ERR'],
      [await call('POST', '/v1/business/create', { key: u.key, body: { name: '' } }), 400, 'VALIDATION-ERR'],
      [await call('POST', '/v1/shifter/create', { key: u.key, body: {} }), 409, 'PROFILE-EXISTS-ERR'],
    ];
    let expectedRemaining = LIMIT - 1;
    for (const [res, status, code] of cases) {
      expectError(res, status, code);
      const h = rateHeaders(res);
      expect(h.limit).toBe(String(LIMIT));
      expect(h.remaining).toBe(String(expectedRemaining--));
      expect(Number(h.reset)).toBeGreaterThan(Math.floor(Date.now() / 1000) - 1);
    }
  });

  it('does not add the headers when no key was used', async () => {
    const res = await call('GET', '/v1/no/such/route');
    expect(res.status).toBe(404);
    expect(res.headers.get('X-RateLimit-Limit')).toBeNull();
    const login = await call('POST', '/v1/auth/login', { body: { email: 'nobody@example.test', password: 'whatever it is' } });
    expect(login.headers.get('X-RateLimit-Limit')).toBeNull();
  });
});

/** Calls the Worker with operator settings of the test's choosing (settings are parsed per env object). */
async function callWith(
  vars: Record<string, string>,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers = new Headers(opts.headers);
  if (opts.key) headers.set('Authorization', `Bearer ${opts.key}`);
  if (opts.body !== undefined) headers.set('Content-Type', 'application/json');
  const exec = createExecutionContext();
  const raw = await worker.fetch(
    new Request(new URL(path, BASE), { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) }),
    { ...env, ...vars } as never,
    exec,
  );
  await waitOnExecutionContext(exec);
  const text = await raw.text();
  return { status: raw.status, headers: raw.headers, body: text ? JSON.parse(text) : null, raw } as ApiResult;
}

const signIn = async (email: string) =>
  (await call('POST', '/v1/auth/login', { body: { email, password: TEST_PASSWORD }, headers: fromIp(randomIp()) })).body
    .session_token as string;

describe('budgets belong to the account', () => {
  it('counts personal keys per account: a regenerated key continues the budget', async () => {
    const u = await makeUser({ shifter: true });
    for (let i = 1; i <= 3; i++)
      expect((await call('GET', '/v1/user/details', { key: u.key })).headers.get('X-RateLimit-Remaining')).toBe(String(LIMIT - i));
    const regen = await call('POST', '/v1/user/api_key/regenerate', { key: u.key });
    expect(regen.headers.get('X-RateLimit-Remaining')).toBe(String(LIMIT - 4));
    const next = await call('GET', '/v1/user/details', { key: regen.body.key });
    expect(next.status).toBe(200);
    expect(next.headers.get('X-RateLimit-Remaining')).toBe(String(LIMIT - 5));
  });

  it('gives session tokens a budget of their own per account, with the same headers', async () => {
    const u = await makeUser({ shifter: true });
    const [a, b] = [await signIn(u.email), await signIn(u.email)];
    const first = await call('GET', '/v1/user/details', { key: a });
    expect(rateHeaders(first)).toMatchObject({ limit: '600', remaining: '599' });
    // Both sessions of the account share it; the personal key has its own.
    expect((await call('GET', '/v1/user/details', { key: b })).headers.get('X-RateLimit-Remaining')).toBe('598');
    expect((await call('GET', '/v1/user/details', { key: u.key })).headers.get('X-RateLimit-Remaining')).toBe(String(LIMIT - 1));
  });

  it('refuses session requests past SESSION_RATE_LIMIT with 429, Retry-After and the headers', async () => {
    const vars = { SESSION_RATE_LIMIT: '3', SESSION_RATE_WINDOW_SECONDS: '300' };
    const u = await makeUser({ shifter: true });
    const token = await signIn(u.email);
    for (let i = 0; i < 3; i++) expect((await callWith(vars, 'GET', '/v1/user/details', { key: token })).status).toBe(200);
    const limited = await callWith(vars, 'GET', '/v1/user/details', { key: token });
    expectError(limited, 429, 'RATE-LIMIT-ERR');
    expect(rateHeaders(limited)).toMatchObject({ limit: '3', remaining: '0' });
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    // A new session of the same account does not get a fresh budget.
    expectError(await callWith(vars, 'GET', '/v1/user/details', { key: await signIn(u.email) }), 429, 'RATE-LIMIT-ERR');
    // The key is counted apart.
    expect((await callWith(vars, 'GET', '/v1/user/details', { key: u.key })).status).toBe(200);
  });
});

describe('public sign-up and sign-in routes are limited per client IP', () => {
  it('refuses an address past AUTH_IP_RATE_LIMIT on any of them; another address goes on', async () => {
    const vars = { AUTH_IP_RATE_LIMIT: '5', AUTH_IP_RATE_WINDOW_SECONDS: '900' };
    const ip = randomIp();
    const paths = [
      '/v1/auth/resend_verification',
      '/v1/auth/password_reset/request',
      '/v1/auth/resend_verification',
      '/v1/auth/password_reset/request',
      '/v1/auth/resend_verification',
    ];
    for (const p of paths)
      expect(
        (await callWith(vars, 'POST', p, { body: { email: `${crypto.randomUUID()}@example.test` }, headers: fromIp(ip) })).status,
      ).toBe(202);
    for (const [p, body] of [
      ['/v1/auth/login', { email: 'a@example.test', password: 'whatever it is' }],
      ['/v1/auth/register', { email: 'b@example.test', password: 'long enough password', display_name: 'B', shifter: {} }],
      ['/v1/auth/verify_email', { email: 'c@example.test', code: '123456', password: 'x' }],
      ['/v1/auth/password_reset/confirm', { email: 'd@example.test', code: '123456', new_password: 'long enough password' }],
    ] as const) {
      const res = await callWith(vars, 'POST', p, { body, headers: fromIp(ip) });
      expectError(res, 429, 'RATE-LIMIT-ERR');
      expect(Number(res.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    }
    expect(
      (await callWith(vars, 'POST', '/v1/auth/resend_verification', { body: { email: 'e@example.test' }, headers: fromIp(randomIp()) }))
        .status,
    ).toBe(202);
  });

  it('puts every caller without CF-Connecting-IP (local development) in one bucket', async () => {
    // Other tests of this file also called without the header: the shared bucket may hold hits already.
    const vars = { AUTH_IP_RATE_LIMIT: '2', AUTH_IP_RATE_WINDOW_SECONDS: '900' };
    const send = (headers?: Record<string, string>) =>
      callWith(vars, 'POST', '/v1/auth/resend_verification', { body: { email: `${crypto.randomUUID()}@example.test` }, headers });
    const results = [await send(), await send(), await send()];
    expect(results.filter((r) => r.status === 202).length).toBeLessThanOrEqual(2);
    expectError(results[2]!, 429, 'RATE-LIMIT-ERR');
    expect((await send(fromIp(randomIp()))).status).toBe(202);
  });

  it('limits resend and reset requests per email too, whatever the address', async () => {
    const email = `${crypto.randomUUID()}@example.test`;
    for (const path of ['/v1/auth/resend_verification', '/v1/auth/password_reset/request']) {
      for (let i = 0; i < 5; i++) expect((await call('POST', path, { body: { email }, headers: fromIp(randomIp()) })).status).toBe(202);
      expectError(await call('POST', path, { body: { email }, headers: fromIp(randomIp()) }), 429, 'RATE-LIMIT-ERR');
    }
  });
});

describe('RateLimiter Durable Object (sliding window)', () => {
  const limiter = () => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`unit:${crypto.randomUUID()}`));
  const hit = (stub: ReturnType<typeof limiter>, limit: number, windowS: number, nowMs: number) =>
    runInDurableObject(stub, (obj: RateLimiter) => obj.hit(limit, windowS, nowMs));
  // A window start: 60 s windows are aligned to multiples of 60 000 ms.
  const T0 = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);

  it('counts within a window and refuses past the limit without going negative', async () => {
    const stub = limiter();
    const seen: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await hit(stub, 10, 60, T0 + i * 1000);
      expect(r.allowed).toBe(true);
      expect(r.retryAfter).toBe(0);
      expect(r.reset).toBe((T0 + 60_000) / 1000);
      seen.push(r.remaining);
    }
    expect(seen).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    for (let i = 0; i < 5; i++) {
      const r = await hit(stub, 10, 60, T0 + 20_000);
      expect(r).toMatchObject({ allowed: false, remaining: 0, limit: 10 });
      expect(r.retryAfter).toBe(40);
    }
    // A lower limit than the count so far still reports 0, never a negative number.
    const lower = await hit(stub, 3, 60, T0 + 30_000);
    expect(lower).toMatchObject({ allowed: false, remaining: 0 });
    expect(lower.retryAfter).toBeGreaterThanOrEqual(1);
  });

  it('weighs the previous window by how much of it still overlaps, decaying to nothing', async () => {
    const stub = limiter();
    for (let i = 0; i < 10; i++) expect((await hit(stub, 10, 60, T0 + i)).allowed).toBe(true);
    // At the very start of the next window the whole previous count still weighs in.
    const atEdge = await hit(stub, 10, 60, T0 + 60_000);
    expect(atEdge).toMatchObject({ allowed: false, remaining: 0 });
    expect(atEdge.retryAfter).toBeGreaterThanOrEqual(1);
    expect(atEdge.reset).toBe((T0 + 120_000) / 1000);
    // Halfway through, half of it: 5 used, this hit makes 6.
    const half = await hit(stub, 10, 60, T0 + 90_000);
    expect(half).toMatchObject({ allowed: true, remaining: 4 });
    // Three quarters through: floor(10 × 0.25) = 2 from before, plus the 1 hit of this window.
    const quarter = await hit(stub, 10, 60, T0 + 105_000);
    expect(quarter).toMatchObject({ allowed: true, remaining: 10 - 2 - 1 - 1 });
  });

  it('gives back a released hit, in its own window only', async () => {
    const stub = limiter();
    const first = await hit(stub, 10, 60, T0 + 1);
    await hit(stub, 10, 60, T0 + 2);
    await runInDurableObject(stub, (obj: RateLimiter) => obj.release(60, first.windowStart));
    expect(await hit(stub, 10, 60, T0 + 3)).toMatchObject({ remaining: 8 });
    // A hit from a window long gone is not taken off the current count.
    await runInDurableObject(stub, (obj: RateLimiter) => obj.release(60, T0 - 120_000));
    expect(await hit(stub, 10, 60, T0 + 4)).toMatchObject({ remaining: 7 });
  });

  it('starts from zero after two windows', async () => {
    const stub = limiter();
    for (let i = 0; i < 10; i++) await hit(stub, 10, 60, T0 + i);
    expect((await hit(stub, 10, 60, T0 + 59_999)).allowed).toBe(false);
    const fresh = await hit(stub, 10, 60, T0 + 120_000);
    expect(fresh).toMatchObject({ allowed: true, remaining: 9, reset: (T0 + 180_000) / 1000 });
  });

  it('keeps its count in storage across an eviction', async () => {
    const stub = limiter();
    for (let i = 0; i < 4; i++) await hit(stub, 10, 60, T0 + i);
    const stored = await runInDurableObject(stub, (_obj: RateLimiter, state) => state.storage.kv.get<{ count: number }>('w'));
    expect(stored?.count).toBe(4);
    await evictDurableObject(stub);
    expect(await hit(stub, 10, 60, T0 + 10)).toMatchObject({ allowed: true, remaining: 5 });
  });
});
