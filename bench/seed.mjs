// Benchmark data: generated as SQL files and loaded with `wrangler d1 execute --local --file`
// into the benchmark's own state directory (never the default .wrangler/state).
//
// What is seeded (all instants are epoch ms; wall-clock dates and times are in the business's zone,
// converted with Temporal exactly as src/lib/shift-time.ts does):
// - the bench shifter, connected (accepted) to 40 "market" businesses in four cities, with about
//   250 past shifts at those businesses (worked, no-shows, own cancels), 15 accepted future shifts
//   and six active counter rules, so every relevance signal has data;
// - 10,000 open broadcasts at the market businesses (status 1, is_broadcast 1, no shifter, start
//   tomorrow or later), all visible to the bench shifter;
// - a "claims" business with 51 connected claimer shifters and its own open broadcasts: one
//   non-overlapping series for the uncontended claimer, one per contended round;
// - 30 "insights" businesses (one big one in New York) with 100,000 worked shifts over 120 days
//   and a pool of 300 shifters who worked them.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Temporal } from 'temporal-polyfill';
import { BENCH_DIR, childEnv, databaseFile, NODE, ROOT, rng, runWrangler, track } from './common.mjs';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DAY = 86_400_000;
const ROWS_PER_INSERT = 500;
const ROWS_PER_FILE = 50_000;
/** Local D1 refuses statements over 100 kB (SQLITE_TOOBIG), so an INSERT also stops short of that. */
const MAX_STATEMENT_CHARS = 90_000;

export const SIZES = {
  openBroadcasts: 10_000,
  marketBusinesses: 40,
  insightRows: 100_000,
  insightBusinesses: 30,
  bigBusinessShare: 0.35,
  historyDays: 120,
  workerPool: 300,
  contenders: 50,
  /** Threads in the big business's inbox, one per shifter. */
  inboxThreads: 2_000,
  /** The dashboard business: shifts in the current week, weeks of history before it, its crew and threads. */
  dashboardWeek: 850,
  dashboardHistoryWeeks: 26,
  dashboardCrew: 150,
  dashboardThreads: 40,
};

/** Cities from migrations/0001_reference_data.sql that the benchmark uses. */
const CITIES = {
  newYork: { id: 1, state: 1, country: 1, tz: 'America/New_York', lat: 40.7128, lon: -74.006, currency: 'USD', base: 2200 },
  losAngeles: { id: 3, state: 2, country: 1, tz: 'America/Los_Angeles', lat: 34.0522, lon: -118.2437, currency: 'USD', base: 2100 },
  chicago: { id: 5, state: 3, country: 1, tz: 'America/Chicago', lat: 41.8781, lon: -87.6298, currency: 'USD', base: 1900 },
  london: { id: 10, state: 8, country: 3, tz: 'Europe/London', lat: 51.5074, lon: -0.1278, currency: 'GBP', base: 1500 },
};

const sqlValue = (v) => {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'NULL';
  if (typeof v === 'boolean') return v ? '1' : '0';
  return `'${String(v).replaceAll("'", "''")}'`;
};

/** Collects rows per table and writes them as multi-row INSERTs, at most ROWS_PER_FILE rows a file. */
class SqlWriter {
  constructor(dir, tag = '') {
    this.dir = dir;
    this.tag = tag;
    this.files = [];
    this.parts = [];
    this.rowsInFile = 0;
    this.total = 0;
  }
  add(table, rows) {
    if (!rows.length) return;
    const colSet = new Set();
    for (const row of rows) for (const k of Object.keys(row)) colSet.add(k);
    const cols = [...colSet];
    const head = `INSERT INTO ${table} (${cols.join(', ')}) VALUES\n`;
    let chunk = [];
    let size = head.length;
    const emit = () => {
      if (!chunk.length) return;
      if (this.rowsInFile + chunk.length > ROWS_PER_FILE) this.flush();
      this.parts.push(`${head}${chunk.join(',\n')};`);
      this.rowsInFile += chunk.length;
      this.total += chunk.length;
      chunk = [];
      size = head.length;
    };
    for (const row of rows) {
      const tuple = `(${cols.map((c) => sqlValue(row[c])).join(',')})`;
      if (chunk.length >= ROWS_PER_INSERT || size + tuple.length + 2 > MAX_STATEMENT_CHARS) emit();
      chunk.push(tuple);
      size += tuple.length + 2;
    }
    emit();
  }
  flush() {
    if (!this.parts.length) return;
    const file = join(this.dir, `${this.tag}${String(this.files.length + 1).padStart(2, '0')}.sql`);
    writeFileSync(file, `${this.parts.join('\n')}\n`);
    this.files.push({ file, rows: this.rowsInFile });
    this.parts = [];
    this.rowsInFile = 0;
  }
}

/** Wall-clock ↔ instant, as in src/lib/shift-time.ts (cached: the data reuses few date/time pairs). */
const instantCache = new Map();
function wallClockToInstant(date, time, tz) {
  const key = `${tz} ${date} ${time}`;
  let v = instantCache.get(key);
  if (v === undefined) {
    v = Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(tz, { disambiguation: 'compatible' }).toInstant().epochMilliseconds;
    instantCache.set(key, v);
  }
  return v;
}
const addDays = (date, days) => Temporal.PlainDate.from(date).add({ days }).toString();
const todayIn = (tz, now) => Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(tz).toPlainDate().toString();
function shiftInstants(date, shiftIn, shiftOut, tz) {
  const startsAt = wallClockToInstant(date, shiftIn, tz);
  const endDate = shiftOut <= shiftIn ? addDays(date, 1) : date;
  return { startsAt, endsAt: wallClockToInstant(endDate, shiftOut, tz) };
}
const hhmm = (minutes) => `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
/** An instant's wall-clock date and HH:MM in `tz`. */
function wallClock(ms, tz) {
  const z = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(tz);
  return { date: z.toPlainDate().toString(), time: hhmm(z.hour * 60 + z.minute) };
}

/** Starts of the generated shifts (22:00 runs overnight), their roles, and a rate for a city and role. */
const STARTS = [360, 420, 480, 540, 600, 660, 720, 900, 960, 1020, 1080, 1320];
const ROLES = [1, 1, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
const rateOf = (r, city, role) => city.base + role * 40 + r.int(-400, 900);

/** A worked shift's day and times 1 to `historyDays` days back, ended at least an hour before `now`. */
function pastShift(r, biz, now, historyDays) {
  const daysBack = r.int(1, historyDays);
  const startMin = r.pick(STARTS);
  const shiftIn = hhmm(startMin);
  const shiftOut = hhmm(startMin + 60 * r.int(4, 10));
  let date = addDays(todayIn(biz.b.timezone, now), -daysBack);
  let t = shiftInstants(date, shiftIn, shiftOut, biz.b.timezone);
  if (t.endsAt > now - 60 * 60_000) {
    date = addDays(date, -1);
    t = shiftInstants(date, shiftIn, shiftOut, biz.b.timezone);
  }
  return { date, shiftIn, shiftOut, t };
}

/**
 * Direct threads between a business and `count` new shifters (numbered from `from`), each with a
 * message, one a minute back from now: users and shifters pushed into the given lists, the thread
 * rows returned (conversations first; the participants' order column is filled by its trigger).
 */
function inboxThreads({ id, now, created, users, shifters }, business, from, count) {
  const conversations = [];
  const participants = [];
  for (let i = from; i < from + count; i++) {
    const u = {
      id: id('usr'),
      email: `inbox-${i}@bench.shiftmarket.local`,
      password_hash: 'pbkdf2_sha256$1$bench$bench',
      display_name: `inbox-${i}`,
      email_verified_at: created,
      is_demo: 0,
      created_at: created,
      updated_at: created,
    };
    users.push(u);
    const s = {
      id: id('shf'),
      user_id: u.id,
      slug: `bench-inbox-${i}`,
      display_name: `Inbox ${i}`,
      city_id: 1,
      timezone: 'America/New_York',
      accept_shift_req: 1,
      currency: 'USD',
      created_at: created,
      updated_at: created,
    };
    shifters.push(s);
    const at = now - (i + 1) * 60_000;
    const c = {
      id: id('cnv'),
      kind: 'direct',
      pair_key: `business:${business.id}|shifter:${s.id}`,
      created_by_user_id: u.id,
      last_message_at: at,
      last_message_seq: 1,
      last_message_preview: 'Is the Saturday shift still open?',
      last_sender_kind: 'shifter',
      last_sender_id: s.id,
      created_at: at,
      updated_at: at,
    };
    conversations.push(c);
    participants.push(
      { conversation_id: c.id, party_kind: 'shifter', party_id: s.id, accepted_at: at, last_read_seq: 1, joined_at: at },
      {
        conversation_id: c.id,
        party_kind: 'business',
        party_id: business.id,
        accepted_at: i % 10 ? at : null,
        last_read_seq: 0,
        joined_at: at,
      },
    );
  }
  return { conversations, participants };
}

/** A personal API key in the service's format and the sha256 hex the api_keys table stores. */
function mintKey() {
  const bytes = randomBytes(64);
  let body = '';
  for (const b of bytes) {
    if (b < 248) body += BASE62[b % 62];
    if (body.length === 32) break;
  }
  while (body.length < 32) body += BASE62[randomBytes(1)[0] % 62];
  const key = `smk_${body}`;
  return { key, hash: createHash('sha256').update(key).digest('hex'), prefix: key.slice(0, 12) };
}

/** A web session token in the service's format (`sms_` + 40 base62) and the sha256 hex the sessions table stores. */
function mintSessionToken() {
  let body = '';
  while (body.length < 40) for (const b of randomBytes(64)) if (b < 248 && body.length < 40) body += BASE62[b % 62];
  const token = `sms_${body}`;
  return { token, hash: createHash('sha256').update(token).digest('hex') };
}

/**
 * The row builders of one generation run (a seeded random source, ids, users, businesses, shifters,
 * connections and shift rows collected per table): the base data and each top-up get their own.
 */
function makeContext(dir, { now, seed, tag = '', idTag = '' }) {
  mkdirSync(dir, { recursive: true });
  const r = rng(seed);
  let seq = 0;
  const id = (prefix) => {
    seq++;
    let s = '';
    for (let i = 0; i < 14; i++) s += BASE62[r.int(0, 61)];
    return `${prefix}_${s}${idTag}${seq.toString(36).padStart(6, '0')}`;
  };
  const out = new SqlWriter(dir, tag);
  const created = now - 200 * DAY;

  const users = [];
  const apiKeys = [];
  const businesses = [];
  const shifters = [];
  const connections = [];
  const counterRules = [];

  function user(label, withKey) {
    const u = {
      id: id('usr'),
      email: `${label}@bench.shiftmarket.local`,
      password_hash: 'pbkdf2_sha256$1$bench$bench',
      display_name: label,
      email_verified_at: created,
      is_demo: 0,
      created_at: created,
      updated_at: created,
    };
    users.push(u);
    let key = null;
    if (withKey) {
      const k = mintKey();
      apiKeys.push({ id: id('key'), user_id: u.id, kind: 'personal', prefix: k.prefix, key_hash: k.hash, created_at: created });
      key = k.key;
    }
    return { user: u, key };
  }
  function business(label, city, { withKey = false } = {}) {
    const { user: owner, key } = user(`owner-${label}`, withKey);
    const b = {
      id: id('biz'),
      user_id: owner.id,
      slug: `bench-${label}`,
      name: `Bench ${label}`,
      is_default: 1,
      timezone: city.tz,
      city_id: city.id,
      state_id: city.state,
      country_id: city.country,
      latitude: city.lat + (r.next() - 0.5) * 0.3,
      longitude: city.lon + (r.next() - 0.5) * 0.3,
      currency: city.currency,
      weekly_labor_budget_minor: 5_000_000,
      created_at: created,
      updated_at: created,
    };
    businesses.push(b);
    return { b, city, owner, key };
  }
  function shifter(label, city, { withKey = false } = {}) {
    const { user: u, key } = user(`shifter-${label}`, withKey);
    const s = {
      id: id('shf'),
      user_id: u.id,
      slug: `bench-${label}`,
      display_name: `Shifter ${label}`,
      city_id: city.id,
      latitude: city.lat + (r.next() - 0.5) * 0.1,
      longitude: city.lon + (r.next() - 0.5) * 0.1,
      timezone: city.tz,
      accept_shift_req: 1,
      currency: city.currency,
      created_at: created,
      updated_at: created,
    };
    shifters.push(s);
    return { s, key };
  }
  function connect(b, s) {
    connections.push({
      id: id('con'),
      business_id: b.id,
      shifter_id: s.id,
      initiated_by: 'business',
      status: 'accepted',
      responded_at: created,
      created_at: created,
      updated_at: created,
    });
  }

  const shiftRows = [];
  /** One shift_requests row; `extra` overrides the status columns. */
  function shift(biz, date, shiftIn, shiftOut, role, rate, extra) {
    const { startsAt, endsAt } = shiftInstants(date, shiftIn, shiftOut, biz.b.timezone);
    const createdAt = Math.min(now - 1000, startsAt - r.int(1, 14) * DAY);
    const row = {
      id: id('sr'),
      business_id: biz.b.id,
      shifter_id: null,
      created_by_user_id: biz.owner.id,
      shift_date: date,
      shift_in: shiftIn,
      shift_out: shiftOut,
      starts_at: startsAt,
      ends_at: endsAt,
      shiftrole_id: role,
      hourly_rate_minor: rate,
      currency: biz.b.currency,
      is_broadcast: 1,
      request_status: 1,
      accepted_at: null,
      shift_start_at: null,
      shift_end_at: null,
      is_noshow: 0,
      cancelled_at: null,
      cancelled_by: null,
      created_at: createdAt,
      updated_at: createdAt,
      ...extra,
    };
    shiftRows.push(row);
    return row;
  }
  const worked = (shifterId, startsAt, endsAt, status = 5) => ({
    shifter_id: shifterId,
    request_status: status,
    accepted_at: startsAt - 2 * DAY,
    shift_start_at: startsAt + r.int(-5, 5) * 60_000,
    shift_end_at: endsAt + r.int(-5, 10) * 60_000,
    updated_at: endsAt + 60_000,
  });
  return {
    r,
    id,
    out,
    now,
    created,
    users,
    apiKeys,
    businesses,
    shifters,
    connections,
    counterRules,
    shiftRows,
    user,
    business,
    shifter,
    connect,
    shift,
    worked,
  };
}

/**
 * Generates every row and writes the SQL files under `dir`. Returns the manifest the benchmarks
 * need (keys, ids, expected counts) and the list of SQL files in load order.
 */
export function generate(
  dir,
  { now = Date.now(), uncontendedClaims = 200, contendedRounds = 20, warmupClaims = 10, sizes = {}, pools = {} } = {},
) {
  mkdirSync(dir, { recursive: true });
  /** SIZES, or smaller ones for the smoke run (`npm run bench:smoke`). */
  const S = { ...SIZES, ...sizes };
  const {
    r,
    id,
    out,
    created,
    users,
    apiKeys,
    businesses,
    shifters,
    connections,
    counterRules,
    shiftRows,
    business,
    shifter,
    connect,
    shift,
    worked,
  } = makeContext(dir, { now, seed: 20261117 });
  const manifest = { now, keys: {}, ids: {}, counts: {} };

  const cityList = Object.values(CITIES);
  const rateFor = (city, role) => rateOf(r, city, role);

  // --- the bench shifter and the market it sees -------------------------------------------------
  const me = shifter('relevance', CITIES.newYork, { withKey: true });
  const market = [];
  for (let i = 0; i < S.marketBusinesses; i++) {
    const city = cityList[i % cityList.length];
    const biz = business(`market-${i}`, city);
    connect(biz.b, me.s);
    market.push(biz);
  }
  // History: two shifts a day over 120 days at the market businesses, mostly in a few roles.
  const myRoles = [1, 1, 1, 2, 2, 3, 6];
  let historyRows = 0;
  for (let d = S.historyDays; d >= 1; d--) {
    for (const startMin of [480, 1080]) {
      if (!r.chance(0.55)) continue;
      const biz = market[r.int(0, 11)]; // a dozen regular businesses, so familiarity varies
      const date = addDays(todayIn(biz.b.timezone, now), -d);
      const shiftIn = hhmm(startMin);
      const shiftOut = hhmm(startMin + 60 * r.int(4, 8));
      const role = r.pick(myRoles);
      const { startsAt, endsAt } = shiftInstants(date, shiftIn, shiftOut, biz.b.timezone);
      let extra = worked(me.s.id, startsAt, endsAt);
      if (r.chance(0.05)) extra = { shifter_id: me.s.id, request_status: 2, accepted_at: startsAt - DAY, is_noshow: 1 };
      // biome-ignore lint/suspicious/noDuplicateElseIf: a second, independent random draw, not the same condition
      else if (r.chance(0.05))
        extra = {
          shifter_id: me.s.id,
          request_status: 7,
          accepted_at: startsAt - 3 * DAY,
          cancelled_at: startsAt - DAY,
          cancelled_by: 'shifter',
        };
      shift(biz, date, shiftIn, shiftOut, role, rateFor(biz.city, role), { ...extra, is_broadcast: r.chance(0.5) ? 1 : 0 });
      historyRows++;
    }
  }
  // Accepted future shifts: they overlap some broadcasts, so the availability signal bites.
  for (let k = 0; k < 15; k++) {
    const biz = market[r.int(0, 11)];
    const date = addDays(todayIn(biz.b.timezone, now), 1 + k * 2);
    shift(biz, date, '09:00', '17:00', r.pick(myRoles), rateFor(biz.city, 1), {
      shifter_id: me.s.id,
      request_status: 2,
      is_broadcast: 0,
      accepted_at: now - DAY,
    });
    historyRows++;
  }
  // Counter rules, so the pay signal's floor has work to do: any role, by role, by weekday, by start
  // band (one wrapping midnight), with distance premiums, in both currencies the market uses.
  const rules = [
    { shiftrole_id: null, weekdays: null, start_from: null, start_to: null, min: 2300, currency: 'USD' },
    { shiftrole_id: 1, weekdays: '1,2,3,4,5', start_from: '06:00', start_to: '12:00', min: 2600, currency: 'USD', km: 20, premium: 300 },
    { shiftrole_id: 2, weekdays: '6,7', start_from: null, start_to: null, min: 2500, currency: 'USD' },
    { shiftrole_id: 3, weekdays: null, start_from: '22:00', start_to: '06:00', min: 2800, currency: 'USD', km: 10, premium: 500 },
    { shiftrole_id: null, weekdays: '5,6', start_from: '17:00', start_to: '23:00', min: 2400, currency: 'USD', km: 15, premium: 200 },
    { shiftrole_id: null, weekdays: null, start_from: null, start_to: null, min: 1700, currency: 'GBP', km: 5, premium: 200 },
  ];
  for (const [i, rule] of rules.entries()) {
    counterRules.push({
      id: id('crl'),
      shifter_id: me.s.id,
      label: `bench rule ${i + 1}`,
      shiftrole_id: rule.shiftrole_id,
      weekdays: rule.weekdays,
      start_from: rule.start_from,
      start_to: rule.start_to,
      min_hourly_rate_minor: rule.min,
      currency: rule.currency,
      distance_threshold_km: rule.km ?? null,
      distance_premium_minor: rule.premium ?? null,
      is_active: 1,
      is_auto_apply: 0,
      created_at: created,
      updated_at: created,
    });
  }
  // The open broadcasts.
  for (let i = 0; i < S.openBroadcasts; i++) {
    const biz = market[i % market.length];
    const date = addDays(todayIn(biz.b.timezone, now), r.int(1, 28));
    const startMin = r.pick(STARTS);
    const role = r.pick(ROLES);
    shift(biz, date, hhmm(startMin), hhmm(startMin + 60 * r.int(4, 10)), role, rateFor(biz.city, role), {});
  }
  manifest.keys.relevance = me.key;
  manifest.ids.relevanceShifter = me.s.id;
  manifest.counts.openBroadcasts = S.openBroadcasts;
  manifest.counts.relevanceHistory = historyRows;
  manifest.counts.relevanceRules = counterRules.length;

  // --- claims: one business, its crew, and broadcasts that never overlap for one claimer ----------
  const claimsBiz = business('claims', CITIES.newYork);
  const claimers = [];
  for (let i = 0; i <= S.contenders; i++) {
    const c = shifter(`claimer-${i}`, CITIES.newYork, { withKey: true });
    connect(claimsBiz.b, c.s);
    claimers.push(c);
  }
  // Slot n: day 2 + floor(n / 2), 02:00–10:00 or 14:00–22:00 in the business's zone.
  const claimDay0 = addDays(todayIn(claimsBiz.b.timezone, now), 2);
  const slot = (n, label) => {
    const date = addDays(claimDay0, Math.floor(n / 2));
    const [i, o] = n % 2 ? ['14:00', '22:00'] : ['02:00', '10:00'];
    return shift(claimsBiz, date, i, o, 1, 2500, { note: label }).id;
  };
  const uncontended = Array.from({ length: warmupClaims + uncontendedClaims }, (_, n) => slot(n, 'bench uncontended'));
  const contended = Array.from({ length: 2 + contendedRounds }, (_, n) => slot(n, 'bench contended'));
  manifest.ids.claimsBusiness = claimsBiz.b.id;
  manifest.claims = {
    soloKey: claimers[0].key,
    soloShifter: claimers[0].s.id,
    contenderKeys: claimers.slice(1).map((c) => c.key),
    warmup: uncontended.slice(0, warmupClaims),
    uncontended: uncontended.slice(warmupClaims),
    contendedWarmup: contended.slice(0, 2),
    contended: contended.slice(2),
  };

  // --- insights: 100,000 worked shifts over 120 days, one big business in New York ----------------
  const pool = Array.from({ length: S.workerPool }, (_, i) => shifter(`pool-${i}`, cityList[i % cityList.length]).s);
  const big = business('big-ny', CITIES.newYork, { withKey: true });
  const others = [];
  const spread = [CITIES.newYork, CITIES.losAngeles, CITIES.chicago, CITIES.london];
  for (let i = 0; i < S.insightBusinesses - 1; i++) others.push(business(`insights-${i}`, spread[i % spread.length]));
  const rowsByCity = new Map();
  for (let i = 0; i < S.insightRows; i++) {
    const biz = r.chance(S.bigBusinessShare) ? big : r.pick(others);
    const { date, shiftIn, shiftOut, t } = pastShift(r, biz, now, S.historyDays);
    const role = r.pick(ROLES);
    const who = pool[r.int(0, pool.length - 1)];
    shift(biz, date, shiftIn, shiftOut, role, rateFor(biz.city, role), {
      ...worked(who.id, t.startsAt, t.endsAt, r.chance(0.8) ? 5 : 2),
      is_broadcast: r.chance(0.3) ? 1 : 0,
    });
    rowsByCity.set(biz.city.id, (rowsByCity.get(biz.city.id) ?? 0) + 1);
  }
  manifest.keys.bigOwner = big.key;
  manifest.ids.bigBusiness = big.b.id;
  manifest.ids.bigCity = CITIES.newYork.id;
  manifest.week = todayIn(big.b.timezone, now);
  manifest.counts.insightRows = S.insightRows;
  manifest.counts.insightRowsByCity = Object.fromEntries(rowsByCity);

  // Everything below draws after the data above, so that data is the same whatever is added here.
  // The pool is the big business's crew, so its crew analytics has 300 members to report.
  for (const p of pool) connect(big.b, p);
  // The claims business's owner ends shifts early in the load benchmark (a manager's clock-out).
  const claimsOwnerKey = mintKey();
  apiKeys.push({
    id: id('key'),
    user_id: claimsBiz.owner.id,
    kind: 'personal',
    prefix: claimsOwnerKey.prefix,
    key_hash: claimsOwnerKey.hash,
    created_at: created,
  });
  manifest.keys.claimsOwner = claimsOwnerKey.key;

  // --- load: what the mixed workload consumes (claims, clock-ins, clock-outs), per client ----------
  const P = { claims: 0, clockIns: 0, clockOuts: 0, clients: 20, ...pools };
  const clients = claimers.slice(1, 1 + Math.min(P.clients, claimers.length - 1));
  // Open broadcasts of the claims business that never overlap each other (a claimer's accepted
  // shifts never conflict): one hour every three, from 120 days out.
  const poolDay0 = addDays(claimDay0, 120);
  const claimPool = Array.from({ length: P.claims }, (_, k) => {
    const date = addDays(poolDay0, Math.floor(k / 8));
    const start = (k % 8) * 180;
    return shift(claimsBiz, date, hhmm(start), hhmm(start + 60), 2, 2600, { note: 'bench load' }).id;
  });
  // Accepted shifts starting within the hour (clock-in open) and lasting 8 h; and ones already clocked
  // in 10 minutes ago, for the owner to end. Both as instants, whatever the zone's clock says.
  const timed = (c, startsAt, clockedIn) => {
    const start = Math.floor(startsAt / 60_000) * 60_000;
    const at = wallClock(start, claimsBiz.b.timezone);
    const row = shift(claimsBiz, at.date, at.time, wallClock(start + 8 * 60 * 60_000, claimsBiz.b.timezone).time, 1, 2500, {
      shifter_id: c.s.id,
      request_status: 2,
      is_broadcast: 0,
      accepted_at: now - DAY,
      shift_start_at: clockedIn ? now - 10 * 60_000 : null,
      note: 'bench load clock',
      created_at: now - DAY,
      updated_at: now - DAY,
    });
    // The instants themselves, whatever a DST night would make of the wall clock.
    row.starts_at = start;
    row.ends_at = start + 8 * 60 * 60_000;
    return row.id;
  };
  const clockIns = clients.map((c) => Array.from({ length: P.clockIns }, () => timed(c, now + 20 * 60_000, false)));
  const clockOuts = clients.map((c) => Array.from({ length: P.clockOuts }, () => timed(c, now - 20 * 60_000, true)));
  // Each client's thread with the business, accepted on both sides, so a client may write again and again.
  const loadThreads = clients.map((c) => ({
    id: id('cnv'),
    kind: 'direct',
    pair_key: `business:${claimsBiz.b.id}|shifter:${c.s.id}`,
    created_by_user_id: c.s.user_id,
    last_message_seq: 0,
    created_at: now - DAY,
    updated_at: now - DAY,
  }));
  const loadSides = loadThreads.flatMap((t, i) => [
    {
      conversation_id: t.id,
      party_kind: 'shifter',
      party_id: clients[i].s.id,
      accepted_at: now - DAY,
      last_read_seq: 0,
      joined_at: now - DAY,
    },
    {
      conversation_id: t.id,
      party_kind: 'business',
      party_id: claimsBiz.b.id,
      accepted_at: now - DAY,
      last_read_seq: 0,
      joined_at: now - DAY,
    },
  ]);
  manifest.load = {
    claimsBusiness: claimsBiz.b.id,
    clients: clients.map((c, i) => ({ key: c.key, shifterId: c.s.id, clockIns: clockIns[i], clockOuts: clockOuts[i] })),
    claimPool,
    detailIds: uncontended.slice(0, 50),
  };

  // --- the big business's inbox: one direct thread with each of many shifters ---------------------
  const inbox = inboxThreads({ id, now, created, users, shifters }, { id: big.b.id, owner: big.owner.id }, 0, S.inboxThreads);
  manifest.counts.inboxThreads = S.inboxThreads;

  // --- the dashboard: a New York business running a week of ~850 shifts, its owner signed in -------
  // The week (Monday to Sunday in its zone) holds what a real one does at this moment: worked shifts
  // behind, some no-shows, cancellations and unfilled broadcasts; shifts running now, most clocked
  // in, some late; ahead, claimed and open broadcasts, accepted and pending targeted requests. Before
  // it, weeks of worked history, so the page shows whether it reads the week or the business's past.
  const dash = business('dashboard', CITIES.newYork);
  const dashCrew = Array.from({ length: S.dashboardCrew }, (_, i) => shifter(`dash-${i}`, CITIES.newYork).s);
  for (const s of dashCrew) connect(dash.b, s);
  const dashToday = Temporal.PlainDate.from(todayIn(dash.b.timezone, now));
  const dashMonday = dashToday.subtract({ days: dashToday.dayOfWeek - 1 }).toString();
  const dashWeek = { shifts: 0, worked: 0, running: 0, clockedIn: 0, open: 0, claimed: 0, pending: 0 };
  const crewPick = () => dashCrew[r.int(0, dashCrew.length - 1)].id;
  const dashShift = (monday, day, thisWeek) => {
    const date = addDays(monday, day);
    const startMin = r.pick(STARTS);
    const shiftIn = hhmm(startMin);
    const shiftOut = hhmm(startMin + 60 * r.int(4, 10));
    const role = r.pick(ROLES);
    const t = shiftInstants(date, shiftIn, shiftOut, dash.b.timezone);
    const rate = rateFor(dash.city, role);
    const broadcast = r.chance(0.6) ? 1 : 0;
    let extra;
    const x = r.next();
    // A shift that ended in the last 15 minutes may still have someone clocked in.
    if (t.endsAt <= now - 15 * 60_000) {
      // Behind: worked (paid once the week is over), a few no-shows, the shifter's cancellations, unfilled broadcasts.
      if (x < 0.9) extra = { ...worked(crewPick(), t.startsAt, t.endsAt, thisWeek ? 2 : 5), is_broadcast: broadcast };
      else if (x < 0.93)
        extra = { shifter_id: crewPick(), request_status: 2, accepted_at: t.startsAt - DAY, is_noshow: 1, is_broadcast: broadcast };
      else if (x < 0.96)
        extra = {
          shifter_id: crewPick(),
          request_status: 7,
          accepted_at: t.startsAt - 3 * DAY,
          cancelled_at: t.startsAt - DAY,
          cancelled_by: 'shifter',
          is_broadcast: broadcast,
        };
      else extra = { request_status: 6, is_broadcast: 1 };
      if (thisWeek && x < 0.9) dashWeek.worked++;
    } else if (t.startsAt <= now) {
      // Running now: most clocked in, some late.
      const inNow = x < 0.88;
      extra = {
        shifter_id: crewPick(),
        request_status: 2,
        is_broadcast: broadcast,
        accepted_at: t.startsAt - 2 * DAY,
        shift_start_at: inNow ? t.startsAt + r.int(-5, 8) * 60_000 : null,
      };
      dashWeek.running++;
      if (inNow) dashWeek.clockedIn++;
    } else if (x < 0.5) {
      extra = { shifter_id: crewPick(), request_status: 2, is_broadcast: 1, accepted_at: now - r.int(1, 72) * 60 * 60_000 };
      dashWeek.claimed++;
    } else if (x < 0.7) {
      extra = { shifter_id: crewPick(), request_status: 2, is_broadcast: 0, accepted_at: now - r.int(1, 72) * 60 * 60_000 };
    } else if (x < 0.9) {
      extra = { request_status: 1, is_broadcast: 1 };
      dashWeek.open++;
    } else if (x < 0.97) {
      extra = { shifter_id: crewPick(), request_status: 1, is_broadcast: 0 };
      dashWeek.pending++;
    } else
      extra = {
        shifter_id: crewPick(),
        request_status: 7,
        is_broadcast: broadcast,
        accepted_at: now - 3 * DAY,
        cancelled_at: now - DAY,
        cancelled_by: 'shifter',
      };
    const row = shift(dash, date, shiftIn, shiftOut, role, rate, extra);
    // An answer never comes before the request it answers.
    if (row.accepted_at !== null && row.accepted_at < row.created_at) {
      row.created_at = row.accepted_at - 60 * 60_000;
      row.updated_at = Math.max(row.updated_at, row.accepted_at);
    }
    if (thisWeek) dashWeek.shifts++;
  };
  for (let w = S.dashboardHistoryWeeks; w >= 1; w--) {
    const monday = addDays(dashMonday, -7 * w);
    for (let i = 0; i < S.dashboardWeek; i++) dashShift(monday, i % 7, false);
  }
  for (let i = 0; i < S.dashboardWeek; i++) dashShift(dashMonday, i % 7, true);
  // Threads from the crew, each with a message the business has not read.
  const dashThreads = dashCrew.slice(0, S.dashboardThreads).map((s, i) => {
    const at = now - (i + 1) * 7 * 60_000;
    return {
      id: id('cnv'),
      kind: 'direct',
      pair_key: `business:${dash.b.id}|shifter:${s.id}`,
      created_by_user_id: s.user_id,
      last_message_at: at,
      last_message_seq: 1,
      last_message_preview: 'Can I swap Thursday for Friday?',
      last_sender_kind: 'shifter',
      last_sender_id: s.id,
      created_at: at,
      updated_at: at,
    };
  });
  const dashSides = dashThreads.flatMap((t, i) => [
    {
      conversation_id: t.id,
      party_kind: 'shifter',
      party_id: dashCrew[i].id,
      accepted_at: t.created_at,
      last_read_seq: 1,
      joined_at: t.created_at,
    },
    {
      conversation_id: t.id,
      party_kind: 'business',
      party_id: dash.b.id,
      accepted_at: t.created_at,
      last_read_seq: 0,
      joined_at: t.created_at,
    },
  ]);
  // The owner's web session: the cookie the pages read (plain HTTP locally, so the bare name).
  const session = mintSessionToken();
  const sessions = [
    {
      id: id('ses'),
      user_id: dash.owner.id,
      token_hash: session.hash,
      created_at: now - DAY,
      expires_at: now + 30 * DAY,
      last_seen_at: now - DAY,
      pending_two_factor: 0,
    },
  ];
  manifest.dashboard = {
    businessId: dash.b.id,
    cookie: `sm_session=${session.token}`,
    monday: dashMonday,
    week: dashWeek,
    historyShifts: S.dashboardHistoryWeeks * S.dashboardWeek,
    crew: dashCrew.length,
    threads: dashThreads.length,
  };

  // What a top-up needs to add rows like these (generateBroadcasts, generateWorked).
  const ref = (x) => ({
    id: x.b.id,
    timezone: x.b.timezone,
    currency: x.b.currency,
    owner: x.owner.id,
    city: Object.keys(CITIES).find((k) => CITIES[k] === x.city),
  });
  manifest.world = { market: market.map(ref), big: ref(big), others: others.map(ref), pool: pool.map((p) => p.id) };

  out.add('users', users);
  out.add('sessions', sessions);
  out.add('api_keys', apiKeys);
  out.add('businesses', businesses);
  out.add('shifters', shifters);
  out.add('request_authorizations', connections);
  out.add('counter_rules', counterRules);
  out.add('shift_requests', shiftRows);
  out.add('conversations', [...inbox.conversations, ...loadThreads, ...dashThreads]);
  out.add('conversation_participants', [...inbox.participants, ...loadSides, ...dashSides]);
  out.flush();
  manifest.counts.shiftRequests = shiftRows.length;
  manifest.counts.rows = out.total;
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return { manifest, files: out.files };
}

const bizOf = (w) => ({ b: { id: w.id, timezone: w.timezone, currency: w.currency }, owner: { id: w.owner }, city: CITIES[w.city] });

/**
 * More open broadcasts at the market businesses, like the base data's (`count` of them, top-up number
 * `batch`), into `dir`: the broadcast list's next size. Returns the files to load; updates `manifest`.
 */
export function generateBroadcasts(dir, manifest, count, batch) {
  const now = manifest.now;
  const ctx = makeContext(dir, { now, seed: 7_000 + batch, tag: `b${batch}-`, idTag: `b${batch}` });
  const market = manifest.world.market.map(bizOf);
  const from = manifest.counts.openBroadcasts;
  for (let i = from; i < from + count; i++) {
    const biz = market[i % market.length];
    const date = addDays(todayIn(biz.b.timezone, now), ctx.r.int(1, 28));
    const startMin = ctx.r.pick(STARTS);
    const role = ctx.r.pick(ROLES);
    ctx.shift(biz, date, hhmm(startMin), hhmm(startMin + 60 * ctx.r.int(4, 10)), role, rateOf(ctx.r, biz.city, role), {});
  }
  ctx.out.add('shift_requests', ctx.shiftRows);
  ctx.out.flush();
  manifest.counts.openBroadcasts += count;
  manifest.counts.shiftRequests += count;
  return ctx.out.files;
}

/**
 * More worked shifts at the insights businesses, like the base data's, and a thread in the big
 * business's inbox for every 50 of them: the figures' and the lists' next size.
 */
export function generateWorked(dir, manifest, count, batch) {
  const now = manifest.now;
  const ctx = makeContext(dir, { now, seed: 9_000 + batch, tag: `w${batch}-`, idTag: `w${batch}` });
  const r = ctx.r;
  const big = bizOf(manifest.world.big);
  const others = manifest.world.others.map(bizOf);
  const pool = manifest.world.pool;
  const byCity = manifest.counts.insightRowsByCity;
  for (let i = 0; i < count; i++) {
    const biz = r.chance(SIZES.bigBusinessShare) ? big : r.pick(others);
    const { date, shiftIn, shiftOut, t } = pastShift(r, biz, now, SIZES.historyDays);
    const role = r.pick(ROLES);
    ctx.shift(biz, date, shiftIn, shiftOut, role, rateOf(r, biz.city, role), {
      ...ctx.worked(pool[r.int(0, pool.length - 1)], t.startsAt, t.endsAt, r.chance(0.8) ? 5 : 2),
      is_broadcast: r.chance(0.3) ? 1 : 0,
    });
    byCity[biz.city.id] = (byCity[biz.city.id] ?? 0) + 1;
  }
  const threads = Math.floor(count / 50);
  const inbox = inboxThreads(ctx, { id: big.b.id, owner: big.owner.id }, manifest.counts.inboxThreads, threads);
  ctx.out.add('users', ctx.users);
  ctx.out.add('shifters', ctx.shifters);
  ctx.out.add('shift_requests', ctx.shiftRows);
  ctx.out.add('conversations', inbox.conversations);
  ctx.out.add('conversation_participants', inbox.participants);
  ctx.out.flush();
  manifest.counts.insightRows += count;
  manifest.counts.inboxThreads += threads;
  manifest.counts.shiftRequests += count;
  return ctx.out.files;
}

/**
 * Applies the migrations and loads the generated files into the local D1 under `persistTo` (the
 * server stopped): straight into its SQLite file with the project's Node 22 (bench/load-sqlite.mjs),
 * or through `wrangler d1 execute` where node:sqlite is missing.
 */
export async function load(persistTo, files, logFile, onProgress = () => {}) {
  await runWrangler(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistTo], logFile);
  onProgress('migrations applied');
  if (await loadDirect(databaseFile(persistTo), files, logFile, onProgress)) return;
  onProgress('node:sqlite is not available: loading through wrangler d1 execute');
  for (const [i, f] of files.entries()) {
    await runWrangler(['d1', 'execute', 'DB', '--local', '--persist-to', persistTo, '--file', f.file, '--yes'], logFile);
    onProgress(`file ${i + 1}/${files.length} loaded (${f.rows} rows)`);
  }
}

/** Runs bench/load-sqlite.mjs on the files; false when this Node has no node:sqlite (nothing loaded). */
function loadDirect(dbFile, files, logFile, onProgress) {
  return new Promise((resolve, reject) => {
    const child = track(
      spawn(existsSync(NODE) ? NODE : process.execPath, [join(BENCH_DIR, 'load-sqlite.mjs'), dbFile, ...files.map((f) => f.file)], {
        cwd: ROOT,
        env: childEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      }),
    );
    const log = createWriteStream(logFile, { flags: 'a' });
    log.write(`\n$ node bench/load-sqlite.mjs ${dbFile} (${files.length} files)\n`);
    let done = 0;
    let err = '';
    child.stdout.on('data', (d) => {
      log.write(d);
      for (const line of String(d).split('\n'))
        if (line.startsWith('loaded ')) {
          done++;
          onProgress(`file ${done}/${files.length} loaded (${files[done - 1].rows} rows)`);
        }
    });
    child.stderr.on('data', (d) => {
      log.write(d);
      err = (err + d).slice(-4000);
    });
    child.on('error', (e) => reject(e));
    child.on('exit', (code, signal) => {
      log.end();
      if (code === 0) resolve(true);
      else if (done === 0 && /ERR_UNKNOWN_BUILTIN_MODULE|node:sqlite/.test(err) && !/\.sql: /.test(err)) resolve(false);
      else reject(new Error(`loading the SQL files failed (${signal ?? `exit ${code}`})\n${err}`));
    });
  });
}
