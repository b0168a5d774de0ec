import { describe, expect, it } from 'vitest';
import { crewAnalytics, earnings, laborCosts } from '../../src/services/insights';
import { call, expectError } from '../helpers/api';
import { contextAt } from '../helpers/clock';
import { addTeammate, connect, makeUser } from '../helpers/factory';
import { daysFromToday, insertShift } from '../helpers/rows';
import { expectDenied, itRejectsBadCredentials } from '../helpers/security';
import { expectValidation } from '../helpers/shifts';

const NY = 'America/New_York';

describe('labor costs (hand-computed, week of the US fall-back change)', () => {
  it('totals, budget, breakdowns and history for the week of 2026-10-26', async () => {
    const owner = await makeUser({ business: { timezone: NY, weekly_labor_budget_minor: 50_000 } });
    const a = await makeUser({ shifter: true, name: 'Avery' });
    const b = await makeUser({ shifter: true, name: 'Blake' });
    const biz = owner.businessId!;
    const base = { businessId: biz, tz: NY };
    await insertShift({ ...base, shifterId: a.shifterId, date: '2026-10-26', in: '09:00', out: '17:00', rate: 2000, role: 1 }); // 8 h → 160.00
    await insertShift({ ...base, shifterId: a.shifterId, date: '2026-10-31', in: '22:00', out: '06:00', rate: 2000, role: 2 }); // 9 h across fall-back → 180.00
    await insertShift({ ...base, shifterId: a.shifterId, date: '2026-10-28', in: '10:00', out: '14:30', rate: 1733, role: 1, status: 5 }); // 4.5 h → 77.985 → 77.99
    await insertShift({ ...base, shifterId: b.shifterId, date: '2026-10-27', in: '12:00', out: '16:00', rate: 1500, role: 1 }); // 4 h → 60.00
    await insertShift({ ...base, shifterId: a.shifterId, date: '2026-10-20', in: '09:00', out: '13:00', rate: 2500, role: 1 }); // last week: 100.00
    // Not counted: a no-show, a cancellation, a pending request, and a shift starting after Sunday midnight.
    await insertShift({ ...base, shifterId: b.shifterId, date: '2026-10-29', in: '09:00', out: '17:00', rate: 2000, noshow: true });
    await insertShift({
      ...base,
      shifterId: b.shifterId,
      date: '2026-10-30',
      in: '09:00',
      out: '17:00',
      rate: 2000,
      cancelledBy: 'shifter',
    });
    await insertShift({
      ...base,
      shifterId: b.shifterId,
      date: '2026-10-30',
      in: '18:00',
      out: '20:00',
      rate: 2000,
      status: 1,
      worked: false,
    });
    await insertShift({ ...base, shifterId: b.shifterId, date: '2026-11-02', in: '00:30', out: '04:00', rate: 2000 });

    const res = await call('GET', `/v1/business/${biz}/labor_costs`, { key: owner.key, query: { week: '2026-10-28' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const lc = res.body;
    expect(lc).toMatchObject({
      week_start: '2026-10-26',
      week_end: '2026-11-01',
      currency: 'USD',
      this_week_total: 477.99,
      this_week_hours: 25.5,
      this_week_shifts: 4,
      last_week_total: 100,
      pct_change_vs_last_week: 377.99,
      weekly_budget: 500,
      over_under_budget: -22.01,
    });
    expect(lc.by_shifter).toEqual([
      { shifter_id: a.shifterId, shifter_name: 'Avery', shifts: 3, hours: 21.5, total: 417.99 },
      { shifter_id: b.shifterId, shifter_name: 'Blake', shifts: 1, hours: 4, total: 60 },
    ]);
    expect(lc.by_role).toEqual([
      { shiftrole_id: 1, role: 'Server', shifts: 3, hours: 16.5, total: 297.99 },
      { shiftrole_id: 2, role: 'Bartender', shifts: 1, hours: 9, total: 180 },
    ]);
    expect(lc.last_8_weeks).toHaveLength(8);
    expect(lc.last_8_weeks[0].week_start).toBe('2026-09-07');
    expect(lc.last_8_weeks.at(-1)).toEqual({ week_start: '2026-10-26', total: 477.99, hours: 25.5, shifts: 4 });
    expect(lc.last_8_weeks.at(-2)).toMatchObject({ week_start: '2026-10-19', total: 100 });

    // Without a budget the budget figures are null; with no last week the change is null.
    await call('PUT', `/v1/business/${biz}/weekly_labor_budget`, { key: owner.key, body: { weekly_labor_budget: null } });
    const next = await call('GET', `/v1/business/${biz}/labor_costs`, { key: owner.key, query: { week: '2026-11-16' } });
    expect(next.body).toMatchObject({ weekly_budget: null, over_under_budget: null, this_week_total: 0, pct_change_vs_last_week: null });
  });

  it('reports shifts paid in another currency apart (EUR and GBP at a USD business), never drops or adds them', async () => {
    const owner = await makeUser({ business: { timezone: NY, currency: 'USD' } });
    const a = await makeUser({ shifter: true, name: 'Avery' });
    const c = await makeUser({ shifter: true, name: 'Casey' });
    const base = { businessId: owner.businessId!, tz: NY };
    await insertShift({ ...base, shifterId: a.shifterId, date: '2026-10-26', in: '09:00', out: '17:00', rate: 2000, role: 1 }); // 8 h → 160.00 USD
    await insertShift({
      ...base,
      shifterId: a.shifterId,
      date: '2026-10-27',
      in: '09:00',
      out: '13:00',
      rate: 1500,
      role: 1,
      currency: 'EUR',
    }); // 4 h → 60.00 EUR
    await insertShift({
      ...base,
      shifterId: c.shifterId,
      date: '2026-10-28',
      in: '10:00',
      out: '12:30',
      rate: 1999,
      role: 2,
      currency: 'EUR',
    }); // 2.5 h → 49.975 → 49.98 EUR
    await insertShift({
      ...base,
      shifterId: c.shifterId,
      date: '2026-10-29',
      in: '09:00',
      out: '10:00',
      rate: 1000,
      role: 2,
      currency: 'GBP',
    }); // 1 h → 10.00 GBP
    await insertShift({
      ...base,
      shifterId: a.shifterId,
      date: '2026-10-20',
      in: '09:00',
      out: '11:00',
      rate: 1000,
      role: 1,
      currency: 'EUR',
    }); // last week: 20.00 EUR

    const res = await call('GET', `/v1/business/${owner.businessId}/labor_costs`, { key: owner.key, query: { week: '2026-10-26' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const lc = res.body;
    // The business-currency figures are exactly what they would be without the other shifts.
    expect(lc).toMatchObject({
      currency: 'USD',
      this_week_total: 160,
      this_week_hours: 8,
      this_week_shifts: 1,
      last_week_total: 0,
      pct_change_vs_last_week: null,
    });
    expect(lc.other_currencies).toEqual([
      { currency: 'EUR', total: 109.98, hours: 6.5, shifts: 2 },
      { currency: 'GBP', total: 10, hours: 1, shifts: 1 },
    ]);
    expect(lc.by_shifter).toEqual([
      {
        shifter_id: a.shifterId,
        shifter_name: 'Avery',
        shifts: 1,
        hours: 8,
        total: 160,
        other_currencies: [{ currency: 'EUR', total: 60, hours: 4, shifts: 1 }],
      },
      {
        shifter_id: c.shifterId,
        shifter_name: 'Casey',
        shifts: 0,
        hours: 0,
        total: 0,
        other_currencies: [
          { currency: 'EUR', total: 49.98, hours: 2.5, shifts: 1 },
          { currency: 'GBP', total: 10, hours: 1, shifts: 1 },
        ],
      },
    ]);
    expect(lc.by_role).toEqual([
      {
        shiftrole_id: 1,
        role: 'Server',
        shifts: 1,
        hours: 8,
        total: 160,
        other_currencies: [{ currency: 'EUR', total: 60, hours: 4, shifts: 1 }],
      },
      {
        shiftrole_id: 2,
        role: 'Bartender',
        shifts: 0,
        hours: 0,
        total: 0,
        other_currencies: [
          { currency: 'EUR', total: 49.98, hours: 2.5, shifts: 1 },
          { currency: 'GBP', total: 10, hours: 1, shifts: 1 },
        ],
      },
    ]);
    expect(lc.last_8_weeks.at(-1)).toEqual({
      week_start: '2026-10-26',
      total: 160,
      hours: 8,
      shifts: 1,
      other_currencies: [
        { currency: 'EUR', total: 109.98, hours: 6.5, shifts: 2 },
        { currency: 'GBP', total: 10, hours: 1, shifts: 1 },
      ],
    });
    expect(lc.last_8_weeks.at(-2)).toEqual({
      week_start: '2026-10-19',
      total: 0,
      hours: 0,
      shifts: 0,
      other_currencies: [{ currency: 'EUR', total: 20, hours: 2, shifts: 1 }],
    });
    // A week with nothing in another currency keeps the v1 row shape.
    expect(lc.last_8_weeks[0]).toEqual({ week_start: '2026-09-07', total: 0, hours: 0, shifts: 0 });
  });

  it('rounds pct_change_vs_last_week half-up, away from zero, on the exact ratio (−49.995 % → −50, 12.345 % → 12.35)', async () => {
    const owner = await makeUser({ business: { timezone: NY } });
    const base = { businessId: owner.businessId!, tz: NY, in: '09:00', out: '10:00' };
    // Last week 1,000.00 (1 h at 1,000.00); this week 500.05: (500.05 − 1000) ÷ 1000 = −49.995 %.
    await insertShift({ ...base, date: '2026-10-20', rate: 100_000 });
    await insertShift({ ...base, date: '2026-10-27', rate: 50_005 });
    // The week after: 1,123.45 against 1,000.00 two weeks later: +12.345 %.
    await insertShift({ ...base, date: '2026-11-03', rate: 100_000 });
    await insertShift({ ...base, date: '2026-11-10', rate: 112_345 });
    const path = `/v1/business/${owner.businessId}/labor_costs`;
    const down = await call('GET', path, { key: owner.key, query: { week: '2026-10-27' } });
    expect(down.body).toMatchObject({ this_week_total: 500.05, last_week_total: 1000, pct_change_vs_last_week: -50 });
    const up = await call('GET', path, { key: owner.key, query: { week: '2026-11-10' } });
    expect(up.body).toMatchObject({ this_week_total: 1123.45, last_week_total: 1000, pct_change_vs_last_week: 12.35 });
  });

  it("takes the default week from the clock in the business's zone (a Sunday night of the fall-back week, a year end)", async () => {
    const owner = await makeUser({ business: { timezone: NY } });
    const biz = owner.businessId!;
    await insertShift({ businessId: biz, tz: NY, date: '2026-11-01', in: '09:00', out: '17:00', rate: 2000 }); // the fall-back Sunday: 8 h
    await insertShift({ businessId: biz, tz: NY, date: '2026-12-31', in: '22:00', out: '02:00', rate: 2000 }); // New Year's Eve: 4 h → 80.00
    // 03:00 UTC on Monday 2 November is still Sunday 22:00 in New York: the week of 26 October.
    const sunday = await laborCosts(contextAt('2026-11-02T03:00:00Z', owner), biz);
    expect(sunday).toMatchObject({ week_start: '2026-10-26', week_end: '2026-11-01', this_week_total: 160, this_week_hours: 8 });
    const monday = await laborCosts(contextAt('2026-11-02T05:00:00Z', owner), biz);
    expect(monday).toMatchObject({ week_start: '2026-11-02', this_week_total: 0, last_week_total: 160 });
    // 04:30 UTC on 1 January is 23:30 on 31 December in New York: the week of Monday 28 December.
    const yearEnd = await laborCosts(contextAt('2027-01-01T04:30:00Z', owner), biz);
    expect(yearEnd).toMatchObject({ week_start: '2026-12-28', week_end: '2027-01-03', this_week_total: 80, this_week_hours: 4 });
  });

  it('refuses a budget with more decimals than the currency allows (400, naming the field)', async () => {
    const usd = await makeUser({ business: { currency: 'USD' } });
    const jpy = await makeUser({ business: { currency: 'JPY', timezone: 'Asia/Tokyo' } });
    expectValidation(
      await call('PUT', `/v1/business/${usd.businessId}/weekly_labor_budget`, { key: usd.key, body: { weekly_labor_budget: 1000.005 } }),
      'weekly_labor_budget',
    );
    expectValidation(
      await call('PUT', '/v1/business/update_settings', { key: usd.key, body: { weekly_labor_budget: 23.333 } }),
      'weekly_labor_budget',
    );
    expectValidation(
      await call('PUT', `/v1/business/${jpy.businessId}/weekly_labor_budget`, { key: jpy.key, body: { weekly_labor_budget: 10.5 } }),
      'weekly_labor_budget',
    );
    const ok = await call('PUT', `/v1/business/${jpy.businessId}/weekly_labor_budget`, {
      key: jpy.key,
      body: { weekly_labor_budget: 50_000 },
    });
    expect(ok.body).toMatchObject({ weekly_labor_budget: 50_000 });
    const cents = await call('PUT', `/v1/business/${usd.businessId}/weekly_labor_budget`, {
      key: usd.key,
      body: { weekly_labor_budget: 1000.01 },
    });
    expect(cents.body).toMatchObject({ weekly_labor_budget: 1000.01 });
    // The refused values left the stored budgets as they were.
    expect((await call('GET', `/v1/business/${usd.businessId}/labor_costs`, { key: usd.key })).body.weekly_budget).toBe(1000.01);
    expect((await call('GET', `/v1/business/${jpy.businessId}/labor_costs`, { key: jpy.key })).body.weekly_budget).toBe(50_000);
  });

  it('is for the owner and admins only', async () => {
    const owner = await makeUser({ business: true });
    const mate = await makeUser({ shifter: true });
    await addTeammate(owner.businessId!, mate.userId, 1);
    const stranger = await makeUser({ business: true });
    const admin = await makeUser({ admin: true });
    const path = `/v1/business/${owner.businessId}/labor_costs`;
    expectError(await call('GET', path, { key: mate.key }), 403, 'FORBIDDEN-ERR');
    await expectDenied(await call('GET', path, { key: stranger.key }), [404]);
    expect((await call('GET', path, { key: admin.key })).status).toBe(200);
    expectError(await call('GET', path, { key: owner.key, query: { week: '2026-02-30' } }), 400, 'VALIDATION-ERR');
    await expectDenied(
      await call('PUT', `/v1/business/${owner.businessId}/weekly_labor_budget`, { key: stranger.key, body: { weekly_labor_budget: 1 } }),
      [404],
    );
    expectError(
      await call('PUT', `/v1/business/${owner.businessId}/weekly_labor_budget`, { key: owner.key, body: { weekly_labor_budget: -5 } }),
      400,
      'VALIDATION-ERR',
    );
  });

  itRejectsBadCredentials({ method: 'GET', path: '/v1/business/biz_x/labor_costs' });
});

describe('business settings', () => {
  it('changes only the fields sent, null clears, and keeps upcoming shifts on their wall clock across a zone change', async () => {
    const owner = await makeUser({ business: { timezone: NY, geofence_radius_m: 150, weekly_labor_budget_minor: 10_000 } });
    const res = await call('PUT', '/v1/business/update_settings', {
      key: owner.key,
      body: { auto_fill_on_cancel: true, geofence_radius_m: null },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      auto_fill_on_cancel: true,
      geofence_radius_m: null,
      weekly_labor_budget: 100,
      timezone: NY,
      require_clock_photo: false,
    });

    const future = daysFromToday(10, NY);
    const id = await insertShift({
      businessId: owner.businessId!,
      date: future,
      in: '09:00',
      out: '17:00',
      rate: 2000,
      tz: NY,
      status: 1,
      worked: false,
    });
    const moved = await call('PUT', '/v1/business/update_settings', {
      key: owner.key,
      body: { timezone: 'Europe/London', require_clock_photo: true },
    });
    expect(moved.body).toMatchObject({ timezone: 'Europe/London', require_clock_photo: true, auto_fill_on_cancel: true });
    const shift = await call('GET', `/v1/shift_request/${id}`, { key: owner.key });
    expect(shift.body).toMatchObject({ shift_in: '09:00', timezone: 'Europe/London' });
    expect(new Date(shift.body.starts_at).toISOString()).toBe(new Date(`${future}T09:00:00${londonOffset(future)}`).toISOString());
  });

  it('rejects bad values and non-owners', async () => {
    const owner = await makeUser({ business: true });
    for (const body of [
      { geofence_radius_m: -1 },
      { timezone: 'Nowhere/City' },
      { latitude: 100 },
      { unknown_field: 1 },
      { weekly_labor_budget: 'a lot' },
    ]) {
      expectError(await call('PUT', '/v1/business/update_settings', { key: owner.key, body }), 400, 'VALIDATION-ERR');
    }
    const mate = await makeUser({ shifter: true });
    await addTeammate(owner.businessId!, mate.userId, 1);
    expectError(
      await call('PUT', '/v1/business/update_settings', {
        key: mate.key,
        body: { business_id: owner.businessId, auto_fill_on_cancel: true },
      }),
      403,
      'FORBIDDEN-ERR',
    );
    const other = await makeUser({ business: true });
    await expectDenied(
      await call('PUT', '/v1/business/update_settings', {
        key: other.key,
        body: { business_id: owner.businessId, auto_fill_on_cancel: true },
      }),
      [404],
    );
  });

  itRejectsBadCredentials({ method: 'PUT', path: '/v1/business/update_settings', body: { auto_fill_on_cancel: true } });
});

function londonOffset(date: string): string {
  // British Summer Time runs from the last Sunday of March to the last Sunday of October.
  const probe = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', timeZoneName: 'shortOffset' }).format(
    new Date(`${date}T12:00:00Z`),
  );
  return probe.includes('GMT+1') ? '+01:00' : '+00:00';
}

describe('earnings (hand-computed)', () => {
  it('gross, projection of a past month, by-business and trend, with an overnight DST shift', async () => {
    const s = await makeUser({ shifter: { timezone: NY, currency: 'USD' } });
    const b1 = await makeUser({ business: { timezone: NY, name: 'Alpha' } });
    const b2 = await makeUser({ business: { timezone: NY, name: 'Beta' } });
    const sh = s.shifterId!;
    await insertShift({ businessId: b1.businessId!, shifterId: sh, date: '2026-10-26', in: '09:00', out: '17:00', rate: 2000, tz: NY }); // 160.00
    await insertShift({ businessId: b1.businessId!, shifterId: sh, date: '2026-10-31', in: '22:00', out: '06:00', rate: 2000, tz: NY }); // 9 h: 180.00
    await insertShift({ businessId: b2.businessId!, shifterId: sh, date: '2026-10-28', in: '10:00', out: '14:30', rate: 1733, tz: NY }); // 77.99
    await insertShift({ businessId: b2.businessId!, shifterId: sh, date: '2026-09-15', in: '09:00', out: '13:00', rate: 2500, tz: NY }); // Sept: 100.00
    await insertShift({
      businessId: b1.businessId!,
      shifterId: sh,
      date: '2026-10-29',
      in: '09:00',
      out: '17:00',
      rate: 2000,
      tz: NY,
      noshow: true,
    });
    await insertShift({
      businessId: b1.businessId!,
      shifterId: sh,
      date: '2026-10-30',
      in: '09:00',
      out: '12:00',
      rate: 3000,
      tz: NY,
      currency: 'CAD',
    }); // 90 CAD apart

    const res = await call('GET', `/v1/shifter/${sh}/earnings`, { key: s.key, query: { year: 2026, month: 10 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      year: 2026,
      month: 10,
      currency: 'USD',
      gross: 417.99,
      shifts: 3,
      days_in_month: 31,
      elapsed_days: 31,
      projected_end_of_month: 417.99,
      other_currencies: [{ currency: 'CAD', gross: 90 }],
    });
    expect(res.body.by_business).toEqual([
      { business_id: b1.businessId, business_name: 'Alpha', gross: 340, shifts: 2, hours: 17 },
      { business_id: b2.businessId, business_name: 'Beta', gross: 177.99, shifts: 2, hours: 8.5 },
    ]);
    expect(res.body.trend_12_months).toHaveLength(12);
    expect(res.body.trend_12_months.at(-1)).toEqual({ month: '2026-10', gross: 417.99, shifts: 3 });
    expect(res.body.trend_12_months.at(-2)).toEqual({ month: '2026-09', gross: 100, shifts: 1 });
    expect(res.body.trend_12_months[0].month).toBe('2025-11');
    // No projection for a month that has not begun.
    const future = await call('GET', `/v1/shifter/${sh}/earnings`, { key: s.key, query: { year: 2099, month: 1 } });
    expect(future.body).toMatchObject({ gross: 0, projected_end_of_month: null, elapsed_days: 0 });
  });

  it('typical rate and hours over 90 days, shifts to goal and the projection, on an injected clock', async () => {
    const s = await makeUser({ shifter: { timezone: 'UTC' } });
    const b = await makeUser({ business: { timezone: 'UTC' } });
    const sh = s.shifterId!;
    const base = { businessId: b.businessId!, shifterId: sh, tz: 'UTC' };
    await insertShift({ ...base, date: '2026-11-10', in: '09:00', out: '17:00', rate: 2000 }); // 8 h → 160.00
    await insertShift({ ...base, date: '2026-10-31', in: '09:00', out: '13:00', rate: 3000 }); // 4 h → 120.00, last month
    await insertShift({ ...base, date: '2026-07-01', in: '09:00', out: '21:00', rate: 9000 }); // more than 90 days back

    expectValidation(
      await call('PUT', `/v1/shifter/${sh}/earnings_goal`, { key: s.key, body: { monthly_earnings_goal: 100.001 } }),
      'monthly_earnings_goal',
    );
    expectError(
      await call('PUT', `/v1/shifter/${sh}/earnings_goal`, { key: s.key, body: { monthly_earnings_goal: -1 } }),
      400,
      'VALIDATION-ERR',
    );
    expect((await call('PUT', `/v1/shifter/${sh}/earnings_goal`, { key: s.key, body: { monthly_earnings_goal: 10_000 } })).status).toBe(
      200,
    );

    // Friday 20 November 2026, noon: 20 of November's 30 days have elapsed.
    const r = await earnings(contextAt('2026-11-20T12:00:00Z', s), sh, {});
    expect(r).toMatchObject({
      year: 2026,
      month: 11,
      days_in_month: 30,
      elapsed_days: 20,
      gross: 160,
      shifts: 1,
      monthly_earnings_goal: 10_000,
    });
    // 160.00 ÷ 20 × 30 = 240.00; typical rate (20 + 30) ÷ 2 = 25.00; typical hours (8 + 4) ÷ 2 = 6.
    expect(r).toMatchObject({ projected_end_of_month: 240, typical_hourly_rate: 25, typical_shift_hours: 6 });
    // ⌈(10,000 − 160) ÷ (25 × 6)⌉ = ⌈65.6⌉ = 66.
    expect(r.shifts_to_goal).toBe(66);

    // Two days into the month there is no projection yet.
    expect((await earnings(contextAt('2026-11-02T12:00:00Z', s), sh, {})).projected_end_of_month).toBeNull();

    await call('PUT', `/v1/shifter/${sh}/earnings_goal`, { key: s.key, body: { monthly_earnings_goal: null } });
    expect((await earnings(contextAt('2026-11-20T12:00:00Z', s), sh, {})).shifts_to_goal).toBeNull();
  });

  it('rounds the projection half-up on the exact value (153.615 → 153.62, where the float gives 153.61)', async () => {
    const s = await makeUser({ shifter: { timezone: 'UTC' } });
    const b = await makeUser({ business: { timezone: 'UTC' } });
    await insertShift({
      businessId: b.businessId!,
      shifterId: s.shifterId,
      tz: 'UTC',
      date: '2026-11-03',
      in: '09:00',
      out: '10:00',
      rate: 10_241,
    }); // 102.41
    // 102.41 ÷ 20 × 30 = 153.615 exactly; (10241 / 20) * 30 in binary is 15361.499…
    expect(Math.round((10_241 / 20) * 30)).toBe(15_361);
    const r = await earnings(contextAt('2026-11-20T12:00:00Z', s), s.shifterId!, {});
    expect(r).toMatchObject({ gross: 102.41, elapsed_days: 20, projected_end_of_month: 153.62 });
  });

  it("reads the month in the shifter's zone at a year end", async () => {
    const s = await makeUser({ shifter: { timezone: NY } });
    const b = await makeUser({ business: { timezone: NY } });
    // 20:00–21:00 on 31 December in New York is 01:00–02:00 UTC on 1 January.
    await insertShift({
      businessId: b.businessId!,
      shifterId: s.shifterId,
      tz: NY,
      date: '2026-12-31',
      in: '20:00',
      out: '21:00',
      rate: 2000,
    });
    // 03:00 UTC on 1 January 2027 is still 22:00 on 31 December 2026 in New York.
    const r = await earnings(contextAt('2027-01-01T03:00:00Z', s), s.shifterId!, {});
    expect(r).toMatchObject({
      year: 2026,
      month: 12,
      days_in_month: 31,
      elapsed_days: 31,
      gross: 20,
      shifts: 1,
      projected_end_of_month: 20,
    });
    expect(r.trend_12_months.at(-1)).toEqual({ month: '2026-12', gross: 20, shifts: 1 });
    const jan = await earnings(contextAt('2027-01-01T06:00:00Z', s), s.shifterId!, {});
    expect(jan).toMatchObject({ year: 2027, month: 1, elapsed_days: 1, gross: 0, projected_end_of_month: null });
  });

  it('is for the owner only', async () => {
    const s = await makeUser({ shifter: true });
    const other = await makeUser({ shifter: true });
    const admin = await makeUser({ admin: true });
    await expectDenied(await call('GET', `/v1/shifter/${s.shifterId}/earnings`, { key: other.key }), [404]);
    expectError(await call('GET', `/v1/shifter/${s.shifterId}/earnings`, { key: admin.key }), 403, 'FORBIDDEN-ERR');
    await expectDenied(
      await call('PUT', `/v1/shifter/${s.shifterId}/earnings_goal`, { key: other.key, body: { monthly_earnings_goal: 5 } }),
      [404],
    );
    expectError(await call('GET', `/v1/shifter/${s.shifterId}/earnings`, { key: s.key, query: { month: 13 } }), 400, 'VALIDATION-ERR');
  });

  itRejectsBadCredentials({ method: 'GET', path: '/v1/shifter/shf_x/earnings' });
});

describe('going rate (type-7 percentiles)', () => {
  it('summarises worked shifts of the place, window, role and currency', async () => {
    const sydney = await makeUser({
      business: { timezone: 'Australia/Sydney', city_id: 13, state_id: 10, country_id: 5, currency: 'AUD' },
    });
    const other = await makeUser({ business: { timezone: 'Australia/Sydney', city_id: 12, state_id: 9, country_id: 4, currency: 'EUR' } });
    const viewer = await makeUser({ shifter: true });
    const base = { businessId: sydney.businessId!, tz: 'Australia/Sydney', currency: 'AUD', role: 3 };
    for (const [i, rate] of [1000, 2000, 3000, 4000].entries())
      await insertShift({ ...base, date: daysFromToday(-5 - i, 'Australia/Sydney'), in: '09:00', out: '17:00', rate });
    await insertShift({ ...base, date: daysFromToday(-120, 'Australia/Sydney'), in: '09:00', out: '17:00', rate: 9900 }); // outside window
    await insertShift({ ...base, date: daysFromToday(-3, 'Australia/Sydney'), in: '09:00', out: '17:00', rate: 9900, noshow: true }); // not worked
    await insertShift({ ...base, date: daysFromToday(-3, 'Australia/Sydney'), in: '09:00', out: '17:00', rate: 9900, currency: 'USD' }); // other currency
    await insertShift({
      ...base,
      businessId: other.businessId!,
      date: daysFromToday(-3),
      in: '09:00',
      out: '17:00',
      rate: 9900,
      currency: 'EUR',
    }); // other city
    for (let i = 0; i < 10; i++)
      await insertShift({ ...base, role: 4, date: daysFromToday(-2 - i, 'Australia/Sydney'), in: '09:00', out: '13:00', rate: 2500 });

    const r = await call('GET', '/v1/going_rate', { key: viewer.key, query: { city_id: 13, shiftrole_id: 3 } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      currency: 'AUD',
      sample_size: 4,
      min: 10,
      p25: 17.5,
      median: 25,
      p75: 32.5,
      max: 40,
      mean: 25,
      sufficient_data: false,
      window_days: 90,
      min_sample: 10,
    });

    const enough = await call('GET', '/v1/going_rate', { key: viewer.key, query: { state_id: 10, shiftrole_id: 4 } });
    expect(enough.body).toMatchObject({ sample_size: 10, median: 25, p25: 25, sufficient_data: true });

    const all = await call('GET', '/v1/going_rate', { key: viewer.key, query: { country_id: 5 } });
    expect(all.body).toMatchObject({ currency: 'AUD', sample_size: 14 });
    const usd = await call('GET', '/v1/going_rate', { key: viewer.key, query: { country_id: 5, currency: 'USD' } });
    expect(usd.body).toMatchObject({ currency: 'USD', sample_size: 1, min: 99, max: 99, sufficient_data: false });

    const none = await call('GET', '/v1/going_rate', { key: viewer.key, query: { city_id: 1, shiftrole_id: 15 } });
    expect(none.body).toMatchObject({ sample_size: 0, median: null, mean: null, sufficient_data: false });
    expectError(await call('GET', '/v1/going_rate', { key: viewer.key }), 400, 'VALIDATION-ERR');
    expectError(await call('GET', '/v1/going_rate', { key: viewer.key, query: { city_id: 'x' } }), 400, 'VALIDATION-ERR');
  });

  it('rounds an exact half cent up (median and mean 17.395 → 17.40), at the currency minor unit', async () => {
    const biz = await makeUser({ business: { timezone: NY, city_id: 2, state_id: 1, country_id: 1, currency: 'USD' } });
    const viewer = await makeUser({ shifter: true });
    const base = { businessId: biz.businessId!, tz: NY, role: 6, in: '09:00', out: '13:00' };
    await insertShift({ ...base, date: daysFromToday(-3, NY), rate: 1739 });
    await insertShift({ ...base, date: daysFromToday(-4, NY), rate: 1740 });
    // 17.395 is 17.39499… as a double: toFixed(2) gives 17.39.
    expect(Number((1739.5 / 100).toFixed(2))).toBe(17.39);
    const r = await call('GET', '/v1/going_rate', { key: viewer.key, query: { city_id: 2, shiftrole_id: 6 } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // p25 = 17.3925 → 17.39; median = mean = 17.395 → 17.40; p75 = 17.3975 → 17.40.
    expect(r.body).toMatchObject({
      currency: 'USD',
      sample_size: 2,
      min: 17.39,
      p25: 17.39,
      median: 17.4,
      mean: 17.4,
      p75: 17.4,
      max: 17.4,
    });

    // In yen the last shown digit is the yen: a mean of 1,000.5 is 1,001; three values keep the mean exact.
    const tokyo = await makeUser({ business: { timezone: 'Asia/Tokyo', city_id: 3, state_id: 2, country_id: 1, currency: 'JPY' } });
    const jp = { businessId: tokyo.businessId!, tz: 'Asia/Tokyo', role: 6, in: '09:00', out: '13:00', currency: 'JPY' };
    await insertShift({ ...jp, date: daysFromToday(-3, 'Asia/Tokyo'), rate: 1000 });
    await insertShift({ ...jp, date: daysFromToday(-4, 'Asia/Tokyo'), rate: 1001 });
    const yen = await call('GET', '/v1/going_rate', { key: viewer.key, query: { city_id: 3, shiftrole_id: 6 } });
    expect(yen.body).toMatchObject({ currency: 'JPY', median: 1001, mean: 1001, p25: 1000, min: 1000, max: 1001 });
  });

  itRejectsBadCredentials({ method: 'GET', path: '/v1/going_rate', query: { city_id: 1 } });
});

describe('crew analytics', () => {
  it('per-shifter breakdown, repeat rate, reliability and accept rate', async () => {
    const owner = await makeUser({ business: { timezone: 'UTC' } });
    const biz = owner.businessId!;
    const a = await makeUser({ shifter: true, name: 'Ana' });
    const b = await makeUser({ shifter: true, name: 'Ben' });
    const c = await makeUser({ shifter: { accept_shift_req: false }, name: 'Cat' });
    const d = await makeUser({ shifter: true, name: 'Dee' });
    for (const u of [a, b, c]) await connect(biz, u.shifterId!);
    await connect(biz, d.shifterId!, 'pending');
    const base = { businessId: biz, tz: 'UTC', rate: 2000, in: '09:00', out: '13:00' };
    for (const day of [-5, -10, -15]) await insertShift({ ...base, shifterId: a.shifterId, date: daysFromToday(day) });
    await insertShift({ ...base, shifterId: a.shifterId, date: daysFromToday(-20), noshow: true });
    await insertShift({ ...base, shifterId: a.shifterId, date: daysFromToday(-200) }); // outside the window
    await insertShift({ ...base, shifterId: b.shifterId, date: daysFromToday(-6) });
    await insertShift({ ...base, shifterId: b.shifterId, date: daysFromToday(-7), cancelledBy: 'shifter' });
    await insertShift({ ...base, shifterId: d.shifterId, date: daysFromToday(-7) }); // not crew

    const res = await call('GET', `/v1/business/${biz}/crew/analytics`, { key: owner.key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      crew_size: 3,
      total_completed_shifts_90d: 4,
      repeat_rate: 33.3,
      avg_reliability_score: 62.5,
      rated_crew: 2,
      accept_rate: 66.7,
    });
    const byName = Object.fromEntries(res.body.per_shifter.map((p: { shifter_name: string }) => [p.shifter_name, p]));
    expect(byName.Ana).toMatchObject({
      completed_shifts_90d: 3,
      hours_90d: 12,
      total_paid_90d: 240,
      no_shows_90d: 1,
      reliability_score: 75,
    });
    expect(byName.Ben).toMatchObject({ completed_shifts_90d: 1, cancellations_90d: 1, reliability_score: 50 });
    expect(byName.Cat).toMatchObject({ completed_shifts_90d: 0, reliability_score: null, accept_shift_req: false });
    expect(byName.Dee).toBeUndefined();

    const mate = await makeUser({ shifter: true });
    await addTeammate(biz, mate.userId, 1);
    expect((await call('GET', `/v1/business/${biz}/crew/analytics`, { key: mate.key })).status).toBe(200);
    const suspended = await makeUser({ shifter: true });
    await addTeammate(biz, suspended.userId, 0);
    await expectDenied(await call('GET', `/v1/business/${biz}/crew/analytics`, { key: suspended.key }), [404]);
    await expectDenied(await call('GET', `/v1/business/${biz}/crew/analytics`, { key: a.key }), [404]);
  });

  it('lists pay in another currency apart per shifter (a EUR shift at a USD business), counting the shift itself', async () => {
    const owner = await makeUser({ business: { timezone: 'UTC', currency: 'USD' } });
    const biz = owner.businessId!;
    const a = await makeUser({ shifter: true, name: 'Ana' });
    const b = await makeUser({ shifter: true, name: 'Ben' });
    for (const u of [a, b]) await connect(biz, u.shifterId!);
    const base = { businessId: biz, tz: 'UTC', in: '09:00', out: '13:00' };
    await insertShift({ ...base, shifterId: a.shifterId, date: daysFromToday(-5), rate: 2000 }); // 80.00 USD
    await insertShift({ ...base, shifterId: a.shifterId, date: daysFromToday(-6), rate: 2500, currency: 'EUR' }); // 100.00 EUR
    await insertShift({ ...base, shifterId: a.shifterId, date: daysFromToday(-7), in: '09:00', out: '11:30', rate: 1999, currency: 'EUR' }); // 49.975 → 49.98 EUR
    await insertShift({ ...base, shifterId: b.shifterId, date: daysFromToday(-5), rate: 2000 });

    const res = await call('GET', `/v1/business/${biz}/crew/analytics`, { key: owner.key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const byName = Object.fromEntries(res.body.per_shifter.map((p: { shifter_name: string }) => [p.shifter_name, p]));
    expect(byName.Ana).toMatchObject({
      completed_shifts_90d: 3,
      hours_90d: 10.5,
      total_paid_90d: 80,
      other_currencies: [{ currency: 'EUR', total: 149.98, hours: 6.5, shifts: 2 }],
    });
    expect(byName.Ben.total_paid_90d).toBe(80);
    expect(byName.Ben).not.toHaveProperty('other_currencies');
    expect(res.body).toMatchObject({ total_completed_shifts_90d: 4, repeat_rate: 50 });
  });

  it('shows pay to the owner and admins only: an active teammate gets the same analytics with the pay fields null or left out', async () => {
    const owner = await makeUser({ business: { timezone: 'UTC', currency: 'USD' } });
    const biz = owner.businessId!;
    const a = await makeUser({ shifter: true, name: 'Ana' });
    await connect(biz, a.shifterId!);
    const base = { businessId: biz, shifterId: a.shifterId, tz: 'UTC', in: '09:00', out: '13:00' };
    await insertShift({ ...base, date: daysFromToday(-5), rate: 2000 });
    await insertShift({ ...base, date: daysFromToday(-6), rate: 2500, currency: 'EUR' });
    const [mate, admin] = await Promise.all([makeUser(), makeUser({ admin: true })]);
    await addTeammate(biz, mate.userId, 1);

    const read = async (key: string) => {
      const r = await call('GET', `/v1/business/${biz}/crew/analytics`, { key });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body;
    };
    for (const key of [owner.key, admin.key]) {
      const body = await read(key);
      expect(body.pay_included).toBe(true);
      expect(body.per_shifter[0]).toMatchObject({ total_paid_90d: 80, other_currencies: [{ currency: 'EUR', total: 100 }] });
    }
    const seen = await read(mate.key);
    expect(seen.pay_included).toBe(false);
    // Schedules, people and counts stay; pay goes.
    expect(seen.per_shifter[0]).toMatchObject({ shifter_id: a.shifterId, completed_shifts_90d: 2, hours_90d: 8, total_paid_90d: null });
    expect(seen.per_shifter[0]).not.toHaveProperty('other_currencies');
    expect(JSON.stringify(seen)).not.toMatch(/"total":/);
  });

  it('gives a crew shift across a DST change its real 9 h and 7 h (injected clock: the window follows now)', async () => {
    const owner = await makeUser({ business: { timezone: NY } });
    const biz = owner.businessId!;
    const a = await makeUser({ shifter: true, name: 'Ana' });
    await connect(biz, a.shifterId!);
    const base = { businessId: biz, shifterId: a.shifterId, tz: NY, in: '22:00', out: '06:00', rate: 2000 };
    await insertShift({ ...base, date: '2026-10-31' }); // into the fall-back night: 9 h → 180.00
    await insertShift({ ...base, date: '2027-03-13' }); // into the spring-forward night: 7 h → 140.00

    const fall = await crewAnalytics(contextAt('2026-11-10T12:00:00Z', owner), biz);
    expect(fall.per_shifter[0]).toMatchObject({ shifter_id: a.shifterId, completed_shifts_90d: 1, hours_90d: 9, total_paid_90d: 180 });
    const spring = await crewAnalytics(contextAt('2027-03-20T12:00:00Z', owner), biz);
    expect(spring.per_shifter[0]).toMatchObject({ shifter_id: a.shifterId, completed_shifts_90d: 1, hours_90d: 7, total_paid_90d: 140 });
    expect(spring.per_shifter[0]!.last_worked_at).toBe('2027-03-14T03:00:00.000Z');
  });

  it('rounds its percentages half-up at the last shown digit (reliability 12.5 → 13, repeat rate 1 of 3 → 33.3)', async () => {
    const owner = await makeUser({ business: { timezone: 'UTC' } });
    const biz = owner.businessId!;
    const crew = await Promise.all(['Ana', 'Ben', 'Cat'].map((name) => makeUser({ shifter: true, name })));
    for (const u of crew) await connect(biz, u.shifterId!);
    const base = { businessId: biz, tz: 'UTC', in: '09:00', out: '10:00', rate: 2000 };
    // Ana: 1 worked, 7 no-shows → 12.5 → 13. Ben: 2 worked → 100. Cat: none → unrated.
    await insertShift({ ...base, shifterId: crew[0]!.shifterId, date: daysFromToday(-2) });
    for (let i = 0; i < 7; i++) await insertShift({ ...base, shifterId: crew[0]!.shifterId, date: daysFromToday(-3 - i), noshow: true });
    for (const d of [-2, -3]) await insertShift({ ...base, shifterId: crew[1]!.shifterId, date: daysFromToday(d) });
    const r = (await call('GET', `/v1/business/${biz}/crew/analytics`, { key: owner.key })).body;
    const byName = Object.fromEntries(r.per_shifter.map((p: { shifter_name: string }) => [p.shifter_name, p]));
    expect(byName.Ana.reliability_score).toBe(13);
    expect(byName.Ben.reliability_score).toBe(100);
    // (13 + 100) ÷ 2 = 56.5; one of three has repeat shifts: 33.3; all accept: 100.
    expect(r).toMatchObject({ avg_reliability_score: 56.5, rated_crew: 2, repeat_rate: 33.3, accept_rate: 100 });
  });

  itRejectsBadCredentials({ method: 'GET', path: '/v1/business/biz_x/crew/analytics' });
});
