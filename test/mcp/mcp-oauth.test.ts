import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call } from '../helpers/api';
import { makeUser, TEST_PASSWORD } from '../helpers/factory';
import {
  authorize,
  ConsentingAuthProvider,
  authorizePath,
  exchangeCode,
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
import { WebClient } from '../helpers/web';

afterEach(() => {
  vi.restoreAllMocks();
});

const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('metadata documents', () => {
  it('publishes the authorization server: S256 only, the three scopes, registration and CIMD', async () => {
    const res = await workerFetch(`${MCP_ORIGIN}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    const meta = (await res.json()) as Record<string, unknown>;
    expect(meta.issuer).toBe(MCP_ORIGIN);
    expect(meta.authorization_endpoint).toBe(`${MCP_ORIGIN}/oauth/authorize`);
    expect(meta.token_endpoint).toBe(`${MCP_ORIGIN}/oauth/token`);
    expect(meta.registration_endpoint).toBe(`${MCP_ORIGIN}/oauth/register`);
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);
    expect(meta.scopes_supported).toEqual(['read', 'write', 'payment']);
    expect(meta.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(meta.client_id_metadata_document_supported).toBe(true);
  });

  it('publishes the protected resource with the exact resource …/v1/mcp/ and every scope', async () => {
    const res = await workerFetch(`${MCP_ORIGIN}/.well-known/oauth-protected-resource/v1/mcp/`);
    expect(res.status).toBe(200);
    const meta = (await res.json()) as Record<string, unknown>;
    expect(meta.resource).toBe(MCP_URL);
    expect(meta.authorization_servers).toEqual([MCP_ORIGIN]);
    // All three, so a client asks for them and the person chooses on the consent page (not read alone).
    expect(meta.scopes_supported).toEqual(['read', 'write', 'payment']);
  });

  it('answers 401 with a Bearer challenge naming the resource metadata, with no token or a bad one', async () => {
    for (const token of [null, 'not-a-token', 'usr_x:grant:secret']) {
      const res = await rawMcp(token, listTools);
      expect(res.status).toBe(401);
      const challenge = res.headers.get('WWW-Authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer /);
      expect(challenge).toContain(`resource_metadata="${MCP_ORIGIN}/.well-known/oauth-protected-resource/v1/mcp/"`);
      expect(challenge).toContain('scope="read write payment"');
    }
  });

  it('serves /v1/mcp as /v1/mcp/ (the same guard and endpoint)', async () => {
    const anon = await workerFetch(`${MCP_ORIGIN}/v1/mcp`, { method: 'POST', body: JSON.stringify(listTools) });
    expect(anon.status).toBe(401);
    const u = await makeUser();
    const res = await workerFetch(`${MCP_ORIGIN}/v1/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${u.key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    expect(res.status).toBe(200);
  });
});

describe('authorization code flow with PKCE through the consent page', () => {
  it('sends a signed-out browser to sign-in and back, then shows the escaped client name and one box per scope', async () => {
    const u = await makeUser();
    const client = await registerPublicClient(REDIRECT_URI, '<img src=x onerror=alert(1)> Agent');
    const { challenge } = await pkcePair();
    const path = authorizePath(client, challenge, 'st-1', ['read', 'write']);
    const web = new WebClient(MCP_ORIGIN);
    const first = await web.get(path);
    expect(first.status).toBe(303);
    const login = new URL(first.location!, MCP_ORIGIN);
    expect(login.pathname).toBe('/login');
    expect(login.searchParams.get('next')).toBe(path);
    const signed = await web.signIn(u.email, TEST_PASSWORD, path);
    expect(signed.status).toBe(303);
    expect(signed.location).toBe(path);

    const page = await web.get(path);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('<img src=x');
    expect(page.html).toContain('&lt;img src=x onerror=alert(1)&gt; Agent');
    expect(page.html).toContain('its name is not verified');
    expect(page.html).toContain('127.0.0.1');
    expect(page.html).toContain('an app on your computer');
    for (const s of ['read', 'write', 'payment']) expect(page.html).toContain(`name="scope" value="${s}"`);
    // Asked for read and write: those are ticked, payment is not.
    expect(page.html).toMatch(/value="write" checked/);
    expect(page.html).not.toMatch(/value="payment" checked/);
    expect(page.html).toContain('name="_csrf"');
    expect(page.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
  });

  it("keeps an authorization request too long for sign-in's next aside and resumes it after sign-in", async () => {
    const u = await makeUser();
    const client = await registerPublicClient();
    const { challenge } = await pkcePair();
    const path = authorizePath(client, challenge, 's'.repeat(450), ['read']);
    expect(path.length).toBeGreaterThan(512);
    const web = new WebClient(MCP_ORIGIN);
    const first = await web.get(path);
    expect(first.status).toBe(303);
    expect(new URL(first.location!, MCP_ORIGIN).searchParams.get('next')).toBe('/oauth/authorize?resume=1');
    const signed = await web.signIn(u.email, TEST_PASSWORD, '/oauth/authorize?resume=1');
    expect(signed.location).toBe('/oauth/authorize?resume=1');
    const page = await web.get('/oauth/authorize?resume=1');
    expect(page.status).toBe(200);
    expect(page.html).toContain('name="handle"');
  });

  it('issues tokens for the granted scopes to the right verifier, once', async () => {
    const u = await makeUser();
    const a = await authorize(u.email, { request: ['read', 'write', 'payment'] });
    expect(a.location.origin + a.location.pathname).toBe(REDIRECT_URI);
    expect(a.location.searchParams.get('state')).toBe(a.state);
    expect(a.location.searchParams.get('iss')).toBe(MCP_ORIGIN);

    const wrong = await exchangeCode(a, { code_verifier: (await pkcePair()).verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');

    // A wrong verifier does not burn the code for its rightful holder? It does: the provider revokes
    // a code after any failed redemption, so start over for the happy path.
    const b = await authorize(u.email, { request: ['read', 'write', 'payment'] });
    const ok = await exchangeCode(b);
    expect(ok.status).toBe(200);
    expect(ok.body.token_type?.toLowerCase()).toBe('bearer');
    expect(ok.body.scope).toBe('read write payment');
    expect(ok.body.refresh_token).toBeTruthy();

    const replay = await exchangeCode(b);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    // Replaying the code revokes what it issued.
    const after = await rawMcp(ok.body.access_token!, listTools);
    expect(after.status).toBe(401);
  });

  it('refuses a code exchanged with another redirect_uri, and an authorize request with an unregistered one', async () => {
    const u = await makeUser();
    const a = await authorize(u.email);
    const res = await exchangeCode(a, { redirect_uri: 'http://127.0.0.1:33418/other' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/invalid_(grant|request)/);

    const web = await signedInBrowser(u.email);
    const { challenge } = await pkcePair();
    const evil = { ...a.client, redirectUri: 'https://evil.example/callback' };
    const page = await web.get(authorizePath(evil, challenge, 's', ['read']));
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
  });

  it('refuses the plain PKCE method and a request without a challenge', async () => {
    const u = await makeUser();
    const web = await signedInBrowser(u.email);
    const client = await registerPublicClient();
    const plain = await web.get(authorizePath(client, 'a'.repeat(43), 's', ['read'], MCP_URL, 'plain'));
    expect(plain.status).toBe(302);
    expect(new URL(plain.location!).searchParams.get('error')).toBe('invalid_request');
    expect(new URL(plain.location!).searchParams.get('code')).toBeNull();
  });

  it('sends access_denied when the person denies, or ticks nothing', async () => {
    const u = await makeUser();
    const denied = await authorize(u.email, { decision: 'deny' });
    expect(denied.location.searchParams.get('error')).toBe('access_denied');
    expect(denied.code).toBe('');
    const none = await authorize(u.email, { tick: [] });
    expect(none.location.searchParams.get('error')).toBe('access_denied');
  });

  it('refuses a consent form without the CSRF token', async () => {
    const u = await makeUser();
    const web = await signedInBrowser(u.email);
    const client = await registerPublicClient();
    const { challenge } = await pkcePair();
    const page = await web.get(authorizePath(client, challenge, 's', ['read']));
    const handle = /name="handle" value="([^"]+)"/.exec(page.html)![1]!;
    const res = await web.post('/oauth/authorize', { handle, decision: 'approve', scope: 'read', _csrf: 'x'.repeat(43) });
    expect(res.status).toBe(403);
    expect(res.location).toBeNull();
  });

  it('accepts a consent answer only from the browser that opened the page, once', async () => {
    const u = await makeUser();
    const web = await signedInBrowser(u.email);
    const client = await registerPublicClient();
    const { challenge } = await pkcePair();
    const page = await web.get(authorizePath(client, challenge, 's', ['read']));
    const handle = /name="handle" value="([^"]+)"/.exec(page.html)![1]!;
    const other = await signedInBrowser(u.email);
    await other.get('/account');
    const stolen = await other.post('/oauth/authorize', { handle, decision: 'approve', scope: 'read' });
    expect(stolen.status).toBe(400);
    expect(stolen.location).toBeNull();
    const mine = await web.post('/oauth/authorize', { handle, decision: 'approve', scope: 'read' });
    expect(mine.status).toBe(302);
    expect(new URL(mine.location!).searchParams.get('code')).toBeTruthy();
    const again = await web.post('/oauth/authorize', { handle, decision: 'approve', scope: 'read' });
    expect(again.status).toBe(400);
  });

  it('narrows the token to the ticked scopes', async () => {
    const u = await makeUser();
    const s = await oauthTokens(u.email, { request: ['read', 'write', 'payment'], tick: ['read', 'write'] });
    expect(s.scope).toBe('read write');
  });
});

describe('refresh tokens', () => {
  it('rotate: the new refresh token works, and once it is used the old one no longer does', async () => {
    const u = await makeUser();
    const s = await oauthTokens(u.email);
    const first = await tokenRequest({ grant_type: 'refresh_token', refresh_token: s.refreshToken, client_id: s.client.clientId });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).toBeTruthy();
    expect(first.body.refresh_token).not.toBe(s.refreshToken);
    expect(first.body.access_token).not.toBe(s.accessToken);
    expect((await rawMcp(first.body.access_token!, initialize)).status).toBe(200);

    const second = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token!,
      client_id: s.client.clientId,
    });
    expect(second.status).toBe(200);
    const stale = await tokenRequest({ grant_type: 'refresh_token', refresh_token: s.refreshToken, client_id: s.client.clientId });
    expect(stale.status).toBe(400);
    expect(stale.body.error).toBe('invalid_grant');
  });

  it('can narrow but never widen the scopes: asking for more is invalid_scope, not a narrower token', async () => {
    const u = await makeUser();
    const s = await oauthTokens(u.email, { tick: ['read', 'write'] });
    const wider = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: s.refreshToken,
      client_id: s.client.clientId,
      scope: 'read write payment',
    });
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe('invalid_scope');
    expect(wider.body.access_token).toBeUndefined();
    // Nothing was exchanged: the same refresh token still narrows.
    const narrower = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: s.refreshToken,
      client_id: s.client.clientId,
      scope: 'read',
    });
    expect(narrower.status).toBe(200);
    expect(narrower.body.scope).toBe('read');
  });
});

describe('audience binding', () => {
  it('refuses on this server a token issued for another resource', async () => {
    const u = await makeUser();
    const other = await oauthTokens(u.email, { origin: 'https://other.test' });
    const there = await workerFetch('https://other.test/v1/mcp/', {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${other.accessToken}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(initialize),
    });
    expect(there.status).toBe(200);
    const here = await rawMcp(other.accessToken, initialize);
    expect(here.status).toBe(401);
  });

  it('refuses to issue a code for a resource that is not this server', async () => {
    const u = await makeUser();
    const web = await signedInBrowser(u.email);
    const client = await registerPublicClient();
    const { challenge } = await pkcePair();
    const res = await web.get(authorizePath(client, challenge, 's', ['read'], 'https://elsewhere.test/v1/mcp/'));
    expect(res.status).toBe(302);
    expect(new URL(res.location!).searchParams.get('error')).toBe('invalid_target');
  });
});

describe('personal API keys', () => {
  it('keep working on every other route of the same origin, and are accepted on the MCP endpoint', async () => {
    const u = await makeUser();
    const details = await workerFetch(`${MCP_ORIGIN}/v1/user/details`, { headers: { Authorization: `Bearer ${u.key}` } });
    expect(details.status).toBe(200);
    const plain = await call('GET', '/v1/user/details', { key: u.key });
    expect(plain.status).toBe(200);
    const mcp = await rawMcp(u.key, initialize);
    expect(mcp.status).toBe(200);
    const revoked = await rawMcp(`${u.key.slice(0, -2)}xx`, initialize);
    expect(revoked.status).toBe(401);
  });
});

describe('Client ID Metadata Documents', () => {
  const CLIENT_ID = 'https://agent.example/oauth/client.json';
  const document = {
    client_id: CLIENT_ID,
    client_name: 'Example Agent',
    redirect_uris: [REDIRECT_URI],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };

  it('fetches the document (and nothing else), shows the verified domain, and completes the flow', async () => {
    const fetched: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL) => {
      const url = input instanceof Request ? input.url : String(input);
      fetched.push(url);
      if (url === CLIENT_ID) return Response.json(document, { headers: { 'Cache-Control': 'no-store' } });
      throw new Error(`unexpected outbound fetch ${url}`);
    });
    const u = await makeUser();
    const web = await signedInBrowser(u.email);
    const { challenge, verifier } = await pkcePair();
    const client = { clientId: CLIENT_ID, redirectUri: REDIRECT_URI };
    const page = await web.get(authorizePath(client, challenge, 's', ['read']));
    expect(page.status).toBe(200);
    expect(page.html).toContain('Example Agent');
    expect(page.html).toContain('Published by <strong>agent.example</strong>');
    const a = await authorize(u.email, { client, web, request: ['read'] });
    const t = await exchangeCode({ ...a, verifier: a.verifier });
    expect(t.status).toBe(200);
    expect(t.body.scope).toBe('read');
    expect(fetched.every((f) => f === CLIENT_ID)).toBe(true);
    expect(verifier).toBeTruthy();
  });

  it('refuses a document larger than 5 KB', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      Response.json({ ...document, client_id: 'https://big.example/c.json', client_name: 'x'.repeat(6000) }),
    );
    const u = await makeUser();
    const web = await signedInBrowser(u.email);
    const { challenge } = await pkcePair();
    const page = await web.get(
      authorizePath({ clientId: 'https://big.example/c.json', redirectUri: REDIRECT_URI }, challenge, 's', ['read']),
    );
    expect(page.status).toBe(400);
    expect(page.html).toContain('could not be verified');
  });
});

describe('SDK clients doing OAuth themselves', () => {
  it('the v2 client (2026-07-28) discovers, registers, authorizes with PKCE and lists the tools', async () => {
    const u = await makeUser();
    const provider = new ConsentingAuthProvider(await signedInBrowser(u.email), ['read', 'write']);
    const transport = () => new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: provider as never, fetch: workerFetch });
    const first = transport();
    const client = new Client({ name: 'sdk-oauth', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await expect(client.connect(first)).rejects.toThrow();
    expect(provider.callback?.searchParams.get('code')).toBeTruthy();
    await first.finishAuth(provider.callback!.searchParams);
    expect(provider.accessToken).toBeTruthy();
    const ready = new Client({ name: 'sdk-oauth', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await ready.connect(transport());
    const { tools } = await ready.listTools();
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((t) => t.name.startsWith('shiftmarket.'))).toBe(true);
    // read and write were ticked: the 19 tools of those scopes, not the payment ones.
    expect(tools).toHaveLength(19);
    expect(tools.map((t) => t.name)).not.toContain('shiftmarket.confirm_payment_for_shift');
    expect(tools.map((t) => t.name)).not.toContain('shiftmarket.approve_timesheet');
    await ready.close();
  });

  it('the 1.x client (2025-11-25) does the same', async () => {
    const u = await makeUser();
    const provider = new ConsentingAuthProvider(await signedInBrowser(u.email), ['read']);
    const transport = () => new LegacyTransport(new URL(MCP_URL), { authProvider: provider as never, fetch: workerFetch as never });
    const first = transport();
    await expect(new LegacyClient({ name: 'sdk-oauth-1', version: '1.0.0' }).connect(first)).rejects.toThrow();
    await first.finishAuth(provider.callback!.searchParams.get('code')!);
    const ready = new LegacyClient({ name: 'sdk-oauth-1', version: '1.0.0' });
    await ready.connect(transport());
    const { tools } = await ready.listTools();
    // read only: the 10 read tools.
    expect(tools).toHaveLength(10);
    expect(tools.map((t) => t.name)).toContain('shiftmarket.me');
    await ready.close();
  });
});
