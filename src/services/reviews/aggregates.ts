import { and, eq, type SQL, sql } from 'drizzle-orm';
import { reviews } from '../../db/schema';
import { roundRatio } from '../../lib/money';
import { type ServiceContext, requirePerson } from '../kernel';
import type { BatchAverages, BatchAveragesInput, Histogram, PartyAverage, PartyKind, Rating, ReviewedPartyQuery } from './schemas';
import { notUpheld } from './view';

/**
 * Averages, batch averages and the rating histogram (spec 4.6), and the `ratings` of the shifter and
 * business profiles. All of them count only reviews not removed by an upheld dispute. The mean is
 * the exact sum ÷ count rounded half-up at 2 decimals (the project's one rounding rule); null
 * without reviews. An unknown party simply has no reviews.
 */
export const AVERAGE_DIGITS = 2;

export function ratingOf(total: number, count: number): Rating {
  return { average: count > 0 ? roundRatio(total, count, AVERAGE_DIGITS) : null, count };
}

/** A party without reviews. */
export const NO_RATINGS: Rating = { average: null, count: 0 };

const key = (kind: PartyKind, id: string) => `${kind}:${id}`;

/** SQL: reviews of the party. */
export const reviewsOf = (kind: PartyKind, id: string): SQL => and(eq(reviews.review_on, kind), eq(reviews.review_on_id, id), notUpheld)!;

/**
 * Ratings of many parties in one statement. Ids travel as one JSON parameter per kind (D1 binds at
 * most 100 parameters), and each kind's list is matched on the (review_on, review_on_id) index.
 */
export async function ratingsFor(ctx: ServiceContext, parties: Array<{ kind: PartyKind; id: string }>): Promise<Map<string, Rating>> {
  const out = new Map<string, Rating>();
  if (!parties.length) return out;
  const ids = (kind: PartyKind) => JSON.stringify([...new Set(parties.filter((p) => p.kind === kind).map((p) => p.id))]);
  const inList = (kind: PartyKind) =>
    sql`(${reviews.review_on} = ${kind} AND ${reviews.review_on_id} IN (SELECT value FROM json_each(${ids(kind)})))`;
  const rows = await ctx.db
    .select({
      kind: reviews.review_on,
      id: reviews.review_on_id,
      n: sql<number>`count(*)`,
      total: sql<number>`sum(${reviews.rating})`,
    })
    .from(reviews)
    .where(and(sql`(${inList('shifter')} OR ${inList('business')})`, notUpheld))
    .groupBy(reviews.review_on, reviews.review_on_id);
  for (const r of rows) out.set(key(r.kind, r.id), ratingOf(Number(r.total), Number(r.n)));
  return out;
}

/** The `ratings` of one profile. */
export async function partyRating(ctx: ServiceContext, kind: PartyKind, id: string): Promise<Rating> {
  return (await ratingsFor(ctx, [{ kind, id }])).get(key(kind, id)) ?? NO_RATINGS;
}

/** GET /v1/review/get_avg_review */
export async function getAverage(ctx: ServiceContext, q: ReviewedPartyQuery): Promise<PartyAverage> {
  requirePerson(ctx);
  return { review_on: q.review_on, review_on_id: q.review_on_id, ...(await partyRating(ctx, q.review_on, q.review_on_id)) };
}

/** POST /v1/review/averages: one answer per asked party, in the order asked. */
export async function getAverages(ctx: ServiceContext, input: BatchAveragesInput): Promise<BatchAverages> {
  requirePerson(ctx);
  const found = await ratingsFor(
    ctx,
    input.parties.map((p) => ({ kind: p.review_on, id: p.review_on_id })),
  );
  return {
    data: input.parties.map((p) => ({
      review_on: p.review_on,
      review_on_id: p.review_on_id,
      ...(found.get(key(p.review_on, p.review_on_id)) ?? NO_RATINGS),
    })),
  };
}

/** GET /v1/review/histogram: how many reviews gave each rating, 1 to 5, with the average. */
export async function getHistogram(ctx: ServiceContext, q: ReviewedPartyQuery): Promise<Histogram> {
  requirePerson(ctx);
  const rows = await ctx.db
    .select({ rating: reviews.rating, n: sql<number>`count(*)` })
    .from(reviews)
    .where(reviewsOf(q.review_on, q.review_on_id))
    .groupBy(reviews.rating);
  const counts = new Map(rows.map((r) => [r.rating, Number(r.n)]));
  const histogram = [1, 2, 3, 4, 5].map((rating) => ({ rating, count: counts.get(rating) ?? 0 }));
  const count = histogram.reduce((n, b) => n + b.count, 0);
  const total = histogram.reduce((n, b) => n + b.rating * b.count, 0);
  return { review_on: q.review_on, review_on_id: q.review_on_id, ...ratingOf(total, count), histogram };
}
