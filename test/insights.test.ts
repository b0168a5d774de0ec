import { describe, expect, it } from 'vitest';
import { call, expectError } from './helpers/api';
import { addTeammate, connect, makeUser } from './helpers/factory';
import { daysFromToday, insertShift } from './helpers/rows';
import { expectDenied, itRejectsBadCredentials } from './helpers/security';

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
    await insertShift({ ...base, shifterId: b.shifterId, date: '2026-10-30', in: '09:00', out: '17:00', rate: 2000, cancelledBy: 'shifter' });
    await insertShift({ ...base, shifterId: b.shifterId, date: '2026-10-30', in: '18:00', out: '20:00', rate: 2000, status: 1, worked: false });
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
    await expectDenied(await call('PUT', `/v1/business/${owner.businessId}/weekly_labor_budget`, { key: stranger.key, body: { weekly_labor_budget: 1 } }), [404]);
    expectError(await call('PUT', `/v1/business/${owner.businessId}/weekly_labor_budget`, { key: owner.key, body: { weekly_labor_budget: -5 } }), 400, 'VALIDATION-ERR');
  });

  itRejectsBadCredentials({ method: 'GET', path: '/v1/business/biz_x/labor_costs' });
});

describe('business settings', () => {
  it('changes only the fields sent, null clears, and keeps upcoming shifts on their wall clock across a zone change', async () => {
    const owner = await makeUser({ business: { timezone: NY, geofence_radius_m: 150, weekly_labor_budget_minor: 10_000 } });
    const res = await call('PUT', '/v1/business/update_settings', { key: owner.key, body: { auto_fill_on_cancel: true, geofence_radius_m: null } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ auto_fill_on_cancel: true, geofence_radius_m: null, weekly_labor_budget: 100, timezone: NY, require_clock_photo: false });

    const future = daysFromToday(10, NY);
    const id = await insertShift({ businessId: owner.businessId!, date: future, in: '09:00', out: '17:00', rate: 2000, tz: NY, status: 1, worked: false });
    const moved = await call('PUT', '/v1/business/update_settings', { key: owner.key, body: { timezone: 'Europe/London', require_clock_photo: true } });
    expect(moved.body).toMatchObject({ timezone: 'Europe/London', require_clock_photo: true, auto_fill_on_cancel: true });
    const shift = await call('GET', `/v1/shift_request/${id}`, { key: owner.key });
    expect(shift.body).toMatchObject({ shift_in: '09:00', timezone: 'Europe/London' });
    expect(new Date(shift.body.starts_at).toISOString()).toBe(new Date(`${future}T09:00:00${londonOffset(future)}`).toISOString());
  });

  it('rejects bad values and non-owners', async () => {
    const owner = await makeUser({ business: true });
    for (const body of [{ geofence_radius_m: -1 }, { timezone: 'Nowhere/City' }, { latitude: 100 }, { unknown_field: 1 }, { weekly_labor_budget: 'a lot' }]) {
      expectError(await call('PUT', '/v1/business/update_settings', { key: owner.key, body }), 400, 'VALIDATION-ERR');
    }
    const mate = await makeUser({ shifter: true });
    await addTeammate(owner.businessId!, mate.userId, 1);
    expectError(await call('PUT', '/v1/business/update_settings', { key: mate.key, body: { business_id: owner.businessId, auto_fill_on_cancel: true } }), 403, 'FORBIDDEN-ERR');
    const other = await makeUser({ business: true });
    await expectDenied(await call('PUT', '/v1/business/update_settings', { key: other.key, body: { business_id: owner.businessId, auto_fill_on_cancel: true } }), [404]);
  });

  itRejectsBadCredentials({ method: 'PUT', path: '/v1/business/update_settings', body: { auto_fill_on_cancel: true } });
});

function londonOffset(date: string): string {
  // British Summer Time runs from the last Sunday of March to the last Sunday of October.
  const probe = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', timeZoneName: 'shortOffset' }).format(new Date(`${date}T12:00:00Z`));
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
    await insertShift({ businessId: b1.businessId!, shifterId: sh, date: '2026-10-29', in: '09:00', out: '17:00', rate: 2000, tz: NY, noshow: true });
    await insertShift({ businessId: b1.businessId!, shifterId: sh, date: '2026-10-30', in: '09:00', out: '12:00', rate: 3000, tz: NY, currency: 'CAD' }); // 90 CAD apart

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

  it('typical rate and hours over 90 days, and shifts to goal', async () => {
    const s = await makeUser({ shifter: { timezone: 'UTC' } });
    const b = await makeUser({ business: { timezone: 'UTC' } });
    const sh = s.shifterId!;
    await insertShift({ businessId: b.businessId!, shifterId: sh, date: daysFromToday(-10), in: '09:00', out: '17:00', rate: 2000, tz: 'UTC' }); // 8 h
    await insertShift({ businessId: b.businessId!, shifterId: sh, date: daysFromToday(-20), in: '09:00', out: '13:00', rate: 3000, tz: 'UTC' }); // 4 h
    await insertShift({ businessId: b.businessId!, shifterId: sh, date: daysFromToday(-120), in: '09:00', out: '21:00', rate: 9000, tz: 'UTC' }); // outside 90 days

    expectError(await call('PUT', `/v1/shifter/${sh}/earnings_goal`, { key: s.key, body: { monthly_earnings_goal: -1 } }), 400, 'VALIDATION-ERR');
    expect((await call('PUT', `/v1/shifter/${sh}/earnings_goal`, { key: s.key, body: { monthly_earnings_goal: 10_000 } })).status).toBe(200);
    const res = await call('GET', `/v1/shifter/${sh}/earnings`, { key: s.key });
    expect(res.body).toMatchObject({ typical_hourly_rate: 25, typical_shift_hours: 6, monthly_earnings_goal: 10_000 });
    // (goal − gross) ÷ (25 × 6): gross this month depends on today's date; recompute it from the answer.
    expect(res.body.shifts_to_goal).toBe(Math.ceil((1_000_000 - Math.round(res.body.gross * 100)) / (2500 * 6)));
    const day = res.body.elapsed_days;
    expect(res.body.projected_end_of_month).toBe(day >= 3 ? Math.round((Math.round(res.body.gross * 100) / day) * res.body.days_in_month) / 100 : null);

    await call('PUT', `/v1/shifter/${sh}/earnings_goal`, { key: s.key, body: { monthly_earnings_goal: null } });
    expect((await call('GET', `/v1/shifter/${sh}/earnings`, { key: s.key })).body.shifts_to_goal).toBeNull();
  });

  it('is for the owner only', async () => {
    const s = await makeUser({ shifter: true });
    const other = await makeUser({ shifter: true });
    const admin = await makeUser({ admin: true });
    await expectDenied(await call('GET', `/v1/shifter/${s.shifterId}/earnings`, { key: other.key }), [404]);
    expectError(await call('GET', `/v1/shifter/${s.shifterId}/earnings`, { key: admin.key }), 403, 'FORBIDDEN-ERR');
    await expectDenied(await call('PUT', `/v1/shifter/${s.shifterId}/earnings_goal`, { key: other.key, body: { monthly_earnings_goal: 5 } }), [404]);
    expectError(await call('GET', `/v1/shifter/${s.shifterId}/earnings`, { key: s.key, query: { month: 13 } }), 400, 'VALIDATION-ERR');
  });

  itRejectsBadCredentials({ method: 'GET', path: '/v1/shifter/shf_x/earnings' });
});

describe('going rate (type-7 percentiles)', () => {
  it('summarises worked shifts of the place, window, role and currency', async () => {
    const sydney = await makeUser({ business: { timezone: 'Australia/Sydney', city_id: 13, state_id: 10, country_id: 5, currency: 'AUD' } });
    const other = await makeUser({ business: { timezone: 'Australia/Sydney', city_id: 12, state_id: 9, country_id: 4, currency: 'EUR' } });
    const viewer = await makeUser({ shifter: true });
    const base = { businessId: sydney.businessId!, tz: 'Australia/Sydney', currency: 'AUD', role: 3 };
    for (const [i, rate] of [1000, 2000, 3000, 4000].entries()) await insertShift({ ...base, date: daysFromToday(-5 - i, 'Australia/Sydney'), in: '09:00', out: '17:00', rate });
    await insertShift({ ...base, date: daysFromToday(-120, 'Australia/Sydney'), in: '09:00', out: '17:00', rate: 9900 }); // outside window
    await insertShift({ ...base, date: daysFromToday(-3, 'Australia/Sydney'), in: '09:00', out: '17:00', rate: 9900, noshow: true }); // not worked
    await insertShift({ ...base, date: daysFromToday(-3, 'Australia/Sydney'), in: '09:00', out: '17:00', rate: 9900, currency: 'USD' }); // other currency
    await insertShift({ ...base, businessId: other.businessId!, date: daysFromToday(-3), in: '09:00', out: '17:00', rate: 9900, currency: 'EUR' }); // other city
    for (let i = 0; i < 10; i++) await insertShift({ ...base, role: 4, date: daysFromToday(-2 - i, 'Australia/Sydney'), in: '09:00', out: '13:00', rate: 2500 });

    const r = await call('GET', '/v1/going_rate', { key: viewer.key, query: { city_id: 13, shiftrole_id: 3 } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ currency: 'AUD', sample_size: 4, min: 10, p25: 17.5, median: 25, p75: 32.5, max: 40, mean: 25, sufficient_data: false, window_days: 90, min_sample: 10 });

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
    expect(res.body).toMatchObject({ crew_size: 3, total_completed_shifts_90d: 4, repeat_rate: 33.3, avg_reliability_score: 62.5, rated_crew: 2, accept_rate: 66.7 });
    const byName = Object.fromEntries(res.body.per_shifter.map((p: { shifter_name: string }) => [p.shifter_name, p]));
    expect(byName.Ana).toMatchObject({ completed_shifts_90d: 3, hours_90d: 12, total_paid_90d: 240, no_shows_90d: 1, reliability_score: 75 });
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

  itRejectsBadCredentials({ method: 'GET', path: '/v1/business/biz_x/crew/analytics' });
});
