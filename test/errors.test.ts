import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { type ApiResult, call, expectError } from './helpers/api';
import { makeUser } from './helpers/factory';

const APP_ORIGIN = 'https://app.shiftmarket.test';

/** The one envelope: exactly `error` and `request_id`, with the request id echoed in X-Request-Id. */
function expectEnvelope(res: ApiResult, status: number, code: string) {
  const err = expectError(res, status, code);
  expect(Object.keys(res.body).sort()).toEqual(['error', 'request_id']);
  expect(Object.keys(err).every((k) => ['code', 'message', 'details'].includes(k))).toBe(true);
  expect(err.message.length).toBeGreaterThan(0);
  expect(res.headers.get('X-Request-Id')).toBe(res.body.request_id);
  expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
  return err;
}

describe('the error envelope', () => {
  it('reports a zod validation failure as 400 VALIDATION-ERR listing the fields', async () => {
    const u = await makeUser({ shifter: true });
    const res = await call('POST', '/v1/business/create', { key: u.key, body: { name: '', timezone: 'Nowhere/City', city_id: -3 } });
    const err = expectEnvelope(res, 400, 'VALIDATION-ERR');
    const details = err.details as Array<{ field: string; message: string }>;
    expect(Array.isArray(details)).toBe(true);
    expect(details.map((d) => d.field)).toEqual(expect.arrayContaining(['json.name', 'json.timezone', 'json.city_id']));
    for (const d of details) expect(typeof d.message).toBe('string');
  });

  it('says what a field must be in words, naming it as the caller wrote it', async () => {
    const u = await makeUser({ business: true });
    const res = await call('POST', '/v1/shift_request/send_request', {
      key: u.key,
      body: {
        business_id: u.businessId,
        shift_date: '2031-05-05',
        shift_in: '09:00',
        shift_out: '17:00',
        shiftrole_id: 1,
        hourly_rate: 15000,
        is_broadcast: 1,
      },
    });
    const err = expectEnvelope(res, 400, 'VALIDATION-ERR');
    expect(err.message).toBe('hourly_rate: must be at most 10000');
    expect(err.details).toEqual([expect.objectContaining({ field: 'json.hourly_rate', message: 'must be at most 10000' })]);
    const missing = await call('POST', '/v1/business/create', { key: u.key, body: { timezone: 'Europe/London' } });
    const words = expectEnvelope(missing, 400, 'VALIDATION-ERR').details as Array<{ field: string; message: string }>;
    expect(words.find((d) => d.field === 'json.name')?.message).toBe('is required');
    expect(JSON.stringify(missing.body)).not.toMatch(/Too big|Too small|Invalid input/);
  });

  it('reports a query validation failure with the query field', async () => {
    const u = await makeUser({ shifter: true });
    const res = await call('GET', '/v1/user/details', { key: u.key, query: { user_id: '' } });
    const err = expectEnvelope(res, 400, 'VALIDATION-ERR');
    expect((err.details as Array<{ field: string }>).map((d) => d.field)).toContain('query.user_id');
  });

  it('reports malformed JSON as 400 VALIDATION-ERR', async () => {
    const u = await makeUser({ shifter: true });
    const res = await call('POST', '/v1/business/create', {
      key: u.key,
      body: '{"name": "Broken", "timezone":',
      headers: { 'Content-Type': 'application/json' },
    });
    const err = expectEnvelope(res, 400, 'VALIDATION-ERR');
    expect(err.message).toMatch(/json/i);
  });

  it('reports a JSON route called without a body as 400 VALIDATION-ERR', async () => {
    const u = await makeUser({ shifter: true });
    expectEnvelope(await call('POST', '/v1/business/create', { key: u.key }), 400, 'VALIDATION-ERR');
    expectEnvelope(
      await call('POST', '/v1/business/create', { key: u.key, headers: { 'Content-Type': 'application/json' } }),
      400,
      'VALIDATION-ERR',
    );
    expectEnvelope(await call('POST', '/v1/auth/register', {}), 400, 'VALIDATION-ERR');
  });

  it('reports missing credentials as 401 AUTH-REQ-ERR', async () => {
    expectEnvelope(await call('GET', '/v1/user/details'), 401, 'AUTH-REQ-ERR');
    expectEnvelope(await call('POST', '/v1/business/create', { body: { name: 'X', timezone: 'UTC' } }), 401, 'AUTH-REQ-ERR');
  });

  it('reports an unknown route as 404 NOT-FOUND-ERR, with or without credentials', async () => {
    const err = expectEnvelope(await call('GET', '/v1/no/such/route'), 404, 'NOT-FOUND-ERR');
    expect(err.message).toContain('/v1/no/such/route');
    expectEnvelope(await call('GET', '/nothing-here'), 404, 'NOT-FOUND-ERR');
    const u = await makeUser({ shifter: true });
    expectEnvelope(await call('DELETE', '/v1/user/details', { key: u.key }), 404, 'NOT-FOUND-ERR');
  });
});

describe('request ids', () => {
  it('puts a generated request id on every answer, success included', async () => {
    const u = await makeUser({ shifter: true });
    const ok = await call('GET', '/v1/user/details', { key: u.key });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('X-Request-Id')).toMatch(/^req_[0-9a-f]{32}$/);
    const other = await call('GET', '/v1/user/details', { key: u.key });
    expect(other.headers.get('X-Request-Id')).not.toBe(ok.headers.get('X-Request-Id'));
  });

  it('echoes a valid client-provided X-Request-Id', async () => {
    const id = `client-${crypto.randomUUID()}`;
    const res = await call('GET', '/v1/no/such/route', { headers: { 'X-Request-Id': id } });
    expectEnvelope(res, 404, 'NOT-FOUND-ERR');
    expect(res.body.request_id).toBe(id);
    expect(res.headers.get('X-Request-Id')).toBe(id);
  });

  it('replaces an invalid client-provided X-Request-Id', async () => {
    for (const bad of ['short', 'has spaces in it', 'x'.repeat(129), 'semi;colon;value', '<script>alert(1)</script>']) {
      const res = await call('GET', '/v1/no/such/route', { headers: { 'X-Request-Id': bad } });
      expectEnvelope(res, 404, 'NOT-FOUND-ERR');
      expect(res.body.request_id).not.toBe(bad);
      expect(res.body.request_id).toMatch(/^req_[0-9a-f]{32}$/);
    }
  });
});

describe('CORS', () => {
  it('answers a preflight from the configured web-app origin', async () => {
    const res = await call('OPTIONS', '/v1/business/create', {
      headers: {
        Origin: APP_ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'Authorization, Content-Type, Idempotency-Key',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(APP_ORIGIN);
    expect(res.headers.get('Access-Control-Allow-Credentials')).toBe('true');
    expect(res.headers.get('Access-Control-Allow-Methods')).toContain('POST');
    const allowed = (res.headers.get('Access-Control-Allow-Headers') ?? '').toLowerCase();
    for (const h of ['authorization', 'content-type', 'idempotency-key']) expect(allowed).toContain(h);
    const exposed = (res.headers.get('Access-Control-Expose-Headers') ?? '').toLowerCase();
    for (const h of [
      'x-request-id',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'retry-after',
      'idempotent-replayed',
    ]) {
      expect(exposed).toContain(h);
    }
  });

  it('lets the web app read the exposed headers on a real request', async () => {
    const u = await makeUser({ shifter: true });
    const res = await call('GET', '/v1/user/details', { key: u.key, headers: { Origin: APP_ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(APP_ORIGIN);
    expect((res.headers.get('Access-Control-Expose-Headers') ?? '').toLowerCase()).toContain('x-ratelimit-remaining');
  });

  it('does not allow another origin', async () => {
    for (const origin of ['https://evil.example', 'http://app.shiftmarket.test', 'https://app.shiftmarket.test.evil.example']) {
      const pre = await call('OPTIONS', '/v1/business/create', {
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' },
      });
      expect(pre.headers.get('Access-Control-Allow-Origin')).toBeNull();
      const get = await call('GET', '/v1/no/such/route', { headers: { Origin: origin } });
      expect(get.headers.get('Access-Control-Allow-Origin')).toBeNull();
    }
  });
});

describe('unexpected errors', () => {
  it('answers a real storage failure with a generic 500 INTERNAL-ERR and keeps the details in the logs', async () => {
    const u = await makeUser({ shifter: true, admin: true });
    const [ddl] = (await env.DB.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'admins'").all<{ sql: string }>())
      .results;
    expect(ddl?.sql).toBeTruthy();
    await env.DB.exec('DROP TABLE admins');
    try {
      const res = await call('GET', '/v1/user/details', { key: u.key });
      const err = expectEnvelope(res, 500, 'INTERNAL-ERR');
      expect(err.details).toBeUndefined();
      expect(err.message).toMatch(/something went wrong/i);
      const text = JSON.stringify(res.body);
      for (const leak of ['admins', 'select ', 'sqlite', 'D1_', 'no such table', 'Error:', '    at ', '.ts:']) {
        expect(text.toLowerCase()).not.toContain(leak.toLowerCase());
      }
    } finally {
      // Restore the table so the rest of this file's storage stays usable.
      await env.DB.prepare(ddl!.sql).run();
    }
    expect((await call('GET', '/v1/user/details', { key: u.key })).status).toBe(200);
  });
});
