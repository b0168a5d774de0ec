import { and, asc, eq, or, type SQL, sql } from 'drizzle-orm';
import { cities, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { decodeCursor, encodeCursor } from '../../lib/pagination';
import { enforceRateLimit, requirePerson, type ServiceContext } from '../kernel';
import { getAverages } from '../reviews';
import type { PublicShifter } from './public';

/**
 * Finding shifters by name from their public profiles (a business building its crew without
 * knowing anyone's slug). Bounded like the business search: at least `minChars` characters of the
 * name (no listing everyone), `pageSize` rows a page with a keyset cursor, and `perPerson` searches
 * per person per window (the kernel's limiter), a refused query costing nothing. Answers only what
 * /s/{slug} shows anyone.
 */
export const SHIFTER_SEARCH_BOUNDS = {
  minChars: 2,
  maxChars: 80,
  pageSize: 20,
  perPerson: { limit: 60, windowSeconds: 300 },
} as const;

export interface ShifterSearchInput {
  /** Part of the shifter's display name (any case). */
  name: string;
  limit?: number | undefined;
  cursor?: string | null | undefined;
}

export interface ShifterSearchResult {
  /** The name as searched (trimmed, inner spaces collapsed). */
  query: string;
  data: PublicShifter[];
  next_cursor: string | null;
}

const tidy = (v: string | null | undefined) => (v ?? '').replace(/\s+/g, ' ').trim();
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
const isCursor = (v: unknown): v is [string, string] =>
  Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string';

/**
 * Shifters whose display name contains `name` (SQLite's LIKE: any case for ASCII, its wildcards
 * taken literally), by name then id. A query too short or too long is VALIDATION-ERR on `name`; a
 * spent budget is RATE-LIMIT-ERR.
 */
export async function searchPublicShifters(ctx: ServiceContext, input: ShifterSearchInput): Promise<ShifterSearchResult> {
  const actor = requirePerson(ctx);
  const { minChars, maxChars, pageSize, perPerson } = SHIFTER_SEARCH_BOUNDS;
  const name = tidy(input.name);
  if (name.length < minChars || name.length > maxChars) {
    const message = name.length < minChars ? `Type at least ${minChars} letters of their name.` : `Use at most ${maxChars} characters.`;
    throw new AppError('VALIDATION-ERR', message, [{ field: 'name', message }]);
  }
  const limit = Math.min(Math.max(Math.trunc(input.limit ?? pageSize), 1), pageSize);
  const after = input.cursor ? decodeCursor(input.cursor, isCursor) : null;
  await enforceRateLimit(
    ctx.env,
    `shifter-search:${actor.userId}`,
    perPerson.limit,
    perPerson.windowSeconds,
    'Too many searches for shifters in a short time; wait a few minutes and search again.',
  );
  const sortKey = sql<string>`lower(${shifters.display_name})`;
  const where: SQL[] = [sql`${shifters.display_name} LIKE ${contains(name)} ESCAPE '\\'`];
  if (after) where.push(or(sql`${sortKey} > ${after[0]}`, and(sql`${sortKey} = ${after[0]}`, sql`${shifters.id} > ${after[1]}`))!);
  const rows = await ctx.db
    .select({ s: shifters, city: cities.name, key: sortKey })
    .from(shifters)
    .leftJoin(cities, eq(cities.id, shifters.city_id))
    .where(and(...where))
    .orderBy(asc(sortKey), asc(shifters.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = rows.length > limit ? page[page.length - 1] : undefined;
  const ratings = page.length
    ? (await getAverages(ctx, { parties: page.map((r) => ({ review_on: 'shifter' as const, review_on_id: r.s.id })) })).data
    : [];
  return {
    query: name,
    data: page.map(({ s, city }, i) => ({
      id: s.id,
      slug: s.slug,
      display_name: s.display_name,
      headline: s.headline,
      bio: s.bio,
      photo_url: s.photo_url,
      city,
      accept_shift_req: s.accept_shift_req,
      created_at: s.created_at,
      ratings: { average: ratings[i]?.average ?? null, count: ratings[i]?.count ?? 0 },
    })),
    next_cursor: last ? encodeCursor([last.key, last.s.id]) : null,
  };
}
