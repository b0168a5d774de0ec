import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, eq, like } from 'drizzle-orm';
import type { Context } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditLog, businesses, idempotencyKeys, shiftRequests, shifters, shiftTemplates } from '../src/db/schema';
import type { AppEnv } from '../src/http/app-types';
import { createRouter } from '../src/http/create-app';
import { onError } from '../src/http/error-handler';
import { resolveAuth } from '../src/http/middleware/auth';
import { limitBody } from '../src/http/middleware/body-limit';
import { ABANDONED_AFTER_MS, IDEMPOTENCY_TTL_MS, idempotency } from '../src/http/middleware/idempotency';
import { requestContext } from '../src/http/middleware/request-context';
import worker from '../src';
import { sha256Hex } from '../src/lib/crypto';
import { AppError } from '../src/lib/errors';
import { newId } from '../src/lib/ids';
import type { IdempotencyScope } from '../src/services/kernel';
import { BASE, call, expectError } from './helpers/api';
import { db, makeUser } from './helpers/factory';
import { loseNextBatchAnswer } from './helpers/failures';
import { shiftBody } from './helpers/shifts';

const idemKey = () => `idem-${crypto.randomUUID()}`;

function businessBody(name = `Cafe ${crypto.randomUUID().slice(0, 8)}`) {
  return { name, timezone: 'America/New_York', city_id: 1 };
}

async function businessesNamed(userId: string, name: string) {
  return db()
    .select({ id: businesses.id })
    .from(businesses)
    .where(and(eq(businesses.user_id, userId), eq(businesses.name, name)));
}

async function rowsFor(key: string) {
  return db().select().from(idempotencyKeys).where(eq(idempotencyKeys.idem_key, key));
}

describe('Idempotency-Key on creating POSTs', () => {
  it('replays the first answer for the same caller, key and body, and creates once', async () => {
    const u = await makeUser();
    const key = idemKey();
    const body = businessBody();
    const first = await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();

    const second = await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': key } });
    expect(second.status).toBe(201);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect(second.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(second.body).toEqual(first.body);
    // The replay is still a fresh request: its own request id and the rate-limit headers.
    expect(second.headers.get('X-Request-Id')).not.toBe(first.headers.get('X-Request-Id'));
    expect(second.headers.get('X-RateLimit-Limit')).toBe('600');

    expect(await businessesNamed(u.userId, body.name)).toHaveLength(1);
    const [row] = await rowsFor(key);
    expect(row).toMatchObject({ scope: u.userId, state: 'done', status_code: 201, method: 'POST', path: '/v1/business/create' });
    expect(row!.expires_at - row!.created_at).toBeGreaterThanOrEqual(24 * 3600 * 1000);
  });

  it('refuses the same key with a different body (409 IDEMPOTENCY-MISMATCH-ERR)', async () => {
    const u = await makeUser();
    const key = idemKey();
    const body = businessBody();
    expect((await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': key } })).status).toBe(201);
    const other = businessBody();
    const res = await call('POST', '/v1/business/create', { key: u.key, body: other, headers: { 'Idempotency-Key': key } });
    expectError(res, 409, 'IDEMPOTENCY-MISMATCH-ERR');
    expect(await businessesNamed(u.userId, other.name)).toHaveLength(0);
  });

  it('refuses the same key on another path (409 IDEMPOTENCY-MISMATCH-ERR)', async () => {
    const u = await makeUser();
    const key = idemKey();
    expect(
      (await call('POST', '/v1/business/create', { key: u.key, body: businessBody(), headers: { 'Idempotency-Key': key } })).status,
    ).toBe(201);
    const res = await call('POST', '/v1/shifter/create', { key: u.key, body: {}, headers: { 'Idempotency-Key': key } });
    expectError(res, 409, 'IDEMPOTENCY-MISMATCH-ERR');
    expect((await call('GET', '/v1/shifter/of_user', { key: u.key })).status).toBe(404);
  });

  it("keeps each caller's keys apart: another user with the same key and body creates their own", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const key = idemKey();
    const body = businessBody();
    const ra = await call('POST', '/v1/business/create', { key: a.key, body, headers: { 'Idempotency-Key': key } });
    const rb = await call('POST', '/v1/business/create', { key: b.key, body, headers: { 'Idempotency-Key': key } });
    expect(ra.status).toBe(201);
    expect(rb.status).toBe(201);
    expect(rb.headers.get('Idempotent-Replayed')).toBeNull();
    expect(rb.body.id).not.toBe(ra.body.id);
    expect(rb.body.user_id).toBe(b.userId);
    expect(await businessesNamed(a.userId, body.name)).toHaveLength(1);
    expect(await businessesNamed(b.userId, body.name)).toHaveLength(1);
    expect(await rowsFor(key)).toHaveLength(2);
  });

  it('replays a 4xx first answer', async () => {
    const u = await makeUser();
    const key = idemKey();
    const body = { ...businessBody(), city_id: 999_999 };
    const first = await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': key } });
    expectError(first, 400, 'VALIDATION-ERR');
    const second = await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': key } });
    expectError(second, 400, 'VALIDATION-ERR');
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
  });

  it('rejects a malformed key with 400 VALIDATION-ERR and runs nothing', async () => {
    const u = await makeUser();
    const body = businessBody();
    for (const bad of ['k'.repeat(256), 'has space', 'tab\there', '']) {
      const res = await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': bad } });
      expectError(res, 400, 'VALIDATION-ERR');
    }
    expect(await businessesNamed(u.userId, body.name)).toHaveLength(0);
    // 255 characters is still fine.
    const ok = await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': 'k'.repeat(255) } });
    expect(ok.status).toBe(201);
  });

  it('ignores the header on other methods', async () => {
    const u = await makeUser({ shifter: true });
    const key = idemKey();
    const res = await call('GET', '/v1/user/details', { key: u.key, headers: { 'Idempotency-Key': key } });
    expect(res.status).toBe(200);
    expect(await rowsFor(key)).toHaveLength(0);
  });

  it('runs a request again once its stored answer has expired', async () => {
    const u = await makeUser();
    const key = idemKey();
    const body = businessBody();
    const now = Date.now();
    await db()
      .insert(idempotencyKeys)
      .values({
        id: newId('idempotency'),
        scope: u.userId,
        idem_key: key,
        method: 'POST',
        path: '/v1/business/create',
        request_hash: 'stale',
        state: 'done',
        status_code: 201,
        response_body: '{"stale":true}',
        response_content_type: 'application/json',
        created_at: now - IDEMPOTENCY_TTL_MS - 60_000,
        expires_at: now - 60_000,
      });
    const res = await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': key } });
    expect(res.status).toBe(201);
    expect(res.headers.get('Idempotent-Replayed')).toBeNull();
    expect(res.body.name).toBe(body.name);
  });

  it('lets a retry take over a key whose first attempt died while processing', async () => {
    const u = await makeUser();
    const key = idemKey();
    const body = businessBody();
    const now = Date.now();
    const abandoned = {
      scope: u.userId,
      idem_key: key,
      method: 'POST',
      path: '/v1/business/create',
      request_hash: await sha256Hex(`POST /v1/business/create\n${JSON.stringify(body)}`),
      state: 'processing' as const,
      expires_at: now + IDEMPOTENCY_TTL_MS,
    };
    // Still within its time: a retry waits.
    await db()
      .insert(idempotencyKeys)
      .values({ ...abandoned, id: newId('idempotency'), created_at: now - 10_000 });
    expectError(
      await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': key } }),
      409,
      'IDEMPOTENCY-IN-PROGRESS-ERR',
    );
    // Past ABANDONED_AFTER_MS: the key is freed, and the next retry runs the request once.
    await db()
      .update(idempotencyKeys)
      .set({ created_at: now - ABANDONED_AFTER_MS - 1000 })
      .where(eq(idempotencyKeys.idem_key, key));
    const freed = await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': key } });
    expectError(freed, 409, 'IDEMPOTENCY-IN-PROGRESS-ERR');
    expect(freed.headers.get('Retry-After')).toBe('1');
    const retried = await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': key } });
    expect(retried.status).toBe(201);
    const replay = await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': key } });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await db().select().from(businesses).where(eq(businesses.user_id, u.userId))).toHaveLength(1);
  });

  it('runs an anonymous POST as if the key were not sent: nothing stored, nothing replayed, the key not even checked', async () => {
    const key = idemKey();
    const email = `anon-${crypto.randomUUID()}@example.test`;
    for (const k of [key, key, 'has space']) {
      const res = await call('POST', '/v1/auth/resend_verification', { body: { email }, headers: { 'Idempotency-Key': k } });
      expect(res.status).toBe(202);
      expect(res.headers.get('Idempotent-Replayed')).toBeNull();
    }
    expect(await rowsFor(key)).toHaveLength(0);
    expect(await db().select().from(idempotencyKeys).where(like(idempotencyKeys.scope, 'anon%'))).toHaveLength(0);
  });

  it('creates exactly once under 10 concurrent identical requests', async () => {
    const u = await makeUser();
    const key = idemKey();
    const body = businessBody();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': key } })),
    );
    const created = results.filter((r) => r.status === 201 && r.headers.get('Idempotent-Replayed') === null);
    expect(created).toHaveLength(1);
    for (const r of results) {
      if (r === created[0]) continue;
      if (r.status === 201) {
        expect(r.headers.get('Idempotent-Replayed')).toBe('true');
        expect(r.body).toEqual(created[0]!.body);
      } else {
        expectError(r, 409, 'IDEMPOTENCY-IN-PROGRESS-ERR');
        expect(r.headers.get('Retry-After')).toBe('1');
      }
    }
    expect(await businessesNamed(u.userId, body.name)).toHaveLength(1);
    // Once the first has finished, a retry gets the stored answer.
    const retry = await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': key } });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    expect(retry.body).toEqual(created[0]!.body);
  });
});

describe('answers that hold a secret (Cache-Control: no-store)', () => {
  it('never stores or replays a regenerated API key', async () => {
    const u = await makeUser({ shifter: true });
    const key = idemKey();
    const first = await call('POST', '/v1/user/api_key/regenerate', { key: u.key, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(201);
    expect(first.headers.get('Cache-Control')).toContain('no-store');
    expect((await rowsFor(key)).filter((r) => r.response_body !== null || r.status_code !== null)).toHaveLength(0);

    // The old key is revoked, so the retry authenticates with the new one; same user, same key, same body.
    const second = await call('POST', '/v1/user/api_key/regenerate', { key: first.body.key, headers: { 'Idempotency-Key': key } });
    expect(second.status).toBe(201);
    expect(second.headers.get('Idempotent-Replayed')).toBeNull();
    expect(second.body.key).not.toBe(first.body.key);
    expect((await call('GET', '/v1/user/details', { key: second.body.key })).status).toBe(200);

    const all = await db().select().from(idempotencyKeys);
    for (const row of all) {
      expect(row.response_body ?? '').not.toContain(first.body.key);
      expect(row.response_body ?? '').not.toContain(second.body.key);
    }
    expect((await rowsFor(key)).filter((r) => r.response_body !== null || r.status_code !== null)).toHaveLength(0);
  });
});

describe('pruning', () => {
  it('the */5 cron deletes expired idempotency records and keeps live ones', async () => {
    const now = Date.now();
    const base = {
      method: 'POST',
      path: '/v1/business/create',
      request_hash: 'h',
      state: 'done' as const,
      status_code: 201,
      response_body: '{}',
    };
    const expiredId = newId('idempotency');
    const liveId = newId('idempotency');
    await db()
      .insert(idempotencyKeys)
      .values([
        {
          ...base,
          id: expiredId,
          scope: 'usr_prune',
          idem_key: 'old',
          created_at: now - 2 * IDEMPOTENCY_TTL_MS,
          expires_at: now - IDEMPOTENCY_TTL_MS,
        },
        { ...base, id: liveId, scope: 'usr_prune', idem_key: 'new', created_at: now, expires_at: now + IDEMPOTENCY_TTL_MS },
      ]);

    const ctrl = createScheduledController({ cron: '*/5 * * * *', scheduledTime: now });
    const ctx = createExecutionContext();
    await worker.scheduled(ctrl, env, ctx);
    await waitOnExecutionContext(ctx);

    const left = await db().select({ id: idempotencyKeys.id }).from(idempotencyKeys).where(eq(idempotencyKeys.scope, 'usr_prune'));
    expect(left.map((r) => r.id)).toEqual([liveId]);
  });
});

describe('the fingerprint includes the query string', () => {
  it('generate?weeks=1 and ?weeks=12 with one key do not replay each other', async () => {
    const biz = await makeUser({ business: true });
    const template = await call('POST', '/v1/shift_templates/create', {
      key: biz.key,
      body: {
        business_id: biz.businessId,
        label: 'Daily',
        days_of_week: '1,2,3,4,5,6,7',
        shift_in: '23:00',
        shift_out: '23:30',
        shiftrole_id: 1,
        hourly_rate: 20,
      },
    });
    expect(template.status, JSON.stringify(template.body)).toBe(201);
    const key = idemKey();
    const generate = (weeks: number) =>
      call('POST', `/v1/shift_templates/${template.body.id}/generate`, {
        key: biz.key,
        query: { weeks },
        headers: { 'Idempotency-Key': key },
      });
    const one = await generate(1);
    expect(one.status, JSON.stringify(one.body)).toBe(201);
    expect(one.body.weeks).toBe(1);
    expectError(await generate(12), 409, 'IDEMPOTENCY-MISMATCH-ERR');
    const rows = await db().select({ id: shiftRequests.id }).from(shiftRequests).where(eq(shiftRequests.template_id, template.body.id));
    expect(rows).toHaveLength(one.body.created.length);
    const again = await generate(1);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(one.body);
  });

  it('the order of query parameters does not matter, their values do', async () => {
    const u = await makeUser();
    const probe = newProbe();
    const key = idemKey();
    const first = await send(probe, u.key, key, { path: '/t/things?b=2&a=1' });
    expect(first.status).toBe(201);
    const reordered = await send(probe, u.key, key, { path: '/t/things?a=1&b=2' });
    expect(reordered.headers.get('Idempotent-Replayed')).toBe('true');
    expectError(await bodyOf(await send(probe, u.key, key, { path: '/t/things?a=1&b=3' })), 409, 'IDEMPOTENCY-MISMATCH-ERR');
    expectError(await bodyOf(await send(probe, u.key, key, { path: '/t/things' })), 409, 'IDEMPOTENCY-MISMATCH-ERR');
    expect(probe.runs).toHaveLength(1);
  });
});

// A small app with the real middleware stack (in app.ts's order) and one route that behaves like a
// service using the guarded-write primitive: its change and the record's `committed` mark are one
// D1 batch, and with `committed` set it answers from that subject without writing.
interface Probe {
  /** The idempotency scope each run of the handler saw. */
  runs: Array<IdempotencyScope | undefined>;
  failBeforeCommit: number;
  failAfterCommit: number;
  /** Holds each run after its commit until it resolves. */
  gate?: Promise<void>;
  answer?: (c: Context<AppEnv>, id: string) => Response;
}

const newProbe = (p: Partial<Probe> = {}): Probe => ({ runs: [], failBeforeCommit: 0, failAfterCommit: 0, ...p });

function probeApp(probe: Probe) {
  const app = createRouter();
  app.use('*', requestContext);
  app.use('*', resolveAuth);
  app.use('*', limitBody);
  app.use('*', idempotency);
  app.post('/t/things', async (c) => {
    const scope = c.get('idempotency');
    probe.runs.push(scope && { ...scope });
    if (probe.failBeforeCommit-- > 0) throw new Error('injected failure before the commit');
    let id: string;
    if (scope?.committed) {
      id = scope.committed.id;
    } else {
      id = newId('audit');
      const d = c.get('db');
      const actor = c.get('actor');
      await d.batch([
        d.insert(auditLog).values({
          id,
          actor_kind: 'test',
          actor_user_id: actor.kind === 'user' ? actor.userId : null,
          action: 'test.thing',
          subject_type: 'thing',
          subject_id: id,
          created_at: Date.now(),
        }),
        ...(scope
          ? [
              d
                .update(idempotencyKeys)
                .set({ state: 'committed', resource_type: 'thing', resource_id: id })
                .where(and(eq(idempotencyKeys.id, scope.recordId), eq(idempotencyKeys.state, 'processing'))),
            ]
          : []),
      ]);
    }
    if (probe.gate) await probe.gate;
    if (probe.failAfterCommit-- > 0) throw new Error('injected failure after the commit');
    return probe.answer ? probe.answer(c, id) : c.json({ id }, 201);
  });
  app.onError(onError);
  return app;
}

async function send(probe: Probe, apiKey: string | null, idem: string, opts: { path?: string; body?: unknown } = {}) {
  const headers = new Headers({ 'Content-Type': 'application/json', 'Idempotency-Key': idem });
  if (apiKey) headers.set('Authorization', `Bearer ${apiKey}`);
  const req = new Request(new URL(opts.path ?? '/t/things', BASE), {
    method: 'POST',
    headers,
    body: JSON.stringify(opts.body ?? { n: 1 }),
  });
  const ctx = createExecutionContext();
  const res = await probeApp(probe).fetch(req, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function bodyOf(res: Response) {
  return { status: res.status, headers: res.headers, body: await res.json<any>(), raw: res };
}

async function thingsOf(userId: string) {
  return db()
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'test.thing'), eq(auditLog.actor_user_id, userId)));
}

describe('a change that committed is never done twice', () => {
  it('a 5xx after the commit keeps the key: the retry answers from the committed subject and writes nothing', async () => {
    const u = await makeUser();
    const probe = newProbe({ failAfterCommit: 1 });
    const key = idemKey();
    const failed = await bodyOf(await send(probe, u.key, key));
    expectError(failed, 500, 'INTERNAL-ERR');
    const [held] = await rowsFor(key);
    expect(held).toMatchObject({
      state: 'committed',
      resource_type: 'thing',
      status_code: null,
      response_body: null,
      attempt: 1,
      attempt_started_at: null,
    });
    const [thing] = await thingsOf(u.userId);
    expect(held!.resource_id).toBe(thing!.id);

    const retry = await bodyOf(await send(probe, u.key, key));
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual({ id: thing!.id });
    expect(probe.runs).toEqual([
      { recordId: held!.id, committed: null },
      { recordId: held!.id, committed: { type: 'thing', id: thing!.id } },
    ]);
    expect(await thingsOf(u.userId)).toHaveLength(1);
    expect(await rowsFor(key)).toMatchObject([{ state: 'done', status_code: 201, attempt: 2, attempt_started_at: null }]);

    const replay = await bodyOf(await send(probe, u.key, key));
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body).toEqual({ id: thing!.id });
    expect(probe.runs).toHaveLength(2);
  });

  it('a 5xx before anything committed releases the key: the retry runs from the start', async () => {
    const u = await makeUser();
    const probe = newProbe({ failBeforeCommit: 1 });
    const key = idemKey();
    expectError(await bodyOf(await send(probe, u.key, key)), 500, 'INTERNAL-ERR');
    expect(await rowsFor(key)).toHaveLength(0);
    expect(await thingsOf(u.userId)).toHaveLength(0);
    const retry = await bodyOf(await send(probe, u.key, key));
    expect(retry.status).toBe(201);
    expect(probe.runs[1]!.committed).toBeNull();
    expect(await thingsOf(u.userId)).toEqual([{ id: retry.body.id }]);
  });

  it('a committed key survives any number of failed retries, and the abandoned-record sweep', async () => {
    const u = await makeUser();
    const probe = newProbe({ failAfterCommit: 3 });
    const key = idemKey();
    for (let i = 0; i < 3; i++) expectError(await bodyOf(await send(probe, u.key, key)), 500, 'INTERNAL-ERR');
    // Even when its attempt looks long dead, a committed record is taken over, never freed.
    await db()
      .update(idempotencyKeys)
      .set({ created_at: Date.now() - ABANDONED_AFTER_MS - 60_000 })
      .where(eq(idempotencyKeys.idem_key, key));
    const ok = await bodyOf(await send(probe, u.key, key));
    expect(ok.status).toBe(201);
    expect(probe.runs.map((r) => r?.committed?.type ?? null)).toEqual([null, 'thing', 'thing', 'thing']);
    expect(await thingsOf(u.userId)).toEqual([{ id: ok.body.id }]);
    expect(await rowsFor(key)).toMatchObject([{ state: 'done', attempt: 4 }]);
  });

  it('of 10 concurrent retries of a committed key exactly one runs; the others are told to wait or get its answer', async () => {
    const u = await makeUser();
    const key = idemKey();
    expectError(await bodyOf(await send(newProbe({ failAfterCommit: 1 }), u.key, key)), 500, 'INTERNAL-ERR');
    let open!: () => void;
    const probe = newProbe({ gate: new Promise<void>((r) => (open = r)) });
    const pending = Array.from({ length: 10 }, () => send(probe, u.key, key).then(bodyOf));
    // Let every retry reach the record before the one that took it over may finish.
    await new Promise((r) => setTimeout(r, 300));
    open();
    const results = await Promise.all(pending);
    expect(probe.runs).toHaveLength(1);
    expect(probe.runs[0]!.committed?.type).toBe('thing');
    const [thing] = await thingsOf(u.userId);
    const answered = results.filter((r) => r.status === 201);
    expect(answered.length).toBeGreaterThanOrEqual(1);
    for (const r of answered) expect(r.body).toEqual({ id: thing!.id });
    for (const r of results.filter((x) => x.status !== 201)) {
      expectError(r, 409, 'IDEMPOTENCY-IN-PROGRESS-ERR');
      expect(r.headers.get('Retry-After')).toBe('1');
    }
    expect(await thingsOf(u.userId)).toHaveLength(1);
  });

  it('while the attempt that committed is still running a retry waits; once that attempt counts as dead, the retry takes over', async () => {
    const u = await makeUser();
    const key = idemKey();
    const now = Date.now();
    const thingId = newId('audit');
    const body = { n: 1 };
    await db()
      .insert(idempotencyKeys)
      .values({
        id: newId('idempotency'),
        scope: u.userId,
        idem_key: key,
        method: 'POST',
        path: '/t/things',
        request_hash: await sha256Hex(`POST /t/things\n${JSON.stringify(body)}`),
        state: 'committed',
        resource_type: 'thing',
        resource_id: thingId,
        attempt: 1,
        attempt_started_at: now - 10_000,
        created_at: now - 10_000,
        expires_at: now + IDEMPOTENCY_TTL_MS,
      });
    const probe = newProbe();
    expectError(await bodyOf(await send(probe, u.key, key, { body })), 409, 'IDEMPOTENCY-IN-PROGRESS-ERR');
    expect(probe.runs).toHaveLength(0);

    await db()
      .update(idempotencyKeys)
      .set({ attempt_started_at: now - ABANDONED_AFTER_MS - 1000 })
      .where(eq(idempotencyKeys.idem_key, key));
    const retry = await bodyOf(await send(probe, u.key, key, { body }));
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual({ id: thingId });
    expect(probe.runs).toMatchObject([{ committed: { type: 'thing', id: thingId } }]);
    expect(await thingsOf(u.userId)).toHaveLength(0);
  });

  it('a late answer from an attempt that was taken over does not overwrite the stored one', async () => {
    const u = await makeUser();
    const key = idemKey();
    let open!: () => void;
    const slow = newProbe({ gate: new Promise<void>((r) => (open = r)), answer: (c, id) => c.json({ id, by: 'first' }, 201) });
    const first = send(slow, u.key, key).then(bodyOf);
    // Wait until the first attempt has committed, then make it look dead.
    await vi.waitFor(async () => expect((await rowsFor(key))[0]?.state).toBe('committed'));
    await db()
      .update(idempotencyKeys)
      .set({ attempt_started_at: Date.now() - ABANDONED_AFTER_MS - 1000 })
      .where(eq(idempotencyKeys.idem_key, key));
    const second = await bodyOf(await send(newProbe({ answer: (c, id) => c.json({ id, by: 'retry' }, 201) }), u.key, key));
    expect(second.body.by).toBe('retry');
    open();
    expect((await first).body.by).toBe('first');
    const replay = await bodyOf(await send(newProbe(), u.key, key));
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body).toEqual(second.body);
    expect(await thingsOf(u.userId)).toHaveLength(1);
  });

  it('a no-store answer after the commit stores nothing and keeps the record committed', async () => {
    const u = await makeUser();
    const key = idemKey();
    const probe = newProbe({ answer: (c, id) => c.json({ id, secret: 'sk_not_kept' }, 201, { 'Cache-Control': 'no-store' }) });
    expect((await send(probe, u.key, key)).status).toBe(201);
    expect(await rowsFor(key)).toMatchObject([{ state: 'committed', response_body: null, status_code: null, attempt_started_at: null }]);
    const again = await bodyOf(await send(probe, u.key, key));
    expect(again.headers.get('Idempotent-Replayed')).toBeNull();
    expect(probe.runs[1]!.committed?.type).toBe('thing');
    expect(await thingsOf(u.userId)).toHaveLength(1);
    for (const row of await rowsFor(key)) expect(row.response_body).toBeNull();
  });

  it('a 4xx answer after the commit is stored and replayed', async () => {
    const u = await makeUser();
    const key = idemKey();
    const probe = newProbe({
      answer: () => {
        throw new AppError('CONFLICT-ERR', 'refused after writing');
      },
    });
    const first = await bodyOf(await send(probe, u.key, key));
    expectError(first, 409, 'CONFLICT-ERR');
    expect(await rowsFor(key)).toMatchObject([{ state: 'done', status_code: 409, resource_type: 'thing' }]);
    const replay = await bodyOf(await send(probe, u.key, key));
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(probe.runs).toHaveLength(1);
  });

  it('an anonymous POST with a key runs without a record, however often it is sent', async () => {
    const probe = newProbe();
    const key = idemKey();
    expect((await send(probe, null, key)).status).toBe(201);
    expect((await send(probe, null, key)).status).toBe(201);
    expect(probe.runs).toEqual([undefined, undefined]);
    expect(await rowsFor(key)).toHaveLength(0);
  });
});

describe('send_request with a failure after the commit', () => {
  afterEach(() => vi.restoreAllMocks());

  // The commit's batch reaches D1, then its answer is lost (the D1 call throws afterwards), so the
  // request ends in a 500 after the shift exists. Passes once send_request writes through the
  // guarded-write primitive, which marks the Idempotency-Key record committed in that same batch.
  it('the retry with the same key returns the one created shift', async () => {
    const biz = await makeUser({ business: true });
    const key = idemKey();
    const body = shiftBody({ is_broadcast: 1 });
    loseNextBatchAnswer({ writes: 'shift_requests' });
    const send = () => call('POST', '/v1/shift_request/send_request', { key: biz.key, body, headers: { 'Idempotency-Key': key } });

    expectError(await send(), 500, 'INTERNAL-ERR');
    const created = await db().select({ id: shiftRequests.id }).from(shiftRequests).where(eq(shiftRequests.business_id, biz.businessId!));
    expect(created).toHaveLength(1);

    const retry = await send();
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body.id).toBe(created[0]!.id);
    expect(
      await db().select({ id: shiftRequests.id }).from(shiftRequests).where(eq(shiftRequests.business_id, biz.businessId!)),
    ).toHaveLength(1);
    const replay = await send();
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body.id).toBe(created[0]!.id);
  });
});

describe('creates answer a retry after a lost answer with the one row they made', () => {
  afterEach(() => vi.restoreAllMocks());

  // Each create: its path, the table its batch writes, a body, and how to count what it made. The first attempt commits, then the
  // answer is lost (the D1 batch answers with an error after committing); the retry with the same key
  // must answer 201 with the same id and leave exactly one row.
  const cases = [
    {
      what: 'a shift template',
      path: '/v1/shift_templates/create',
      writes: 'shift_templates',
      body: (businessId: string) => ({
        business_id: businessId,
        label: 'Mornings',
        days_of_week: '1,3',
        shift_in: '08:00',
        shift_out: '12:00',
        shiftrole_id: 1,
        hourly_rate: 18,
      }),
      made: async (businessId: string) =>
        (await db().select({ id: shiftTemplates.id }).from(shiftTemplates).where(eq(shiftTemplates.business_id, businessId))).map(
          (r) => r.id,
        ),
    },
    {
      what: 'a business',
      path: '/v1/business/create',
      writes: 'businesses',
      body: () => ({ name: 'Second Shop', timezone: 'America/New_York' }),
      made: async (businessId: string, userId: string) =>
        (await db().select({ id: businesses.id }).from(businesses).where(eq(businesses.user_id, userId)))
          .map((r) => r.id)
          .filter((id) => id !== businessId),
    },
    {
      what: 'a shifter profile',
      path: '/v1/shifter/create',
      writes: 'shifters',
      body: () => ({ display_name: 'Weekend Me' }),
      made: async (_b: string, userId: string) =>
        (await db().select({ id: shifters.id }).from(shifters).where(eq(shifters.user_id, userId))).map((r) => r.id),
    },
  ];

  for (const c of cases) {
    it(`${c.what}`, async () => {
      const owner = await makeUser({ business: true });
      const key = idemKey();
      const send = () => call('POST', c.path, { key: owner.key, body: c.body(owner.businessId!), headers: { 'Idempotency-Key': key } });
      loseNextBatchAnswer({ writes: c.writes });
      expectError(await send(), 500, 'INTERNAL-ERR');
      const made = await c.made(owner.businessId!, owner.userId);
      expect(made).toHaveLength(1);
      const retry = await send();
      expect(retry.status, JSON.stringify(retry.body)).toBe(201);
      expect(retry.body.id).toBe(made[0]);
      expect(await c.made(owner.businessId!, owner.userId)).toEqual(made);
      const replay = await send();
      expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
      expect(replay.body.id).toBe(retry.body.id);
    });
  }
});
