import { env } from 'cloudflare:workers';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys, emailOutbox } from '../src/db/schema';
import { call, expectError } from './helpers/api';
import { db, makeUser } from './helpers/factory';

async function lastCodeFor(email: string): Promise<string> {
  const [mail] = await db().select().from(emailOutbox).where(eq(emailOutbox.to_address, email)).orderBy(desc(emailOutbox.created_at)).limit(1);
  const code = /code is (\d{6})/.exec(mail?.text_body ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

describe('registration and verification', () => {
  it('registers a dual-profile account, mails a code, and issues the key once on verification', async () => {
    const email = `dual-${crypto.randomUUID()}@example.test`;
    const reg = await call('POST', '/v1/auth/register', {
      body: {
        email: email.toUpperCase(),
        password: 'a long enough password',
        display_name: 'Dana Dual',
        shifter: { headline: 'Barista' },
        business: { name: 'Dana Cafe', timezone: 'Europe/London', city_id: 10 },
      },
    });
    expect(reg.status).toBe(201);
    expect(reg.body.shifter_id).toMatch(/^shf_/);
    expect(reg.body.business_id).toMatch(/^biz_/);

    const code = await lastCodeFor(email);
    const verify = await call('POST', '/v1/auth/verify_email', { body: { email, code } });
    expect(verify.status).toBe(200);
    const key: string = verify.body.api_key.key;
    expect(key).toMatch(/^smk_[0-9A-Za-z]{32}$/);
    expect(verify.body.api_key.prefix).toBe(key.slice(0, 12));

    // Only a hash is stored.
    const rows = await db().select().from(apiKeys).where(eq(apiKeys.user_id, reg.body.user_id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).not.toContain(key.slice(4));

    const details = await call('GET', '/v1/user/details', { key });
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({ id: reg.body.user_id, email, email_verified: true, is_dual_profile: true });

    const biz = await call('GET', '/v1/business/of_user', { key });
    expect(biz.body.data[0]).toMatchObject({ name: 'Dana Cafe', is_default: true, timezone: 'Europe/London', currency: 'GBP' });

    // The full key is never shown again.
    const info = await call('GET', '/v1/user/api_key', { key });
    expect(info.body).toEqual({ prefix: key.slice(0, 12), created_at: expect.any(String), last_used_at: expect.anything() });
    expect(JSON.stringify(info.body)).not.toContain(key);

    // The code cannot be used twice.
    expectError(await call('POST', '/v1/auth/verify_email', { body: { email, code } }), 400, 'VERIFY-CODE-ERR');
  });

  it('refuses a duplicate email, a wrong code, and an empty profile set', async () => {
    const email = `dup-${crypto.randomUUID()}@example.test`;
    const body = { email, password: 'a long enough password', display_name: 'Sam', shifter: {} };
    expect((await call('POST', '/v1/auth/register', { body })).status).toBe(201);
    expectError(await call('POST', '/v1/auth/register', { body }), 409, 'EMAIL-TAKEN-ERR');
    expectError(await call('POST', '/v1/auth/verify_email', { body: { email, code: '000000' === (await lastCodeFor(email)) ? '111111' : '000000' } }), 400, 'VERIFY-CODE-ERR');
    const none = await call('POST', '/v1/auth/register', { body: { ...body, email: `x-${email}`, shifter: undefined } });
    expectError(none, 400, 'VALIDATION-ERR');
  });

  it('locks a code after five wrong attempts', async () => {
    const email = `lock-${crypto.randomUUID()}@example.test`;
    await call('POST', '/v1/auth/register', { body: { email, password: 'a long enough password', display_name: 'L', shifter: {} } });
    const code = await lastCodeFor(email);
    const wrong = code === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) expectError(await call('POST', '/v1/auth/verify_email', { body: { email, code: wrong } }), 400, 'VERIFY-CODE-ERR');
    const err = expectError(await call('POST', '/v1/auth/verify_email', { body: { email, code } }), 400, 'VERIFY-CODE-ERR');
    expect(err.message).toMatch(/Too many/);
  });

  it('validates fields with details', async () => {
    const res = await call('POST', '/v1/auth/register', {
      body: { email: 'not-an-email', password: 'short', display_name: '', business: { name: 'X', timezone: 'Mars/Olympus' } },
    });
    const err = expectError(res, 400, 'VALIDATION-ERR');
    const fields = (err.details as Array<{ field: string }>).map((d) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['json.email', 'json.password', 'json.display_name', 'json.business.timezone']));
  });
});

describe('sign-in', () => {
  it('signs in with a password and the session acts like the key', async () => {
    const u = await makeUser({ shifter: true });
    const res = await call('POST', '/v1/auth/login', { body: { email: u.email, password: 'correct horse battery' } });
    expect(res.status).toBe(200);
    const details = await call('GET', '/v1/user/details', { key: res.body.session_token });
    expect(details.body.id).toBe(u.userId);
    expect((await call('POST', '/v1/auth/logout', { key: res.body.session_token })).status).toBe(200);
    expectError(await call('GET', '/v1/user/details', { key: res.body.session_token }), 401, 'AUTH-REQ-ERR');
  });

  it('refuses a wrong password and an unverified account', async () => {
    const u = await makeUser({ shifter: true });
    expectError(await call('POST', '/v1/auth/login', { body: { email: u.email, password: 'wrong password!' } }), 401, 'LOGIN-FAILED-ERR');
    const v = await makeUser({ shifter: true, verified: false });
    expectError(await call('POST', '/v1/auth/login', { body: { email: v.email, password: 'correct horse battery' } }), 403, 'EMAIL-UNVERIFIED-ERR');
  });
});

describe('personal API keys', () => {
  it('regenerating revokes the old key at once and shows the new one once', async () => {
    const u = await makeUser({ shifter: true });
    const regen = await call('POST', '/v1/user/api_key/regenerate', { key: u.key });
    expect(regen.status).toBe(201);
    expect(regen.body.key).not.toBe(u.key);
    expectError(await call('GET', '/v1/user/details', { key: u.key }), 401, 'AUTH-REQ-ERR');
    expect((await call('GET', '/v1/user/details', { key: regen.body.key })).status).toBe(200);
    const live = await db().select().from(apiKeys).where(eq(apiKeys.user_id, u.userId));
    expect(live.filter((k) => k.revoked_at === null)).toHaveLength(1);
  });

  it('resolves to the owner with exactly the owner’s permissions', async () => {
    const a = await makeUser({ shifter: true });
    const b = await makeUser({ shifter: true });
    const mine = await call('GET', '/v1/user/details', { key: a.key });
    expect(mine.body.id).toBe(a.userId);
    expectError(await call('GET', '/v1/user/details', { key: a.key, query: { user_id: b.userId } }), 403, 'FORBIDDEN-ERR');
    expect(env.DB).toBeDefined();
  });
});
