import { eq } from 'drizzle-orm';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { auditLog, shiftDeliverables, shiftRequests } from '../src/db/schema';
import { call, expectError } from './helpers/api';
import { addTeammate, db, makeUser } from './helpers/factory';
import { DAY, HOUR, insertShift, makePair } from './helpers/shifts';

const path = (id: string) => `/v1/shift_request/${id}/deliverables`;
const deliverable = {
  note: 'Inventory counted; report attached.',
  links: [{ url: 'https://files.example.com/count.pdf', label: 'Count sheet' }],
};

/** A business and its connected shifter with a shift worked yesterday between them. */
async function workedWorld() {
  const { biz, sh } = await makePair();
  const start = Date.now() - DAY;
  const worked = await insertShift({
    businessId: biz.businessId!,
    shifterId: sh.shifterId!,
    startsAt: start,
    set: { shift_start_at: start, shift_end_at: start + 4 * HOUR },
  });
  return { biz, sh, worked };
}

describe('shift deliverables', () => {
  it('the shifter records one on a worked shift; both parties list them, oldest first', async () => {
    const { biz, sh, worked } = await workedWorld();
    const a = await call('POST', path(worked.id), { key: sh.key, body: deliverable });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body).toMatchObject({
      shift_request_id: worked.id,
      author_user_id: sh.userId,
      author_side: 'shifter',
      note: deliverable.note,
      links: [{ url: deliverable.links[0]!.url, label: 'Count sheet' }],
    });
    expect(a.body.id).toMatch(/^dlv_/);
    const b = await call('POST', path(worked.id), { key: biz.key, body: { note: 'Received, thanks.' } });
    expect(b.status).toBe(201);
    expect(b.body).toMatchObject({ author_side: 'business', links: [] });
    for (const who of [sh, biz]) {
      const list = await call('GET', path(worked.id), { key: who.key });
      expect(list.status).toBe(200);
      expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([a.body.id, b.body.id]);
    }
  });

  it('the shifter cannot record before the shift is worked; the business can once it has its shifter', async () => {
    const { biz, sh } = await makePair();
    const accepted = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, startsAt: Date.now() + 2 * DAY });
    expectError(await call('POST', path(accepted.id), { key: sh.key, body: deliverable }), 409, 'SHFT-STATE-ERR');
    expect((await call('POST', path(accepted.id), { key: biz.key, body: deliverable })).status).toBe(201);
    const broadcast = await insertShift({ businessId: biz.businessId!, startsAt: Date.now() + 2 * DAY, status: 1, broadcast: true });
    expectError(await call('POST', path(broadcast.id), { key: biz.key, body: deliverable }), 409, 'SHFT-STATE-ERR');
    // The crew member sees the open broadcast but is no party of it: no deliverables for them.
    expectError(await call('GET', path(broadcast.id), { key: sh.key }), 404, 'SHFT-NOT-FND-ERR');
    const rows = await db().select().from(shiftDeliverables).where(eq(shiftDeliverables.shift_request_id, broadcast.id));
    expect(rows).toEqual([]);
  });

  it('strangers, suspended teammates and admins cannot write; strangers and suspended teammates cannot read', async () => {
    const { biz, worked } = await workedWorld();
    const stranger = await makeUser({ shifter: true, business: true });
    const suspended = await makeUser();
    await addTeammate(biz.businessId!, suspended.userId, 0);
    const active = await makeUser();
    await addTeammate(biz.businessId!, active.userId, 1);
    const admin = await makeUser({ admin: true });
    for (const who of [stranger, suspended]) {
      expectError(await call('POST', path(worked.id), { key: who.key, body: deliverable }), 404, 'SHFT-NOT-FND-ERR');
      expectError(await call('GET', path(worked.id), { key: who.key }), 404, 'SHFT-NOT-FND-ERR');
    }
    expectError(await call('POST', path(worked.id), { key: admin.key, body: deliverable }), 403, 'FORBIDDEN-ERR');
    expect((await call('GET', path(worked.id), { key: admin.key })).status).toBe(200);
    expect((await call('POST', path(worked.id), { key: active.key, body: { note: 'Checked by the manager.' } })).status).toBe(201);
    const rows = await db().select().from(shiftDeliverables).where(eq(shiftDeliverables.shift_request_id, worked.id));
    expect(rows.map((r) => r.author_user_id)).toEqual([active.userId]);
  });

  it('validates: a note or a link, http(s) links only, bounded', async () => {
    const { sh, worked } = await workedWorld();
    const bad = [
      {},
      { note: '   ' },
      { links: [{ url: 'javascript:alert(1)' }] },
      { links: [{ url: 'ftp://files.example.com/x' }] },
      { note: 'x'.repeat(4001) },
      { links: Array.from({ length: 11 }, (_, i) => ({ url: `https://e.example.com/${i}` })) },
    ];
    for (const b of bad) expectError(await call('POST', path(worked.id), { key: sh.key, body: b }), 400, 'VALIDATION-ERR');
  });

  it('a shift cancelled between the state check and the write refuses the deliverable (the insert is guarded in SQL)', async () => {
    const { sh, worked } = await workedWorld();
    // The service reads the worked shift, then its batch runs: the shift is cancelled just before it.
    const real = env.DB.batch.bind(env.DB);
    vi.spyOn(env.DB, 'batch').mockImplementationOnce(async (statements) => {
      await db().update(shiftRequests).set({ request_status: 7, shift_end_at: null }).where(eq(shiftRequests.id, worked.id));
      return real(statements);
    });
    try {
      expectError(await call('POST', path(worked.id), { key: sh.key, body: deliverable }), 409, 'SHFT-STATE-ERR');
    } finally {
      vi.restoreAllMocks();
    }
    const stored = await db().select().from(shiftDeliverables).where(eq(shiftDeliverables.shift_request_id, worked.id));
    expect(stored).toEqual([]);
    const audits = await db().select().from(auditLog).where(eq(auditLog.action, 'shift_deliverable.record'));
    expect(audits.filter((a) => a.data?.includes(worked.id))).toEqual([]);
  });
});

describe('demo data', () => {
  it('seeds passports for the owner and Jordan and a brief and a handover on their latest worked bistro shift, readable by its parties only', async () => {
    // Forced: this file's other tests have made users already.
    const seeded = await call('POST', '/internal/demo/seed', { headers: { 'X-Demo-Seed-Token': 'test-seed-token' }, query: { force: 1 } });
    expect(seeded.status, JSON.stringify(seeded.body).slice(0, 300)).toBe(200);
    const keyOf = (local: string) =>
      (seeded.body.accounts as Array<{ email: string; api_key: string }>).find((a) => a.email.startsWith(`${local}@`))!.api_key;
    const [owner, jordan, alex] = [keyOf('owner'), keyOf('jordan'), keyOf('alex')];

    expect((await call('GET', '/v1/ai_passports', { key: owner })).body.data.map((p: { agent_name: string }) => p.agent_name)).toEqual([
      'Claude Desktop',
    ]);
    const jordanPassports = await call('GET', '/v1/ai_passports', { key: jordan, query: { include_revoked: 1 } });
    expect(jordanPassports.body.data.map((p: { status: string }) => p.status)).toEqual(['active', 'revoked']);

    const jordanId = (seeded.body.accounts as Array<{ email: string; user_id: string }>).find((a) =>
      a.email.startsWith('jordan@'),
    )!.user_id;
    const [row] = await db().select().from(shiftDeliverables).where(eq(shiftDeliverables.author_user_id, jordanId));
    const shiftId = row!.shift_request_id;
    for (const key of [owner, jordan]) {
      const list = await call('GET', path(shiftId), { key });
      expect(list.status).toBe(200);
      expect(list.body.data.map((d: { author_side: string }) => d.author_side)).toEqual(['business', 'shifter']);
    }
    expectError(await call('GET', path(shiftId), { key: alex }), 404, 'SHFT-NOT-FND-ERR');
  });
});
