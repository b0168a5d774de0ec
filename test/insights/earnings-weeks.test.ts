import { describe, expect, it } from 'vitest';
import { earnings } from '../../src/services/insights';
import { call, expectError } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import { makeUser } from '../helpers/factory';
import { insertShift } from '../helpers/rows';

/**
 * Earnings by week (GET /v1/shifter/{id}/earnings: `week`, `weeks`, `week_shifts`): Monday to Sunday
 * on the shifter's own clock, a shift in the week of its start, each line's pay rounded once and a
 * week's gross the sum of its lines. On an injected clock, with hand-computed figures.
 */

const NY = 'America/New_York';
const LDN = 'Europe/London';

describe('earnings by week (US fall-back week, New York worker)', () => {
  async function world() {
    const s = await makeUser({ shifter: { timezone: NY, currency: 'USD' } });
    const alpha = await makeUser({ business: { timezone: NY, name: 'Alpha' } });
    const beta = await makeUser({ business: { timezone: NY, name: 'Beta' } });
    const sh = s.shifterId!;
    const a = { businessId: alpha.businessId!, shifterId: sh, tz: NY };
    const b = { businessId: beta.businessId!, shifterId: sh, tz: NY };
    const ids = {
      mon: await insertShift({ ...a, date: '2026-10-26', in: '09:00', out: '17:00', rate: 2000 }), // 8 h → 160.00
      wed: await insertShift({ ...b, date: '2026-10-28', in: '10:00', out: '14:30', rate: 1733 }), // 4.5 h → 77.985 → 77.99
      cad: await insertShift({ ...a, date: '2026-10-30', in: '09:00', out: '12:00', rate: 3000, currency: 'CAD' }), // 3 h → 90 CAD
      // Saturday night over the fall-back change (02:00 → 01:00 on Sunday 1 November): 9 real hours → 180.00.
      dst: await insertShift({ ...a, date: '2026-10-31', in: '22:00', out: '06:00', rate: 2000 }),
      // Sunday 22:00 → Monday 06:00: counts in the week it started → 160.00.
      sunNight: await insertShift({ ...b, date: '2026-11-01', in: '22:00', out: '06:00', rate: 2000 }),
      nextMon: await insertShift({ ...a, date: '2026-11-02', in: '00:30', out: '04:00', rate: 2000 }), // next week: 3.5 h → 70.00
    };
    await insertShift({ ...a, date: '2026-10-20', in: '09:00', out: '13:00', rate: 2500 }); // the week before: 100.00
    await insertShift({ ...a, date: '2026-10-29', in: '09:00', out: '17:00', rate: 2000, noshow: true }); // not worked
    await insertShift({ ...a, date: '2026-10-27', in: '18:00', out: '20:00', rate: 2000, status: 1, worked: false }); // pending
    // Three 20-minute shifts at $10.01: each 3.336… → 3.34, so the week is 10.02 (one rounding of the total says 10.01).
    for (const day of ['2026-10-12', '2026-10-13', '2026-10-14'])
      await insertShift({ ...b, date: day, in: '12:00', out: '12:20', rate: 1001 });
    return { s, sh, ids, alpha, beta };
  }

  it('on Sunday night the current week is the one ending that night, with its shifts as lines', async () => {
    const { s, sh, ids, alpha, beta } = await world();
    // 04:30 UTC on Monday 2 November is 23:30 on Sunday 1 November in New York (EST, UTC−5).
    const e = await earnings(contextAt('2026-11-02T04:30:00Z', s), sh, {});
    expect(e).toMatchObject({
      timezone: NY,
      week_start: '2026-10-26',
      week_end: '2026-11-01',
      current_week_start: '2026-10-26',
      previous_week_start: '2026-10-19',
      next_week_start: null,
    });
    expect(e.week_shifts).toEqual([
      {
        shift_request_id: ids.mon,
        date: '2026-10-26',
        starts_at: '2026-10-26T13:00:00.000Z',
        ends_at: '2026-10-26T21:00:00.000Z',
        business_id: alpha.businessId,
        business_name: 'Alpha',
        hours: 8,
        pay: 160,
        currency: 'USD',
      },
      expect.objectContaining({ shift_request_id: ids.wed, business_name: 'Beta', hours: 4.5, pay: 77.99, currency: 'USD' }),
      expect.objectContaining({ shift_request_id: ids.cad, hours: 3, pay: 90, currency: 'CAD' }),
      expect.objectContaining({
        shift_request_id: ids.dst,
        date: '2026-10-31',
        starts_at: '2026-11-01T02:00:00.000Z',
        ends_at: '2026-11-01T11:00:00.000Z',
        hours: 9,
        pay: 180,
      }),
      expect.objectContaining({
        shift_request_id: ids.sunNight,
        date: '2026-11-01',
        business_id: beta.businessId,
        ends_at: '2026-11-02T11:00:00.000Z',
        hours: 8,
        pay: 160,
      }),
    ]);
    expect(e.weeks).toHaveLength(9);
    expect(e.weeks.map((w) => w.week_start)).toEqual([
      '2026-08-31',
      '2026-09-07',
      '2026-09-14',
      '2026-09-21',
      '2026-09-28',
      '2026-10-05',
      '2026-10-12',
      '2026-10-19',
      '2026-10-26',
    ]);
    // 160 + 77.99 + 180 + 160 = 577.99, the sum of the lines; the CAD line apart; hours of every worked shift.
    expect(e.weeks.at(-1)).toEqual({
      week_start: '2026-10-26',
      week_end: '2026-11-01',
      gross: 577.99,
      hours: 32.5,
      shifts: 5,
      other_currencies: [{ currency: 'CAD', gross: 90 }],
    });
    expect(e.weeks.at(-2)).toEqual({
      week_start: '2026-10-19',
      week_end: '2026-10-25',
      gross: 100,
      hours: 4,
      shifts: 1,
      other_currencies: [],
    });
    expect(e.weeks.at(-3)).toMatchObject({ week_start: '2026-10-12', gross: 10.02, hours: 1, shifts: 3 });
    expect(e.weeks[0]).toMatchObject({ gross: 0, hours: 0, shifts: 0 });
    const sumOfLines = e.week_shifts.filter((l) => l.currency === 'USD').reduce((t, l) => t + Math.round(l.pay * 100), 0);
    expect(sumOfLines).toBe(57_799);
  });

  it('on Monday morning the week turns; an asked week (any of its days) shows with a link to the next', async () => {
    const { s, sh, ids } = await world();
    // 17:00 UTC on Monday 2 November is noon in New York.
    const ctx = contextAt('2026-11-02T17:00:00Z', s);
    const now = await earnings(ctx, sh, {});
    expect(now).toMatchObject({
      week_start: '2026-11-02',
      week_end: '2026-11-08',
      previous_week_start: '2026-10-26',
      next_week_start: null,
    });
    expect(now.week_shifts.map((l) => l.shift_request_id)).toEqual([ids.nextMon]);
    expect(now.weeks.at(-1)).toMatchObject({ gross: 70, hours: 3.5, shifts: 1 });
    expect(now.weeks.at(-2)).toMatchObject({ week_start: '2026-10-26', gross: 577.99 });

    // Sunday 1 November names the week of Monday 26 October.
    const asked = await earnings(ctx, sh, { week: '2026-11-01' });
    expect(asked).toMatchObject({ week_start: '2026-10-26', current_week_start: '2026-11-02', next_week_start: '2026-11-02' });
    expect(asked.week_shifts).toHaveLength(5);
    expect(asked.weeks.at(-1)).toMatchObject({ week_start: '2026-10-26', gross: 577.99 });
    // The month's figures are untouched by the week asked: November holds Sunday night's shift
    // (160.00, in October's last week) and Monday's (70.00).
    expect(asked).toMatchObject({ year: 2026, month: 11, gross: 230, shifts: 2 });
  });
});

describe('earnings by week: the spring change in the worker’s zone', () => {
  it('London: the week of 22 March 2027 ends at Monday 00:00 BST, one hour earlier in UTC than it began', async () => {
    const s = await makeUser({ shifter: { timezone: LDN, currency: 'GBP' } });
    const biz = await makeUser({ business: { timezone: LDN, currency: 'GBP' } });
    const base = { businessId: biz.businessId!, shifterId: s.shifterId!, tz: LDN, currency: 'GBP' };
    // Saturday 27 March 22:00 GMT → Sunday 06:00 BST: clocks go forward at 01:00, 7 real hours → £105.00.
    const dst = await insertShift({ ...base, date: '2027-03-27', in: '22:00', out: '06:00', rate: 1500 });
    // Sunday 23:30 BST (22:30 UTC): still the week of 22 March.
    const late = await insertShift({ ...base, date: '2027-03-28', in: '23:30', out: '23:59', rate: 1200 });
    // Monday 00:15 BST is Sunday 23:15 UTC: the new week on the worker's clock.
    const monday = await insertShift({ ...base, date: '2027-03-29', in: '00:15', out: '02:15', rate: 1500 });
    // Monday 29 March 2027, 10:00 BST.
    const e = await earnings(contextAt('2027-03-29T09:00:00Z', s), s.shifterId!, { week: '2027-03-24' });
    expect(e).toMatchObject({
      week_start: '2027-03-22',
      week_end: '2027-03-28',
      current_week_start: '2027-03-29',
      next_week_start: '2027-03-29',
    });
    expect(e.week_shifts.map((l) => [l.shift_request_id, l.hours, l.pay])).toEqual([
      [dst, 7, 105],
      [late, 0.48, 5.8], // 29 min at £12.00 = 5.80
    ]);
    expect(e.weeks.at(-1)).toMatchObject({ gross: 110.8, hours: 7.48, shifts: 2, other_currencies: [] });
    const now = await earnings(contextAt('2027-03-29T09:00:00Z', s), s.shifterId!, {});
    expect(now.week_shifts.map((l) => l.shift_request_id)).toEqual([monday]);
    expect(now.weeks.at(-1)).toMatchObject({ week_start: '2027-03-29', gross: 30, hours: 2 });
  });

  it('New York: the spring-forward night of 14 March 2027 is 7 hours, in the week of 8 March', async () => {
    const s = await makeUser({ shifter: { timezone: NY, currency: 'USD' } });
    const biz = await makeUser({ business: { timezone: NY } });
    await insertShift({
      businessId: biz.businessId!,
      shifterId: s.shifterId!,
      tz: NY,
      date: '2027-03-13',
      in: '23:00',
      out: '07:00',
      rate: 2000,
    });
    const e = await earnings(contextAt('2027-03-15T16:00:00Z', s), s.shifterId!, { week: '2027-03-14' });
    expect(e.week_start).toBe('2027-03-08');
    expect(e.weeks.at(-1)).toMatchObject({ gross: 140, hours: 7, shifts: 1 });
  });
});

describe('earnings by week: two workers, two zones, the same instants', () => {
  it('a New York worker and a London worker file the same instants under their own weeks', async () => {
    const ny = await makeUser({ shifter: { timezone: NY, currency: 'USD' } });
    const ldn = await makeUser({ shifter: { timezone: LDN, currency: 'USD' } });
    const biz = await makeUser({ business: { timezone: 'UTC', name: 'Anywhere' } });
    // The same three shifts (times in UTC) for each worker.
    const shifts = [
      { key: 'sunday', date: '2026-11-01', in: '20:00', out: '22:00' }, // Sun 20:00 London, Sun 15:00 New York
      { key: 'londonMonday', date: '2026-11-02', in: '02:00', out: '04:00' }, // Mon 02:00 London, Sun 21:00 New York
      { key: 'nyMonday', date: '2026-11-02', in: '06:00', out: '08:00' }, // Mon 06:00 London, Mon 01:00 New York
      { key: 'octoberEdge', date: '2026-10-26', in: '03:00', out: '05:00' }, // Mon 03:00 London (GMT), Sun 23:00 New York (EDT)
    ];
    const ids: Record<string, Record<string, string>> = { ny: {}, ldn: {} };
    for (const [who, u] of [
      ['ny', ny],
      ['ldn', ldn],
    ] as const) {
      for (const x of shifts)
        ids[who]![x.key] = await insertShift({ businessId: biz.businessId!, shifterId: u.shifterId!, tz: 'UTC', rate: 1000, ...x });
    }
    // 03:00 UTC on Monday 2 November: 22:00 on Sunday in New York, 03:00 on Monday in London.
    const at = '2026-11-02T03:00:00Z';
    const nyE = await earnings(contextAt(at, ny), ny.shifterId!, {});
    const ldnE = await earnings(contextAt(at, ldn), ldn.shifterId!, {});
    expect(nyE.week_start).toBe('2026-10-26');
    expect(ldnE.week_start).toBe('2026-11-02');
    expect(nyE.week_shifts.map((l) => l.shift_request_id)).toEqual([ids.ny!.sunday, ids.ny!.londonMonday]);
    expect(nyE.week_shifts.map((l) => l.date)).toEqual(['2026-11-01', '2026-11-01']);
    expect(ldnE.week_shifts.map((l) => l.shift_request_id)).toEqual([ids.ldn!.londonMonday, ids.ldn!.nyMonday]);
    expect(ldnE.week_shifts.map((l) => l.date)).toEqual(['2026-11-02', '2026-11-02']);
    // Each $20.00; New York's Monday 01:00 shift is next week, London's Sunday evening one last week.
    expect(nyE.weeks.at(-1)).toMatchObject({ gross: 40, hours: 4, shifts: 2 });
    expect(ldnE.weeks.at(-1)).toMatchObject({ gross: 40, hours: 4, shifts: 2 });
    // The October edge: London's Monday 26 October, New York's Sunday 25 October.
    expect(ldnE.weeks.at(-2)).toMatchObject({ week_start: '2026-10-26', gross: 40, shifts: 2 });
    expect(nyE.weeks.at(-2)).toMatchObject({ week_start: '2026-10-19', gross: 20, shifts: 1 });
    const nyNext = await earnings(contextAt(at, ny), ny.shifterId!, { week: '2026-11-02' });
    expect(nyNext.week_shifts.map((l) => l.shift_request_id)).toEqual([ids.ny!.nyMonday]);
  });
});

describe('GET /v1/shifter/{id}/earnings: the week fields', () => {
  it('takes `week`, answers `weeks` and `week_shifts` beside the month, and refuses a date that is not one', async () => {
    const s = await makeUser({ shifter: { timezone: NY, currency: 'USD' } });
    const biz = await makeUser({ business: { timezone: NY, name: 'Alpha' } });
    const sh = s.shifterId!;
    const id = await insertShift({
      businessId: biz.businessId!,
      shifterId: sh,
      tz: NY,
      date: '2026-10-28',
      in: '10:00',
      out: '14:30',
      rate: 1733,
    });
    const res = await call('GET', `/v1/shifter/${sh}/earnings`, { key: s.key, query: { year: 2026, month: 10, week: '2026-10-30' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      year: 2026,
      month: 10,
      gross: 77.99,
      week_start: '2026-10-26',
      week_end: '2026-11-01',
      previous_week_start: '2026-10-19',
      next_week_start: '2026-11-02',
    });
    expect(res.body.weeks).toHaveLength(9);
    expect(res.body.weeks.at(-1)).toEqual({
      week_start: '2026-10-26',
      week_end: '2026-11-01',
      gross: 77.99,
      hours: 4.5,
      shifts: 1,
      other_currencies: [],
    });
    expect(res.body.week_shifts).toEqual([
      {
        shift_request_id: id,
        date: '2026-10-28',
        starts_at: '2026-10-28T14:00:00.000Z',
        ends_at: '2026-10-28T18:30:00.000Z',
        business_id: biz.businessId,
        business_name: 'Alpha',
        hours: 4.5,
        pay: 77.99,
        currency: 'USD',
      },
    ]);

    // Without `week`: the current week on the shifter's clock, the last of the nine.
    const now = await call('GET', `/v1/shifter/${sh}/earnings`, { key: s.key });
    expect(now.status).toBe(200);
    expect(now.body.week_start).toBe(now.body.current_week_start);
    expect(now.body.weeks.at(-1).week_start).toBe(now.body.current_week_start);
    expect(now.body.next_week_start).toBeNull();

    for (const week of ['2026-02-30', 'last week', '2026-10-28T00:00'])
      expectError(await call('GET', `/v1/shifter/${sh}/earnings`, { key: s.key, query: { week } }), 400, 'VALIDATION-ERR');
  });

  it('documents the query and every new field in the OpenAPI document', async () => {
    const doc = (await call('GET', '/v1/openapi.json')).body;
    const op = doc.paths['/v1/shifter/{id}/earnings'].get;
    const week = op.parameters.find((p: { name: string; in: string }) => p.name === 'week' && p.in === 'query');
    expect(week?.description ?? week?.schema?.description).toMatch(/Monday to Sunday/);
    const earningsProps = doc.components.schemas.Earnings.properties;
    for (const f of ['week_start', 'week_end', 'current_week_start', 'previous_week_start', 'next_week_start', 'weeks', 'week_shifts'])
      expect(earningsProps[f]?.description, f).toBeTruthy();
    for (const name of ['EarningsWeek', 'EarningsShiftLine']) {
      const props = doc.components.schemas[name].properties;
      for (const [key, prop] of Object.entries(props))
        expect((prop as { description?: string }).description, `${name}.${key}`).toBeTruthy();
    }
  });
});
