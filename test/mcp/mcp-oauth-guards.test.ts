import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../src/db/schema';
import type { AppBindings } from '../../src/env';
import { REGISTRATION_BOUNDS, REGISTRATION_LIMIT, TOKEN_ROUTE_LIMIT } from '../../src/mcp/oauth-endpoints';
import { grantHelpers } from '../../src/mcp/oauth';
import { expireUnusedClients, UNUSED_CLIENT_DAYS } from '../../src/services/agents';
import { systemContext } from '../../src/services/kernel';
import { randomIp } from '../helpers/auth';
import { db, makeUser } from '../helpers/factory';
import {
  authorizePath,
  ConsentingAuthProvider,
  MCP_ORIGIN,
  MCP_URL,
  oauthTokens,
  pkcePair,
  REDIRECT_URI,
  rawMcp,
  registerPublicClient,
  signedInBrowser,
  tokenRequest,
  workerFetch,
} from '../helpers/mcp';

/*
 * The rules the app adds around the OAuth provider of the agent tool server, each tested as the
 * attack or the failure it answers: scope step-up through consent for both SDK eras, refresh-token
 * reuse, unbounded or endless client registration, and the token route's budget per address.
 */

const DAY_S = 24 * 3600;
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const profileCall = { name: 'shiftmarket.update_my_profile', arguments: { display_name: 'Stepped Up', confirm: true } };

/** The consent's redirect back to the client (read through a call: the SDK sets it while the test awaits). */
const callbackOf = (p: ConsentingAuthProvider): URL | null => p.callback;

const refresh = (refreshToken: string, clientId: string, extra: Record<string, string> = {}) =>
  tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, ...extra });

describe('scope step-up through consent', () => {
  it('a 1.x SDK client holding read steps up to write: the 403 names it, the refresh is refused, the person consents again', async () => {
    const u = await makeUser();
    const provider = new ConsentingAuthProvider(await signedInBrowser(u.email), ['read']);
    const transport = () => new LegacyTransport(new URL(MCP_URL), { authProvider: provider as never, fetch: workerFetch as never });
    const first = transport();
    await expect(new LegacyClient({ name: 'step-up-1', version: '1.0.0' }).connect(first)).rejects.toThrow();
    await first.finishAuth(provider.callback!.searchParams.get('code')!);
    expect((provider.tokens() as { scope?: string }).scope).toBe('read');

    const second = transport();
    const client = new LegacyClient({ name: 'step-up-1', version: '1.0.0' });
    await client.connect(second);
    provider.tick = ['read', 'write'];
    provider.callback = null;
    // The write tool answers 403 insufficient_scope; the SDK's scope-less refresh cannot add write and is
    // refused, so it goes to the consent page asking for read and write (before: a read token again, and
    // "403 after trying upscoping").
    await expect(client.callTool(profileCall)).rejects.toThrow();
    const consented = callbackOf(provider);
    expect(consented?.searchParams.get('code')).toBeTruthy();
    await second.finishAuth(consented!.searchParams.get('code')!);
    expect((provider.tokens() as { scope?: string }).scope).toBe('read write');

    const stepped = new LegacyClient({ name: 'step-up-1', version: '1.0.0' });
    await stepped.connect(transport());
    const res = (await stepped.callTool(profileCall)) as { isError?: boolean; structuredContent?: { updated_fields?: string[] } };
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent?.updated_fields).toEqual(['display_name']);
    await stepped.close();
  });

  it('a v2 SDK client (2026-07-28) holding read steps up to write through consent', async () => {
    const u = await makeUser();
    const provider = new ConsentingAuthProvider(await signedInBrowser(u.email), ['read']);
    const pin = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };
    const transport = () => new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: provider as never, fetch: workerFetch });
    const first = transport();
    await expect(new Client({ name: 'step-up-2', version: '1.0.0' }, pin).connect(first)).rejects.toThrow();
    await first.finishAuth(provider.callback!.searchParams);
    const second = transport();
    const client = new Client({ name: 'step-up-2', version: '1.0.0' }, pin);
    await client.connect(second);
    provider.tick = ['read', 'write'];
    provider.callback = null;
    await expect(client.callTool(profileCall)).rejects.toThrow();
    const consented = callbackOf(provider);
    expect(consented).not.toBeNull();
    await second.finishAuth(consented!.searchParams);
    expect((provider.tokens() as { scope?: string }).scope).toBe('read write');
    const stepped = new Client({ name: 'step-up-2', version: '1.0.0' }, pin);
    await stepped.connect(transport());
    const res = (await stepped.callTool(profileCall)) as { isError?: boolean };
    expect(res.isError).toBeFalsy();
    await stepped.close();
  });

  it('the 403 names the missing scope beside those held', async () => {
    const u = await makeUser();
    const s = await oauthTokens(u.email, { request: ['read'] });
    await rawMcp(s.accessToken, initialize);
    const res = await rawMcp(s.accessToken, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: profileCall });
    expect(res.status).toBe(403);
    expect(res.headers.get('WWW-Authenticate')).toMatch(/^Bearer .*error="insufficient_scope".*scope="read write"/);
  });
});

describe('refresh-token reuse', () => {
  it('replaying a rotated refresh token revokes the grant: its newest access and refresh tokens are refused too', async () => {
    const u = await makeUser();
    const s = await oauthTokens(u.email);
    const first = await refresh(s.refreshToken, s.client.clientId);
    const second = await refresh(first.body.refresh_token!, s.client.clientId);
    expect(second.status).toBe(200);
    expect((await rawMcp(second.body.access_token!, initialize)).status).toBe(200);

    const replay = await refresh(s.refreshToken, s.client.clientId);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await rawMcp(second.body.access_token!, initialize)).status).toBe(401);
    const newest = await refresh(second.body.refresh_token!, s.client.clientId);
    expect(newest.status).toBe(400);
    expect(newest.body.error).toBe('invalid_grant');
    const audit = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'agent_grant.revoke'), eq(auditLog.subject_id, s.refreshToken.split(':')[1]!)));
    expect(audit).toHaveLength(1);
  });

  it('the token just rotated, presented again (which the provider alone would still take), revokes the grant', async () => {
    const u = await makeUser();
    const s = await oauthTokens(u.email);
    const rotated = await refresh(s.refreshToken, s.client.clientId);
    expect(rotated.status).toBe(200);
    const replay = await refresh(s.refreshToken, s.client.clientId);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await rawMcp(rotated.body.access_token!, initialize)).status).toBe(401);
    expect((await refresh(rotated.body.refresh_token!, s.client.clientId)).status).toBe(400);
  });

  it('ordinary rotation keeps working: each new refresh token once, the grant alive', async () => {
    const u = await makeUser();
    const s = await oauthTokens(u.email);
    let token = s.refreshToken;
    for (let i = 0; i < 3; i++) {
      const r = await refresh(token, s.client.clientId);
      expect(r.status).toBe(200);
      token = r.body.refresh_token!;
      expect((await rawMcp(r.body.access_token!, initialize)).status).toBe(200);
    }
  });
});

describe('dynamic client registration', () => {
  const metadata = (over: Record<string, unknown> = {}) => ({
    client_name: 'Bounded agent',
    redirect_uris: [REDIRECT_URI],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    ...over,
  });
  const register = (body: unknown, ip = randomIp()) =>
    workerFetch(`${MCP_ORIGIN}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': ip },
      body: JSON.stringify(body),
    });

  it('bounds every field: a 900 KB name, 5,000 redirect URIs, a long URI and other oversize fields get 400 invalid_client_metadata', async () => {
    const B = REGISTRATION_BOUNDS;
    const cases = [
      metadata({ client_name: 'x'.repeat(900_000) }),
      metadata({ client_name: 'x'.repeat(B.nameChars + 1) }),
      metadata({ redirect_uris: Array.from({ length: 5000 }, (_, i) => `http://127.0.0.1:${1000 + i}/cb`) }),
      metadata({ redirect_uris: Array.from({ length: B.redirectUris + 1 }, (_, i) => `http://127.0.0.1:${1000 + i}/cb`) }),
      metadata({ redirect_uris: [`http://127.0.0.1:33418/${'a'.repeat(B.uriChars)}`] }),
      metadata({ logo_uri: `https://agent.example/${'l'.repeat(B.uriChars)}.png` }),
      metadata({ contacts: Array.from({ length: B.contacts + 1 }, (_, i) => `c${i}@agent.example`) }),
      metadata({ software_id: 's'.repeat(B.otherChars + 1) }),
      metadata(Object.fromEntries(Array.from({ length: B.localizedFields + 1 }, (_, i) => [`client_name#x${i}`, 'Agent']))),
    ];
    for (const body of cases) {
      const res = await register(body);
      const answer = (await res.json()) as { error?: string; error_description?: string };
      expect(res.status, JSON.stringify(answer).slice(0, 200)).toBe(400);
      expect(answer.error).toBe('invalid_client_metadata');
    }
    const ok = await register(
      metadata({ client_name: 'n'.repeat(B.nameChars), redirect_uris: [REDIRECT_URI, 'http://127.0.0.1:4000/cb'] }),
    );
    expect(ok.status).toBe(201);
  });

  it(`allows ${REGISTRATION_LIMIT.limit} registrations per address per hour, then 429 with Retry-After in OAuth's shape`, async () => {
    const ip = randomIp();
    for (let i = 0; i < REGISTRATION_LIMIT.limit; i++) expect((await register(metadata(), ip)).status).toBe(201);
    const refused = await register(metadata(), ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({
      error: 'temporarily_unavailable',
      error_description: expect.stringContaining('RATE-LIMIT-ERR'),
    });
    expect((await register(metadata(), randomIp())).status).toBe(201);
  });

  it(`a registration that got no token is deleted by the maintenance cron after ${UNUSED_CLIENT_DAYS} days; one in use stays`, async () => {
    const unused = await registerPublicClient(REDIRECT_URI, 'Never used');
    const u = await makeUser();
    const used = await registerPublicClient(REDIRECT_URI, 'In use');
    await oauthTokens(u.email, { client: used });
    const oauth = grantHelpers(env as AppBindings);
    const sweepAt = (days: number) => {
      const ctx = systemContext(env as AppBindings, { waitUntil: () => undefined }, 'test');
      return expireUnusedClients({ ...ctx, now: () => Date.now() + days * DAY_S * 1000 }, oauth);
    };
    await sweepAt(UNUSED_CLIENT_DAYS - 1);
    expect(await oauth.lookupClient(unused.clientId)).not.toBeNull();
    const swept = await sweepAt(UNUSED_CLIENT_DAYS + 1);
    expect(swept.deleted).toBeGreaterThanOrEqual(1);
    expect(await oauth.lookupClient(unused.clientId)).toBeNull();
    expect(await oauth.lookupClient(used.clientId)).not.toBeNull();
    // The deleted client can no longer start an authorization; it registers again.
    const web = await signedInBrowser(u.email);
    const page = await web.get(authorizePath(unused, (await pkcePair()).challenge, 's', ['read']));
    expect(page.status).toBe(400);
  });
});

describe('the token route', () => {
  it(`allows ${TOKEN_ROUTE_LIMIT.limit} requests per address per window, then 429 with Retry-After in OAuth's shape`, async () => {
    const ip = randomIp();
    const bogus = { grant_type: 'refresh_token', refresh_token: 'usr_x:grant:secret', client_id: 'nobody' };
    for (let i = 0; i < TOKEN_ROUTE_LIMIT.limit; i++) {
      const r = await tokenRequest(bogus, MCP_ORIGIN, { 'CF-Connecting-IP': ip });
      expect(r.status).not.toBe(429);
    }
    const refused = await tokenRequest(bogus, MCP_ORIGIN, { 'CF-Connecting-IP': ip });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(refused.body).toMatchObject({ error: 'temporarily_unavailable' });
    // Another address is not held back.
    expect((await tokenRequest(bogus, MCP_ORIGIN, { 'CF-Connecting-IP': randomIp() })).status).not.toBe(429);
  });
});
