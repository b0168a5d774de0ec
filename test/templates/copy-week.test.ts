import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { shiftRequests } from '../../src/db/schema';
import { addDays, mondayOf } from '../../src/lib/shift-time';
import { COPY_WEEK_MAX_SHIFTS, copyWeek, previewCopyWeek } from '../../src/services/templates';
import { call, expectError } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import { addTeammate, db, makeUser } from '../helpers/factory';
import { itRejectsBadCredentials } from '../helpers/security';
import { auditFor, dateAhead, expectValidation, insertShift, insertShifts, makeCrewMember, outboxFor } from '../helpers/shifts';

// Copy a week of the schedule (services/templates copy-week.ts): the preview, the copy, what is
// skipped and why, and its API. The service cases run on an injected clock, so no case depends on
// today's date: Monday 1 March 2027, 10:00 in New York, the week before the spring-forward Sunday.
const NOW = '2027-03-01T15:00:00Z';
const SOURCE = '2027-03-01';
const TARGET = '2027-03-08';

const countRows = async (businessId: string) =>
  (await db().select({ id: shiftRequests.id }).from(shiftRequests).where(eq(shiftRequests.business_id, businessId))).length;

async function world() {
  const biz = await makeUser({ business: true, name: 'Copy Owner' });
  const businessId = biz.businessId!;
  const [jordan, sam, gone] = await Promise.all([
    makeCrewMember(businessId, { display_name: 'Jordan Rivera' }),
    makeCrewMember(businessId, { display_name: 'Sam Lee' }),
    makeUser({ shifter: { display_name: 'Alex Gone' } }),
  ]);
  const at = (date: string, shiftIn: string, shiftOut: string, more: Partial<Parameters<typeof insertShift>[0]> = {}) =>
    insertShift({ businessId, date, in: shiftIn, out: shiftOut, status: 1, ...more });
  const src = {
    // Monday evening, asked of Jordan: made again, pending.
    jordan: await at('2027-03-01', '18:00', '22:00', { shifterId: jordan.shifterId }),
    // Two identical open shifts on Tuesday: both made (two people are wanted).
    open1: await at('2027-03-02', '09:00', '17:00', { broadcast: true }),
    open2: await at('2027-03-02', '09:00', '17:00', { broadcast: true }),
    // Sam worked Wednesday; next Wednesday Sam already works 10:00–14:00.
    sam: await at('2027-03-03', '09:00', '17:00', { shifterId: sam.shifterId, status: 2 }),
    cancelled: await at('2027-03-04', '12:00', '20:00', { broadcast: true, status: 7 }),
    superseded: await at('2027-03-04', '06:00', '10:00', { broadcast: true, status: 4 }),
    // Friday lunch for Jordan: the same shift is already on next Friday.
    there: await at('2027-03-05', '12:00', '16:00', { shifterId: jordan.shifterId, status: 2 }),
    // Saturday's open shift: next Saturday has only a cancelled one, which does not count.
    saturday: await at('2027-03-06', '10:00', '14:00', { broadcast: true, status: 2, shifterId: sam.shifterId }),
    // Sunday 09:00 for Jordan: next Sunday the clocks go forward at 02:00.
    sunday: await at('2027-03-07', '09:00', '17:00', { shifterId: jordan.shifterId, status: 2 }),
    // Someone no longer in the crew.
    gone: await at('2027-03-02', '07:00', '11:00', { shifterId: gone.shifterId }),
  };
  await at('2027-03-10', '10:00', '14:00', { shifterId: sam.shifterId, status: 2 });
  await at('2027-03-12', '12:00', '16:00', { shifterId: jordan.shifterId, status: 1 });
  await at('2027-03-13', '10:00', '14:00', { broadcast: true, status: 7 });
  return { biz, businessId, jordan, sam, src };
}

const byReason = (skipped: { source_shift_request_id: string; reason: string }[]) =>
  Object.fromEntries(skipped.map((s) => [s.source_shift_request_id, s.reason]));

describe('copy a week (service, on an injected clock)', () => {
  it('previews, then makes exactly the preview in one go; a second run makes nothing', async () => {
    const w = await world();
    const ctx = contextAt(NOW, w.biz);
    const before = await countRows(w.businessId);
    // Defaults: next week from this one.
    const preview = await previewCopyWeek(ctx, { business_id: w.businessId });
    expect(preview).toMatchObject({ source_week_start: SOURCE, target_week_start: TARGET, timezone: 'America/New_York', warnings: [] });
    expect(await countRows(w.businessId)).toBe(before);
    const name = (id: string) =>
      Object.entries(w.src)
        .find(([, r]) => r.id === id)?.[0]
        .replace(/\d$/, '');
    const made = preview.would_create.map((s) => [name(s.source_shift_request_id), s.shift_date, s.shift_in, s.shift_out]);
    expect(made).toEqual([
      ['jordan', '2027-03-08', '18:00', '22:00'],
      ['open', '2027-03-09', '09:00', '17:00'],
      ['open', '2027-03-09', '09:00', '17:00'],
      ['saturday', '2027-03-13', '10:00', '14:00'],
      ['sunday', '2027-03-14', '09:00', '17:00'],
    ]);
    expect(byReason(preview.skipped)).toEqual({
      [w.src.gone.id]: 'not_connected',
      [w.src.sam.id]: 'shifter_busy',
      [w.src.cancelled.id]: 'cancelled',
      [w.src.there.id]: 'already_there',
    });
    const words = Object.fromEntries(preview.skipped.map((s) => [s.reason, s.message]));
    expect(words).toEqual({
      not_connected: 'Alex Gone is no longer in your crew.',
      shifter_busy: 'Sam Lee already works 10:00–14:00 that day.',
      cancelled: 'It was cancelled, so it is not copied.',
      already_there: 'Already on the schedule: Jordan Rivera works that time in the same role.',
    });
    // A claimed broadcast is copied as an open one; pay is the real length × rate.
    expect(preview.would_create[3]).toMatchObject({ is_broadcast: 1, shifter_id: null, hourly_rate: 20, scheduled_pay: 80 });
    // The spring-forward Sunday: 09:00 on the wall clock still, an hour earlier in UTC, still 8 hours.
    expect(preview.would_create[4]).toMatchObject({
      shifter_name: 'Jordan Rivera',
      starts_at: '2027-03-14T13:00:00.000Z',
      ends_at: '2027-03-14T21:00:00.000Z',
      scheduled_pay: 160,
    });

    const copied = await copyWeek(ctx, { business_id: w.businessId });
    expect(copied.created.map((s) => [s.shift_date, s.shift_in, s.shift_out, s.status, s.shifter_id, s.is_broadcast])).toEqual([
      ['2027-03-08', '18:00', '22:00', 'pending', w.jordan.shifterId, 0],
      ['2027-03-09', '09:00', '17:00', 'pending', null, 1],
      ['2027-03-09', '09:00', '17:00', 'pending', null, 1],
      ['2027-03-13', '10:00', '14:00', 'pending', null, 1],
      ['2027-03-14', '09:00', '17:00', 'pending', w.jordan.shifterId, 0],
    ]);
    expect(copied.created[4]!.starts_at).toBe('2027-03-14T13:00:00.000Z');
    expect(byReason(copied.skipped)).toEqual(byReason(preview.skipped));
    expect(await countRows(w.businessId)).toBe(before + 5);
    // Made as a single post makes a shift: its audit row, the shifter told, the partner event.
    const first = copied.created[0]!.id;
    expect(await auditFor(first, 'shift_request.create')).toHaveLength(1);
    expect((await outboxFor(first, { topic: 'notifications' })).length).toBe(1);
    expect((await outboxFor(first, { topic: 'webhooks' })).length).toBe(1);

    const again = await copyWeek(ctx, { business_id: w.businessId });
    expect(again.created).toEqual([]);
    expect(await countRows(w.businessId)).toBe(before + 5);
    const reasons = byReason(again.skipped);
    for (const s of preview.would_create) expect(reasons[s.source_shift_request_id]).toBe('already_there');
    expect(reasons[w.src.cancelled.id]).toBe('cancelled');
  });

  it('makes a shift once when two copies run at the same moment', async () => {
    const w = await world();
    const ctx = contextAt(NOW, w.biz);
    const [a, b] = await Promise.all([copyWeek(ctx, { business_id: w.businessId }), copyWeek(ctx, { business_id: w.businessId })]);
    expect(a.created.length + b.created.length).toBe(5);
    const rows = await db()
      .select({ id: shiftRequests.id })
      .from(shiftRequests)
      .where(and(eq(shiftRequests.business_id, w.businessId), eq(shiftRequests.shift_date, '2027-03-09')));
    expect(rows).toHaveLength(2);
  });

  it('skips a start already past in this week, and says a week out of reach in words', async () => {
    const w = await world();
    const ctx = contextAt(NOW, w.biz);
    // Into this week from the last: Monday 08:00 has passed at 10:00, Monday 18:00 has not.
    await insertShift({ businessId: w.businessId, date: '2027-02-22', in: '08:00', out: '12:00', broadcast: true });
    await insertShift({ businessId: w.businessId, date: '2027-02-22', in: '18:00', out: '20:00', broadcast: true, role: 2 });
    const p = await previewCopyWeek(ctx, { business_id: w.businessId, source_week: '2027-02-24', target_week: '2027-03-03' });
    expect(p).toMatchObject({ source_week_start: '2027-02-22', target_week_start: SOURCE });
    expect(p.would_create.map((s) => `${s.shift_date} ${s.shift_in}`)).toEqual(['2027-03-01 18:00']);
    expect(p.skipped.map((s) => [s.shift_date, s.reason, s.message])).toEqual([['2027-03-01', 'past', 'That time has already passed.']]);
    await expect(previewCopyWeek(ctx, { business_id: w.businessId, target_week: '2027-02-28' })).rejects.toMatchObject({
      code: 'VALIDATION-ERR',
      details: [{ field: 'target_week' }],
    });
    await expect(previewCopyWeek(ctx, { business_id: w.businessId, source_week: '2027-03-14' })).rejects.toMatchObject({
      code: 'VALIDATION-ERR',
      details: [{ field: 'source_week', message: 'choose a week other than the one to fill' }],
    });
  });

  it('keeps a London 09:00 on the clock over the change to summer time; an overnight shift gets its real 7 hours', async () => {
    const biz = await makeUser({ business: { timezone: 'Europe/London', currency: 'GBP' } });
    const ctx = contextAt('2027-03-15T12:00:00Z', biz);
    const base = { businessId: biz.businessId!, tz: 'Europe/London', broadcast: true, status: 1, currency: 'GBP', rateMinor: 1500 };
    await insertShift({ ...base, date: '2027-03-21', in: '09:00', out: '17:00' });
    await insertShift({ ...base, date: '2027-03-20', in: '22:00', out: '06:00' });
    const p = await previewCopyWeek(ctx, { target_week: '2027-03-22' });
    expect(p.would_create.map((s) => [s.shift_date, s.shift_in, s.starts_at, s.ends_at, s.scheduled_pay, s.currency])).toEqual([
      // Saturday night into the Sunday the clocks go forward at 01:00: 7 hours at £15.
      ['2027-03-27', '22:00', '2027-03-27T22:00:00.000Z', '2027-03-28T05:00:00.000Z', 105, 'GBP'],
      // 09:00 BST is 08:00 UTC; the source Sunday's 09:00 GMT was 09:00 UTC.
      ['2027-03-28', '09:00', '2027-03-28T08:00:00.000Z', '2027-03-28T16:00:00.000Z', 120, 'GBP'],
    ]);
    // The business has no crew: its broadcasts would reach nobody, as send_request warns.
    expect(p.warnings.map((x) => x.code)).toEqual(['empty_crew']);
  });

  it(`makes at most ${COPY_WEEK_MAX_SHIFTS} in one run and leaves the rest for the next`, async () => {
    const biz = await makeUser({ business: true });
    const ctx = contextAt(NOW, biz);
    const specs = Array.from({ length: COPY_WEEK_MAX_SHIFTS + 1 }, (_, i) => ({
      businessId: biz.businessId!,
      date: addDays(SOURCE, i % 7),
      in: `${String(6 + (i % 12)).padStart(2, '0')}:00`,
      out: '23:00',
      broadcast: true,
      status: 1,
    }));
    await insertShifts(specs);
    const p = await previewCopyWeek(ctx, {});
    expect(p.would_create).toHaveLength(COPY_WEEK_MAX_SHIFTS);
    expect(p.skipped.map((s) => [s.reason, s.message])).toEqual([
      ['over_limit', `More than ${COPY_WEEK_MAX_SHIFTS} shifts in one copy: run it again to copy the rest.`],
    ]);
  });
});

describe('POST /v1/schedule/copy_week and its preview (API)', () => {
  const route = { method: 'GET', path: '/v1/schedule/copy_week/preview' };
  itRejectsBadCredentials(route);

  it('copies a week for the owner and a teammate; a retry with the same key replays; a second run makes nothing', async () => {
    const biz = await makeUser({ business: true });
    const sh = await makeCrewMember(biz.businessId!);
    const source = mondayOf(dateAhead(7));
    const target = addDays(source, 7);
    await insertShift({
      businessId: biz.businessId!,
      shifterId: sh.shifterId,
      date: addDays(source, 2),
      in: '09:00',
      out: '17:00',
      status: 2,
    });
    const body = { business_id: biz.businessId!, source_week: addDays(source, 3), target_week: target };
    const mate = await makeUser();
    await addTeammate(biz.businessId!, mate.userId);
    const preview = await call('GET', route.path, { key: mate.key, query: body });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.would_create).toHaveLength(1);

    const headers = { 'Idempotency-Key': `copy-${crypto.randomUUID()}` };
    const first = await call('POST', '/v1/schedule/copy_week', { key: biz.key, body, headers });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.created.map((s: { shift_date: string }) => s.shift_date)).toEqual([addDays(target, 2)]);
    const replay = await call('POST', '/v1/schedule/copy_week', { key: biz.key, body, headers });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body.created[0].id).toBe(first.body.created[0].id);
    const second = await call('POST', '/v1/schedule/copy_week', { key: biz.key, body });
    expect(second.status).toBe(200);
    expect(second.body.created).toEqual([]);
    expect(second.body.skipped.map((s: { reason: string }) => s.reason)).toEqual(['already_there']);
    const rows = await db()
      .select({ id: shiftRequests.id })
      .from(shiftRequests)
      .where(and(eq(shiftRequests.business_id, biz.businessId!), inArray(shiftRequests.shift_date, [addDays(target, 2)])));
    expect(rows).toHaveLength(1);
  });

  it('refuses a bad week beside its field, and anyone who does not run the business', async () => {
    const biz = await makeUser({ business: true });
    const sh = await makeCrewMember(biz.businessId!);
    const suspended = await makeUser();
    await addTeammate(biz.businessId!, suspended.userId, 2);
    const b = biz.businessId!;
    expectValidation(
      await call('POST', '/v1/schedule/copy_week', { key: biz.key, body: { business_id: b, target_week: '2020-01-06' } }),
      'target_week',
    );
    expectValidation(await call('GET', route.path, { key: biz.key, query: { business_id: b, target_week: '2027-02-30' } }), 'target_week');
    const same = dateAhead(14);
    expectValidation(
      await call('GET', route.path, { key: biz.key, query: { business_id: b, source_week: same, target_week: same } }),
      'source_week',
    );
    for (const who of [sh, suspended]) {
      expectError(await call('POST', '/v1/schedule/copy_week', { key: who.key, body: { business_id: b } }), 404, 'BUSINESS-NOT-FND-ERR');
      expectError(await call('GET', route.path, { key: who.key, query: { business_id: b } }), 404, 'BUSINESS-NOT-FND-ERR');
    }
    // Nothing was made by the refused calls.
    expect(await countRows(b)).toBe(0);
  });
});
