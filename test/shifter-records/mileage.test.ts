import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditLog, mileageEntries } from '../../src/db/schema';
import type { AppBindings } from '../../src/env';
import worker from '../../src';
import { MILEAGE_CSV_COLUMNS, mileageCsvOfYear } from '../../src/services/shifter-records';
import { BASE, call, expectError } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import { db, makeUser } from '../helpers/factory';
import { loseNextBatchAnswer } from '../helpers/failures';
import { daysFromToday } from '../helpers/rows';
import { expectDenied, itRejectsBadCredentials } from '../helpers/security';

/** Calls the Worker with changed Worker vars (settings are parsed per env object). */
async function callWithVars(method: string, path: string, key: string, body: unknown, vars: Record<string, string>) {
  const headers = new Headers({ Authorization: `Bearer ${key}` });
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  const ctx = createExecutionContext();
  const req = new Request(new URL(path, BASE), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const res = await worker.fetch(req, { ...env, ...vars } as AppBindings, ctx);
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as any };
}

const base = (shifterId: string) => `/v1/shifter/${shifterId}/mileage`;

describe('mileage', () => {
  it('captures the rate at write time: a later setting change applies to new entries only; the year rollup is hand-computed', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    // 12.5 mi × 67 = 837.5 → 838 ¢; 3.33 mi × 67 = 223.11 → 223 ¢
    const a = await call('POST', path, { key: s.key, body: { log_date: '2026-03-10', miles: 12.5, purpose: 'Client site' } });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body).toMatchObject({
      log_date: '2026-03-10',
      miles: 12.5,
      rate_per_mile_cents: 67,
      amount_cents: 838,
      amount: 8.38,
      currency: 'USD',
      purpose: 'Client site',
    });
    const b = await call('POST', path, { key: s.key, body: { log_date: '2026-05-02', miles: 3.33 } });
    expect(b.body).toMatchObject({ rate_per_mile_cents: 67, amount_cents: 223, purpose: null });
    await call('POST', path, { key: s.key, body: { log_date: '2025-12-31', miles: 100 } }); // another year

    // The operator raises the rate to 70 ¢: 10 mi → 700 ¢ at the new rate, the old entries keep 67.
    const c = await callWithVars('POST', path, s.key, { log_date: '2026-04-01', miles: 10 }, { MILEAGE_RATE_CENTS: '70' });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(c.body).toMatchObject({ rate_per_mile_cents: 70, amount_cents: 700 });

    const list = await callWithVars('GET', `${path}?year=2026`, s.key, undefined, { MILEAGE_RATE_CENTS: '70' });
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: any) => [e.log_date, e.rate_per_mile_cents])).toEqual([
      ['2026-05-02', 67],
      ['2026-04-01', 70],
      ['2026-03-10', 67],
    ]);
    // 838 + 223 + 700 = 1761 ¢; 12.5 + 3.33 + 10 = 25.83 mi
    expect(list.body.rollup).toEqual({
      year: 2026,
      entries: 3,
      total_miles: 25.83,
      total_amount_cents: 1761,
      total_amount: 17.61,
      currency: 'USD',
    });
    expect(list.body.next_cursor).toBeNull();
    const prev = await call('GET', path, { key: s.key, query: { year: 2025 } });
    expect(prev.body.rollup).toMatchObject({ year: 2025, entries: 1, total_miles: 100, total_amount_cents: 6700 });

    // An update keeps the captured rate, whatever the setting is now: 20 mi × 67 = 1340 ¢.
    const upd = await callWithVars('PATCH', `${path}/${a.body.id}`, s.key, { miles: 20, purpose: null }, { MILEAGE_RATE_CENTS: '90' });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body).toMatchObject({ miles: 20, rate_per_mile_cents: 67, amount_cents: 1340, purpose: null, log_date: '2026-03-10' });
    const put = await call('PUT', `${path}/${b.body.id}`, { key: s.key, body: { log_date: '2026-06-30' } });
    expect(put.body).toMatchObject({ log_date: '2026-06-30', miles: 3.33, rate_per_mile_cents: 67 });
    expect((await call('GET', `${path}/${a.body.id}`, { key: s.key })).body).toMatchObject({ miles: 20, rate_per_mile_cents: 67 });
    const audit = await db()
      .select({ action: auditLog.action, user: auditLog.actor_user_id })
      .from(auditLog)
      .where(eq(auditLog.subject_id, a.body.id));
    expect(audit.map((r) => r.action).sort()).toEqual(['mileage.create', 'mileage.update']);
    expect(audit.every((r) => r.user === s.userId)).toBe(true);

    const del = await call('DELETE', `${path}/${c.body.id}`, { key: s.key });
    expect(del.body).toEqual({ id: c.body.id, deleted: true });
    expectError(await call('GET', `${path}/${c.body.id}`, { key: s.key }), 404, 'MILEAGE-NOT-FND-ERR');
    expectError(await call('DELETE', `${path}/${c.body.id}`, { key: s.key }), 404, 'MILEAGE-NOT-FND-ERR');
    const after = await call('GET', path, { key: s.key, query: { year: 2026 } });
    // 1340 + 223 = 1563 ¢; 20 + 3.33 = 23.33 mi
    expect(after.body.rollup).toEqual({
      year: 2026,
      entries: 2,
      total_miles: 23.33,
      total_amount_cents: 1563,
      total_amount: 15.63,
      currency: 'USD',
    });
  });

  it("defaults to the current year in the shifter's zone and pages newest first", async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const today = daysFromToday(0);
    for (const miles of [1, 2, 3]) expect((await call('POST', path, { key: s.key, body: { log_date: today, miles } })).status).toBe(201);
    const first = await call('GET', path, { key: s.key, query: { limit: 2 } });
    expect(first.body.rollup).toMatchObject({ year: Number(today.slice(0, 4)), entries: 3, total_miles: 6, total_amount_cents: 402 });
    expect(first.body.data.map((e: any) => e.miles)).toEqual([3, 2]);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await call('GET', path, { key: s.key, query: { limit: 2, cursor: first.body.next_cursor } });
    expect(second.body.data.map((e: any) => e.miles)).toEqual([1]);
    expect(second.body.next_cursor).toBeNull();
    expectError(await call('GET', path, { key: s.key, query: { cursor: 'not-a-cursor' } }), 400, 'VALIDATION-ERR');
  });

  it('refuses negative or zero miles, too many decimals, invalid dates and unknown fields (400)', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    for (const body of [
      { log_date: '2026-01-05', miles: -3 },
      { log_date: '2026-01-05', miles: 0 },
      { log_date: '2026-01-05', miles: 2000.01 },
      { log_date: '2026-01-05', miles: 1.234 },
      { log_date: '2026-01-05', miles: '12' },
      { log_date: '2026-02-30', miles: 5 },
      { log_date: '2026-13-01', miles: 5 },
      { log_date: '05/01/2026', miles: 5 },
      { log_date: '1999-12-31', miles: 5 },
      { miles: 5 },
      { log_date: '2026-01-05', miles: 5, rate_per_mile_cents: 99 },
    ]) {
      expectError(await call('POST', path, { key: s.key, body }), 400, 'VALIDATION-ERR');
    }
    const ok = await call('POST', path, { key: s.key, body: { log_date: '2026-01-05', miles: 2000 } });
    expect(ok.status).toBe(201);
    for (const body of [{}, { miles: -1 }, { log_date: '2026-02-29' }, { rate_per_mile_cents: 1 }]) {
      expectError(await call('PATCH', `${path}/${ok.body.id}`, { key: s.key, body }), 400, 'VALIDATION-ERR');
    }
    expectError(await call('GET', path, { key: s.key, query: { year: 1999 } }), 400, 'VALIDATION-ERR');
    expect((await call('GET', path, { key: s.key, query: { year: 2026 } })).body.rollup.entries).toBe(1);
  });

  it("is the owner's: another shifter or a business gets 404; an admin reads and deletes but does not write", async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const entry = (await call('POST', path, { key: s.key, body: { log_date: '2026-02-01', miles: 4 } })).body;
    const other = await makeUser({ shifter: true });
    const biz = await makeUser({ business: true });
    for (const key of [other.key, biz.key]) {
      await expectDenied(await call('GET', path, { key }), [404]);
      await expectDenied(await call('POST', path, { key, body: { log_date: '2026-02-01', miles: 4 } }), [404]);
      await expectDenied(await call('GET', `${path}/${entry.id}`, { key }), [404]);
      await expectDenied(await call('PATCH', `${path}/${entry.id}`, { key, body: { miles: 1 } }), [404]);
      await expectDenied(await call('DELETE', `${path}/${entry.id}`, { key }), [404]);
    }
    // Another shifter's entry id under one's own path is not found either.
    expectError(await call('GET', `${base(other.shifterId!)}/${entry.id}`, { key: other.key }), 404, 'MILEAGE-NOT-FND-ERR');
    expectError(await call('GET', base('shf_nobody'), { key: s.key }), 404, 'SHIFTER-NOT-FND-ERR');

    const admin = await makeUser({ admin: true });
    expect((await call('GET', path, { key: admin.key, query: { year: 2026 } })).body.rollup.entries).toBe(1);
    expect((await call('GET', `${path}/${entry.id}`, { key: admin.key })).status).toBe(200);
    expectError(await call('POST', path, { key: admin.key, body: { log_date: '2026-02-01', miles: 4 } }), 403, 'FORBIDDEN-ERR');
    expectError(await call('PATCH', `${path}/${entry.id}`, { key: admin.key, body: { miles: 1 } }), 403, 'FORBIDDEN-ERR');
    expect((await call('DELETE', `${path}/${entry.id}`, { key: admin.key })).body).toEqual({ id: entry.id, deleted: true });
    expect((await call('GET', path, { key: s.key, query: { year: 2026 } })).body.rollup.entries).toBe(0);
  });

  describe('list', () => itRejectsBadCredentials({ method: 'GET', path: '/v1/shifter/shf_x/mileage' }));
  describe('create', () =>
    itRejectsBadCredentials({ method: 'POST', path: '/v1/shifter/shf_x/mileage', body: { log_date: '2026-01-01', miles: 1 } }));
  describe('update', () => itRejectsBadCredentials({ method: 'PATCH', path: '/v1/shifter/shf_x/mileage/mil_x', body: { miles: 1 } }));

  it('is in the OpenAPI document with its error codes', async () => {
    const doc = (await call('GET', '/v1/openapi.json')).body;
    const codes = (op: any, status: string) =>
      op.responses[status]?.content['application/json'].schema.properties.error.properties.code.enum ?? [];
    const list = doc.paths['/v1/shifter/{id}/mileage'];
    const one = doc.paths['/v1/shifter/{id}/mileage/{entry_id}'];
    for (const op of [list.get, list.post, one.get, one.patch, one.put, one.delete]) {
      expect(op).toBeDefined();
      expect(codes(op, '401')).toContain('AUTH-REQ-ERR');
      expect(codes(op, '404')).toContain('SHIFTER-NOT-FND-ERR');
    }
    for (const op of [one.get, one.patch, one.put, one.delete]) expect(codes(op, '404')).toContain('MILEAGE-NOT-FND-ERR');
    expect(codes(list.post, '403')).toContain('FORBIDDEN-ERR');
  });
});

describe('mileage: guarded writes', () => {
  afterEach(() => vi.restoreAllMocks());
  const entriesOf = (shifterId: string) => db().select().from(mileageEntries).where(eq(mileageEntries.shifter_id, shifterId));
  const auditsOf = (entryId: string, action: string) =>
    db()
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.subject_type, 'mileage_entry'), eq(auditLog.subject_id, entryId), eq(auditLog.action, action)));

  it('a create whose answer is lost after the commit: the retry with the same Idempotency-Key answers with the one entry written', async () => {
    const s = await makeUser({ shifter: true });
    const body = { log_date: daysFromToday(-1), miles: 12.5, purpose: 'Site visit' };
    const headers = { 'Idempotency-Key': `mil-${crypto.randomUUID()}` };
    loseNextBatchAnswer({ writes: 'mileage_entries' });
    expectError(await call('POST', base(s.shifterId!), { key: s.key, body, headers }), 500, 'INTERNAL-ERR');
    const [stored, ...more] = await entriesOf(s.shifterId!);
    expect(more).toEqual([]);
    const retry = await call('POST', base(s.shifterId!), { key: s.key, body, headers });
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body).toMatchObject({ id: stored!.id, miles: 12.5, amount_cents: 838 });
    expect(await entriesOf(s.shifterId!)).toHaveLength(1);
    expect(await auditsOf(stored!.id, 'mileage.create')).toHaveLength(1);
  });

  it('concurrent changes: each answered change is kept and audited once; concurrent deletes delete once', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const e = (await call('POST', path, { key: s.key, body: { log_date: daysFromToday(-2), miles: 5 } })).body;
    const changes = [{ miles: 6 }, { purpose: 'Supplies run' }, { log_date: daysFromToday(-3) }];
    const results = await Promise.all(changes.map((body) => call('PATCH', `${path}/${e.id}`, { key: s.key, body })));
    const after = (await call('GET', `${path}/${e.id}`, { key: s.key })).body;
    const kept = results.filter((x) => x.status === 200);
    expect(kept.length).toBeGreaterThanOrEqual(2);
    for (const [i, x] of results.entries()) {
      if (x.status !== 200) {
        expectError(x, 409, 'CONFLICT-ERR');
        continue;
      }
      expect(after).toMatchObject(changes[i]!);
    }
    expect(await auditsOf(e.id, 'mileage.update')).toHaveLength(kept.length);

    const deletes = await Promise.all(Array.from({ length: 4 }, () => call('DELETE', `${path}/${e.id}`, { key: s.key })));
    expect(deletes.filter((x) => x.status === 200)).toHaveLength(1);
    for (const x of deletes.filter((d) => d.status !== 200)) expectError(x, 404, 'MILEAGE-NOT-FND-ERR');
    expect(await auditsOf(e.id, 'mileage.delete')).toHaveLength(1);
  });
});

describe('the mileage CSV', () => {
  it('is RFC 4180 as an independent parser reads it: commas, quotes and line breaks (CR or LF) stay inside their cell, formulas are guarded', async () => {
    const s = await makeUser({ shifter: true });
    const path = base(s.shifterId!);
    const purposes = ['Say "hi", then go', 'Depot\rrun', 'Line one\nline two', '=HYPERLINK("http://x.example")', '@SUM(A1)'];
    for (const [i, purpose] of purposes.entries()) {
      const res = await call('POST', path, { key: s.key, body: { log_date: `2026-02-0${i + 1}`, miles: i + 1, purpose } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const { year, csv } = await mileageCsvOfYear(contextAt(Date.now(), s), s.shifterId!, 2026);
    expect(year).toBe(2026);
    expect(csv.endsWith('\r\n')).toBe(true);
    const rows = parse(csv, { relax_column_count: false }) as string[][];
    expect(rows[0]).toEqual([...MILEAGE_CSV_COLUMNS]);
    expect(rows.slice(1, -1).map((r) => r[5])).toEqual([
      'Say "hi", then go',
      'Depot\rrun',
      'Line one\nline two',
      `'=HYPERLINK("http://x.example")`,
      "'@SUM(A1)",
    ]);
    expect(rows.slice(1, -1).map((r) => r.slice(0, 5))).toEqual(
      purposes.map((_, i) => [`2026-02-0${i + 1}`, String(i + 1), '67', ((67 * (i + 1)) / 100).toFixed(2), 'USD']),
    );
    expect(rows.at(-1)).toEqual(['total', '15', '', '10.05', 'USD', '5 trips']);
  });
});
