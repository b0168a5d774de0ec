import { sql } from 'drizzle-orm';
import { reviews } from '../../db/schema';
import { addDays, dateInZone, mondayOf, startOfDay } from '../../lib/shift-time';
import { type ServiceContext, requirePerson } from '../kernel';
import { ratingOf } from './aggregates';
import { loadParty } from './parties';
import { TREND_DAILY_BELOW_DAYS, type Trend, type TrendQuery } from './schemas';
import { notUpheld } from './view';

interface Bucket {
  start: string;
  end: string;
  /** Instants counted: [from, to). */
  from: number;
  to: number;
}

/**
 * The buckets of a window of `days` calendar days ending today, in `tz`: one per day when
 * days < 30, else one per calendar week (Monday to Sunday). Only the window's instants count, so the
 * first and last weeks may be partial. Day boundaries are the zone's real midnights (DST days are 23
 * or 25 hours long).
 */
export function trendBuckets(
  now: number,
  days: number,
  tz: string,
): { from: string; to: string; bucket: 'day' | 'week'; buckets: Bucket[] } {
  const to = dateInZone(now, tz);
  const from = addDays(to, -(days - 1));
  const windowStart = startOfDay(from, tz);
  const windowEnd = startOfDay(addDays(to, 1), tz);
  const buckets: Bucket[] = [];
  if (days < TREND_DAILY_BELOW_DAYS) {
    for (let d = from; d <= to; d = addDays(d, 1)) {
      buckets.push({ start: d, end: d, from: startOfDay(d, tz), to: startOfDay(addDays(d, 1), tz) });
    }
    return { from, to, bucket: 'day', buckets };
  }
  for (let m = mondayOf(from); m <= to; m = addDays(m, 7)) {
    const next = addDays(m, 7);
    buckets.push({
      start: m,
      end: addDays(m, 6),
      from: Math.max(startOfDay(m, tz), windowStart),
      to: Math.min(startOfDay(next, tz), windowEnd),
    });
  }
  return { from, to, bucket: 'week', buckets };
}

/**
 * GET /v1/review/trend: average rating per bucket over the last `days` days, in the reviewed party's
 * own time zone (a business's zone, a shifter's zone; DECISIONS "Review trend"). Upheld-dispute
 * reviews are left out. The buckets travel as one JSON parameter and are aggregated in one
 * statement on the (review_on, review_on_id, created_at) index.
 */
export async function getTrend(ctx: ServiceContext, q: TrendQuery): Promise<Trend> {
  requirePerson(ctx);
  const party = await loadParty(ctx, q.review_on, q.review_on_id);
  const w = trendBuckets(ctx.now(), q.days, party.timezone);
  const bounds = JSON.stringify(w.buckets.map((b) => [b.from, b.to]));
  const rows = await ctx.db
    .select({
      idx: sql<number>`b.key`,
      n: sql<number>`count(${reviews.id})`,
      total: sql<number>`coalesce(sum(${reviews.rating}), 0)`,
    })
    .from(sql`json_each(${bounds}) AS b`)
    .innerJoin(
      reviews,
      sql`${reviews.review_on} = ${party.kind} AND ${reviews.review_on_id} = ${party.id} AND ${reviews.created_at} >= json_extract(b.value, '$[0]') AND ${reviews.created_at} < json_extract(b.value, '$[1]') AND ${notUpheld}`,
    )
    .groupBy(sql`b.key`);
  const byIdx = new Map(rows.map((r) => [Number(r.idx), { n: Number(r.n), total: Number(r.total) }]));
  let n = 0;
  let total = 0;
  const buckets = w.buckets.map((b, i) => {
    const got = byIdx.get(i) ?? { n: 0, total: 0 };
    n += got.n;
    total += got.total;
    return { start: b.start, end: b.end, ...ratingOf(got.total, got.n) };
  });
  return {
    review_on: party.kind,
    review_on_id: party.id,
    ...ratingOf(total, n),
    days: q.days,
    bucket: w.bucket,
    timezone: party.timezone,
    from: w.from,
    to: w.to,
    buckets,
  };
}
