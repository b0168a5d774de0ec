import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { businesses, requestAuthorizations, shiftRequests, shifters, teammates, users } from '../src/db/schema';
import { handleScheduled } from '../src/jobs/scheduled';
import { addDays, shiftInstants, todayIn, wallClockToInstant } from '../src/lib/shift-time';
import worker from '../src/index';
import { buildShiftHistory } from '../src/services/demo/history';
import { chunkedInserts, DEMO_PASSWORD, MAX_PARAMS } from '../src/services/demo/seed';
import { SHIFT_STATUS } from '../src/services/shifts/status';
import { call, expectError } from './helpers/api';
import { connect, db, makeUser } from './helpers/factory';

// Tests in this file share one D1 (storage is isolated per file, not per test) and run in order:
// the first seed needs the empty database, the nightly reset comes last.
const TOKEN = 'test-seed-token';
const seed = (opts: { force?: boolean; token?: string | null } = {}) =>
  call('POST', '/internal/demo/seed', {
    headers: opts.token === null ? {} : { 'X-Demo-Seed-Token': opts.token ?? TOKEN },
    query: { force: opts.force ? 1 : undefined },
  });

interface Account {
  role: string;
  email: string;
  password: string;
  user_id: string;
  api_key: string;
}

async function demoUserIds() {
  return (await db().select({ id: users.id }).from(users).where(eq(users.is_demo, true))).map((r) => r.id);
}

async function runNightly(e: typeof env = env) {
  const ctrl = createScheduledController({ cron: '0 3 * * *', scheduledTime: Date.now() });
  const exec = createExecutionContext();
  if (e === env) await worker.scheduled(ctrl, env, exec);
  else await handleScheduled(ctrl, e, exec);
  await waitOnExecutionContext(exec);
}

let first: { status: number; body: { seeded: boolean; accounts: Account[] } };

beforeAll(async () => {
  first = await seed();
});

describe('POST /internal/demo/seed', () => {
  it('is 404 without the seed token or with a wrong one', async () => {
    expectError(await seed({ token: null }), 404, 'NOT-FOUND-ERR');
    expectError(await seed({ token: 'wrong-token' }), 404, 'NOT-FOUND-ERR');
    expectError(await seed({ token: `${TOKEN}x`, force: true }), 404, 'NOT-FOUND-ERR');
  });

  it('seeds an empty database and returns a working key for every demo account', async () => {
    expect(first.status).toBe(200);
    expect(first.body.seeded).toBe(true);
    const accounts = first.body.accounts;
    const roles = accounts.map((a) => a.role);
    for (const r of ['admin', 'business', 'dual_profile', 'teammate', 'teammate_suspended', 'shifter']) expect(roles).toContain(r);
    expect(roles.filter((r) => r === 'shifter').length).toBeGreaterThanOrEqual(6);
    expect(new Set(accounts.map((a) => a.api_key)).size).toBe(accounts.length);

    const details = await Promise.all(accounts.map((a) => call('GET', '/v1/user/details', { key: a.api_key })));
    details.forEach((d, i) => {
      const a = accounts[i]!;
      expect(d.status, a.email).toBe(200);
      expect(d.body.id).toBe(a.user_id);
      expect(d.body.email).toBe(a.email);
      expect(a.email).toMatch(/@demo\.shiftmarket\.local$/);
      expect(a.password).toBe(DEMO_PASSWORD);
      expect(d.body.is_demo).toBe(true);
      expect(d.body.email_verified).toBe(true);
    });
    const byRole = (r: string) => details[roles.indexOf(r)]!.body;
    expect(byRole('admin').is_admin).toBe(true);
    expect(byRole('shifter').is_admin).toBe(false);
    expect(byRole('dual_profile').is_dual_profile).toBe(true);
    expect(byRole('business').business_ids).toHaveLength(2);
    expect(byRole('teammate').teammate_of_business_ids).toHaveLength(1);
    expect(byRole('teammate_suspended').teammate_of_business_ids).toHaveLength(0);

    // Only hashes are stored.
    const { results } = await env.DB.prepare('SELECT COUNT(*) AS n FROM api_keys WHERE key_hash LIKE ? OR prefix = key_hash').bind('smk_%').all<{ n: number }>();
    expect(results[0]!.n).toBe(0);
  });

  it('seeds the promised variety', async () => {
    const d = db();
    const demo = await demoUserIds();
    const bizRows = await d.select().from(businesses).where(inArray(businesses.user_id, demo));
    expect(bizRows.length).toBeGreaterThanOrEqual(2);
    expect(new Set(bizRows.map((b) => b.timezone)).size).toBeGreaterThanOrEqual(2);
    const bistro = bizRows.find((b) => b.name === 'Harbor Street Bistro')!;
    expect(bistro).toMatchObject({ timezone: 'America/New_York', city_id: 1, geofence_radius_m: 150, auto_fill_on_cancel: true });
    expect(bistro.weekly_labor_budget_minor).toBeGreaterThan(0);
    expect(bizRows.find((b) => b.name === 'Camden Lock Coffee')).toMatchObject({ timezone: 'Europe/London', city_id: 10, require_clock_photo: true, currency: 'GBP' });

    const bizIds = bizRows.map((b) => b.id);
    const mates = await d.select().from(teammates).where(inArray(teammates.business_id, bizIds));
    expect(mates.map((m) => m.status).sort()).toEqual([0, 1]);

    const shf = await d.select().from(shifters).where(inArray(shifters.user_id, demo));
    expect(shf.length).toBeGreaterThanOrEqual(6);
    expect(shf.some((s) => !s.accept_shift_req)).toBe(true);
    expect(shf.some((s) => s.monthly_earnings_goal_minor !== null)).toBe(true);

    const cons = await d.select().from(requestAuthorizations).where(inArray(requestAuthorizations.business_id, bizIds));
    const conStatus = cons.map((c) => c.status);
    expect(conStatus.filter((s) => s === 'accepted').length).toBeGreaterThan(cons.length / 2);
    expect(conStatus).toContain('pending');
    expect(conStatus).toContain('declined');

    const rows = await d.select().from(shiftRequests).where(inArray(shiftRequests.business_id, bizIds));
    const now = Date.now();
    const worked = rows.filter((r) => [2, 5].includes(r.request_status) && r.shift_end_at !== null && !r.is_noshow);
    const dates = worked.map((r) => r.shift_date).sort();
    const spanDays = (Date.parse(dates.at(-1)!) - Date.parse(dates[0]!)) / 86_400_000;
    expect(spanDays).toBeGreaterThanOrEqual(90);
    expect(worked.some((r) => r.shift_out < r.shift_in)).toBe(true);
    expect(worked.some((r) => r.request_status === SHIFT_STATUS.completed)).toBe(true);
    const statuses = new Set(rows.map((r) => r.request_status));
    for (const s of [SHIFT_STATUS.cancelled, SHIFT_STATUS.declined, SHIFT_STATUS.expired]) expect(statuses).toContain(s);
    expect(rows.some((r) => r.is_noshow && r.request_status === 2 && r.shift_end_at === null)).toBe(true);
    expect(rows.filter((r) => r.request_status === 7).every((r) => r.cancelled_by !== null && r.cancelled_at !== null)).toBe(true);

    const open = rows.filter((r) => r.is_broadcast && r.request_status === 1 && r.shifter_id === null && r.starts_at > now);
    expect(open.length).toBeGreaterThanOrEqual(8);
    expect(open.every((r) => r.starts_at < now + 15 * 86_400_000)).toBe(true);
    expect(rows.some((r) => r.request_status === 1 && !r.is_broadcast && r.shifter_id !== null && r.starts_at > now)).toBe(true);
    expect(rows.some((r) => r.request_status === 2 && r.starts_at > now)).toBe(true);

    const tz = new Map(bizRows.map((b) => [b.id, b]));
    for (const r of rows) {
      const b = tz.get(r.business_id)!;
      const t = shiftInstants(r.shift_date, r.shift_in, r.shift_out, b.timezone);
      expect([r.starts_at, r.ends_at]).toEqual([t.startsAt, t.endsAt]);
      expect(r.currency).toBe(b.currency);
      expect(r.shiftrole_id).toBeGreaterThanOrEqual(1);
      expect(r.shiftrole_id).toBeLessThanOrEqual(15);
      expect(r.created_at).toBeLessThan(r.starts_at);
    }

    // A shift over each zone's DST change, when the window holds one: 9 (or 7) real hours.
    for (const zone of ['America/New_York', 'Europe/London']) {
      const today = todayIn(zone);
      const change = Array.from({ length: 100 }, (_, i) => addDays(today, -100 + i)).find(
        (day) => wallClockToInstant(addDays(day, 1), '12:00', zone) - wallClockToInstant(day, '12:00', zone) !== 86_400_000,
      );
      if (!change) continue;
      const dst = worked.filter((r) => tz.get(r.business_id)!.timezone === zone && r.shift_date === change && r.shift_out < r.shift_in);
      expect(dst.length, `${zone} ${change}`).toBeGreaterThan(0);
      const mins = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
      const nominal = (mins(dst[0]!.shift_out) - mins(dst[0]!.shift_in) + 1440) % 1440;
      expect(Math.abs((dst[0]!.ends_at - dst[0]!.starts_at) / 60_000 - nominal)).toBe(60);
    }
  });

  it('does nothing the second time without force', async () => {
    const before = await demoUserIds();
    const again = await seed();
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ seeded: false, accounts: [] });
    expect(await demoUserIds()).toEqual(before);
  });
});

describe('demo seed internals', () => {
  it('keeps every insert within D1 bound-parameter cap', () => {
    const crew = ['jordan', 'alex', 'taylor', 'chris', 'oliver', 'amelia', 'noah'];
    const shifterMap = new Map(crew.map((k) => [k, { id: `shf_${k}`, user_id: `usr_${k}`, accept_shift_req: k !== 'chris' }]));
    const biz = (key: string, timezone: string, currency: 'USD' | 'GBP') => ({
      key,
      id: `biz_${key}`,
      timezone,
      currency,
      latitude: 40.7,
      longitude: -74,
      geofence_radius_m: 150,
      creators: ['usr_owner'],
      crew,
    });
    const rows = buildShiftHistory(Date.now(), [biz('bistro', 'America/New_York', 'USD'), biz('coffee', 'Europe/London', 'GBP')], shifterMap);
    expect(rows.length).toBeGreaterThan(150);
    const statements = chunkedInserts(db(), shiftRequests, rows) as unknown as Array<{ toSQL(): { params: unknown[] } }>;
    expect(statements.length).toBeLessThan(rows.length);
    for (const st of statements) expect(st.toSQL().params.length).toBeLessThanOrEqual(MAX_PARAMS);
  });
});

describe('nightly demo reset', () => {
  it('is skipped when DEMO_MODE is off', async () => {
    const before = await demoUserIds();
    await runNightly({ ...env, DEMO_MODE: 'false' });
    expect((await demoUserIds()).sort()).toEqual(before.sort());
  });

  it('replaces demo data and keys, and leaves real accounts and their rows alone', async () => {
    const real = await makeUser({ business: true });
    const realShifter = await makeUser({ shifter: true });
    await connect(real.businessId!, realShifter.shifterId!);
    const t = shiftInstants(addDays(todayIn('America/New_York'), 3), '09:00', '17:00', 'America/New_York');
    await db().insert(shiftRequests).values({
      id: 'sr_realshift0000000001',
      business_id: real.businessId!,
      shifter_id: realShifter.shifterId!,
      created_by_user_id: real.userId,
      shift_date: addDays(todayIn('America/New_York'), 3),
      shift_in: '09:00',
      shift_out: '17:00',
      starts_at: t.startsAt,
      ends_at: t.endsAt,
      shiftrole_id: 1,
      hourly_rate_minor: 2000,
      currency: 'USD',
      request_status: 2,
      created_at: Date.now(),
      updated_at: Date.now(),
    });

    const old = await seed({ force: true });
    expect(old.body.seeded).toBe(true);
    const oldIds = await demoUserIds();

    await runNightly();

    for (const a of old.body.accounts as Account[]) {
      expectError(await call('GET', '/v1/user/details', { key: a.api_key }), 401, 'AUTH-REQ-ERR');
    }
    const newIds = await demoUserIds();
    expect(newIds.length).toBe(oldIds.length);
    expect(newIds.some((id) => oldIds.includes(id))).toBe(false);
    const demoBiz = await db().select({ id: businesses.id }).from(businesses).where(inArray(businesses.user_id, newIds));
    expect(demoBiz.length).toBeGreaterThanOrEqual(2);
    const { results } = await env.DB.prepare('SELECT COUNT(*) AS n FROM shift_requests WHERE business_id IN (SELECT b.id FROM businesses b JOIN users u ON u.id = b.user_id WHERE u.is_demo = 1)').all<{ n: number }>();
    expect(results[0]!.n).toBeGreaterThan(200);
    // Nothing of the old demo world is left behind.
    const { results: orphans } = await env.DB.prepare('SELECT COUNT(*) AS n FROM shifters WHERE user_id NOT IN (SELECT id FROM users)').all<{ n: number }>();
    expect(orphans[0]!.n).toBe(0);

    for (const u of [real, realShifter]) expect((await call('GET', '/v1/user/details', { key: u.key })).status).toBe(200);
    expect(await db().select().from(businesses).where(eq(businesses.id, real.businessId!))).toHaveLength(1);
    expect(
      await db()
        .select()
        .from(requestAuthorizations)
        .where(and(eq(requestAuthorizations.business_id, real.businessId!), eq(requestAuthorizations.shifter_id, realShifter.shifterId!))),
    ).toHaveLength(1);
    expect(await db().select().from(shiftRequests).where(eq(shiftRequests.id, 'sr_realshift0000000001'))).toHaveLength(1);
  });

  it('removes rows that tie real accounts to demo ones (a real business asking a demo shifter)', async () => {
    const real = await makeUser({ business: true });
    const [demoShifter] = await db().select().from(shifters).where(inArray(shifters.user_id, await demoUserIds())).limit(1);
    await connect(real.businessId!, demoShifter!.id);
    const t = shiftInstants(addDays(todayIn('America/New_York'), 2), '10:00', '14:00', 'America/New_York');
    await db().insert(shiftRequests).values({
      id: 'sr_realtodemo000000001',
      business_id: real.businessId!,
      shifter_id: demoShifter!.id,
      shift_date: addDays(todayIn('America/New_York'), 2),
      shift_in: '10:00',
      shift_out: '14:00',
      starts_at: t.startsAt,
      ends_at: t.endsAt,
      shiftrole_id: 2,
      hourly_rate_minor: 2200,
      currency: 'USD',
      created_at: Date.now(),
      updated_at: Date.now(),
    });
    await runNightly();
    expect(await db().select().from(shiftRequests).where(eq(shiftRequests.id, 'sr_realtodemo000000001'))).toHaveLength(0);
    expect((await call('GET', '/v1/user/details', { key: real.key })).status).toBe(200);
  });
});
