import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../src/db/schema';
import { call, expectError } from '../helpers/api';
import { db, makeUser } from '../helpers/factory';
import { type OAuthSession, oauthTokens, rawMcp, registerPublicClient, signedInBrowser, tokenRequest } from '../helpers/mcp';

// The apps a person connected to the agent tool server: GET /v1/user/agent_grants lists their OAuth
// grants, POST /v1/user/agent_grants/{grant_id}/revoke ends one with all its tokens, and the
// /account/agents page does both for a signed-in browser.

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

interface GrantRow {
  id: string;
  client_id: string;
  client_name: string | null;
  scopes: string[];
  created_at: string;
}

async function grantsOf(key: string): Promise<GrantRow[]> {
  const res = await call<{ data: GrantRow[] }>('GET', '/v1/user/agent_grants', { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function mcpStatus(token: string): Promise<number> {
  return (await rawMcp(token, initialize)).status;
}

async function connected(email: string, name: string, scopes = ['read', 'write']): Promise<OAuthSession> {
  const client = await registerPublicClient(undefined, name);
  return oauthTokens(email, { client, request: scopes });
}

describe('listing and revoking through the API', () => {
  it('lists the grant the OAuth flow made, and revoking it ends its access and refresh tokens', async () => {
    const u = await makeUser();
    const before = Date.now();
    const session = await connected(u.email, 'Planner app', ['read', 'write']);
    expect(await mcpStatus(session.accessToken)).toBe(200);

    const [grant, ...rest] = await grantsOf(u.key);
    expect(rest).toEqual([]);
    expect(grant).toMatchObject({ client_id: session.client.clientId, client_name: 'Planner app', scopes: ['read', 'write'] });
    expect(grant!.id).toMatch(/^[A-Za-z0-9_-]+$/);
    const created = Date.parse(grant!.created_at);
    expect(created).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(created).toBeLessThanOrEqual(Date.now());

    const revoked = await call('POST', `/v1/user/agent_grants/${grant!.id}/revoke`, { key: u.key });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body).toEqual({ id: grant!.id, status: 'revoked' });
    const audit = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subject_id, grant!.id), eq(auditLog.action, 'agent_grant.revoke')));
    expect(audit.map((r) => [r.actor_user_id, JSON.parse(r.data ?? '{}').client_id])).toEqual([[u.userId, session.client.clientId]]);

    expect(await grantsOf(u.key)).toEqual([]);
    const res = await rawMcp(session.accessToken, initialize);
    expect(res.status).toBe(401);
    expect(res.headers.get('WWW-Authenticate') ?? '').toMatch(/^Bearer /);
    const refresh = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: session.refreshToken,
      client_id: session.client.clientId,
    });
    expect(refresh.status).toBe(400);
    expect(refresh.body.access_token).toBeUndefined();

    // Revoked once: a second revoke finds nothing.
    expectError(await call('POST', `/v1/user/agent_grants/${grant!.id}/revoke`, { key: u.key }), 404, 'AGENT-GRANT-NOT-FND-ERR');
  });

  it('revoking one app leaves the others connected, newest listed first', async () => {
    const u = await makeUser();
    const older = await connected(u.email, 'Older app', ['read']);
    const newer = await connected(u.email, 'Newer app', ['read', 'write', 'payment']);
    const grants = await grantsOf(u.key);
    expect(grants.map((g) => g.client_name).sort()).toEqual(['Newer app', 'Older app']);
    expect(Date.parse(grants[0]!.created_at)).toBeGreaterThanOrEqual(Date.parse(grants[1]!.created_at));
    const target = grants.find((g) => g.client_id === older.client.clientId)!;
    expect(target.scopes).toEqual(['read']);

    expect((await call('POST', `/v1/user/agent_grants/${target.id}/revoke`, { key: u.key })).status).toBe(200);
    expect(await mcpStatus(older.accessToken)).toBe(401);
    expect(await mcpStatus(newer.accessToken)).toBe(200);
    expect((await grantsOf(u.key)).map((g) => g.client_id)).toEqual([newer.client.clientId]);
  });

  it("another user neither sees nor revokes someone's grant (404), and the grant keeps working", async () => {
    const owner = await makeUser();
    const stranger = await makeUser();
    const session = await connected(owner.email, 'Owner app');
    const [grant] = await grantsOf(owner.key);

    expect(await grantsOf(stranger.key)).toEqual([]);
    const attack = await call('POST', `/v1/user/agent_grants/${grant!.id}/revoke`, { key: stranger.key });
    expectError(attack, 404, 'AGENT-GRANT-NOT-FND-ERR');
    expect(JSON.stringify(attack.body)).not.toContain(owner.userId);

    expect((await grantsOf(owner.key)).map((g) => g.id)).toEqual([grant!.id]);
    expect(await mcpStatus(session.accessToken)).toBe(200);
  });

  it('refuses without credentials, and malformed or unknown grant ids', async () => {
    const u = await makeUser();
    expect((await call('GET', '/v1/user/agent_grants')).status).toBe(401);
    expect((await call('POST', '/v1/user/agent_grants/abc/revoke')).status).toBe(401);
    expectError(await call('POST', `/v1/user/agent_grants/${'a'.repeat(65)}/revoke`, { key: u.key }), 400, 'VALIDATION-ERR');
    expectError(await call('POST', '/v1/user/agent_grants/a%3Ab/revoke', { key: u.key }), 400, 'VALIDATION-ERR');
    expectError(await call('POST', '/v1/user/agent_grants/NoSuchGrant00000/revoke', { key: u.key }), 404, 'AGENT-GRANT-NOT-FND-ERR');
  });
});

describe('the /account/agents page', () => {
  it('lists the app with its name escaped and revokes it through a CSRF-checked form', async () => {
    const u = await makeUser();
    const name = '<script>alert("x")</script> & Co';
    const session = await connected(u.email, name);
    const [grant] = await grantsOf(u.key);

    const web = await signedInBrowser(u.email);
    const page = await web.get('/account/agents');
    expect(page.status).toBe(200);
    expect(page.html).toContain('Connected apps');
    expect(page.html).not.toContain('<script>alert');
    expect(page.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    expect(page.html).toContain(session.client.clientId);
    // One form per grant, a real button (keyboard reachable), naming the app for screen readers.
    const form = new RegExp(
      `<form method="post" action="/account/agents/revoke"[^>]*>[\\s\\S]*?value="${grant!.id}"[\\s\\S]*?<button[^>]*>Revoke`,
    );
    expect(page.html).toMatch(form);
    expect(page.html).toMatch(/name="_csrf"/);

    const forged = await web.post('/account/agents/revoke', { grant_id: grant!.id, _csrf: 'y'.repeat(43) });
    expect(forged.status).toBe(403);
    expect(await mcpStatus(session.accessToken)).toBe(200);

    const done = await web.post('/account/agents/revoke', { grant_id: grant!.id });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/account/agents?notice=revoked');
    expect(await mcpStatus(session.accessToken)).toBe(401);
    const after = await web.get(done.location!);
    expect(after.html).toContain('That app is disconnected');
    expect(after.html).toContain('No app is connected to your account.');
    expect(after.html).not.toContain(grant!.id);
  });

  it("another person's browser cannot revoke the grant through the form", async () => {
    const owner = await makeUser();
    const stranger = await makeUser();
    const session = await connected(owner.email, 'Owner app');
    const [grant] = await grantsOf(owner.key);

    const web = await signedInBrowser(stranger.email);
    expect((await web.get('/account/agents')).html).not.toContain(grant!.id);
    const res = await web.post('/account/agents/revoke', { grant_id: grant!.id });
    expect(res.status).toBe(404);
    expect(res.html).toContain('That app was already disconnected.');
    expect(await mcpStatus(session.accessToken)).toBe(200);
    expect((await grantsOf(owner.key)).map((g) => g.id)).toEqual([grant!.id]);
  });

  it('sends a browser that is not signed in to sign in, revoking nothing', async () => {
    const owner = await makeUser();
    const session = await connected(owner.email, 'Owner app');
    const [grant] = await grantsOf(owner.key);
    const anon = await signedInBrowser(owner.email);
    anon.cookies.delete('__Host-sm_session');
    anon.cookies.delete('sm_session');
    const res = await anon.post('/account/agents/revoke', { grant_id: grant!.id });
    expect([302, 303]).toContain(res.status);
    expect(res.location ?? '').toContain('/login');
    expect(await mcpStatus(session.accessToken)).toBe(200);
  });
});
