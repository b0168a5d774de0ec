import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, desc, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businesses, emailOutbox, idempotencyKeys, users } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { sha256Hex } from '../src/lib/crypto';
import { ABANDONED_AFTER_MS, IDEMPOTENCY_TTL_MS } from '../src/http/middleware/idempotency';
import worker from '../src/index';
import { call, expectError } from './helpers/api';
import { db, makeUser } from './helpers/factory';

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
    expect((await call('POST', '/v1/business/create', { key: u.key, body: businessBody(), headers: { 'Idempotency-Key': key } })).status).toBe(201);
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
    await db().insert(idempotencyKeys).values({
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
    await db().insert(idempotencyKeys).values({ ...abandoned, id: newId('idempotency'), created_at: now - 10_000 });
    expectError(await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': key } }), 409, 'IDEMPOTENCY-IN-PROGRESS-ERR');
    // Past ABANDONED_AFTER_MS: the key is freed, and the next retry runs the request once.
    await db().update(idempotencyKeys).set({ created_at: now - ABANDONED_AFTER_MS - 1000 }).where(eq(idempotencyKeys.idem_key, key));
    const freed = await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': key } });
    expectError(freed, 409, 'IDEMPOTENCY-IN-PROGRESS-ERR');
    expect(freed.headers.get('Retry-After')).toBe('1');
    const retried = await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': key } });
    expect(retried.status).toBe(201);
    const replay = await call('POST', '/v1/business/create', { key: u.key, body, headers: { 'Idempotency-Key': key } });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await db().select().from(businesses).where(eq(businesses.user_id, u.userId))).toHaveLength(1);
  });

  it('replays an anonymous registration instead of answering EMAIL-TAKEN', async () => {
    const key = idemKey();
    const body = { email: `idem-${crypto.randomUUID()}@example.test`, password: 'a long enough password', display_name: 'Ida', shifter: {} };
    const first = await call('POST', '/v1/auth/register', { body, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(201);
    const second = await call('POST', '/v1/auth/register', { body, headers: { 'Idempotency-Key': key } });
    expect(second.status).toBe(201);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect(second.body.user_id).toBe(first.body.user_id);
    expect(await db().select({ id: users.id }).from(users).where(eq(users.email, body.email))).toHaveLength(1);
    expect(await db().select({ id: emailOutbox.id }).from(emailOutbox).where(eq(emailOutbox.to_address, body.email))).toHaveLength(1);
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
    expect(await rowsFor(key)).toHaveLength(0);

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
    expect(await rowsFor(key)).toHaveLength(0);
  });

  it('never stores the key issued at email verification or a session token', async () => {
    const email = `secret-${crypto.randomUUID()}@example.test`;
    const password = 'a long enough password';
    expect((await call('POST', '/v1/auth/register', { body: { email, password, display_name: 'Sid', shifter: {} } })).status).toBe(201);
    const [mail] = await db().select().from(emailOutbox).where(eq(emailOutbox.to_address, email)).orderBy(desc(emailOutbox.created_at)).limit(1);
    const code = /code is (\d{6})/.exec(mail!.text_body)![1]!;

    const verifyKey = idemKey();
    const verified = await call('POST', '/v1/auth/verify_email', { body: { email, code }, headers: { 'Idempotency-Key': verifyKey } });
    expect(verified.status).toBe(200);
    const apiKey: string = verified.body.api_key.key;
    expect(await rowsFor(verifyKey)).toHaveLength(0);
    // A retry runs again (and is refused: the code is used) rather than handing out the key twice.
    const retried = await call('POST', '/v1/auth/verify_email', { body: { email, code }, headers: { 'Idempotency-Key': verifyKey } });
    expectError(retried, 400, 'VERIFY-CODE-ERR');
    expect(JSON.stringify(retried.body)).not.toContain(apiKey);

    const loginKey = idemKey();
    const s1 = await call('POST', '/v1/auth/login', { body: { email, password }, headers: { 'Idempotency-Key': loginKey } });
    const s2 = await call('POST', '/v1/auth/login', { body: { email, password }, headers: { 'Idempotency-Key': loginKey } });
    expect(s1.status).toBe(200);
    expect(s2.status).toBe(200);
    expect(s2.headers.get('Idempotent-Replayed')).toBeNull();
    expect(s2.body.session_token).not.toBe(s1.body.session_token);

    const leaking = await db()
      .select({ id: idempotencyKeys.id })
      .from(idempotencyKeys)
      .where(like(idempotencyKeys.response_body, '%sms_%'));
    expect(leaking).toHaveLength(0);
    for (const row of await db().select().from(idempotencyKeys)) expect(row.response_body ?? '').not.toContain(apiKey);
  });
});

describe('pruning', () => {
  it('the */5 cron deletes expired idempotency records and keeps live ones', async () => {
    const now = Date.now();
    const base = { method: 'POST', path: '/v1/business/create', request_hash: 'h', state: 'done' as const, status_code: 201, response_body: '{}' };
    const expiredId = newId('idempotency');
    const liveId = newId('idempotency');
    await db()
      .insert(idempotencyKeys)
      .values([
        { ...base, id: expiredId, scope: 'usr_prune', idem_key: 'old', created_at: now - 2 * IDEMPOTENCY_TTL_MS, expires_at: now - IDEMPOTENCY_TTL_MS },
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
