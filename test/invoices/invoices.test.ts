// inside: services/invoices
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { invoices, shiftRequests, timesheets } from '../../src/db/schema';
import { addDays } from '../../src/lib/shift-time';
import { ensureInvoiceForShift } from '../../src/services/invoices';
import { INVOICE_COLUMNS } from '../../src/services/invoices/schemas';
import { clockOut as clockOutAt } from '../../src/services/shifts';
import { workedShiftSql } from '../../src/services/kernel';
import { call, expectError } from '../helpers/api';
import { CARD, chargeCall, workedInvoice as chargeableInvoice, saveCard } from '../helpers/charges';
import { contextAt, nextDstChangeFromNow } from '../helpers/clock';
import { addTeammate, db, makeUser } from '../helpers/factory';
import { workedInvoice, workedShiftInvoice } from '../helpers/invoices';
import { payInvoice, testCtx } from '../helpers/refund-world';
import { HOUR, insertShift, MINUTE, makePair, NY } from '../helpers/shifts';
import { approveShiftTime, approveShiftTimeAt, submittedTimesheet, timesheetIdOf } from '../helpers/timesheets';

const invoicesOf = (shiftId: string) => db().select().from(invoices).where(eq(invoices.shift_request_id, shiftId));

/** An accepted shift of a connected pair that ended an hour ago, clocked in at its start and out at its end. */
async function workedThrough(opts: { minutes?: number; rateMinor?: number } = {}) {
  const { biz, sh } = await makePair();
  const minutes = opts.minutes ?? 4 * 60;
  const shift = await insertShift({
    businessId: biz.businessId!,
    shifterId: sh.shifterId,
    startsAt: Date.now() - minutes * MINUTE - HOUR,
    minutes,
    rateMinor: opts.rateMinor,
    set: { shift_start_at: Date.now() - minutes * MINUTE - HOUR },
  });
  await db().update(shiftRequests).set({ shift_start_at: shift.starts_at }).where(eq(shiftRequests.id, shift.id));
  await clockOutAt(contextAt(shift.ends_at, sh), shift.id, {});
  return { biz, sh, shift, timesheet: (await timesheetIdOf(shift.id))! };
}

describe('invoice creation', () => {
  it('the clock-out writes none; the approval writes exactly one pending invoice of the approved hours × rate; a retried approval with the same Idempotency-Key adds none', async () => {
    const { biz, sh, shift, timesheet } = await workedThrough({ rateMinor: 2050 });
    expect(await invoicesOf(shift.id)).toHaveLength(0);
    const headers = { 'Idempotency-Key': `idem-${shift.id}` };
    const first = await call('PUT', `/v1/timesheets/${timesheet}/approve`, { key: biz.key, headers });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await call('PUT', `/v1/timesheets/${timesheet}/approve`, { key: biz.key, headers });
    expect(again.status).toBe(200);
    // A second approval without the key finds it approved and writes nothing either.
    expect((await call('PUT', `/v1/timesheets/${timesheet}/approve`, { key: biz.key })).status).toBe(200);
    const rows = await invoicesOf(shift.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      business_id: biz.businessId,
      shifter_id: sh.shifterId,
      status: 'pending',
      currency: 'USD',
      amount_minor: 8200, // 4 h × 20.50
      requires_action: false,
      paid_at: null,
    });
    expect(rows[0]!.id).toMatch(/^in_[0-9A-Za-z]{20}$/);
  });

  it('concurrent approvals of one timesheet make one invoice', async () => {
    const { biz, timesheet, shift } = await workedThrough();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call('PUT', `/v1/timesheets/${timesheet}/approve`, { key: biz.key })),
    );
    for (const r of results) expect(r.status).toBe(200);
    expect(await invoicesOf(shift.id)).toHaveLength(1);
  });

  it('a no-show has no invoice: its clock-out is refused and ensureInvoiceForShift refuses it too', async () => {
    const { biz, sh } = await makePair();
    const shift = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() - HOUR,
      set: { shift_start_at: Date.now() - HOUR, is_noshow: true },
    });
    expect((await call('POST', `/v1/shift_request/${shift.id}/clock_out`, { key: sh.key, body: {} })).status).not.toBe(200);
    await expect(ensureInvoiceForShift(contextAt(Date.now(), biz), shift.id)).rejects.toMatchObject({ code: 'SHFT-STATE-ERR' });
    expect(await invoicesOf(shift.id)).toHaveLength(0);
  });

  it('an overnight shift across the autumn DST change is billed for its real 9 hours, the spring one for 7', async () => {
    for (const [direction, hours] of [
      ['fall', 9],
      ['spring', 7],
    ] as const) {
      const { sh, biz } = await makePair();
      const change = nextDstChangeFromNow(NY, direction);
      const shift = await insertShift({
        businessId: biz.businessId!,
        shifterId: sh.shifterId,
        date: addDays(change, -1),
        in: '22:00',
        out: '06:00',
        rateMinor: 1999,
      });
      expect(shift.ends_at - shift.starts_at).toBe(hours * HOUR);
      await db().update(shiftRequests).set({ shift_start_at: shift.starts_at }).where(eq(shiftRequests.id, shift.id));
      await clockOutAt(contextAt(shift.ends_at, sh), shift.id, {});
      const inv = await approveShiftTimeAt(biz, shift.id, shift.ends_at + HOUR);
      expect(inv.amount_minor).toBe(hours * 1999);
    }
  });

  it('ensureInvoiceForShift invoices a shift whose time is approved, once, also under concurrent callers; an unapproved one has none', async () => {
    const { biz, sh } = await makePair();
    const shift = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      startsAt: Date.now() - 10 * HOUR,
      minutes: 90,
      rateMinor: 1333,
      set: { shift_start_at: Date.now() - 10 * HOUR, shift_end_at: Date.now() - 10 * HOUR + 90 * MINUTE },
    });
    const ctx = contextAt(Date.now(), biz);
    // Worked, not yet approved: no invoice.
    await submittedTimesheet(shift.id);
    await expect(ensureInvoiceForShift(ctx, shift.id)).rejects.toMatchObject({ code: 'SHFT-STATE-ERR' });
    // Approved, its invoice lost (an approval made before invoices followed it): made once from the approved pay.
    await approveShiftTime(biz, shift.id);
    await db().delete(invoices).where(eq(invoices.shift_request_id, shift.id));
    const all = await Promise.all(Array.from({ length: 6 }, () => ensureInvoiceForShift(ctx, shift.id)));
    expect(new Set(all.map((i) => i.id)).size).toBe(1);
    expect(all[0]!.amount_minor).toBe(2000); // 1.5 h × 13.33 = 19.995 → 20.00 (half-up)
    expect(await invoicesOf(shift.id)).toHaveLength(1);
    // A shift not worked yet has none.
    const open = await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId, startsAt: Date.now() + HOUR });
    await expect(ensureInvoiceForShift(ctx, open.id)).rejects.toMatchObject({ code: 'SHFT-STATE-ERR' });
  });
});

/**
 * `count` worked shifts of the business with a pending invoice each, seeded in one statement per
 * table (a recursive sequence), created_at one second apart going back from `base`.
 */
async function seedInvoices(businessId: string, shifterId: string, count: number, prefix: string, base = Date.now()) {
  const seq = `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${count})`;
  await env.DB.prepare(
    `INSERT INTO shift_requests (id, business_id, shifter_id, shift_date, shift_in, shift_out, starts_at, ends_at, shiftrole_id,
       hourly_rate_minor, currency, request_status, shift_start_at, shift_end_at, created_at, updated_at)
     ${seq} SELECT ?1 || 'sr' || n, ?2, ?3, '2026-01-05', '09:00', '13:00', ?4 - n * 1000, ?4 - n * 1000 + 14400000, 1, 2000, 'USD', 2,
       ?4 - n * 1000, ?4 - n * 1000 + 14400000, ?4, ?4 FROM seq`,
  )
    .bind(prefix, businessId, shifterId, base)
    .run();
  await env.DB.prepare(
    `INSERT INTO invoices (id, business_id, shift_request_id, shifter_id, amount_minor, currency, status, requires_action, paid_at, created_at, updated_at)
     ${seq} SELECT ?1 || 'in' || n, ?2, ?1 || 'sr' || n, ?3, 8000 + n, 'USD', CASE WHEN n % 3 = 0 THEN 'paid' ELSE 'pending' END, 0,
       CASE WHEN n % 3 = 0 THEN ?4 ELSE NULL END, ?4 - n * 1000, ?4 FROM seq`,
  )
    .bind(prefix, businessId, shifterId, base)
    .run();
}

const list = (key: string, query: Record<string, string | number>) => call('GET', '/v1/invoices/list', { key, query });
const exportCsv = (key: string, query: Record<string, string | number>) => call('GET', '/v1/invoices/export.csv', { key, query });

describe('GET /v1/invoices/list and /v1/invoices/export.csv', () => {
  it('lists newest first with the spec 2.10 columns, filters by status and pages with the cursor', async () => {
    const { biz, sh } = await makePair();
    await seedInvoices(biz.businessId!, sh.shifterId!, 7, 'lst');
    const first = await list(biz.key, { business_id: biz.businessId!, limit: 3 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.map((r: { invoice_id: string }) => r.invoice_id)).toEqual(['lstin1', 'lstin2', 'lstin3']);
    expect(first.body.data[0]).toEqual({
      invoice_id: 'lstin1',
      shift_request_id: 'lstsr1',
      shift_date: '2026-01-05',
      shift_in: '09:00',
      shift_out: '13:00',
      shifter_id: sh.shifterId,
      shifter_name: expect.any(String),
      amount: 80.01,
      currency: 'USD',
      conversion_amount: null,
      conversion_currency: null,
      status: 'pending',
      paid_at: null,
      requires_action: false,
      requires_action_at: null,
      failed_at: null,
      refunded_amount: 0,
      refundable_remaining: 0,
      refund_status: 'none',
    });
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(biz.key, { business_id: biz.businessId!, limit: 3, ...(cursor ? { cursor } : {}) });
      ids.push(...page.body.data.map((r: { invoice_id: string }) => r.invoice_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(ids).toEqual(Array.from({ length: 7 }, (_, i) => `lstin${i + 1}`));
    const paid = await list(biz.key, { business_id: biz.businessId!, status: 'paid' });
    expect(paid.body.data.map((r: { invoice_id: string }) => r.invoice_id)).toEqual(['lstin3', 'lstin6']);
    expect(paid.body.data[0].paid_at).toMatch(/Z$/);
    expect((await list(biz.key, { business_id: biz.businessId!, status: 'failed' })).body.data).toEqual([]);
    expectError(await list(biz.key, { business_id: biz.businessId!, limit: 5001 }), 400, 'VALIDATION-ERR');
    expectError(await list(biz.key, { business_id: biz.businessId!, status: 'refunded' }), 400, 'VALIDATION-ERR');
  });

  it('exports 5,000 rows in one CSV (header + 5,000 records) and lists 5,000 in one page', async () => {
    const { biz, sh } = await makePair();
    await seedInvoices(biz.businessId!, sh.shifterId!, 5001, 'big');
    const res = await exportCsv(biz.key, { business_id: biz.businessId!, limit: 5000 });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('x-next-cursor')).toBeTruthy();
    const records: string[][] = parse(res.body as string);
    expect(records[0]).toEqual([...INVOICE_COLUMNS]);
    expect(records).toHaveLength(5001);
    expect(records[1]!.slice(0, 2)).toEqual(['bigin1', 'bigsr1']);
    const page = await list(biz.key, { business_id: biz.businessId!, limit: 5000 });
    expect(page.body.data).toHaveLength(5000);
    expect(page.body.next_cursor).not.toBeNull();
  });

  it('quotes commas, quotes and line breaks (RFC 4180) and guards formula cells, not its own numbers', async () => {
    const names = ['Smith, Jo', 'Jo "JJ" Smith', 'Line\nBreak', '=HYPERLINK("http://evil.example","x")', '+1 555', '@SUM(A1)', '-2'];
    for (const [i, name] of names.entries()) {
      const { biz, sh } = await makePair({ shifter: { display_name: name } });
      await seedInvoices(biz.businessId!, sh.shifterId!, 1, `q${i}`);
      const res = await exportCsv(biz.key, { business_id: biz.businessId! });
      expect(res.status).toBe(200);
      const text = res.body as string;
      const [, record] = parse(text) as string[][];
      const expected = /^[=+\-@]/.test(name) ? `'${name}` : name;
      expect(record![6]).toBe(expected);
      expect(record![7]).toBe('80.01');
      if (name.includes(',') || name.includes('"') || name.includes('\n')) expect(text).toContain(`"${expected.replaceAll('"', '""')}"`);
      expect(text.endsWith('\r\n')).toBe(true);
    }
  });

  it('only the owner or an admin: an active teammate 403, a stranger 404, and no invoice leaks', async () => {
    const { biz, sh } = await makePair();
    await seedInvoices(biz.businessId!, sh.shifterId!, 2, 'acc');
    const admin = await makeUser({ admin: true });
    const mate = await makeUser();
    await addTeammate(biz.businessId!, mate.userId);
    const stranger = await makeUser({ business: true });
    expect((await list(admin.key, { business_id: biz.businessId! })).body.data).toHaveLength(2);
    expect((await exportCsv(admin.key, { business_id: biz.businessId! })).status).toBe(200);
    for (const call of [list, exportCsv]) {
      expectError(await call(mate.key, { business_id: biz.businessId! }), 403, 'FORBIDDEN-ERR');
      const res = await call(stranger.key, { business_id: biz.businessId! });
      expectError(res, 404, 'BUSINESS-NOT-FND-ERR');
      expect(JSON.stringify(res.body)).not.toContain('accin');
      expectError(await call(sh.key, { business_id: biz.businessId! }), 404, 'BUSINESS-NOT-FND-ERR');
    }
  });
});

const rowsById = async (key: string, businessId: string, status = 'all') => {
  const res = await list(key, { business_id: businessId, status });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new Map<string, Record<string, unknown>>(res.body.data.map((r: { invoice_id: string }) => [r.invoice_id, r]));
};

describe('the invoice list: refunds and failed charges', () => {
  it('a fully refunded invoice lists as paid with refunded_amount equal to its amount (refund_status full), a partly refunded one partial, an unrefunded one none', async () => {
    const w = await workedInvoice();
    const partly = await workedShiftInvoice(w.biz, w.sh, { hoursAgo: 12 });
    const kept = await workedShiftInvoice(w.biz, w.sh, { hoursAgo: 18 });
    const { ctx, settle } = testCtx(w.biz);
    for (const inv of [w.invoice, partly.invoice, kept.invoice]) await payInvoice(ctx, inv.id);
    await settle();
    const full = await call('POST', `/v1/finance/refund/${w.invoice.id}`, { key: w.biz.key, body: {} });
    expect(full.status, JSON.stringify(full.body)).toBe(201);
    const part = await call('POST', `/v1/finance/refund/${partly.invoice.id}`, { key: w.biz.key, body: { amount: 30 } });
    expect(part.status, JSON.stringify(part.body)).toBe(201);

    const rows = await rowsById(w.biz.key, w.biz.businessId!);
    expect(rows.get(w.invoice.id)).toMatchObject({
      status: 'paid',
      amount: 80,
      refunded_amount: 80,
      refundable_remaining: 0,
      refund_status: 'full',
    });
    expect(rows.get(partly.invoice.id)).toMatchObject({
      status: 'paid',
      amount: 80,
      refunded_amount: 30,
      refundable_remaining: 50,
      refund_status: 'partial',
    });
    expect(rows.get(kept.invoice.id)).toMatchObject({ status: 'paid', refunded_amount: 0, refund_status: 'none' });
    expect(rows.get(kept.invoice.id)?.refundable_remaining).toBeGreaterThan(0);
    // Refunded invoices stay under paid; the CSV keeps exactly the spec 2.10 columns.
    expect([...(await rowsById(w.biz.key, w.biz.businessId!, 'paid')).keys()].sort()).toEqual(
      [w.invoice.id, partly.invoice.id, kept.invoice.id].sort(),
    );
    const [header] = parse((await exportCsv(w.biz.key, { business_id: w.biz.businessId! })).body as string) as string[][];
    expect(header).toEqual([...INVOICE_COLUMNS]);
  });

  it('the failed filter lists the invoices whose last charge failed (status pending, failed_at set, also under pending), not a never-charged one, nor one paid after a retry', async () => {
    const d = await chargeableInvoice({ card: CARD.declined });
    const untouched = await workedShiftInvoice(d.biz, d.sh, { hoursAgo: 12 });
    const declined = await chargeCall(d.biz, d.invoice.id);
    expect(declined.body.status, JSON.stringify(declined.body)).toBe('failed');

    const failed = await rowsById(d.biz.key, d.biz.businessId!, 'failed');
    expect([...failed.keys()]).toEqual([d.invoice.id]);
    expect(failed.get(d.invoice.id)).toMatchObject({ status: 'pending', paid_at: null, requires_action: false });
    expect(failed.get(d.invoice.id)!.failed_at).toMatch(/Z$/);
    expect([...(await rowsById(d.biz.key, d.biz.businessId!, 'pending')).keys()].sort()).toEqual(
      [d.invoice.id, untouched.invoice.id].sort(),
    );

    // Charged again on a good card: paid, and no longer a failed one.
    const card = await saveCard(d.biz, d.biz.businessId!, CARD.visa);
    await call('POST', `/v1/business/${d.biz.businessId}/payment_methods/${card.payment_method_id}/default`, { key: d.biz.key });
    expect((await chargeCall(d.biz, d.invoice.id)).body.status).toBe('succeeded');
    expect((await rowsById(d.biz.key, d.biz.businessId!, 'failed')).size).toBe(0);
    expect((await rowsById(d.biz.key, d.biz.businessId!, 'paid')).get(d.invoice.id)).toMatchObject({ status: 'paid' });
  });

  it('an invoice waiting for authentication (3D Secure) is pending, not failed', async () => {
    const t = await chargeableInvoice({ card: CARD.threeDs });
    expect((await chargeCall(t.biz, t.invoice.id)).body.status).toBe('requires_action');
    expect((await rowsById(t.biz.key, t.biz.businessId!, 'failed')).size).toBe(0);
    expect((await rowsById(t.biz.key, t.biz.businessId!, 'pending')).get(t.invoice.id)).toMatchObject({
      status: 'pending',
      requires_action: true,
      failed_at: null,
    });
  });
});

describe('demo invoices', () => {
  it('the demo seed gives every worked shift a timesheet and invoices the approved ones once, at their approved pay: settled ones paid (shift status 5), most pending', async () => {
    const res = await call('POST', '/internal/demo/seed', { headers: { 'X-Demo-Seed-Token': 'test-seed-token' }, query: { force: 1 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.seeded).toBe(true);
    // Rows seeded straight into D1 by the tests above (ids without the sr_ prefix) are left out.
    const worked = (await db().select().from(shiftRequests).where(workedShiftSql())).filter((s) => s.id.startsWith('sr_'));
    const rows = await db().select().from(invoices);
    const sheets = new Map((await db().select().from(timesheets)).map((t) => [t.shift_request_id, t]));
    const byShift = new Map(rows.map((r) => [r.shift_request_id, r]));
    expect(rows.length).toBe(byShift.size);
    expect(worked.length).toBeGreaterThan(5);
    let awaiting = 0;
    for (const s of worked) {
      const ts = sheets.get(s.id);
      expect(ts, s.id).toBeDefined();
      const inv = byShift.get(s.id);
      if (ts!.status === 'submitted') {
        awaiting++;
        expect(inv, s.id).toBeUndefined();
        continue;
      }
      expect(inv, s.id).toBeDefined();
      expect(inv!.amount_minor).toBe(ts!.pay_minor);
      // Paid if and only if the shift is settled (status 5).
      expect(inv!.status === 'paid', s.id).toBe(s.request_status === 5);
      if (inv!.status === 'paid') expect(inv!.paid_at).not.toBeNull();
    }
    expect(awaiting).toBeGreaterThan(0);
    const paid = rows.filter((r) => r.status === 'paid').length;
    expect(paid).toBeGreaterThan(0);
    expect(rows.filter((r) => r.status === 'pending').length).toBeGreaterThan(0);
  });
});
