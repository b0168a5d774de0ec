import { sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { type BatchItem, type Db, runBatch } from '../../db/client';
import {
  admins,
  apiKeys,
  businesses,
  counterRules,
  credentials,
  mileageEntries,
  requestAuthorizations,
  shifters,
  shiftRequests,
  teammates,
  users,
} from '../../db/schema';
import { hashPassword } from '../../lib/crypto';
import { newId } from '../../lib/ids';
import { makeSlug } from '../../lib/slug';
import { mintApiKey } from '../../services/accounts';
import type { ServiceContext } from '../../services/kernel';
import { BUSINESSES, CONNECTIONS, DEMO_PASSWORD, type DemoRole, demoEmail, PEOPLE, SHIFTERS, TEAMMATES } from './cast';
import { DEMO_EXTRAS } from './extras';
import type { DemoWorld } from './world';
import { buildShiftHistory, type HistoryBusiness, type HistoryShifter } from './history';
import { purgeDemoData } from './purge';
import { buildShifterRecords } from './records';

export { DEMO_PASSWORD } from './cast';

export interface DemoAccount {
  role: DemoRole;
  email: string;
  password: string;
  user_id: string;
  api_key: string;
}

export interface DemoCounts {
  users: number;
  businesses: number;
  shifters: number;
  teammates: number;
  connections: number;
  shift_requests: number;
  mileage_entries: number;
  counter_rules: number;
  credentials: number;
  credential_documents: number;
  /** Counts of the later parts (DEMO_EXTRAS), by name. */
  [extra: string]: number;
}

export interface SeedResult {
  seeded: boolean;
  accounts: DemoAccount[];
  counts?: DemoCounts;
}

/** D1 accepts at most 100 bound parameters per statement. */
export const MAX_PARAMS = 100;
/** Statements per db.batch: one round trip each, small enough to stay well inside D1's limits. */
const BATCH_SIZE = 50;
const DAY = 24 * 3600 * 1000;

/**
 * Multi-row INSERTs for `rows`, each under D1's bound-parameter cap. Drizzle binds every given value
 * and every JS-side default, so the count is taken from the built statement rather than guessed.
 */
export function chunkedInserts<T extends SQLiteTable>(db: Db, table: T, rows: T['$inferInsert'][]): BatchItem[] {
  const out: BatchItem[] = [];
  const paramsOf = (chunk: T['$inferInsert'][]) => db.insert(table).values(chunk).toSQL().params.length;
  let i = 0;
  while (i < rows.length) {
    let n = 1;
    while (i + n < rows.length && paramsOf(rows.slice(i, i + n + 1)) <= MAX_PARAMS) n++;
    out.push(db.insert(table).values(rows.slice(i, i + n)) as unknown as BatchItem);
    i += n;
  }
  return out;
}

/**
 * Seeds the demo world (see cast.ts, history.ts and records.ts) and returns the demo accounts, each
 * with a freshly minted personal key. Without `force` it only seeds an empty database (no users at
 * all); with `force` it first removes every demo row and everything hanging off it (demo credential
 * documents in R2 included), and leaves real accounts alone. The plaintext keys exist only in the
 * returned value; the database keeps hashes.
 */
export async function seedDemoData(ctx: ServiceContext, opts: { force: boolean }): Promise<SeedResult> {
  const { db } = ctx;
  if (!opts.force) {
    const any = await db.select({ one: sql<number>`1` }).from(users).limit(1);
    if (any.length) return { seeded: false, accounts: [] };
  }
  const removed = await purgeDemoData(ctx);

  const now = ctx.now();
  const joined = now - 120 * DAY;
  // One shared, published password: hash it once (PBKDF2 is deliberately slow).
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  const userIds = new Map(PEOPLE.map((p) => [p.key, newId('user')]));
  const uid = (key: string) => userIds.get(key)!;
  const accounts: DemoAccount[] = [];
  const keyRows: (typeof apiKeys.$inferInsert)[] = [];
  for (const p of PEOPLE) {
    const { key, row } = await mintApiKey(uid(p.key), now);
    keyRows.push(row);
    accounts.push({ role: p.role, email: demoEmail(p), password: DEMO_PASSWORD, user_id: uid(p.key), api_key: key });
  }
  const userRows = PEOPLE.map((p, i) => ({
    id: uid(p.key),
    email: demoEmail(p),
    password_hash: passwordHash,
    display_name: p.name,
    email_verified_at: joined + i * 3600_000,
    is_demo: true,
    created_at: joined + i * 3600_000 - 600_000,
    updated_at: joined + i * 3600_000,
  }));

  const businessIds = new Map(BUSINESSES.map((b) => [b.key, newId('business')]));
  const businessRows = BUSINESSES.map(({ key, owner, ...b }) => ({
    ...b,
    id: businessIds.get(key)!,
    user_id: uid(owner),
    slug: makeSlug(b.name),
    created_at: joined + DAY,
    updated_at: joined + DAY,
  }));

  const shifterIds = new Map(SHIFTERS.map((s) => [s.person, newId('shifter')]));
  const shifterRows = SHIFTERS.map(({ person, ...s }) => ({
    ...s,
    id: shifterIds.get(person)!,
    user_id: uid(person),
    slug: makeSlug(PEOPLE.find((p) => p.key === person)!.name),
    display_name: PEOPLE.find((p) => p.key === person)!.name,
    created_at: joined + DAY,
    updated_at: joined + DAY,
  }));

  const teammateRows = TEAMMATES.map((t) => ({
    id: newId('teammate'),
    business_id: businessIds.get(t.business)!,
    user_id: uid(t.person),
    status: t.status,
    created_at: joined + 2 * DAY,
    updated_at: t.status === 1 ? joined + 2 * DAY : now - 40 * DAY,
  }));

  const connectionRows = CONNECTIONS.map((c, i) => ({
    id: newId('connection'),
    business_id: businessIds.get(c.business)!,
    shifter_id: shifterIds.get(c.shifter)!,
    initiated_by: c.initiated_by,
    status: c.status,
    // The pending request is recent; the others were answered long before the history starts.
    responded_at: c.status === 'pending' ? null : joined + (3 + i) * DAY,
    created_at: c.status === 'pending' ? now - 2 * DAY : joined + (2 + i) * DAY,
    updated_at: c.status === 'pending' ? now - 2 * DAY : joined + (3 + i) * DAY,
  }));

  const historyBusinesses: HistoryBusiness[] = BUSINESSES.map((b) => ({
    key: b.key,
    id: businessIds.get(b.key)!,
    timezone: b.timezone,
    currency: b.currency,
    latitude: b.latitude,
    longitude: b.longitude,
    geofence_radius_m: b.geofence_radius_m,
    creators: [uid(b.owner), ...TEAMMATES.filter((t) => t.business === b.key && t.status === 1).map((t) => uid(t.person))],
    formerCreator: TEAMMATES.filter((t) => t.business === b.key && t.status !== 1).map((t) => uid(t.person))[0],
    crew: CONNECTIONS.filter((c) => c.business === b.key && c.status === 'accepted').map((c) => c.shifter),
  }));
  const historyShifters = new Map<string, HistoryShifter>(
    SHIFTERS.map((s) => [s.person, { id: shifterIds.get(s.person)!, user_id: uid(s.person), accept_shift_req: s.accept_shift_req }]),
  );
  const shiftRows = buildShiftHistory(now, historyBusinesses, historyShifters);
  const records = buildShifterRecords(
    now,
    SHIFTERS.map((s) => ({
      key: s.person,
      id: shifterIds.get(s.person)!,
      user_id: uid(s.person),
      name: PEOPLE.find((p) => p.key === s.person)!.name,
      timezone: s.timezone,
    })),
    ctx.settings.MILEAGE_RATE_CENTS,
  );

  const statements: BatchItem[] = [
    ...chunkedInserts(db, users, userRows),
    ...chunkedInserts(
      db,
      admins,
      PEOPLE.filter((p) => p.role === 'admin').map((p) => ({ user_id: uid(p.key), created_at: joined })),
    ),
    ...chunkedInserts(db, apiKeys, keyRows),
    ...chunkedInserts(db, businesses, businessRows),
    ...chunkedInserts(db, shifters, shifterRows),
    ...chunkedInserts(db, teammates, teammateRows),
    ...chunkedInserts(db, requestAuthorizations, connectionRows),
    ...chunkedInserts(db, shiftRequests, shiftRows),
    ...chunkedInserts(db, mileageEntries, records.mileage),
    ...chunkedInserts(db, counterRules, records.counterRules),
    ...chunkedInserts(db, credentials, records.credentials),
  ];
  // Parents are inserted before children, batch after batch. Should a batch fail, the next forced
  // seed (or the nightly reset) removes the partial demo rows first.
  for (let i = 0; i < statements.length; i += BATCH_SIZE) {
    await runBatch(db, statements.slice(i, i + BATCH_SIZE));
  }
  // Credential documents go to R2 once their rows exist, so every stored object has a demo shifter
  // whose prefix the next purge clears, even when a put fails halfway.
  await Promise.all(
    records.documents.map((d) => ctx.env.UPLOADS.put(d.key, d.bytes, { httpMetadata: d.httpMetadata, customMetadata: d.customMetadata })),
  );

  // The parts of the demo world that build on these rows (reviews, message threads…).
  const world: DemoWorld = {
    now,
    userId: uid,
    businessId: (key) => businessIds.get(key)!,
    shifterId: (person) => shifterIds.get(person)!,
    shifts: shiftRows,
  };
  const extras: Record<string, number> = {};
  for (const extra of DEMO_EXTRAS) extras[extra.name] = await extra.seed(ctx, world);

  const counts: DemoCounts = {
    users: userRows.length,
    businesses: businessRows.length,
    shifters: shifterRows.length,
    teammates: teammateRows.length,
    connections: connectionRows.length,
    shift_requests: shiftRows.length,
    mileage_entries: records.mileage.length,
    counter_rules: records.counterRules.length,
    credentials: records.credentials.length,
    credential_documents: records.documents.length,
  };
  ctx.log.info('demo data seeded', { removed_rows: removed, statements: statements.length, ...counts, ...extras });
  return { seeded: true, accounts, counts: { ...counts, ...extras } };
}

/** Nightly: removes demo rows and seeds them again, so demo keys never outlive a night. */
export async function resetDemoData(ctx: ServiceContext) {
  const r = await seedDemoData(ctx, { force: true });
  return { seeded: r.seeded, accounts: r.accounts.length, ...r.counts };
}
