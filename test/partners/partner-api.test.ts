import { runInDurableObject } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditLog, partnerCredentials, partnerTokens, shiftRequests, shifters } from '../../src/db/schema';
import type { RateLimiter } from '../../src/durable-objects/rate-limiter';
import { sha256Hex } from '../../src/lib/crypto';
import { type ApiResult, BASE, call, expectError } from '../helpers/api';
import { addTeammate, db, makeUser, type TestUser } from '../helpers/factory';
import { callWithEnv, dateAhead, insertShift, makeCrewMember, makePair, outboxFor, shiftBody } from '../helpers/shifts';

/*
 * The partner API (spec 4.10, 5.2): partner clients with x-api-key keys and OAuth client-credentials
 * tokens, scopes per route, per-tier rate limits, and businesses reached only through their link.
 */

type Scope = 'shifts:read' | 'shifts:write' | 'shifters:read' | 'webhooks:manage';
const ALL: Scope[] = ['shifts:read', 'shifts:write', 'shifters:read', 'webhooks:manage'];

interface Client {
  id: string;
  apiKey: string;
  secret: string;
  owner: TestUser;
  body: Record<string, any>;
}

afterEach(() => {
  vi.useRealTimers();
});

/** Registers a partner client for `owner` (a fresh user unless given). */
async function makeClient(opts: { owner?: TestUser; scopes?: Scope[]; tier?: string; by?: TestUser } = {}): Promise<Client> {
  const owner = opts.owner ?? (await makeUser({ name: 'Partner Owner' }));
  const res = await call('POST', '/v1/partner/clients', {
    key: (opts.by ?? owner).key,
    body: { name: 'Acme Scheduling', scopes: opts.scopes ?? ALL, ...(opts.tier ? { client_tier: opts.tier } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, apiKey: res.body.api_key, secret: res.body.client_secret, owner, body: res.body };
}

/** The business owner links the client to the business. */
async function link(owner: TestUser, businessId: string, clientId: string, scopes?: Scope[]) {
  const res = await call('POST', `/v1/business/${businessId}/partners`, {
    key: owner.key,
    body: { client_id: clientId, ...(scopes ? { scopes } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Calls a partner route with an x-api-key (or a bearer token). */
function partner(
  method: string,
  path: string,
  cred: { apiKey?: string; token?: string },
  opts: { body?: unknown; query?: Record<string, string>; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...opts.headers };
  if (cred.apiKey) headers['x-api-key'] = cred.apiKey;
  if (cred.token) headers.Authorization = `Bearer ${cred.token}`;
  return call(method, path, { headers, body: opts.body, query: opts.query });
}

/** POSTs the token route's form. */
async function tokenRequest(
  form: Record<string, string>,
  headers: Record<string, string> = {},
  path = '/v1/partner/oauth/token',
): Promise<ApiResult> {
  const raw = await exports.default.fetch(
    new Request(new URL(path, BASE), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    }),
  );
  return { status: raw.status, headers: raw.headers, body: await raw.json(), raw };
}
const basic = (id: string, secret: string) => ({
  Authorization: `Basic ${btoa(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`)}`,
});

async function tokenFor(c: Client, scope?: string): Promise<string> {
  const res = await tokenRequest({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) }, basic(c.id, c.secret));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.access_token;
}

/** A business with a connected crew member, and a client linked to it. */
async function linkedWorld(opts: { scopes?: Scope[]; linkScopes?: Scope[]; tier?: string; by?: TestUser } = {}) {
  const { biz, sh } = await makePair();
  const client = await makeClient({ scopes: opts.scopes, tier: opts.tier, by: opts.by });
  await link(biz, biz.businessId!, client.id, opts.linkScopes);
  return { biz, sh, client, businessId: biz.businessId! };
}

const rateHeaders = (res: ApiResult) => ({
  limit: res.headers.get('X-RateLimit-Limit'),
  remaining: res.headers.get('X-RateLimit-Remaining'),
  reset: res.headers.get('X-RateLimit-Reset'),
});

describe('partner clients: registration and credentials', () => {
  it('shows the x-api-key and client secret once and stores only their SHA-256', async () => {
    const c = await makeClient();
    expect(c.apiKey).toMatch(/^smp_[0-9A-Za-z]{40}$/);
    expect(c.secret).toMatch(/^smcs_[0-9A-Za-z]{40}$/);
    expect(c.id).toMatch(/^pc_/);
    expect(c.body).toMatchObject({ client_tier: 'self_serve', status: 'active', scopes: ALL, api_key_prefix: c.apiKey.slice(0, 12) });

    const rows = await db().select().from(partnerCredentials).where(eq(partnerCredentials.client_id, c.id));
    expect(rows.map((r) => r.kind).sort()).toEqual(['api_key', 'client_secret']);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(c.apiKey);
    expect(stored).not.toContain(c.secret);
    expect(rows.find((r) => r.kind === 'api_key')?.secret_hash).toBe(await sha256Hex(c.apiKey));

    // Read again: prefixes only.
    for (const res of [
      await call('GET', `/v1/partner/clients/${c.id}`, { key: c.owner.key }),
      await call('GET', '/v1/partner/clients', { key: c.owner.key }),
    ]) {
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain(c.apiKey);
      expect(JSON.stringify(res.body)).not.toContain(c.secret);
      expect(JSON.stringify(res.body)).toContain(c.apiKey.slice(0, 12));
    }
    // The key works on the partner surface.
    const res = await partner('GET', '/v1/partner/businesses', { apiKey: c.apiKey });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ data: [], next_cursor: null });
  });

  it('answers the creation with Cache-Control: no-store and never replays it, but a retry makes no second client', async () => {
    const owner = await makeUser();
    const send = () =>
      call('POST', '/v1/partner/clients', {
        key: owner.key,
        headers: { 'Idempotency-Key': 'create-1' },
        body: { name: 'Once', scopes: ['shifts:read'] },
      });
    const first = await send();
    expect(first.status).toBe(201);
    expect(first.headers.get('Cache-Control')).toBe('no-store');
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBeNull();
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.api_key).not.toBe(first.body.api_key);
    const list = await call('GET', '/v1/partner/clients', { key: owner.key });
    expect(list.body.data).toHaveLength(1);
    // The unseen credentials of the first answer were revoked by the retry.
    expectError(await partner('GET', '/v1/partner/businesses', { apiKey: first.body.api_key }), 401, 'AUTH-REQ-ERR');
    expect((await partner('GET', '/v1/partner/businesses', { apiKey: again.body.api_key })).status).toBe(200);
  });

  it('holds the cap of 25 clients per account under 32 concurrent registrations', async () => {
    const owner = await makeUser();
    const results = await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        call('POST', '/v1/partner/clients', { key: owner.key, body: { name: `Client ${i}`, scopes: ['shifts:read'] } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(25);
    for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'CONFLICT-ERR');
    const listed = await call('GET', '/v1/partner/clients', { key: owner.key, query: { limit: 100 } });
    expect(listed.body.data).toHaveLength(25);
  });

  it('leaves exactly one working key after 10 concurrent rotations', async () => {
    const c = await makeClient();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', `/v1/partner/clients/${c.id}/api_key/rotate`, { key: c.owner.key })),
    );
    for (const r of results) expect([201, 409], JSON.stringify(r.body)).toContain(r.status);
    const issued = results.filter((r) => r.status === 201).map((r) => r.body.secret as string);
    const working = [];
    for (const key of [c.apiKey, ...issued]) {
      if ((await partner('GET', '/v1/partner/businesses', { apiKey: key })).status === 200) working.push(key);
    }
    expect(working).toHaveLength(1);
    const live = await db().select().from(partnerCredentials).where(eq(partnerCredentials.client_id, c.id));
    expect(live.filter((r) => r.kind === 'api_key' && r.revoked_at === null)).toHaveLength(1);
  });

  it('lets only an admin set or change a trusted or internal tier', async () => {
    const owner = await makeUser();
    const refused = await call('POST', '/v1/partner/clients', {
      key: owner.key,
      body: { name: 'X', scopes: ['shifts:read'], client_tier: 'trusted' },
    });
    expectError(refused, 403, 'FORBIDDEN-ERR');
    const admin = await makeUser({ admin: true });
    const trusted = await makeClient({ tier: 'trusted', by: admin });
    expect(trusted.body.client_tier).toBe('trusted');
    expect(trusted.body.rate_limit).toEqual({ limit: 3000, window_seconds: 300 });

    const mine = await makeClient({ owner });
    expectError(
      await call('PATCH', `/v1/partner/clients/${mine.id}`, { key: owner.key, body: { client_tier: 'internal' } }),
      403,
      'FORBIDDEN-ERR',
    );
    const raised = await call('PATCH', `/v1/partner/clients/${mine.id}`, { key: admin.key, body: { client_tier: 'internal' } });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    expect(raised.body).toMatchObject({ client_tier: 'internal', rate_limit: { limit: 12000, window_seconds: 300 } });
  });

  it('rotating the key revokes the old one at once', async () => {
    const c = await makeClient();
    const res = await call('POST', `/v1/partner/clients/${c.id}/api_key/rotate`, { key: c.owner.key });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.body).toMatchObject({ client_id: c.id, kind: 'api_key', previous_expires_at: null });
    expect(res.body.secret).toMatch(/^smp_/);
    expectError(await partner('GET', '/v1/partner/businesses', { apiKey: c.apiKey }), 401, 'AUTH-REQ-ERR');
    expect((await partner('GET', '/v1/partner/businesses', { apiKey: res.body.secret })).status).toBe(200);
    const got = await call('GET', `/v1/partner/clients/${c.id}`, { key: c.owner.key });
    expect(got.body.api_key_prefix).toBe(res.body.secret.slice(0, 12));
  });

  it('with an overlap, keeps the old key working until the overlap ends, then only the new one', async () => {
    const c = await makeClient();
    const before = Date.now();
    const res = await call('POST', `/v1/partner/clients/${c.id}/api_key/rotate`, { key: c.owner.key, body: { overlap_seconds: 120 } });
    expect(res.status).toBe(201);
    const until = Date.parse(res.body.previous_expires_at);
    expect(until).toBeGreaterThanOrEqual(before + 120_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 120_000);
    expect((await partner('GET', '/v1/partner/businesses', { apiKey: c.apiKey })).status).toBe(200);
    expect((await partner('GET', '/v1/partner/businesses', { apiKey: res.body.secret })).status).toBe(200);

    vi.useFakeTimers({ toFake: ['Date'], now: until + 1000 });
    expectError(await partner('GET', '/v1/partner/businesses', { apiKey: c.apiKey }), 401, 'AUTH-REQ-ERR');
    expect((await partner('GET', '/v1/partner/businesses', { apiKey: res.body.secret })).status).toBe(200);
  });

  it("hides another user's client (404) and takes no partner credential on the management routes", async () => {
    const c = await makeClient();
    const stranger = await makeUser();
    expectError(await call('GET', `/v1/partner/clients/${c.id}`, { key: stranger.key }), 404, 'PARTNER-CLIENT-NOT-FND-ERR');
    expectError(
      await call('PATCH', `/v1/partner/clients/${c.id}`, { key: stranger.key, body: { scopes: ['shifts:read'] } }),
      404,
      'PARTNER-CLIENT-NOT-FND-ERR',
    );
    for (const kind of ['api_key', 'client_secret']) {
      expectError(
        await call('POST', `/v1/partner/clients/${c.id}/${kind}/rotate`, { key: stranger.key }),
        404,
        'PARTNER-CLIENT-NOT-FND-ERR',
      );
    }
    expect((await call('GET', '/v1/partner/clients', { key: stranger.key })).body.data).toEqual([]);
    // The client's own key does not manage clients.
    expectError(await partner('GET', '/v1/partner/clients', { apiKey: c.apiKey }), 401, 'AUTH-REQ-ERR');
    expectError(await partner('POST', `/v1/partner/clients/${c.id}/api_key/rotate`, { apiKey: c.apiKey }), 401, 'AUTH-REQ-ERR');
    // The original key still works: nothing was rotated.
    expect((await partner('GET', '/v1/partner/businesses', { apiKey: c.apiKey })).status).toBe(200);
  });

  it('disabling a client stops its key and its tokens at once; enabling brings them back', async () => {
    const c = await makeClient();
    const token = await tokenFor(c);
    const off = await call('PATCH', `/v1/partner/clients/${c.id}`, { key: c.owner.key, body: { status: 'disabled' } });
    expect(off.body.status).toBe('disabled');
    expectError(await partner('GET', '/v1/partner/businesses', { apiKey: c.apiKey }), 401, 'AUTH-REQ-ERR');
    expectError(await partner('GET', '/v1/partner/businesses', { token }), 401, 'AUTH-REQ-ERR');
    expect((await tokenRequest({ grant_type: 'client_credentials' }, basic(c.id, c.secret))).body.error).toBe('invalid_client');
    await call('PATCH', `/v1/partner/clients/${c.id}`, { key: c.owner.key, body: { status: 'active' } });
    expect((await partner('GET', '/v1/partner/businesses', { apiKey: c.apiKey })).status).toBe(200);
  });
});

describe('OAuth 2.0 client credentials', () => {
  it('issues a short-lived opaque token with Basic auth or the form, stored only as a hash, that works on partner routes', async () => {
    const { client, businessId } = await linkedWorld();
    const viaBasic = await tokenRequest({ grant_type: 'client_credentials' }, basic(client.id, client.secret));
    expect(viaBasic.status).toBe(200);
    expect(viaBasic.headers.get('Cache-Control')).toBe('no-store');
    expect(viaBasic.body).toEqual({
      access_token: expect.stringMatching(/^smpt_[0-9A-Za-z]{40}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: ALL.join(' '),
    });
    const viaForm = await tokenRequest({ grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret });
    expect(viaForm.status).toBe(200);
    const slash = await tokenRequest({ grant_type: 'client_credentials' }, basic(client.id, client.secret), '/v1/partner/oauth/token/');
    expect(slash.status, JSON.stringify(slash.body)).toBe(200);
    expect(viaForm.body.access_token).not.toBe(viaBasic.body.access_token);

    const rows = await db().select().from(partnerTokens).where(eq(partnerTokens.client_id, client.id));
    expect(rows).toHaveLength(3);
    expect(JSON.stringify(rows)).not.toContain(viaBasic.body.access_token);
    expect(rows.map((r) => r.token_hash)).toContain(await sha256Hex(viaBasic.body.access_token));
    for (const r of rows) expect(r.expires_at - r.created_at).toBe(3600_000);

    const list = await partner('GET', `/v1/partner/businesses/${businessId}/shift_requests`, { token: viaBasic.body.access_token });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    // A partner token is no personal credential elsewhere.
    expectError(await call('GET', '/v1/user/details', { key: viaBasic.body.access_token }), 401, 'AUTH-REQ-ERR');
  });

  it('refuses a wrong secret, an unknown client, a wrong grant and a malformed request, in the RFC 6749 shape', async () => {
    const c = await makeClient();
    const wrong = await tokenRequest({ grant_type: 'client_credentials' }, basic(c.id, `smcs_${'x'.repeat(40)}`));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    expect(wrong.headers.get('WWW-Authenticate')).toMatch(/^Basic realm=/);
    const unknown = await tokenRequest({ grant_type: 'client_credentials', client_id: 'pc_nobody', client_secret: c.secret });
    expect([unknown.status, unknown.body.error]).toEqual([401, 'invalid_client']);
    // Another client's secret does not authenticate this client.
    const other = await makeClient();
    const crossed = await tokenRequest({ grant_type: 'client_credentials', client_id: c.id, client_secret: other.secret });
    expect([crossed.status, crossed.body.error]).toEqual([401, 'invalid_client']);
    // The API key is not the client secret.
    const keyAsSecret = await tokenRequest({ grant_type: 'client_credentials', client_id: c.id, client_secret: c.apiKey });
    expect([keyAsSecret.status, keyAsSecret.body.error]).toEqual([401, 'invalid_client']);
    const noAuth = await tokenRequest({ grant_type: 'client_credentials' });
    expect([noAuth.status, noAuth.body.error]).toEqual([401, 'invalid_client']);

    const grant = await tokenRequest({ grant_type: 'password' }, basic(c.id, c.secret));
    expect([grant.status, grant.body.error]).toEqual([400, 'unsupported_grant_type']);
    const both = await tokenRequest({ grant_type: 'client_credentials', client_secret: c.secret }, basic(c.id, c.secret));
    expect([both.status, both.body.error]).toEqual([400, 'invalid_request']);
    const missing = await tokenRequest({}, basic(c.id, c.secret));
    expect([missing.status, missing.body.error]).toEqual([400, 'invalid_request']);
    const json = await call('POST', '/v1/partner/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: c.id, client_secret: c.secret },
    });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    // None of the refusals issued a token.
    expect(await db().select().from(partnerTokens).where(eq(partnerTokens.client_id, c.id))).toEqual([]);
  });

  it('narrows a token to the scopes asked, and refuses scopes the client does not have', async () => {
    const { client, businessId } = await linkedWorld({ scopes: ['shifts:read', 'shifts:write'] });
    const res = await tokenRequest({ grant_type: 'client_credentials', scope: 'shifts:read' }, basic(client.id, client.secret));
    expect(res.body.scope).toBe('shifts:read');
    const token = res.body.access_token;
    expect((await partner('GET', `/v1/partner/businesses/${businessId}/shift_requests`, { token })).status).toBe(200);
    const post = await partner(
      'POST',
      `/v1/partner/businesses/${businessId}/shift_requests`,
      { token },
      { body: shiftBody({ is_broadcast: 1 }) },
    );
    expect(expectError(post, 403, 'SCOPE-ERR').details).toEqual({ required_scope: 'shifts:write' });
    // The key carries all the client's scopes.
    expect(
      (
        await partner(
          'POST',
          `/v1/partner/businesses/${businessId}/shift_requests`,
          { apiKey: client.apiKey },
          { body: shiftBody({ is_broadcast: 1 }) },
        )
      ).status,
    ).toBe(201);

    for (const scope of ['shifters:read', 'shifts:read admin', 'webhooks:manage shifts:read']) {
      const refused = await tokenRequest({ grant_type: 'client_credentials', scope }, basic(client.id, client.secret));
      expect([refused.status, refused.body.error], scope).toEqual([400, 'invalid_scope']);
    }
  });

  it('a token stops working when it expires', async () => {
    const { client, businessId } = await linkedWorld();
    const issuedAt = Date.now();
    const token = await tokenFor(client);
    expect((await partner('GET', `/v1/partner/businesses/${businessId}/broadcasts`, { token })).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: issuedAt + 3600_000 + 1000 });
    expectError(await partner('GET', `/v1/partner/businesses/${businessId}/broadcasts`, { token }), 401, 'AUTH-REQ-ERR');
    expect((await partner('GET', `/v1/partner/businesses/${businessId}/broadcasts`, { apiKey: client.apiKey })).status).toBe(200);
  });

  it('rotating the secret without an overlap revokes the old secret and every live token', async () => {
    const c = await makeClient();
    const token = await tokenFor(c);
    const res = await call('POST', `/v1/partner/clients/${c.id}/client_secret/rotate`, { key: c.owner.key });
    expect(res.status).toBe(201);
    expect(res.body.secret).toMatch(/^smcs_/);
    expectError(await partner('GET', '/v1/partner/businesses', { token }), 401, 'AUTH-REQ-ERR');
    expect((await tokenRequest({ grant_type: 'client_credentials' }, basic(c.id, c.secret))).body.error).toBe('invalid_client');
    expect((await tokenRequest({ grant_type: 'client_credentials' }, basic(c.id, res.body.secret))).status).toBe(200);
  });

  it('a scope removed from the client stops working for tokens already issued', async () => {
    const { client, businessId } = await linkedWorld();
    const token = await tokenFor(client);
    await call('PATCH', `/v1/partner/clients/${client.id}`, { key: client.owner.key, body: { scopes: ['shifters:read'] } });
    const res = await partner('GET', `/v1/partner/businesses/${businessId}/shift_requests`, { token });
    expect(expectError(res, 403, 'SCOPE-ERR').details).toEqual({ required_scope: 'shifts:read' });
    expect((await partner('GET', `/v1/partner/businesses/${businessId}/shifters`, { token })).status).toBe(200);
  });
});

describe('scopes per route', () => {
  it('each partner route needs its scope on the credential', async () => {
    const { client, businessId } = await linkedWorld({ scopes: ['shifts:read'] });
    const k = { apiKey: client.apiKey };
    expect((await partner('GET', '/v1/partner/businesses', k)).status).toBe(200);
    expect((await partner('GET', `/v1/partner/businesses/${businessId}/shift_requests`, k)).status).toBe(200);
    expect((await partner('GET', `/v1/partner/businesses/${businessId}/broadcasts`, k)).status).toBe(200);
    const crew = await partner('GET', `/v1/partner/businesses/${businessId}/shifters`, k);
    expect(expectError(crew, 403, 'SCOPE-ERR').details).toEqual({ required_scope: 'shifters:read' });
    const post = await partner('POST', `/v1/partner/businesses/${businessId}/shift_requests`, k, { body: shiftBody({ is_broadcast: 1 }) });
    expect(expectError(post, 403, 'SCOPE-ERR').details).toEqual({ required_scope: 'shifts:write' });
    const hooks = await partner('GET', '/v1/partner/webhooks/endpoints', k);
    expect(expectError(hooks, 403, 'SCOPE-ERR').details).toEqual({ required_scope: 'webhooks:manage' });
    expect(await db().select().from(shiftRequests).where(eq(shiftRequests.business_id, businessId))).toEqual([]);
  });

  it('and granted by the link: a business may grant fewer scopes than the client has', async () => {
    const { biz, client, businessId, sh } = await linkedWorld({ linkScopes: ['shifts:read'] });
    const k = { apiKey: client.apiKey };
    expect((await partner('GET', `/v1/partner/businesses/${businessId}/shift_requests`, k)).status).toBe(200);
    const crew = await partner('GET', `/v1/partner/businesses/${businessId}/shifters`, k);
    expect(expectError(crew, 403, 'SCOPE-ERR').message).toContain('business has not granted');
    const post = await partner('POST', `/v1/partner/businesses/${businessId}/shift_requests`, k, {
      body: shiftBody({ shifter_id: sh.shifterId }),
    });
    expectError(post, 403, 'SCOPE-ERR');
    expect(await db().select().from(shiftRequests).where(eq(shiftRequests.business_id, businessId))).toEqual([]);
    // A link cannot grant what the client lacks.
    const narrow = await makeClient({ scopes: ['shifts:read'] });
    const refused = await call('POST', `/v1/business/${businessId}/partners`, {
      key: biz.key,
      body: { client_id: narrow.id, scopes: ['shifts:write'] },
    });
    expectError(refused, 400, 'VALIDATION-ERR');
  });

  it('a personal key or session does not reach the partner routes', async () => {
    const { biz, businessId } = await linkedWorld();
    expectError(await call('GET', '/v1/partner/businesses', { key: biz.key }), 401, 'AUTH-REQ-ERR');
    expectError(await call('GET', `/v1/partner/businesses/${businessId}/shift_requests`, { key: biz.key }), 401, 'AUTH-REQ-ERR');
    expectError(await call('GET', '/v1/partner/businesses'), 401, 'AUTH-REQ-ERR');
  });
});

describe('rate limits per tier', () => {
  it('every partner answer carries its tier’s X-RateLimit headers, errors included', async () => {
    const { client, businessId } = await linkedWorld({ scopes: ['shifts:read'] });
    const k = { apiKey: client.apiKey };
    const ok = await partner('GET', `/v1/partner/businesses/${businessId}/shift_requests`, k);
    expect(ok.status).toBe(200);
    expect(rateHeaders(ok)).toEqual({ limit: '600', remaining: '599', reset: expect.stringMatching(/^\d+$/) });
    const denied = [
      await partner('GET', '/v1/partner/businesses/biz_unknown/shift_requests', k), // 404
      await partner('GET', `/v1/partner/businesses/${businessId}/shifters`, k), // 403 SCOPE-ERR
      await partner('GET', `/v1/partner/businesses/${businessId}/shift_requests`, k, { query: { limit: '0' } }), // 400
    ];
    expect(denied.map((r) => r.status)).toEqual([404, 403, 400]);
    expect(denied.map((r) => rateHeaders(r).remaining)).toEqual(['598', '597', '596']);
    for (const r of denied) expect(rateHeaders(r).limit).toBe('600');

    // Key and tokens share the client's budget.
    const token = await tokenFor(client);
    expect(rateHeaders(await partner('GET', '/v1/partner/businesses', { token })).remaining).toBe('595');

    const admin = await makeUser({ admin: true });
    for (const [tier, limit] of [
      ['trusted', '3000'],
      ['internal', '12000'],
    ] as const) {
      const c = await makeClient({ tier, by: admin });
      const res = await partner('GET', '/v1/partner/businesses', { apiKey: c.apiKey });
      expect(rateHeaders(res), tier).toMatchObject({ limit, remaining: String(Number(limit) - 1) });
    }
  });

  it('answers 429 RATE-LIMIT-ERR with Retry-After and the headers once a tier’s budget is spent', async () => {
    // Pin the clock just after a window starts, so the budget cannot straddle a window edge.
    const now = Math.ceil(Date.now() / 300_000) * 300_000 + 1000;
    vi.useFakeTimers({ toFake: ['Date'], now });
    const admin = await makeUser({ admin: true });
    for (const [tier, limit] of [
      ['self_serve', 600],
      ['trusted', 3000],
      ['internal', 12000],
    ] as const) {
      const c = await makeClient({ tier, by: admin });
      // Spend all but one of the budget inside the client's own limiter object.
      const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`partner:${c.id}`));
      await runInDurableObject(stub, (obj: RateLimiter) => {
        for (let i = 0; i < limit - 1; i++) obj.hit(limit, 300, now);
      });
      const last = await partner('GET', '/v1/partner/businesses', { apiKey: c.apiKey });
      expect(last.status, tier).toBe(200);
      expect(rateHeaders(last)).toMatchObject({ limit: String(limit), remaining: '0' });
      const limited = await partner('GET', '/v1/partner/businesses', { apiKey: c.apiKey });
      expectError(limited, 429, 'RATE-LIMIT-ERR');
      expect(rateHeaders(limited)).toMatchObject({ limit: String(limit), remaining: '0' });
      const retry = Number(limited.headers.get('Retry-After'));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(300);
      // Its tokens are refused too (one budget per client); another client is not.
      const token = await tokenFor(c);
      expectError(await partner('GET', '/v1/partner/businesses', { token }), 429, 'RATE-LIMIT-ERR');
    }
    const fresh = await makeClient();
    expect((await partner('GET', '/v1/partner/businesses', { apiKey: fresh.apiKey })).status).toBe(200);
  });

  it('takes its budgets from the operator settings', async () => {
    const c = await makeClient();
    const vars = { PARTNER_RATE_LIMIT_SELF_SERVE: '3', PARTNER_RATE_WINDOW_SECONDS: '60' };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await callWithEnv('GET', '/v1/partner/businesses', { headers: { 'x-api-key': c.apiKey } }, vars);
      statuses.push(res.status);
      expect(res.headers.get('X-RateLimit-Limit')).toBe('3');
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('partner isolation', () => {
  it('a partner cannot read or post for a business not linked to it, nor for another partner’s business', async () => {
    const mine = await linkedWorld();
    const theirs = await linkedWorld();
    // Their business has shifts of its own.
    const theirShift = await call('POST', '/v1/shift_request/send_request', {
      key: theirs.biz.key,
      body: shiftBody({ shifter_id: theirs.sh.shifterId, note: 'private to them' }),
    });
    expect(theirShift.status).toBe(201);
    const unlinked = await makeUser({ business: true });

    for (const cred of [{ apiKey: mine.client.apiKey }, { token: await tokenFor(mine.client) }]) {
      for (const target of [theirs.businessId, unlinked.businessId!]) {
        for (const sub of ['shift_requests', 'broadcasts', 'shifters']) {
          expectError(await partner('GET', `/v1/partner/businesses/${target}/${sub}`, cred), 404, 'BUSINESS-NOT-FND-ERR');
        }
        const post = await partner('POST', `/v1/partner/businesses/${target}/shift_requests`, cred, {
          body: shiftBody({ is_broadcast: 1 }),
        });
        expectError(post, 404, 'BUSINESS-NOT-FND-ERR');
      }
      // Filters on its own business cannot reach theirs.
      const filtered = await partner('GET', `/v1/partner/businesses/${mine.businessId}/shift_requests`, cred, {
        query: { shifter_id: theirs.sh.shifterId! },
      });
      expect(filtered.status).toBe(200);
      expect(JSON.stringify(filtered.body)).not.toContain(theirShift.body.id);
      const linked = await partner('GET', '/v1/partner/businesses', cred);
      expect(linked.body.data.map((b: { id: string }) => b.id)).toEqual([mine.businessId]);
    }
    // Nothing was posted for them, and their own partner still sees only its own.
    const theirRows = await db().select().from(shiftRequests).where(eq(shiftRequests.business_id, theirs.businessId));
    expect(theirRows.map((r) => r.id)).toEqual([theirShift.body.id]);
    expect(await db().select().from(shiftRequests).where(eq(shiftRequests.business_id, unlinked.businessId!))).toEqual([]);
    const theirView = await partner('GET', `/v1/partner/businesses/${theirs.businessId}/shift_requests`, { apiKey: theirs.client.apiKey });
    expect(theirView.body.data.map((s: { id: string }) => s.id)).toEqual([theirShift.body.id]);
  });

  it('only the owner or an admin links and unlinks; a teammate may see the links; strangers learn nothing', async () => {
    const { biz, businessId, client, sh } = await linkedWorld();
    const other = await makeClient();
    const stranger = await makeUser({ business: true });
    const teammate = await makeUser();
    await addTeammate(businessId, teammate.userId);
    expectError(
      await call('POST', `/v1/business/${businessId}/partners`, { key: stranger.key, body: { client_id: other.id } }),
      404,
      'BUSINESS-NOT-FND-ERR',
    );
    expectError(
      await call('POST', `/v1/business/${businessId}/partners`, { key: sh.key, body: { client_id: other.id } }),
      404,
      'BUSINESS-NOT-FND-ERR',
    );
    expectError(
      await call('POST', `/v1/business/${businessId}/partners`, { key: teammate.key, body: { client_id: other.id } }),
      403,
      'FORBIDDEN-ERR',
    );
    // The partner's own owner cannot link it to someone else's business either.
    expectError(
      await call('POST', `/v1/business/${businessId}/partners`, { key: other.owner.key, body: { client_id: other.id } }),
      404,
      'BUSINESS-NOT-FND-ERR',
    );
    expectError(
      await call('DELETE', `/v1/business/${businessId}/partners/${client.id}`, { key: stranger.key }),
      404,
      'BUSINESS-NOT-FND-ERR',
    );
    expectError(await call('DELETE', `/v1/business/${businessId}/partners/${client.id}`, { key: teammate.key }), 403, 'FORBIDDEN-ERR');
    expectError(await call('GET', `/v1/business/${businessId}/partners`, { key: stranger.key }), 404, 'BUSINESS-NOT-FND-ERR');

    const seen = await call('GET', `/v1/business/${businessId}/partners`, { key: teammate.key });
    expect(seen.status).toBe(200);
    expect(seen.body.data.map((l: { client_id: string }) => l.client_id)).toEqual([client.id]);
    expect((await partner('GET', '/v1/partner/businesses', { apiKey: other.apiKey })).body.data).toEqual([]);
    // Linking twice is a conflict; an unknown client is 404.
    expectError(
      await call('POST', `/v1/business/${businessId}/partners`, { key: biz.key, body: { client_id: client.id } }),
      409,
      'PARTNER-LINK-EXISTS-ERR',
    );
    expectError(
      await call('POST', `/v1/business/${businessId}/partners`, { key: biz.key, body: { client_id: 'pc_missing' } }),
      404,
      'PARTNER-CLIENT-NOT-FND-ERR',
    );
  });

  it('unlinking cuts access at once, for the key and for tokens already issued', async () => {
    const { biz, businessId, client } = await linkedWorld();
    const token = await tokenFor(client);
    expect((await partner('GET', `/v1/partner/businesses/${businessId}/shift_requests`, { token })).status).toBe(200);
    const count = async () => (await call('GET', `/v1/partner/clients/${client.id}`, { key: client.owner.key })).body.linked_business_count;
    expect(await count()).toBe(1);
    const res = await call('DELETE', `/v1/business/${businessId}/partners/${client.id}`, { key: biz.key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ business_id: businessId, client_id: client.id });
    for (const cred of [{ apiKey: client.apiKey }, { token }]) {
      expectError(await partner('GET', `/v1/partner/businesses/${businessId}/shift_requests`, cred), 404, 'BUSINESS-NOT-FND-ERR');
      expectError(
        await partner('POST', `/v1/partner/businesses/${businessId}/shift_requests`, cred, { body: shiftBody({ is_broadcast: 1 }) }),
        404,
        'BUSINESS-NOT-FND-ERR',
      );
      expect((await partner('GET', '/v1/partner/businesses', cred)).body.data).toEqual([]);
    }
    expectError(
      await call('DELETE', `/v1/business/${businessId}/partners/${client.id}`, { key: biz.key }),
      404,
      'PARTNER-LINK-NOT-FND-ERR',
    );
    expect(await count()).toBe(0);
    const audit = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'partner_link.delete'), eq(auditLog.actor_user_id, biz.userId)));
    expect(audit).toHaveLength(1);
  });
});

describe('posting shifts through the partner API', () => {
  it('applies the same rules as the REST API, with the same answers', async () => {
    const { biz, sh, client, businessId } = await linkedWorld();
    const stranger = await makeUser({ shifter: true });
    const paused = await makeCrewMember(businessId, { accept_shift_req: false });
    const cases: Array<[string, Record<string, unknown>, number, string]> = [
      ['a shifter outside the crew', shiftBody({ shifter_id: stranger.shifterId }), 422, 'SHFT-NOT-CONNECTED-ERR'],
      ['a paused crew member', shiftBody({ shifter_id: paused.shifterId }), 422, 'SHIFTER-PAUSED-ERR'],
      ['a start in the past', shiftBody({ shifter_id: sh.shifterId, shift_date: dateAhead(-1) }), 400, 'VALIDATION-ERR'],
      ['a broadcast naming a shifter', shiftBody({ shifter_id: sh.shifterId, is_broadcast: 1 }), 400, 'VALIDATION-ERR'],
      ['an unknown role', shiftBody({ is_broadcast: 1, shiftrole_id: 99999 }), 400, 'VALIDATION-ERR'],
      ['too many decimals', shiftBody({ is_broadcast: 1, hourly_rate: 20.123 }), 400, 'VALIDATION-ERR'],
    ];
    for (const [what, body, status, code] of cases) {
      const viaPartner = await partner('POST', `/v1/partner/businesses/${businessId}/shift_requests`, { apiKey: client.apiKey }, { body });
      const viaRest = await call('POST', '/v1/shift_request/send_request', { key: biz.key, body: { ...body, business_id: businessId } });
      expect([viaPartner.status, viaPartner.body.error?.code], what).toEqual([status, code]);
      expect([viaRest.status, viaRest.body.error?.code], what).toEqual([status, code]);
    }
    expect(await db().select().from(shiftRequests).where(eq(shiftRequests.business_id, businessId))).toEqual([]);
  });

  it('creates the shift as the business would, with the partner client named in its audit row', async () => {
    const { biz, sh, client, businessId } = await linkedWorld();
    const res = await partner(
      'POST',
      `/v1/partner/businesses/${businessId}/shift_requests`,
      { apiKey: client.apiKey },
      { body: shiftBody({ is_broadcast: 1, note: 'via partner' }) },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ business_id: businessId, is_broadcast: 1, request_status: 1, note: 'via partner', shifter_id: null });
    const [row] = await db().select().from(shiftRequests).where(eq(shiftRequests.id, res.body.id));
    expect(row?.created_by_user_id).toBeNull();
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subject_id, res.body.id), eq(auditLog.action, 'broadcast.create')));
    expect(audit).toMatchObject({ actor_kind: 'partner', actor_ref: client.id, actor_user_id: null });
    // The crew is told and the partner event is queued, as for the business's own post.
    const notices = await outboxFor(res.body.id, { topic: 'notifications' });
    expect(notices.flatMap((n) => n.body.user_ids)).toContain(sh.userId);
    expect((await outboxFor(res.body.id, { topic: 'webhooks' })).map((e) => e.body.type)).toContain('broadcast.created');
    // The business sees it in its own list; the partner in the broadcasts list.
    const own = await call('POST', '/v1/shift_request/list_of_requests', { key: biz.key, body: { as: 'business' } });
    expect(own.body.data.map((s: { id: string }) => s.id)).toContain(res.body.id);
    const open = await partner('GET', `/v1/partner/businesses/${businessId}/broadcasts`, { apiKey: client.apiKey });
    expect(open.body.data.map((s: { id: string }) => s.id)).toEqual([res.body.id]);
    // A targeted post to the crew member works too, and the crew is listed.
    const targeted = await partner(
      'POST',
      `/v1/partner/businesses/${businessId}/shift_requests`,
      { apiKey: client.apiKey },
      { body: shiftBody({ shifter_id: sh.shifterId }) },
    );
    expect(targeted.status).toBe(201);
    const crew = await partner('GET', `/v1/partner/businesses/${businessId}/shifters`, { apiKey: client.apiKey });
    const [me] = await db().select().from(shifters).where(eq(shifters.id, sh.shifterId!));
    expect(crew.body.data).toEqual([
      {
        shifter_id: sh.shifterId,
        display_name: me?.display_name,
        slug: me?.slug,
        headline: null,
        accepts_requests: 1,
        connected_at: expect.any(String),
      },
    ]);
  });

  it("answers send_request's warnings: shifter_busy (the business's shifts in full only with shifts:read) and empty_crew", async () => {
    const { biz, sh, client, businessId } = await linkedWorld();
    const date = dateAhead(6);
    const held = await insertShift({ businessId, shifterId: sh.shifterId, date, in: '09:00', out: '17:00' });
    const body = shiftBody({ shift_date: date, shift_in: '12:00', shift_out: '20:00', shifter_id: sh.shifterId });
    const post = (c: Client, b: Record<string, unknown>, id = businessId) =>
      partner('POST', `/v1/partner/businesses/${id}/shift_requests`, { apiKey: c.apiKey }, { body: b });
    const res = await post(client, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ request_status: 1, shifter_id: sh.shifterId });
    const [w] = res.body.warnings;
    expect(res.body.warnings).toHaveLength(1);
    expect(w).toMatchObject({ code: 'shifter_busy', busy: [] });
    expect(w.message).toMatch(/already works 09:00–17:00 that day\. They cannot accept this request/);
    // The same overlapping shift the business's own conflicts operation lists, in full.
    const own = await call('GET', '/v1/shift_request/conflicts', {
      key: biz.key,
      query: { shifter_id: sh.shifterId!, business_id: businessId, date, shift_in: '12:00', shift_out: '20:00' },
    });
    expect(w.conflicts.map((s: { id: string }) => s.id)).toEqual([held.id]);
    expect(w.conflicts).toEqual(own.body.data);
    // A free window warns nothing.
    expect(
      (await post(client, shiftBody({ shift_date: date, shift_in: '17:00', shift_out: '21:00', shifter_id: sh.shifterId }))).body.warnings,
    ).toEqual([]);

    // A link without shifts:read: the partner learns the shifter is busy then, and only as a window.
    const writeOnly = await makeClient();
    await link(biz, businessId, writeOnly.id, ['shifts:write']);
    const blind = await post(writeOnly, body);
    expect(blind.status).toBe(201);
    expect(blind.body.warnings[0]).toMatchObject({ code: 'shifter_busy', conflicts: [] });
    expect(blind.body.warnings[0].busy).toEqual([
      { starts_at: new Date(held.starts_at).toISOString(), ends_at: new Date(held.ends_at).toISOString() },
    ]);
    expect(JSON.stringify(blind.body.warnings)).not.toContain(held.id);

    // A broadcast of a business with no crew is posted, and says nobody is told.
    const lonely = await makeUser({ business: true });
    await link(lonely, lonely.businessId!, client.id);
    const empty = await post(client, shiftBody({ is_broadcast: 1 }), lonely.businessId!);
    expect(empty.status).toBe(201);
    expect(empty.body.warnings).toEqual([
      { code: 'empty_crew', message: expect.stringMatching(/^Nobody will be told about this broadcast/) },
    ]);
    expect((await post(client, shiftBody({ is_broadcast: 1 }))).body.warnings).toEqual([]);

    // The document says so: the 201 is the posted shift with its warnings.
    const doc = (await call('GET', '/v1/openapi.json')).body;
    const created = doc.paths['/v1/partner/businesses/{business_id}/shift_requests'].post.responses['201'];
    expect(created.content['application/json'].schema.$ref).toBe('#/components/schemas/PostedShiftRequest');
  });

  it('makes a retried post with the same Idempotency-Key safe', async () => {
    const { client, businessId } = await linkedWorld();
    const send = () =>
      partner(
        'POST',
        `/v1/partner/businesses/${businessId}/shift_requests`,
        { apiKey: client.apiKey },
        { body: shiftBody({ is_broadcast: 1 }), headers: { 'Idempotency-Key': 'post-1' } },
      );
    const [a, b] = [await send(), await send()];
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get('Idempotent-Replayed')).toBe('true');
    expect(b.body.id).toBe(a.body.id);
    expect(await db().select().from(shiftRequests).where(eq(shiftRequests.business_id, businessId))).toHaveLength(1);
    const changed = await partner(
      'POST',
      `/v1/partner/businesses/${businessId}/shift_requests`,
      { apiKey: client.apiKey },
      { body: shiftBody({ is_broadcast: 1, note: 'other' }), headers: { 'Idempotency-Key': 'post-1' } },
    );
    expectError(changed, 409, 'IDEMPOTENCY-MISMATCH-ERR');
  });
});

describe('the OpenAPI document', () => {
  it('declares the partner security schemes and secures each partner route with its scope', async () => {
    const doc = (await call('GET', '/v1/openapi.json')).body;
    expect(doc.components.securitySchemes.partnerApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(doc.components.securitySchemes.partnerOAuth).toMatchObject({
      type: 'oauth2',
      flows: {
        clientCredentials: { tokenUrl: '/v1/partner/oauth/token', scopes: expect.objectContaining({ 'shifts:read': expect.any(String) }) },
      },
    });
    const scopes: Record<string, string[]> = {
      listPartnerBusinesses: [],
      listPartnerShiftRequests: ['shifts:read'],
      createPartnerShiftRequest: ['shifts:write'],
      listPartnerBroadcasts: ['shifts:read'],
      listPartnerShifters: ['shifters:read'],
    };
    const ops = Object.values<Record<string, any>>(doc.paths).flatMap((item) => Object.values<any>(item));
    for (const [id, scope] of Object.entries(scopes)) {
      const op = ops.find((o) => o.operationId === id);
      expect(op?.security, id).toEqual([{ partnerApiKey: [] }, { partnerOAuth: scope }]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403', '429']));
    }
    const token = ops.find((o) => o.operationId === 'issuePartnerToken');
    expect(token.security).toEqual([{ partnerClientBasic: [] }]);
    expect(Object.keys(token.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
  });
});
