// inside: services/insights
import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { businesses, shiftCrewWindow, shiftRequests, shiftRollupWindows } from '../../src/db/schema';
import {
  advanceInsightRollups,
  crewAnalytics,
  goingRate,
  laborCosts,
  readWindow,
  rebuildInsightRollups,
} from '../../src/services/insights';
import type { GoingRateQuery } from '../../src/services/insights/schemas';
import { systemContext } from '../../src/services/kernel';
import type { AppBindings } from '../../src/env';
import { contextAt, nextDstChange } from '../helpers/clock';
import { connect, db, makeUser, type TestUser } from '../helpers/factory';
import { crewAnalyticsFromRows, goingRateFromRows, laborCostsFromRows, rollupTables } from '../helpers/insights-reference';
import { insertShift } from '../helpers/rows';
import { addDays, dateInZone, shiftInstants } from '../../src/lib/shift-time';

/*
 * The figures read rollups kept by triggers (services/insights/rollups.ts). These tests hold them to
 * the plain computation over the rows (test/helpers/insights-reference.ts) on random histories: zones
 * with 30- and 45-minute offsets and DST nights in both hemispheres, overnight shifts, every kind of
 * change a write makes to a row (clock-out, no-show, cancellation, completion, a new rate, shifter or
 * times, a deletion), a business changing zone or place or being deleted, and the jobs that move the
 * windows and rebuild, run at random moments of an injected clock.
 */

const DAY = 86_400_000;
/** The injected "now" of the histories: mid-November 2026, days after the northern fall-back nights. */
const T0 = Date.parse('2026-11-10T15:00:00Z');
const ZONES = ['America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Chatham', 'America/St_Johns', 'Europe/London', 'UTC'];
const PLACES = [
  { city_id: 1, state_id: 1, country_id: 1 },
  { city_id: 2, state_id: 1, country_id: 1 },
  { city_id: 10, state_id: 8, country_id: 3 },
  { city_id: null, state_id: null, country_id: null },
];
const CURRENCIES = ['USD', 'USD', 'USD', 'EUR', 'JPY'];
const STATES = ['pending', 'accepted', 'worked', 'worked', 'worked', 'completed', 'noshow', 'cancelShifter', 'cancelBusiness'] as const;

const sys = () => systemContext(env as AppBindings, { waitUntil: () => undefined }, 'test:rollups');
const at = (now: number) => {
  const ctx = sys();
  return { ...ctx, now: () => now };
};

/** Dates around the DST nights of every zone within the histories' span, so many shifts cross one. */
const dstDates = ZONES.flatMap((tz) =>
  (['spring', 'fall'] as const).flatMap((dir) => {
    try {
      return [nextDstChange(tz, '2026-05-20', dir)];
    } catch {
      return [];
    }
  }),
).filter((d) => d >= '2026-06-01' && d <= '2026-11-20');

const insertOp = fc.record({
  op: fc.constant('insert' as const),
  biz: fc.nat(3),
  shifter: fc.nat(4),
  // Any day; a DST night; a Sunday or Monday, where a business's week and the UTC week part; or near
  // the edges of the 90-day windows, which the jobs and the reads place at different moments.
  day: fc.oneof(
    fc.integer({ min: -125, max: 8 }),
    fc.integer({ min: -94, max: -86 }),
    fc.integer({ min: -3, max: 3 }),
    fc.constantFrom(...dstDates.map((d) => Math.round((Date.parse(d) - T0) / DAY))),
    fc.integer({ min: 0, max: 23 }).map((k) => -1 - 7 * Math.floor(k / 2) - (k % 2)),
  ),
  // Any quarter hour, often near midnight.
  start: fc.oneof(
    fc.integer({ min: 0, max: 95 }).map((q) => q * 15),
    fc.constantFrom(0, 15, 45, 120, 165, 300, 1290, 1380, 1425),
  ),
  minutes: fc.integer({ min: 4, max: 48 }).map((q) => q * 15),
  role: fc.integer({ min: 1, max: 4 }),
  rate: fc.oneof(fc.constantFrom(1500, 1733, 2000, 2000, 2500), fc.integer({ min: 800, max: 6000 })),
  currency: fc.constantFrom(...CURRENCIES),
  state: fc.constantFrom(...STATES),
});
const changeOp = fc.record({
  op: fc.constant('change' as const),
  target: fc.nat(200),
  kind: fc.constantFrom('clockOut', 'noShow', 'cancelShifter', 'complete', 'rate', 'shifter', 'times', 'unwork', 'delete'),
  value: fc.integer({ min: 0, max: 6000 }),
});
const businessOp = fc.record({
  op: fc.constant('business' as const),
  biz: fc.nat(3),
  kind: fc.constantFrom('zone', 'place', 'place', 'zone'),
  value: fc.nat(20),
});
const jobOp = fc.record({
  op: fc.constant('job' as const),
  kind: fc.constantFrom('advance', 'advance', 'advance', 'rebuild'),
  offsetMinutes: fc.integer({ min: -3 * 24 * 60, max: 2 * 24 * 60 }),
});
const history = fc.array(fc.oneof({ arbitrary: insertOp, weight: 6 }, { arbitrary: changeOp, weight: 4 }, businessOp, jobOp), {
  minLength: 10,
  maxLength: 45,
});

interface World {
  owners: TestUser[];
  businessIds: string[];
  shifters: TestUser[];
}

async function makeWorld(): Promise<World> {
  const owners: TestUser[] = [];
  for (let i = 0; i < 4; i++) {
    owners.push(await makeUser({ business: { timezone: ZONES[i]!, currency: i === 2 ? 'EUR' : 'USD', ...PLACES[i % PLACES.length]! } }));
  }
  const shifters: TestUser[] = [];
  for (let i = 0; i < 5; i++) shifters.push(await makeUser({ shifter: true, name: `Crew ${i}` }));
  // Crew analytics reports connected shifters: all but the last, so a stranger's shifts are ignored.
  for (const o of owners) for (const s of shifters.slice(0, 4)) await connect(o.businessId!, s.shifterId!);
  return { owners, businessIds: owners.map((o) => o.businessId!), shifters };
}

type Op = typeof history extends fc.Arbitrary<Array<infer T>> ? T : never;

async function apply(world: World, ops: Op[], ids: string[]) {
  for (const o of ops) {
    if (o.op === 'insert') {
      const [biz] = await db().select().from(businesses).where(eq(businesses.id, world.businessIds[o.biz]!));
      const start = T0 + o.day * DAY;
      const date = dateInZone(start, biz!.timezone);
      const hhmm = (m: number) => `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
      const state = o.state;
      ids.push(
        await insertShift({
          businessId: biz!.id,
          shifterId: state === 'pending' && o.shifter >= 3 ? null : world.shifters[o.shifter]!.shifterId,
          // A pending shift without a shifter is an open broadcast (the relevance ranking's groups).
          broadcast: state === 'pending' && o.shifter >= 3,
          tz: biz!.timezone,
          date,
          in: hhmm(o.start),
          out: hhmm(o.start + o.minutes),
          rate: o.rate,
          role: o.role,
          currency: o.currency,
          status: state === 'pending' ? 1 : state === 'completed' ? 5 : undefined,
          worked: state === 'worked' || state === 'completed',
          noshow: state === 'noshow',
          cancelledBy: state === 'cancelShifter' ? 'shifter' : state === 'cancelBusiness' ? 'business' : null,
        }),
      );
    } else if (o.op === 'change' && ids.length) {
      const id = ids[o.target % ids.length]!;
      const set = (values: Partial<typeof shiftRequests.$inferInsert>) =>
        db().update(shiftRequests).set(values).where(eq(shiftRequests.id, id));
      const [row] = await db().select().from(shiftRequests).where(eq(shiftRequests.id, id));
      if (!row) continue;
      switch (o.kind) {
        case 'clockOut':
          await set({ shift_start_at: row.starts_at, shift_end_at: row.ends_at });
          break;
        case 'noShow':
          await set({ is_noshow: true });
          break;
        case 'cancelShifter':
          await set({ request_status: 7, cancelled_by: 'shifter', cancelled_at: row.starts_at - DAY });
          break;
        case 'complete':
          await set({ request_status: 5 });
          break;
        case 'rate':
          await set({ hourly_rate_minor: 500 + o.value });
          break;
        case 'shifter':
          await set({ shifter_id: world.shifters[o.value % world.shifters.length]!.shifterId });
          break;
        case 'times': {
          const [biz] = await db().select().from(businesses).where(eq(businesses.id, row.business_id));
          const t = shiftInstants(addDays(row.shift_date, (o.value % 5) - 2), row.shift_in, row.shift_out, biz!.timezone);
          await set({ starts_at: t.startsAt, ends_at: t.endsAt });
          break;
        }
        case 'unwork':
          await set({ shift_end_at: null });
          break;
        case 'delete':
          await db().delete(shiftRequests).where(eq(shiftRequests.id, id));
          break;
      }
    } else if (o.op === 'business') {
      const id = world.businessIds[o.biz]!;
      if (o.kind === 'zone')
        await db()
          .update(businesses)
          .set({ timezone: ZONES[o.value % ZONES.length]! })
          .where(eq(businesses.id, id));
      else
        await db()
          .update(businesses)
          .set(PLACES[o.value % PLACES.length]!)
          .where(eq(businesses.id, id));
    } else if (o.op === 'job') {
      const ctx = at(T0 + o.offsetMinutes * 60_000);
      if (o.kind === 'advance') await advanceInsightRollups(ctx);
      else await rebuildInsightRollups(ctx);
    }
  }
}

const GOING_QUERIES: GoingRateQuery[] = [
  { city_id: 1 },
  { state_id: 1 },
  { country_id: 1 },
  { city_id: 10, shiftrole_id: 2 },
  { country_id: 1, shiftrole_id: 1 },
  { country_id: 1, currency: 'EUR' },
  { city_id: 1, state_id: 1, country_id: 1, shiftrole_id: 3 },
  { state_id: 8 },
];

/** Every figure, from the services (rollups) and from the rows, at `now`. */
async function expectFiguresMatch(world: World, now: number, weeks: string[]) {
  const settings = sys().settings;
  for (const [i, owner] of world.owners.entries()) {
    const [biz] = await db().select().from(businesses).where(eq(businesses.id, world.businessIds[i]!));
    const ctx = contextAt(now, owner);
    for (const week of weeks) {
      expect(await laborCosts(ctx, biz!.id, { week }), `labor ${biz!.timezone} ${week}`).toEqual(await laborCostsFromRows(biz!, week, now));
    }
    expect(await crewAnalytics(ctx, biz!.id), `crew ${biz!.timezone}`).toEqual(await crewAnalyticsFromRows(biz!, now, true));
  }
  for (const q of GOING_QUERIES) {
    expect(await goingRate(contextAt(now, world.owners[0]!), q), `going rate ${JSON.stringify(q)}`).toEqual(
      await goingRateFromRows(q, now, settings.GOING_RATE_WINDOW_DAYS, settings.GOING_RATE_MIN_SAMPLE),
    );
  }
}

describe('figure rollups equal the rows', () => {
  it('on random histories across zones, DST nights and overnight shifts, whatever the jobs did', async () => {
    const world = await makeWorld();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        history,
        fc.integer({ min: -2 * 24 * 60, max: 3 * 24 * 60 }),
        fc.constantFrom('2026-11-04', '2026-10-28', '2026-11-10', '2026-09-29', '2026-10-05'),
        async (ops, readOffset, week) => {
          runs++;
          // Each history starts from no rows: deleting them goes through the triggers too.
          for (const id of world.businessIds) await db().delete(shiftRequests).where(eq(shiftRequests.business_id, id));
          const ids: string[] = [];
          await apply(world, ops, ids);
          await expectFiguresMatch(world, T0 + readOffset * 60_000, [week]);
          await expectFiguresMatch(world, T0 - readOffset * 30_000, []);
          // What the triggers kept is what a rebuild computes from the rows.
          const kept = await rollupTables();
          await rebuildInsightRollups(at(T0));
          expect(await rollupTables()).toEqual(kept);
        },
      ),
      { numRuns: 14, seed: 20261110, endOnFailure: true },
    );
    expect(runs).toBeGreaterThanOrEqual(14);
  });

  it("labor's weeks: the shifts between a local Monday and the UTC one move between weeks, by shifter and role too", async () => {
    // New York's Monday starts after the UTC one (its Sunday evening is in the next UTC week),
    // Kathmandu's before (its early Monday is in the UTC week before): both ways, at every boundary the
    // figures read, in two currencies, for three shifters and three roles.
    const sh = await Promise.all([0, 1, 2].map((i) => makeUser({ shifter: true, name: `Edge ${i}` })));
    const week = '2026-11-10';
    for (const tz of ['America/New_York', 'Asia/Kathmandu']) {
      const owner = await makeUser({ business: { timezone: tz, currency: 'USD' } });
      for (const s of sh) await connect(owner.businessId!, s.shifterId!);
      let inThisWeek = 0;
      for (let w = -8; w <= 1; w++) {
        const monday = addDays('2026-11-09', 7 * w);
        for (const [k, [date, from, to]] of (
          [
            [addDays(monday, -1), '20:00', '23:30'],
            [addDays(monday, -1), '22:15', '01:45'],
            [monday, '01:00', '04:00'],
            [monday, '05:00', '09:30'],
          ] as const
        ).entries()) {
          await insertShift({
            businessId: owner.businessId!,
            shifterId: sh[k % 3]!.shifterId,
            tz,
            date,
            in: from,
            out: to,
            rate: 1500 + 100 * k + w,
            role: 1 + (k % 3),
            currency: k === 3 && w === 0 ? 'EUR' : 'USD',
          });
          if (date >= '2026-11-09' && date <= '2026-11-15') inThisWeek++;
        }
      }
      const [biz] = await db().select().from(businesses).where(eq(businesses.id, owner.businessId!));
      const got = await laborCosts(contextAt(T0, owner), owner.businessId!, { week });
      expect(got, tz).toEqual(await laborCostsFromRows(biz!, week, T0));
      // A week holds its own Monday's and Sunday's shifts (four, this one a euro shift of them), whatever the UTC week says.
      expect(got.this_week_shifts + got.other_currencies.reduce((n, o) => n + o.shifts, 0), tz).toBe(inThisWeek);
      expect(got.by_shifter.reduce((n, r) => n + r.shifts, 0) + 1, tz).toBe(inThisWeek);
      expect(
        got.last_8_weeks.map((x) => x.shifts),
        tz,
      ).toEqual([4, 4, 4, 4, 4, 4, 4, 3]);
    }
  });

  it('the groups of open broadcasts follow posts, rate changes, claims, cancellations and deletions', async () => {
    const owner = await makeUser({ business: { timezone: 'Europe/London', currency: 'GBP' } });
    const sh = await makeUser({ shifter: true });
    const groups = async () =>
      (
        await db().all<{ shiftrole_id: number; currency: string; open_count: number; best_rate_minor: number }>(
          sql`SELECT shiftrole_id, currency, open_count, best_rate_minor FROM open_broadcast_groups WHERE business_id = ${owner.businessId} ORDER BY 1, 2`,
        )
      ).map((g) => [g.shiftrole_id, g.currency, g.open_count, g.best_rate_minor]);
    const post = (role: number, rate: number, currency = 'GBP') =>
      insertShift({
        businessId: owner.businessId!,
        shifterId: null,
        broadcast: true,
        status: 1,
        tz: 'Europe/London',
        date: '2026-12-01',
        in: '09:00',
        out: '17:00',
        rate,
        role,
        currency,
      });
    const a = await post(1, 1500);
    const b = await post(1, 2200);
    const c = await post(2, 1800);
    await post(2, 1700, 'EUR');
    expect(await groups()).toEqual([
      [1, 'GBP', 2, 2200],
      [2, 'EUR', 1, 1700],
      [2, 'GBP', 1, 1800],
    ]);
    const set = (id: string, values: Partial<typeof shiftRequests.$inferInsert>) =>
      db().update(shiftRequests).set(values).where(eq(shiftRequests.id, id));
    // The best broadcast claimed: the group's best falls to the next one.
    await set(b, { request_status: 2, shifter_id: sh.shifterId });
    expect((await groups())[0]).toEqual([1, 'GBP', 1, 1500]);
    // A rate raised, a role changed.
    await set(a, { hourly_rate_minor: 2600 });
    await set(c, { shiftrole_id: 1 });
    expect(await groups()).toEqual([
      [1, 'GBP', 2, 2600],
      [2, 'EUR', 1, 1700],
    ]);
    // Cancelled and deleted: the groups go.
    await set(a, { request_status: 7, cancelled_by: 'business' });
    await db().delete(shiftRequests).where(eq(shiftRequests.id, c));
    expect(await groups()).toEqual([[2, 'EUR', 1, 1700]]);
    // What the triggers kept is what a rebuild computes.
    const kept = await groups();
    await rebuildInsightRollups(at(T0), { businessIds: [owner.businessId!] });
    expect(await groups()).toEqual(kept);
  });

  it('a business deleted with its shifts leaves nothing behind, and its place change moves its rates', async () => {
    const owner = await makeUser({ business: { timezone: 'America/New_York', city_id: 2, state_id: 1, country_id: 1 } });
    const gone = await makeUser({ business: { timezone: 'Asia/Kathmandu', city_id: 2, state_id: 1, country_id: 1 } });
    const sh = await makeUser({ shifter: true });
    await connect(owner.businessId!, sh.shifterId!);
    const ctx = at(T0);
    await advanceInsightRollups(ctx);
    for (const b of [owner, gone]) {
      for (let d = 1; d <= 12; d++) {
        await insertShift({
          businessId: b.businessId!,
          shifterId: sh.shifterId,
          tz: 'America/New_York',
          date: dateInZone(T0 - d * DAY, 'America/New_York'),
          in: '20:00',
          out: '04:30',
          rate: 2000 + d * 25,
        });
      }
    }
    const q = { city_id: 2 };
    const before = await goingRate(contextAt(T0, owner), q);
    expect(before.sample_size).toBe(24);
    // The deleted business's user goes, and its business and shifts with it (cascades).
    await db().run(sql`DELETE FROM users WHERE id = ${gone.userId}`);
    expect((await goingRate(contextAt(T0, owner), q)).sample_size).toBe(12);
    expect(await db().select().from(shiftCrewWindow).where(eq(shiftCrewWindow.business_id, gone.businessId!))).toEqual([]);
    // Moving the business to Los Angeles moves its twelve shifts with it.
    await db().update(businesses).set({ city_id: 3, state_id: 2, country_id: 1 }).where(eq(businesses.id, owner.businessId!));
    expect((await goingRate(contextAt(T0, owner), q)).sample_size).toBe(0);
    const la = await goingRate(contextAt(T0, owner), { city_id: 3 });
    expect(la.sample_size).toBeGreaterThanOrEqual(12);
    expect(la).toEqual(await goingRateFromRows({ city_id: 3 }, T0, 90, 10));
    const kept = await rollupTables();
    await rebuildInsightRollups(ctx);
    expect(await rollupTables()).toEqual(kept);
  });

  it('the windows follow the clock in bounded steps, and a rollup changed by hand is repaired by the rebuild', async () => {
    const owner = await makeUser({ business: { timezone: 'Europe/London', city_id: 11, state_id: 8, country_id: 3, currency: 'GBP' } });
    const sh = await makeUser({ shifter: true });
    await connect(owner.businessId!, sh.shifterId!);
    // As after the migration: windows empty, so the triggers count nothing in them yet.
    await db().update(shiftRollupWindows).set({ covers_from: 0, covers_to: 0 });
    await db().delete(shiftCrewWindow);
    for (let d = 0; d < 100; d += 3) {
      await insertShift({
        businessId: owner.businessId!,
        shifterId: sh.shifterId,
        tz: 'Europe/London',
        date: dateInZone(T0 - d * DAY, 'Europe/London'),
        in: '09:00',
        out: '17:00',
        rate: 1500 + d,
        currency: 'GBP',
      });
    }
    const ctx = at(T0);
    const steps = await advanceInsightRollups(ctx);
    // 90 days from nothing, at most 7 days of starts per batch.
    expect(steps.crew).toBe(13);
    expect(await readWindow(ctx, 'crew')).toEqual({ from: T0 - 90 * DAY, to: T0 });
    expect((await advanceInsightRollups(at(T0 + 5 * 60_000))).crew).toBe(1);
    const expected = await crewAnalyticsFromRows(
      (await db().select().from(businesses).where(eq(businesses.id, owner.businessId!)))[0]!,
      T0 + 60 * 60_000,
      true,
    );
    expect(await crewAnalytics(contextAt(T0 + 60 * 60_000, owner), owner.businessId!)).toEqual(expected);
    expect(expected.per_shifter[0]!.completed_shifts_90d).toBe(30);
    // A rollup row changed outside the triggers is wrong until the nightly rebuild puts it right.
    await db().update(shiftCrewWindow).set({ worked: 999 }).where(eq(shiftCrewWindow.business_id, owner.businessId!));
    expect((await crewAnalytics(contextAt(T0 + 60 * 60_000, owner), owner.businessId!)).per_shifter[0]!.completed_shifts_90d).not.toBe(30);
    await rebuildInsightRollups(ctx, { businessIds: [owner.businessId!] });
    expect(await crewAnalytics(contextAt(T0 + 60 * 60_000, owner), owner.businessId!)).toEqual(expected);
  });
});
