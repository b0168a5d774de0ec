import { and, asc, eq, or, type SQL, sql } from 'drizzle-orm';
import { businesses, cities } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { decodeCursor, encodeCursor } from '../../lib/pagination';
import { enforceRateLimit, requirePerson, type ServiceContext } from '../kernel';
import { getAverages, type Rating } from '../reviews';

/**
 * Finding businesses by name and city from their public profiles (a shifter looking for a crew to
 * ask). Bounded three ways: a query of at least `minChars` characters in the name or the city (no
 * listing every business), `pageSize` rows a page with a keyset cursor, and `perPerson` searches per
 * person per window (the kernel's limiter). Answers only what /b/{slug} shows anyone.
 */
export const BUSINESS_SEARCH_BOUNDS = {
  minChars: 2,
  maxChars: 80,
  pageSize: 20,
  perPerson: { limit: 60, windowSeconds: 300 },
} as const;

export interface BusinessSearchInput {
  /** Part of the business's name (any case). */
  name?: string | null | undefined;
  /** Part of its city's name (any case). */
  city?: string | null | undefined;
  /** Rows a page, 1 to pageSize (default pageSize). */
  limit?: number | undefined;
  /** next_cursor of the previous page. */
  cursor?: string | null | undefined;
}

/** One business as its public profile shows it. */
export interface FoundBusiness {
  id: string;
  slug: string;
  name: string;
  city: string | null;
  /** On Shiftmarket since (epoch ms). */
  created_at: number;
  ratings: Rating;
}

export interface BusinessSearchResult {
  /** The query as searched (trimmed, inner spaces collapsed). */
  query: { name: string; city: string };
  data: FoundBusiness[];
  next_cursor: string | null;
}

const tidy = (v: string | null | undefined) => (v ?? '').replace(/\s+/g, ' ').trim();

/** A LIKE pattern for "contains `text`", its wildcards taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

const isCursor = (v: unknown): v is [string, string] =>
  Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string';

/** The field problems of a query, in the words shown beside the search form's fields. */
function queryProblems(name: string, city: string): Array<{ field: 'name' | 'city'; message: string }> {
  const { minChars, maxChars } = BUSINESS_SEARCH_BOUNDS;
  const out: Array<{ field: 'name' | 'city'; message: string }> = [];
  if (!name && !city) return [{ field: 'name', message: `Type at least ${minChars} letters of a business's name, or a city.` }];
  for (const [field, value] of [
    ['name', name],
    ['city', city],
  ] as const) {
    if (!value) continue;
    if (value.length < minChars) out.push({ field, message: `Type at least ${minChars} letters.` });
    else if (value.length > maxChars) out.push({ field, message: `Use at most ${maxChars} characters.` });
  }
  return out;
}

/**
 * Businesses whose name contains `name` and whose city contains `city` (either may be left out, not
 * both), by name then id. A refused query (too short, too long) is VALIDATION-ERR naming its field,
 * and costs nothing from the person's budget; a spent budget is RATE-LIMIT-ERR.
 */
export async function searchPublicBusinesses(ctx: ServiceContext, input: BusinessSearchInput): Promise<BusinessSearchResult> {
  const actor = requirePerson(ctx);
  const { pageSize, perPerson } = BUSINESS_SEARCH_BOUNDS;
  const name = tidy(input.name);
  const city = tidy(input.city);
  const problems = queryProblems(name, city);
  if (problems.length) throw new AppError('VALIDATION-ERR', problems[0]!.message, problems);
  const limit = Math.min(Math.max(Math.trunc(input.limit ?? pageSize), 1), pageSize);
  const after = input.cursor ? decodeCursor(input.cursor, isCursor) : null;
  await enforceRateLimit(
    ctx.env,
    `business-search:${actor.userId}`,
    perPerson.limit,
    perPerson.windowSeconds,
    'Too many searches for businesses in a short time; wait a few minutes and search again.',
  );

  const sortKey = sql<string>`lower(${businesses.name})`;
  const where: SQL[] = [];
  if (name) where.push(sql`${businesses.name} LIKE ${contains(name)} ESCAPE '\\'`);
  if (city) where.push(sql`${cities.name} LIKE ${contains(city)} ESCAPE '\\'`);
  if (after) where.push(or(sql`${sortKey} > ${after[0]}`, and(sql`${sortKey} = ${after[0]}`, sql`${businesses.id} > ${after[1]}`))!);
  const rows = await ctx.db
    .select({
      id: businesses.id,
      slug: businesses.slug,
      name: businesses.name,
      city: cities.name,
      created_at: businesses.created_at,
      key: sortKey,
    })
    .from(businesses)
    .leftJoin(cities, eq(cities.id, businesses.city_id))
    .where(and(...where))
    .orderBy(asc(sortKey), asc(businesses.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = rows.length > limit ? page[page.length - 1] : undefined;
  const ratings = page.length
    ? (await getAverages(ctx, { parties: page.map((r) => ({ review_on: 'business' as const, review_on_id: r.id })) })).data
    : [];
  return {
    query: { name, city },
    data: page.map((r, i) => ({
      id: r.id,
      slug: r.slug,
      name: r.name,
      city: r.city,
      created_at: r.created_at,
      ratings: { average: ratings[i]?.average ?? null, count: ratings[i]?.count ?? 0 },
    })),
    next_cursor: last ? encodeCursor([last.key, last.id]) : null,
  };
}
