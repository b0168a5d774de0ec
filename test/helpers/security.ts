import { expect, it } from 'vitest';
import { type ApiResult, call, type CallOptions, expectError } from './api';
import { makeUser } from './factory';

export interface SecuredRoute {
  method: string;
  path: string;
  body?: unknown;
  query?: CallOptions['query'];
}

/**
 * The shared authentication cases every authenticated route must pass: no key, a malformed header,
 * an unknown key and a revoked key are each 401 AUTH-REQ-ERR in the one envelope.
 */
export function itRejectsBadCredentials(route: SecuredRoute | (() => Promise<SecuredRoute>)) {
  const resolve = async () => (typeof route === 'function' ? route() : route);

  it('rejects a request without credentials (401)', async () => {
    const r = await resolve();
    expectError(await call(r.method, r.path, { body: r.body, query: r.query }), 401, 'AUTH-REQ-ERR');
  });

  it('rejects a malformed Authorization header (401)', async () => {
    const r = await resolve();
    for (const header of ['smk_abc', 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer two words']) {
      const res = await call(r.method, r.path, { body: r.body, query: r.query, headers: { Authorization: header } });
      expectError(res, 401, 'AUTH-REQ-ERR');
    }
  });

  it('rejects an unknown key (401)', async () => {
    const r = await resolve();
    const res = await call(r.method, r.path, { body: r.body, query: r.query, key: `smk_${'A'.repeat(32)}` });
    expectError(res, 401, 'AUTH-REQ-ERR');
  });

  it('rejects a revoked key (401)', async () => {
    const r = await resolve();
    const u = await makeUser({ shifter: true });
    const regen = await call('POST', '/v1/user/api_key/regenerate', { key: u.key });
    expect(regen.status).toBe(201);
    expectError(await call(r.method, r.path, { body: r.body, query: r.query, key: u.key }), 401, 'AUTH-REQ-ERR');
  });
}

/**
 * Another user's key must neither read nor change what it does not own: the route answers 403 or
 * 404 (404 when the caller may not even know the resource exists), never 2xx.
 */
export async function expectDenied(res: ApiResult, allowed: Array<403 | 404> = [403, 404]) {
  expect(allowed, `expected ${allowed.join('/')} but got ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
  expect(res.body?.error?.code).toMatch(/-ERR$|^MSG-NOT-PARTICIPANT$/);
}
