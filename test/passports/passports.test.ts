import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { aiPassports, auditLog } from '../../src/db/schema';
import { call, expectError } from '../helpers/api';
import { db, makeUser } from '../helpers/factory';

const body = {
  agent_name: 'Claude Desktop',
  model: 'claude-sonnet-4',
  operator: 'Dana Ortiz <dana@example.com>',
  purpose: 'Posts our weekend shifts',
};

describe('AI passports', () => {
  it('records, lists (newest first, active only unless asked) and revokes the account’s own passports', async () => {
    const u = await makeUser({ business: true });
    const a = await call('POST', '/v1/ai_passports', { key: u.key, body });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body).toMatchObject({ ...body, user_id: u.userId, status: 'active', revoked_at: null });
    expect(a.body.id).toMatch(/^psp_/);
    const b = await call('POST', '/v1/ai_passports', {
      key: u.key,
      body: { agent_name: 'shiftmarket-mcp', model: 'gpt-5', operator: 'Dana' },
    });
    expect(b.status).toBe(201);
    expect(b.body.purpose).toBeNull();

    const list = await call('GET', '/v1/ai_passports', { key: u.key });
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([b.body.id, a.body.id]);

    const r = await call('POST', `/v1/ai_passports/${a.body.id}/revoke`, { key: u.key });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: a.body.id, status: 'revoked' });
    expect(typeof r.body.revoked_at).toBe('string');
    expectError(await call('POST', `/v1/ai_passports/${a.body.id}/revoke`, { key: u.key }), 409, 'PASSPORT-REVOKED-ERR');

    const active = await call('GET', '/v1/ai_passports', { key: u.key });
    expect(active.body.data.map((p: { id: string }) => p.id)).toEqual([b.body.id]);
    const all = await call('GET', '/v1/ai_passports', { key: u.key, query: { include_revoked: 1 } });
    expect(all.body.data).toHaveLength(2);
  });

  it('another account can neither list nor revoke them (404, nothing changes), even an admin', async () => {
    const owner = await makeUser();
    const other = await makeUser();
    const admin = await makeUser({ admin: true });
    const p = (await call('POST', '/v1/ai_passports', { key: owner.key, body })).body;
    for (const attacker of [other, admin]) {
      expect((await call('GET', '/v1/ai_passports', { key: attacker.key })).body.data).toEqual([]);
      expectError(await call('POST', `/v1/ai_passports/${p.id}/revoke`, { key: attacker.key }), 404, 'PASSPORT-NOT-FND-ERR');
    }
    const [row] = await db().select().from(aiPassports).where(eq(aiPassports.id, p.id));
    expect(row!.revoked_at).toBeNull();
  });

  it('refuses unbounded or missing fields and anonymous callers', async () => {
    const u = await makeUser();
    expectError(await call('POST', '/v1/ai_passports', { key: u.key, body: { ...body, model: 'x'.repeat(101) } }), 400, 'VALIDATION-ERR');
    expectError(await call('POST', '/v1/ai_passports', { key: u.key, body: { agent_name: 'a', model: 'b' } }), 400, 'VALIDATION-ERR');
    expectError(await call('POST', '/v1/ai_passports', { key: u.key, body: { ...body, operator: '   ' } }), 400, 'VALIDATION-ERR');
    expectError(await call('POST', '/v1/ai_passports', { body }), 401, 'AUTH-REQ-ERR');
    expectError(await call('GET', '/v1/ai_passports'), 401, 'AUTH-REQ-ERR');
  });

  it('20 concurrent revokes of one passport: exactly one revokes it and writes one audit row', async () => {
    const u = await makeUser();
    const p = (await call('POST', '/v1/ai_passports', { key: u.key, body })).body;
    const results = await Promise.all(Array.from({ length: 20 }, () => call('POST', `/v1/ai_passports/${p.id}/revoke`, { key: u.key })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 409, 'PASSPORT-REVOKED-ERR');
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subject_id, p.id), eq(auditLog.action, 'ai_passport.revoke')));
    expect(audits).toHaveLength(1);
  });
});
