import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiKeys } from '../../src/db/schema';
import { call } from '../helpers/api';
import { db, makeUser } from '../helpers/factory';

/*
 * What an authenticated read costs in D1 round trips (bench/auth-read.mjs measures the time). The
 * least this architecture needs is the key lookup, one Durable Object call and the user's rows; these
 * tests fail when a layer adds a round trip. D1 is only watched (the calls pass through unchanged).
 */

/** Watches D1 (the calls pass through unchanged): the statements prepared and the batches sent. */
function watchD1() {
  const sql: string[] = [];
  const batches: number[] = [];
  const prepare = env.DB.prepare.bind(env.DB);
  const batch = env.DB.batch.bind(env.DB);
  vi.spyOn(env.DB, 'prepare').mockImplementation((query: string) => {
    sql.push(query);
    return prepare(query);
  });
  vi.spyOn(env.DB, 'batch').mockImplementation((statements) => {
    batches.push(statements.length);
    return batch(statements);
  });
  return {
    sql,
    /** One trip per statement run on its own, one per batch. */
    roundTrips: () => sql.length - batches.reduce((a, n) => a + n, 0) + batches.length,
  };
}

const settle = () => new Promise((r) => setTimeout(r, 100));

describe('the cost of an authenticated read', () => {
  afterEach(() => vi.restoreAllMocks());

  it('GET /v1/user/details with a key used a moment ago: the key lookup and one batch of the user’s rows, nothing else', async () => {
    const u = await makeUser({ shifter: true, business: true });
    await db()
      .update(apiKeys)
      .set({ last_used_at: Date.now() - 5_000 })
      .where(eq(apiKeys.id, u.keyId));
    const w = watchD1();
    const res = await call('GET', '/v1/user/details', { key: u.key });
    await settle();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: u.userId, has_shifter_profile: true, has_business_profile: true });
    expect(w.sql.filter((q) => /^update\s+"api_keys"/i.test(q))).toEqual([]);
    expect(w.roundTrips(), w.sql.join('\n')).toBe(2);
  });

  it('records the key’s use at most once a minute: a stale last_used_at is written (in the background)', async () => {
    const u = await makeUser({ shifter: true });
    const old = Date.now() - 10 * 60_000;
    await db().update(apiKeys).set({ last_used_at: old }).where(eq(apiKeys.id, u.keyId));
    const w = watchD1();
    expect((await call('GET', '/v1/user/details', { key: u.key })).status).toBe(200);
    await vi.waitFor(async () => {
      const [k] = await db().select({ at: apiKeys.last_used_at }).from(apiKeys).where(eq(apiKeys.id, u.keyId));
      expect(k!.at).toBeGreaterThan(old);
    });
    expect(w.sql.filter((q) => /^update\s+"api_keys"/i.test(q))).toHaveLength(1);
  });
});
