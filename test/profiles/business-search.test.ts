import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { reviews } from '../../src/db/schema';
import type { AppBindings } from '../../src/env';
import { AppError } from '../../src/lib/errors';
import { newId } from '../../src/lib/ids';
import { systemContext } from '../../src/services/kernel';
import { BUSINESS_SEARCH_BOUNDS, searchPublicBusinesses } from '../../src/services/profiles';
import { contextAt } from '../helpers/clock';
import { db, makeUser, type TestUser } from '../helpers/factory';

// Storage is shared inside this file: every test names its businesses with a token of its own.
const token = () => `Q${crypto.randomUUID().replaceAll('-', '').slice(0, 8)}`;

const LONDON = { city_id: 10, state_id: 8, country_id: 3, timezone: 'Europe/London' };

async function business(name: string, place: Partial<typeof LONDON> = {}) {
  const u = await makeUser({ business: { name, ...place } });
  return { id: u.businessId!, user: u };
}

const search = (who: TestUser, input: Parameters<typeof searchPublicBusinesses>[1]) =>
  searchPublicBusinesses(contextAt(Date.now(), who), input);

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('searchPublicBusinesses', () => {
  it('finds by part of the name in any case, by city, and by both, answering only what a public profile shows', async () => {
    const t = token();
    const harbor = await business(`${t} Harbor Kitchen`);
    const london = await business(`${t} Camden Bakery`, LONDON);
    await business(`Elsewhere ${token()} Diner`, LONDON);
    const shifter = await makeUser({ shifter: true });

    const byName = await search(shifter, { name: `${t.toLowerCase()} harbor` });
    expect(byName.data.map((b) => b.id)).toEqual([harbor.id]);
    const [hit] = byName.data;
    expect(Object.keys(hit!).sort()).toEqual(['city', 'created_at', 'id', 'name', 'ratings', 'slug']);
    expect(hit).toMatchObject({ name: `${t} Harbor Kitchen`, city: 'New York', ratings: { average: null, count: 0 } });
    expect(hit!.slug).toMatch(/^[a-z0-9-]+$/);

    // Both of this test's businesses by the token; only the London one with the city too.
    expect((await search(shifter, { name: t })).data.map((b) => b.id)).toEqual([london.id, harbor.id]);
    expect((await search(shifter, { name: t, city: 'lond' })).data.map((b) => b.id)).toEqual([london.id]);
    const inLondon = await search(shifter, { city: '  London ' });
    expect(inLondon.query).toEqual({ name: '', city: 'London' });
    expect(inLondon.data.map((b) => b.id)).toContain(london.id);
    expect(inLondon.data.map((b) => b.id)).not.toContain(harbor.id);
    expect(inLondon.data.every((b) => b.city === 'London')).toBe(true);
  });

  it("carries each business's ratings, as its public profile does", async () => {
    const t = token();
    const rated = await business(`${t} Rated Cafe`);
    const reviewer = await makeUser({ shifter: true });
    const now = Date.now();
    for (const rating of [4, 5]) {
      await db()
        .insert(reviews)
        .values({
          id: newId('review'),
          reviewer_user_id: reviewer.userId,
          review_by: 'shifter',
          review_by_id: reviewer.shifterId!,
          review_on: 'business',
          review_on_id: rated.id,
          rating,
          created_at: now,
          updated_at: now,
        });
    }
    const [hit] = (await search(reviewer, { name: t })).data;
    expect(hit?.ratings).toEqual({ average: 4.5, count: 2 });
  });

  it('takes wildcards literally', async () => {
    const t = token();
    await business(`${t} Plain Name`);
    await business(`${t} 100% Juice`);
    const shifter = await makeUser({ shifter: true });
    expect((await search(shifter, { name: '%%' })).data.every((b) => b.name.includes('%%'))).toBe(true);
    expect((await search(shifter, { name: `${t} __` })).data).toEqual([]);
    expect((await search(shifter, { name: `${t} 100%` })).data.map((b) => b.name)).toEqual([`${t} 100% Juice`]);
  });

  it('refuses a query under the minimum or over the maximum, naming the field, and a search of nothing', async () => {
    const shifter = await makeUser({ shifter: true });
    const { minChars, maxChars } = BUSINESS_SEARCH_BOUNDS;
    const short = await refusal(search(shifter, { name: 'a'.repeat(minChars - 1) }));
    expect(short.code).toBe('VALIDATION-ERR');
    expect(short.details).toEqual([{ field: 'name', message: `Type at least ${minChars} letters.` }]);
    const city = await refusal(search(shifter, { name: 'Harbor', city: ' x ' }));
    expect(city.details).toEqual([{ field: 'city', message: `Type at least ${minChars} letters.` }]);
    const long = await refusal(search(shifter, { city: 'y'.repeat(maxChars + 1) }));
    expect(long.details).toEqual([{ field: 'city', message: `Use at most ${maxChars} characters.` }]);
    const nothing = await refusal(search(shifter, { name: '   ', city: '' }));
    expect(nothing.details).toEqual([{ field: 'name', message: expect.stringContaining('or a city') }]);
    const cursor = await refusal(search(shifter, { name: 'Harbor', cursor: 'not-a-cursor' }));
    expect(cursor.code).toBe('VALIDATION-ERR');
  });

  it(`pages by ${BUSINESS_SEARCH_BOUNDS.pageSize}, by name, with a cursor that neither skips nor repeats`, async () => {
    const t = token();
    const { pageSize } = BUSINESS_SEARCH_BOUNDS;
    const made = [];
    for (let i = 0; i < pageSize + 3; i++) made.push(await business(`${t} Venue ${String(i).padStart(2, '0')}`));
    const shifter = await makeUser({ shifter: true });
    const first = await search(shifter, { name: t, limit: 500 });
    expect(first.data).toHaveLength(pageSize);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await search(shifter, { name: t, cursor: first.next_cursor });
    expect(second.data).toHaveLength(3);
    expect(second.next_cursor).toBeNull();
    const names = [...first.data, ...second.data].map((b) => b.name);
    expect(names).toEqual(made.map((_, i) => `${t} Venue ${String(i).padStart(2, '0')}`));
    expect((await search(shifter, { name: t, limit: 5 })).data).toHaveLength(5);
  });

  it('is limited per person; a refused query costs nothing', async () => {
    const { limit } = BUSINESS_SEARCH_BOUNDS.perPerson;
    const shifter = await makeUser({ shifter: true });
    const other = await makeUser({ shifter: true });
    for (let i = 0; i < 5; i++) await refusal(search(shifter, { name: 'x' }));
    for (let i = 0; i < limit; i++) await search(shifter, { city: 'Berlin' });
    const spent = await refusal(search(shifter, { city: 'Berlin' }));
    expect(spent.code).toBe('RATE-LIMIT-ERR');
    expect(spent.headers?.['Retry-After']).toEqual(expect.any(String));
    // Another person's budget is their own.
    expect((await search(other, { city: 'Berlin' })).query.city).toBe('Berlin');
  });

  it('answers people only', async () => {
    const job = systemContext(env as AppBindings, { waitUntil: () => undefined }, 'test:search');
    expect((await refusal(searchPublicBusinesses(job, { name: 'Harbor' }))).code).toBe('AUTH-REQ-ERR');
  });
});
