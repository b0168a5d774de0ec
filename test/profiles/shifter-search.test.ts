import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/lib/errors';
import { SHIFTER_SEARCH_BOUNDS, searchPublicShifters } from '../../src/services/profiles';
import { contextAt } from '../helpers/clock';
import { makeUser, type TestUser } from '../helpers/factory';

// Storage is shared inside this file: every test names its shifters with a token of its own.
const token = () => `Q${crypto.randomUUID().replaceAll('-', '').slice(0, 8)}`;

const search = (who: TestUser, input: Parameters<typeof searchPublicShifters>[1]) =>
  searchPublicShifters(contextAt(Date.now(), who), input);

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('searchPublicShifters', () => {
  it('finds by part of the name in any case, answering only what a public profile shows, page by page', async () => {
    const t = token();
    const names = [`${t} Ana Alves`, `${t} Bea Brooks`, `${t} Cy Chen`];
    const made = await Promise.all(names.map((name) => makeUser({ shifter: { display_name: name, headline: 'Line cook' }, name })));
    const owner = await makeUser({ business: true });

    const all = await search(owner, { name: `  ${t.toLowerCase()}  ` });
    expect(all.data.map((s) => s.display_name)).toEqual(names);
    expect(Object.keys(all.data[0]!).sort()).toEqual(
      ['accept_shift_req', 'bio', 'city', 'created_at', 'display_name', 'headline', 'id', 'photo_url', 'ratings', 'slug'].sort(),
    );
    expect(JSON.stringify(all)).not.toContain(made[0]!.userId);
    expect(JSON.stringify(all)).not.toContain(made[0]!.email);

    const one = await search(owner, { name: `${t} bea` });
    expect(one.data.map((s) => s.id)).toEqual([made[1]!.shifterId]);

    const first = await search(owner, { name: t, limit: 2 });
    expect(first.data).toHaveLength(2);
    const rest = await search(owner, { name: t, limit: 2, cursor: first.next_cursor });
    expect(rest.data.map((s) => s.display_name)).toEqual([names[2]]);
    expect(rest.next_cursor).toBeNull();

    // Wildcards are taken literally.
    expect((await search(owner, { name: `${t}%` })).data).toEqual([]);
  });

  it('refuses a short query without counting it, and a spent budget with 429', async () => {
    const owner = await makeUser({ business: true });
    const short = await refusal(search(owner, { name: ' a ' }));
    expect(short.code).toBe('VALIDATION-ERR');
    expect(short.details).toEqual([{ field: 'name', message: 'Type at least 2 letters of their name.' }]);
    for (let i = 0; i < SHIFTER_SEARCH_BOUNDS.perPerson.limit; i++) await search(owner, { name: 'zz-nobody' });
    const spent = await refusal(search(owner, { name: 'zz-nobody' }));
    expect(spent.code).toBe('RATE-LIMIT-ERR');
    expect(Number(spent.headers?.['Retry-After'])).toBeGreaterThan(0);
  });
});
