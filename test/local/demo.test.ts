// inside: local/demo
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  admins,
  businesses,
  counterRules,
  credentials,
  mileageEntries,
  requestAuthorizations,
  shiftRequests,
  shifters,
  teammates,
  users,
} from '../../src/db/schema';
import { getSettings } from '../../src/env';
import { handleScheduled } from '../../src/jobs/scheduled';
import { Temporal } from 'temporal-polyfill';
import { addDays, shiftInstants, todayIn, wallClockToInstant } from '../../src/lib/shift-time';
import worker from '../../src';
import { buildShiftHistory } from '../../src/local/demo/history';
import { demoPurgeStatements } from '../../src/local/demo/purge';
import { buildShifterRecords, demoPdf } from '../../src/local/demo/records';
import { demoEmail, PEOPLE } from '../../src/local/demo';
import { COUNTER_RULES } from '../../src/local/demo/cast';
import { FLOOR_ASK } from '../../src/local/demo/plans';
import { suggestCounter } from '../../src/services/shifts';
import { chunkedInserts, DEMO_PASSWORD, MAX_PARAMS } from '../../src/local/demo/seed';
import { SHIFT_STATUS } from '../../src/services/kernel';
import { BASE, call, expectError } from '../helpers/api';
import { connect, db, makeUser } from '../helpers/factory';

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

async function demoShifters() {
  return db()
    .select()
    .from(shifters)
    .where(inArray(shifters.user_id, await demoUserIds()));
}

/** The R2 keys under `prefix`, every page. */
async function r2Keys(prefix: string) {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.UPLOADS.list({ prefix, ...(cursor ? { cursor } : {}) });
    keys.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
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
    const { results } = await env.DB.prepare('SELECT COUNT(*) AS n FROM api_keys WHERE key_hash LIKE ? OR prefix = key_hash')
      .bind('smk_%')
      .all<{ n: number }>();
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
    expect(bizRows.find((b) => b.name === 'Camden Lock Coffee')).toMatchObject({
      timezone: 'Europe/London',
      city_id: 10,
      require_clock_photo: true,
      currency: 'GBP',
    });

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

    // A shift over each zone's DST change, when the window holds one (yesterday's may not have ended):
    // every worked shift that spans the instant the clocks change has 7 or 9 real hours, not its nominal 8.
    for (const zone of ['America/New_York', 'Europe/London']) {
      const today = todayIn(zone);
      const change = Array.from({ length: 99 }, (_, i) => addDays(today, -100 + i)).find(
        (day) => wallClockToInstant(addDays(day, 1), '12:00', zone) - wallClockToInstant(day, '12:00', zone) !== 86_400_000,
      );
      if (!change) continue;
      const instant = clocksChangeAt(change, zone);
      const crossing = worked.filter((r) => tz.get(r.business_id)!.timezone === zone && r.starts_at < instant && instant < r.ends_at);
      expect(crossing.length, `${zone} ${change}`).toBeGreaterThan(0);
      const mins = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
      for (const r of crossing) {
        const nominal = (mins(r.shift_out) - mins(r.shift_in) + 1440) % 1440;
        expect(Math.abs((r.ends_at - r.starts_at) / 60_000 - nominal), `${r.shift_date} ${r.shift_in}-${r.shift_out}`).toBe(60);
      }
    }
  });

  it('gives demo shifters mileage, counter rules and credentials', async () => {
    const shf = await demoShifters();
    const ids = shf.map((s) => s.id);
    const miles = await db().select().from(mileageEntries).where(inArray(mileageEntries.shifter_id, ids));
    const rules = await db().select().from(counterRules).where(inArray(counterRules.shifter_id, ids));
    const creds = await db().select().from(credentials).where(inArray(credentials.shifter_id, ids));

    // Mileage: every shifter, within the last ~100 days and some in the previous calendar year, at the operator rate.
    const rate = getSettings(env).MILEAGE_RATE_CENTS;
    for (const s of shf) {
      const today = todayIn(s.timezone);
      const year = Number(today.slice(0, 4));
      const mine = miles.filter((m) => m.shifter_id === s.id);
      expect(mine.length, s.display_name).toBeGreaterThanOrEqual(5);
      expect(mine.some((m) => m.log_date >= `${year}-01-01`)).toBe(true);
      expect(mine.filter((m) => m.log_date.startsWith(`${year - 1}-`)).length).toBeGreaterThanOrEqual(2);
      expect(mine.filter((m) => m.log_date >= addDays(today, -105)).length).toBeGreaterThanOrEqual(5);
      expect(mine.every((m) => m.log_date <= today && m.miles > 0 && m.rate_per_mile_cents === rate)).toBe(true);
    }

    // Counter rules: at least two shifters, a role + weekday band rule and a distance premium.
    expect(new Set(rules.map((r) => r.shifter_id)).size).toBeGreaterThanOrEqual(2);
    expect(rules.some((r) => r.is_active && r.shiftrole_id !== null && r.weekdays !== null && r.start_from !== null)).toBe(true);
    expect(rules.some((r) => r.is_active && r.distance_threshold_km !== null && r.distance_premium_minor !== null)).toBe(true);

    // Credentials: shown and hidden ones, and a PDF stored where docs/storage.md says, described as an upload would be.
    expect(new Set(creds.map((c) => c.is_visible))).toEqual(new Set([true, false]));
    const withDoc = creds.filter((c) => c.document_key !== null);
    expect(withDoc.length).toBeGreaterThanOrEqual(1);
    for (const c of withDoc) {
      expect(c.document_key).toMatch(new RegExp(`^credentials/${c.shifter_id}/${c.id}/upl_[0-9A-Za-z]{20}\\.pdf$`));
      expect(c.document_type).toBe('application/pdf');
      const obj = await env.UPLOADS.get(c.document_key!);
      expect(obj).not.toBeNull();
      const bytes = new Uint8Array(await obj!.arrayBuffer());
      expect(bytes.byteLength).toBe(c.document_size);
      expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
      expect(obj!.httpMetadata?.contentType).toBe('application/pdf');
      expect(obj!.customMetadata).toMatchObject({
        shifter_id: c.shifter_id,
        credential_id: c.id,
        uploaded_by: shf.find((s) => s.id === c.shifter_id)!.user_id,
      });
    }
  });

  it('shows the records through the API to the demo shifters', async () => {
    const accounts = first.body.accounts;
    const shf = await demoShifters();
    const keyOf = (shifterId: string) => accounts.find((a) => a.user_id === shf.find((s) => s.id === shifterId)!.user_id)!.api_key;

    // Every demo shifter's own mileage rollup for this year (their zone) is non-zero, and last year's has entries.
    for (const s of shf) {
      const res = await call('GET', `/v1/shifter/${s.id}/mileage`, { key: keyOf(s.id) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.rollup.year).toBe(Number(todayIn(s.timezone).slice(0, 4)));
      expect(res.body.rollup.entries).toBeGreaterThan(0);
      expect(res.body.rollup.total_miles).toBeGreaterThan(0);
      expect(res.body.rollup.total_amount_cents).toBeGreaterThan(0);
      const prev = await call('GET', `/v1/shifter/${s.id}/mileage`, { key: keyOf(s.id), query: { year: res.body.rollup.year - 1 } });
      expect(prev.body.rollup.entries).toBeGreaterThanOrEqual(2);
    }

    // A rule's owner sees a counter-offer suggested on at least one pending targeted request.
    const ruleOwners = [
      ...new Set(
        (
          await db()
            .select()
            .from(counterRules)
            .where(
              inArray(
                counterRules.shifter_id,
                shf.map((s) => s.id),
              ),
            )
        ).map((r) => r.shifter_id),
      ),
    ];
    const suggested: any[] = [];
    for (const id of ruleOwners) {
      const list = await call('POST', '/v1/shift_request/list_of_requests', {
        key: keyOf(id),
        body: { as: 'shifter', status: 1, limit: 100 },
      });
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      suggested.push(...list.body.data.filter((r: any) => r.suggested_counter_rate !== null && r.suggested_counter_rate !== undefined));
    }
    expect(suggested.length).toBeGreaterThan(0);
    for (const r of suggested) {
      expect(r).toMatchObject({ request_status: 1, is_broadcast: 0 });
      expect(r.counter_rule_id).toMatch(/^cr_/);
      expect(r.suggested_counter_rate).toBeGreaterThan(r.hourly_rate);
    }

    // Credentials: the owner sees the expiry flags and downloads the document; a business sees the shown ones only.
    const creds = await db()
      .select()
      .from(credentials)
      .where(
        inArray(
          credentials.shifter_id,
          shf.map((s) => s.id),
        ),
      );
    const views: any[] = [];
    for (const id of new Set(creds.map((c) => c.shifter_id))) {
      const res = await call('GET', `/v1/shifter/${id}/credentials`, { key: keyOf(id) });
      expect(res.status).toBe(200);
      views.push(...res.body.data);
    }
    expect(views).toHaveLength(creds.length);
    expect(views.some((v) => v.expiring && v.is_visible)).toBe(true);
    expect(views.some((v) => v.expired)).toBe(true);
    const doc = views.find((v) => v.has_document)!;
    expect(doc).toMatchObject({
      document_type: 'application/pdf',
      document_url: `/v1/shifter/${doc.shifter_id}/credentials/${doc.id}/document`,
    });
    const file = await exports.default.fetch(
      new Request(new URL(doc.document_url, BASE), { headers: { Authorization: `Bearer ${keyOf(doc.shifter_id)}` } }),
    );
    expect(file.status).toBe(200);
    expect(file.headers.get('Content-Type')).toBe('application/pdf');
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(bytes.byteLength).toBe(doc.document_size);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');

    const owner = accounts.find((a) => a.role === 'business')!;
    const seen = await call('GET', `/v1/shifter/${doc.shifter_id}/credentials`, { key: owner.api_key });
    expect(seen.status).toBe(200);
    const own = creds.filter((c) => c.shifter_id === doc.shifter_id);
    expect(seen.body.data.map((v: any) => v.id).sort()).toEqual(
      own
        .filter((c) => c.is_visible)
        .map((c) => c.id)
        .sort(),
    );
    expect(own.some((c) => !c.is_visible)).toBe(true);
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
    const rows = buildShiftHistory(
      Date.now(),
      [biz('bistro', 'America/New_York', 'USD'), biz('coffee', 'Europe/London', 'GBP')],
      shifterMap,
    );
    expect(rows.length).toBeGreaterThan(150);
    const statements = chunkedInserts(db(), shiftRequests, rows) as unknown as Array<{ toSQL(): { params: unknown[] } }>;
    expect(statements.length).toBeLessThan(rows.length);
    for (const st of statements) expect(st.toSQL().params.length).toBeLessThanOrEqual(MAX_PARAMS);

    const records = buildShifterRecords(
      Date.now(),
      crew.map((k) => ({ key: k, id: `shf_${k}`, user_id: `usr_${k}`, name: k, timezone: 'America/New_York' })),
      67,
    );
    const recordStatements = [
      ...chunkedInserts(db(), mileageEntries, records.mileage),
      ...chunkedInserts(db(), counterRules, records.counterRules),
      ...chunkedInserts(db(), credentials, records.credentials),
    ] as unknown as Array<{ toSQL(): { params: unknown[] } }>;
    expect(records.mileage.length).toBeGreaterThan(crew.length * 5);
    for (const st of recordStatements) expect(st.toSQL().params.length).toBeLessThanOrEqual(MAX_PARAMS);
  });

  it('always sends one pending request below a counter-rule floor, whatever the date', () => {
    const crew = ['jordan', 'alex', 'taylor', 'chris'];
    const shifterMap = new Map(crew.map((k) => [k, { id: `shf_${k}`, user_id: `usr_${k}`, accept_shift_req: k !== 'chris' }]));
    const bistro = {
      key: 'bistro',
      id: 'biz_bistro',
      timezone: 'America/New_York',
      currency: 'USD' as const,
      latitude: 40.7033,
      longitude: -74.017,
      geofence_radius_m: 150,
      creators: ['usr_owner'],
      crew,
    };
    // Only the weekday-band rules: a catch-all floor could be met by chance.
    const rules = COUNTER_RULES.filter((r) => r.shifter === FLOOR_ASK.shifter && r.weekdays !== null).map(({ shifter, ...r }, i) => ({
      ...r,
      id: `cr_${i}`,
    }));
    expect(rules.length).toBeGreaterThan(0);
    const start = Date.UTC(2026, 0, 1, 15);
    for (let day = 0; day < 365; day += 23) {
      const rows = buildShiftHistory(start + day * 86_400_000, [bistro], shifterMap);
      const incoming = rows.filter(
        (r) => r.shifter_id === `shf_${FLOOR_ASK.shifter}` && r.request_status === SHIFT_STATUS.pending && !r.is_broadcast,
      );
      const countered = incoming.filter((r) =>
        suggestCounter(rules, { ...r, hourly_rate_minor: r.hourly_rate_minor!, currency: r.currency! }, { distanceKm: 1.4 }),
      );
      expect(countered.length, `day ${day}`).toBeGreaterThan(0);
    }
  });

  it('places a worked shift over every clock change in its window, whatever the date and hour', () => {
    const shifterMap = new Map(
      ['jordan', 'alex', 'taylor', 'chris', 'amelia', 'oliver', 'noah'].map((k) => [
        k,
        { id: `shf_${k}`, user_id: `usr_${k}`, accept_shift_req: true },
      ]),
    );
    const place = { latitude: 40.7, longitude: -74, geofence_radius_m: 150, creators: ['usr_owner'] };
    const businesses = [
      {
        ...place,
        key: 'bistro',
        id: 'biz_bistro',
        timezone: 'America/New_York',
        currency: 'USD' as const,
        crew: ['jordan', 'alex', 'taylor', 'chris'],
      },
      { ...place, key: 'events', id: 'biz_events', timezone: 'America/New_York', currency: 'USD' as const, crew: ['jordan', 'taylor'] },
      {
        ...place,
        key: 'coffee',
        id: 'biz_coffee',
        timezone: 'Europe/London',
        currency: 'GBP' as const,
        crew: ['amelia', 'oliver', 'noah'],
      },
    ];
    const start = Date.UTC(2026, 0, 1, 3, 17);
    let checked = 0;
    for (let step = 0; step < 160; step++) {
      const now = start + step * (2.3 * 86_400_000);
      const rows = buildShiftHistory(now, businesses, shifterMap);
      for (const zone of ['America/New_York', 'Europe/London']) {
        const today = todayIn(zone, now);
        for (let back = 100; back >= 2; back--) {
          const day = addDays(today, -back);
          if (wallClockToInstant(addDays(day, 1), '12:00', zone) - wallClockToInstant(day, '12:00', zone) === 86_400_000) continue;
          const instant = clocksChangeAt(day, zone);
          const ids = new Set(businesses.filter((b) => b.timezone === zone).map((b) => b.id));
          const crossing = rows.filter(
            (r) => ids.has(r.business_id!) && r.shift_end_at != null && !r.is_noshow && r.starts_at! < instant && instant < r.ends_at!,
          );
          expect(crossing.length, `${zone} ${day}, seeded at ${new Date(now).toISOString()}`).toBeGreaterThan(0);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('writes a well-formed PDF: every cross-reference offset points at its object', () => {
    const text = new TextDecoder().decode(demoPdf(['Food Protection Certificate', 'Holder: Jordan Rivera (NYC)', 'Café \\ back']));
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text.endsWith('%%EOF\n')).toBe(true);
    const startxref = Number(text.match(/startxref\n(\d+)\n/)![1]);
    expect(text.slice(startxref, startxref + 5)).toBe('xref\n');
    const offsets = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(5);
    for (const [i, o] of offsets.entries()) expect(text.slice(o, o + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
    const stream = text.match(/<< \/Length (\d+) >>\nstream\n([\s\S]*?)\nendstream/)!;
    expect(stream[2]!.length).toBe(Number(stream[1]));
    expect(text).toContain('(Holder: Jordan Rivera \\(NYC\\)) Tj');
    // Plain ASCII only: every character code below 128.
    expect([...text].every((ch) => ch.charCodeAt(0) < 128)).toBe(true);
  });

  it('purges the shifter-record tables by their foreign keys', async () => {
    const statements = await demoPurgeStatements(env.DB);
    for (const table of ['mileage_entries', 'counter_rules', 'credentials']) {
      const i = statements.findIndex((st) => st.startsWith(`DELETE FROM "${table}" `));
      expect(i, table).toBeGreaterThanOrEqual(0);
      expect(statements[i]).toContain('"shifters"');
      expect(i).toBeLessThan(statements.findIndex((st) => st.startsWith('DELETE FROM "shifters" ')));
    }
  });
});

describe('demo accounts hold no rights over real data (attack with the published password)', () => {
  const adminEmail = demoEmail(PEOPLE.find((p) => p.role === 'admin')!);
  const signInDemoAdmin = async () => {
    const res = await call('POST', '/v1/auth/login', {
      body: { email: adminEmail, password: DEMO_PASSWORD },
      headers: { 'CF-Connecting-IP': '10.9.9.9' },
    });
    expect(res.status).toBe(200);
    return res.body.session_token as string;
  };

  it('a demo admin cannot grant admin, nor act as admin toward real accounts; demo ones only', async () => {
    const token = await signInDemoAdmin();
    const real = await makeUser({ business: true, shifter: true });
    expectError(await call('POST', '/v1/admin/admins', { key: token, body: { user_id: real.userId } }), 403, 'FORBIDDEN-ERR');
    const [demoShifter] = await demoShifters();
    expectError(await call('POST', '/v1/admin/admins', { key: token, body: { user_id: demoShifter!.user_id } }), 403, 'FORBIDDEN-ERR');
    expect(
      await db()
        .select()
        .from(admins)
        .where(inArray(admins.user_id, [real.userId, demoShifter!.user_id])),
    ).toHaveLength(0);
    expect((await call('GET', '/v1/user/details', { key: real.key })).body.is_admin).toBe(false);

    // Real data: no admin standing at all.
    expectError(await call('GET', '/v1/user/details', { key: token, query: { user_id: real.userId } }), 403, 'FORBIDDEN-ERR');
    expectError(await call('GET', `/v1/business/${real.businessId}/teammates`, { key: token }), 404, 'BUSINESS-NOT-FND-ERR');
    expectError(
      await call('POST', `/v1/business/${real.businessId}/teammates`, { key: token, body: { email: adminEmail } }),
      404,
      'BUSINESS-NOT-FND-ERR',
    );
    expectError(await call('GET', `/v1/shifter/${real.shifterId}/mileage`, { key: token }), 404, 'SHIFTER-NOT-FND-ERR');

    // Demo data: the demo admin still shows what an admin can do.
    const [demoBiz] = await db()
      .select()
      .from(businesses)
      .where(inArray(businesses.user_id, await demoUserIds()))
      .limit(1);
    expect((await call('GET', `/v1/business/${demoBiz!.id}/teammates`, { key: token })).status).toBe(200);
    expect((await call('GET', '/v1/user/details', { key: token, query: { user_id: demoShifter!.user_id } })).status).toBe(200);
    expect((await call('GET', `/v1/shifter/${demoShifter!.id}/mileage`, { key: token })).status).toBe(200);
  });
});

describe('nightly demo reset', () => {
  it('is skipped when DEMO_MODE is off', async () => {
    const before = await demoUserIds();
    await runNightly({ ...env, DEMO_MODE: 'false' });
    expect((await demoUserIds()).sort()).toEqual(before.sort());
  });
});

describe('nightly demo reset (one run, with every case built before it)', () => {
  // A reset purges and reseeds the whole demo world, the slowest step of this file: one run serves the
  // tests below. Each case is built first (real accounts and their rows, admin grants traced to a demo
  // account, a real business tied to a demo shifter, objects in R2, message threads), and each test
  // asserts its part of the outcome. The demo world before it is the first seed's, whose keys we hold.
  const oldAccounts = () => first.body.accounts;
  type Person = Awaited<ReturnType<typeof makeUser>>;
  let world: {
    real: Person;
    realShifter: Person;
    oldIds: string[];
    oldDocs: string[];
    demoPhoto: string;
    demoDeliverableFile: string;
    realDoc: string;
    demoThreads: Array<{ id: string }>;
    grants: { promoted: Person; promotedByPromoted: Person; realAdmin: Person; grantedByReal: Person };
    tiedToDemo: Person;
  };
  const threadStats = (id: string) => env.THREADS.get(env.THREADS.idFromName(id)).stats();

  beforeAll(async () => {
    // Real accounts with a connection and an accepted shift between them.
    const [real, realShifter, tiedToDemo] = await Promise.all([
      makeUser({ business: true }),
      makeUser({ shifter: true }),
      makeUser({ business: true }),
    ]);
    await connect(real.businessId!, realShifter.shifterId!);
    const t = shiftInstants(addDays(todayIn('America/New_York'), 3), '09:00', '17:00', 'America/New_York');
    await db()
      .insert(shiftRequests)
      .values({
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

    // The demo world the reset replaces: its keys still work.
    const oldIds = await demoUserIds();
    for (const a of oldAccounts()) expect((await call('GET', '/v1/user/details', { key: a.api_key })).status, a.email).toBe(200);
    const oldDocs = (
      await db()
        .select()
        .from(credentials)
        .where(
          inArray(
            credentials.shifter_id,
            (await demoShifters()).map((s) => s.id),
          ),
        )
    ).flatMap((c) => (c.document_key ? [c.document_key] : []));
    expect(oldDocs.length).toBeGreaterThan(0);
    for (const k of oldDocs) expect(await env.UPLOADS.head(k)).not.toBeNull();
    // A clock photo of a demo shift goes with the demo world too.
    const { results: acceptedDemo } = await env.DB.prepare(
      'SELECT sr.id FROM shift_requests sr JOIN businesses b ON b.id = sr.business_id JOIN users u ON u.id = b.user_id WHERE u.is_demo = 1 AND sr.accepted_at IS NOT NULL LIMIT 1',
    ).all<{ id: string }>();
    const demoPhoto = `clock-photos/${acceptedDemo[0]!.id}/in/upl_demophoto000000000001.png`;
    await env.UPLOADS.put(demoPhoto, new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    const demoDeliverableFile = `deliverables/${acceptedDemo[0]!.id}/dlv_demo00000000000000001/upl_demofile0000000000001.pdf`;
    await env.UPLOADS.put(demoDeliverableFile, new TextEncoder().encode('%PDF-1.4\n%%EOF\n'));
    // A real shifter's document stays.
    const realDoc = `credentials/${realShifter.shifterId}/crd_realdoc00000000000001/upl_realdoc00000000000001.pdf`;
    await env.UPLOADS.put(realDoc, new TextEncoder().encode('%PDF-1.4\n%%EOF\n'));
    // The demo message threads hold their messages in one Durable Object each.
    const { results: demoThreads } = await env.DB.prepare(
      'SELECT id FROM conversations WHERE created_by_user_id IN (SELECT id FROM users WHERE is_demo = 1)',
    ).all<{ id: string }>();
    expect(demoThreads.length).toBeGreaterThan(0);
    expect((await threadStats(demoThreads[0]!.id)).count).toBeGreaterThan(0);

    // Admin grants as an earlier version let a demo admin make them, and a real admin's grant.
    const [demoAdmin] = await db()
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, demoEmail(PEOPLE.find((p) => p.role === 'admin')!)));
    const [promoted, promotedByPromoted, realAdmin, grantedByReal] = await Promise.all([
      makeUser(),
      makeUser(),
      makeUser({ admin: true }),
      makeUser(),
    ]);
    const now = Date.now();
    await db()
      .insert(admins)
      .values([
        { user_id: promoted.userId, granted_by_user_id: demoAdmin!.id, created_at: now },
        { user_id: promotedByPromoted.userId, granted_by_user_id: promoted.userId, created_at: now },
        { user_id: grantedByReal.userId, granted_by_user_id: realAdmin.userId, created_at: now },
      ]);
    expect((await call('GET', '/v1/user/details', { key: promoted.key })).body.is_admin).toBe(true);

    // A real business tied to a demo shifter: connected, with a shift asked of them.
    const [demoShifter] = await db().select().from(shifters).where(inArray(shifters.user_id, oldIds)).limit(1);
    await connect(tiedToDemo.businessId!, demoShifter!.id);
    const t2 = shiftInstants(addDays(todayIn('America/New_York'), 2), '10:00', '14:00', 'America/New_York');
    await db()
      .insert(shiftRequests)
      .values({
        id: 'sr_realtodemo000000001',
        business_id: tiedToDemo.businessId!,
        shifter_id: demoShifter!.id,
        shift_date: addDays(todayIn('America/New_York'), 2),
        shift_in: '10:00',
        shift_out: '14:00',
        starts_at: t2.startsAt,
        ends_at: t2.endsAt,
        shiftrole_id: 2,
        hourly_rate_minor: 2200,
        currency: 'USD',
        created_at: Date.now(),
        updated_at: Date.now(),
      });

    world = {
      real,
      realShifter,
      oldIds,
      oldDocs,
      demoPhoto,
      demoDeliverableFile,
      realDoc,
      demoThreads,
      grants: { promoted, promotedByPromoted, realAdmin, grantedByReal },
      tiedToDemo,
    };
    await runNightly();
  });

  it('replaces demo data and keys, and leaves real accounts and their rows alone', async () => {
    const { real, realShifter, oldIds, oldDocs, demoPhoto, demoDeliverableFile, realDoc, demoThreads } = world;
    // Their messages went with their rows.
    for (const t of demoThreads) expect((await threadStats(t.id)).count, t.id).toBe(0);

    for (const a of oldAccounts()) {
      expectError(await call('GET', '/v1/user/details', { key: a.api_key }), 401, 'AUTH-REQ-ERR');
    }
    const newIds = await demoUserIds();
    expect(newIds.length).toBe(oldIds.length);
    expect(newIds.some((id) => oldIds.includes(id))).toBe(false);
    const demoBiz = await db().select({ id: businesses.id }).from(businesses).where(inArray(businesses.user_id, newIds));
    expect(demoBiz.length).toBeGreaterThanOrEqual(2);
    const { results } = await env.DB.prepare(
      'SELECT COUNT(*) AS n FROM shift_requests WHERE business_id IN (SELECT b.id FROM businesses b JOIN users u ON u.id = b.user_id WHERE u.is_demo = 1)',
    ).all<{ n: number }>();
    expect(results[0]!.n).toBeGreaterThan(200);
    // Nothing of the old demo world is left behind, in R2 either: only the new rows' documents remain.
    for (const k of oldDocs) expect(await env.UPLOADS.head(k), k).toBeNull();
    expect(await env.UPLOADS.head(demoPhoto)).toBeNull();
    expect(await env.UPLOADS.head(demoDeliverableFile)).toBeNull();
    const newDocs = (await db().select().from(credentials)).flatMap((c) => (c.document_key ? [c.document_key] : []));
    expect(newDocs.length).toBe(oldDocs.length);
    expect((await r2Keys('credentials/')).sort()).toEqual([...newDocs, realDoc].sort());
    const { results: orphans } = await env.DB.prepare(
      'SELECT COUNT(*) AS n FROM shifters WHERE user_id NOT IN (SELECT id FROM users)',
    ).all<{ n: number }>();
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

  it('the nightly reset removes admin grants made by a demo account, and the grants those admins made', async () => {
    const { promoted, promotedByPromoted, realAdmin, grantedByReal } = world.grants;
    const left = (await db().select({ id: admins.user_id }).from(admins)).map((a) => a.id);
    expect(left).not.toContain(promoted.userId);
    expect(left).not.toContain(promotedByPromoted.userId);
    expect(left).toEqual(expect.arrayContaining([realAdmin.userId, grantedByReal.userId]));
    expect((await call('GET', '/v1/user/details', { key: promoted.key })).body.is_admin).toBe(false);
  });

  it('removes rows that tie real accounts to demo ones (a real business asking a demo shifter)', async () => {
    expect(await db().select().from(shiftRequests).where(eq(shiftRequests.id, 'sr_realtodemo000000001'))).toHaveLength(0);
    expect((await call('GET', '/v1/user/details', { key: world.tiedToDemo.key })).status).toBe(200);
  });
});

/** The instant a zone's UTC offset changes between noon of `day` and noon of the next day, to the minute. */
function clocksChangeAt(day: string, zone: string): number {
  const offset = (t: number) => Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(zone).offsetNanoseconds;
  let lo = wallClockToInstant(day, '12:00', zone);
  let hi = wallClockToInstant(addDays(day, 1), '12:00', zone);
  const before = offset(lo);
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
    if (offset(mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}
