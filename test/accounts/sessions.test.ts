// inside: services/accounts
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions } from '../../src/db/schema';
import { MAX_LIVE_SESSIONS } from '../../src/services/accounts/limits';
import { call, expectError } from '../helpers/api';
import { authCall, randomIp } from '../helpers/auth';
import { db, makeUser, TEST_PASSWORD } from '../helpers/factory';
import { itRejectsBadCredentials } from '../helpers/security';

async function signIn(email: string, ip = randomIp()): Promise<string> {
  const res = await authCall('/v1/auth/login', { email, password: TEST_PASSWORD }, ip);
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.session_token as string;
}

describe('sessions', () => {
  itRejectsBadCredentials({ method: 'GET', path: '/v1/user/sessions' });
  itRejectsBadCredentials({ method: 'DELETE', path: '/v1/user/sessions/ses_anything' });
  itRejectsBadCredentials({ method: 'POST', path: '/v1/user/sessions/revoke_others' });

  it('lists the live sessions with the current one marked', async () => {
    const u = await makeUser({ shifter: true });
    const a = await signIn(u.email);
    await signIn(u.email);
    const res = await call('GET', '/v1/user/sessions', { key: a });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    for (const s of res.body.data) {
      expect(s).toEqual({
        id: expect.stringMatching(/^ses_/),
        created_at: expect.any(String),
        last_seen_at: expect.any(String),
        expires_at: expect.any(String),
        current: expect.any(Boolean),
        // The test client sends no User-Agent: none is kept, no device is named.
        user_agent: null,
        device: null,
      });
      expect(Date.parse(s.expires_at)).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
    }
    expect(res.body.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    // With the API key, none is current.
    const byKey = await call('GET', '/v1/user/sessions', { key: u.key });
    expect(byKey.body.data.filter((s: { current: boolean }) => s.current)).toHaveLength(0);
    // No token or hash is ever shown.
    expect(JSON.stringify(res.body)).not.toContain(a);
  });

  it('revokes one session; another user’s session is 404 and keeps working (attack)', async () => {
    const u = await makeUser({ shifter: true });
    const other = await makeUser({ shifter: true });
    const a = await signIn(u.email);
    const b = await signIn(u.email);
    const theirs = await signIn(other.email);
    const list = (await call('GET', '/v1/user/sessions', { key: a })).body.data as Array<{ id: string; current: boolean }>;
    const bId = list.find((s) => !s.current)!.id;
    const theirId = (await call('GET', '/v1/user/sessions', { key: theirs })).body.data[0].id as string;

    expectError(await call('DELETE', `/v1/user/sessions/${theirId}`, { key: a }), 404, 'SESSION-NOT-FND-ERR');
    expect((await call('GET', '/v1/user/details', { key: theirs })).status).toBe(200);

    const res = await call('DELETE', `/v1/user/sessions/${bId}`, { key: a });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: bId, status: 'revoked' });
    expectError(await call('GET', '/v1/user/details', { key: b }), 401, 'AUTH-REQ-ERR');
    expect((await call('GET', '/v1/user/details', { key: a })).status).toBe(200);
    expectError(await call('DELETE', `/v1/user/sessions/${bId}`, { key: a }), 404, 'SESSION-NOT-FND-ERR');
  });

  it('revokes every other session, or all of them when called with the key', async () => {
    const u = await makeUser({ shifter: true });
    const [a, b, c] = [await signIn(u.email), await signIn(u.email), await signIn(u.email)];
    const res = await call('POST', '/v1/user/sessions/revoke_others', { key: a });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: 2 });
    for (const t of [b, c]) expectError(await call('GET', '/v1/user/details', { key: t }), 401, 'AUTH-REQ-ERR');
    expect((await call('GET', '/v1/user/details', { key: a })).status).toBe(200);
    expect((await call('POST', '/v1/user/sessions/revoke_others', { key: u.key })).body).toEqual({ revoked: 1 });
    expectError(await call('GET', '/v1/user/details', { key: a }), 401, 'AUTH-REQ-ERR');
  });

  it('signs out the current session with logout; a key cannot be signed out', async () => {
    const u = await makeUser({ shifter: true });
    const a = await signIn(u.email);
    expect((await call('POST', '/v1/auth/logout', { key: a })).body).toEqual({ status: 'signed_out' });
    expectError(await call('GET', '/v1/user/details', { key: a }), 401, 'AUTH-REQ-ERR');
    expectError(await call('POST', '/v1/auth/logout', { key: u.key }), 400, 'VALIDATION-ERR');
  });

  it(`keeps at most ${MAX_LIVE_SESSIONS} live sessions: the oldest end`, async () => {
    const u = await makeUser({ shifter: true });
    const ip = randomIp();
    const tokens: string[] = [];
    for (let i = 0; i < MAX_LIVE_SESSIONS + 2; i++) tokens.push(await signIn(u.email, ip));
    expect((await call('GET', '/v1/user/sessions', { key: u.key })).body.data).toHaveLength(MAX_LIVE_SESSIONS);
    for (const t of tokens.slice(0, 2)) expectError(await call('GET', '/v1/user/details', { key: t }), 401, 'AUTH-REQ-ERR');
    for (const t of tokens.slice(2)) expect((await call('GET', '/v1/user/details', { key: t })).status).toBe(200);
  });

  it('records when a session was last seen', async () => {
    const u = await makeUser({ shifter: true });
    const a = await signIn(u.email);
    const [row] = await db().select().from(sessions).where(eq(sessions.user_id, u.userId));
    const old = Date.now() - 3600_000;
    await db().update(sessions).set({ last_seen_at: old }).where(eq(sessions.id, row!.id));
    expect((await call('GET', '/v1/user/details', { key: a })).status).toBe(200);
    let seen = old;
    for (let i = 0; i < 50 && seen === old; i++) {
      await new Promise((r) => setTimeout(r, 20));
      seen = (await db().select().from(sessions).where(eq(sessions.id, row!.id)))[0]!.last_seen_at!;
    }
    expect(seen).toBeGreaterThan(Date.now() - 60_000);
  });
});
