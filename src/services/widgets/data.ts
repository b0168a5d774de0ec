import type { PublicWidget, ServiceContext } from '../kernel';
import { and, asc, desc, eq, gt } from 'drizzle-orm';
import { businesses, reviews, shiftRequests, shiftRoles, shifters } from '../../db/schema';
import { fromMinor } from '../../lib/money';
import { findPublicBusiness, findPublicShifter } from '../profiles';
import { goingRate } from '../insights';
import { notUpheld, type PartyKind, type Rating, selectNamed } from '../reviews';

/**
 * The public data of the widgets (spec 4.10): only what anyone may see, read without a caller
 * (the context's actor is the system). Every loader answers `null` for an unknown slug, which the
 * frame shows as an empty state. The results are plain JSON so the edge cache (cache.ts) can keep them.
 */

export const WIDGET_LIST_MAX = 20;

export interface PartyCard {
  kind: PartyKind;
  id: string;
  slug: string;
  name: string;
  headline: string | null;
  bio: string | null;
  city: string | null;
  /** Shifters only: false shows the "Paused" badge (not taking shift requests). */
  accept_shift_req: boolean | null;
  ratings: Rating;
}

export interface OpenShift {
  id: string;
  shift_date: string;
  shift_in: string;
  shift_out: string;
  timezone: string;
  role: string;
  hourly_rate: number;
  currency: string;
  is_flexible: boolean;
}

export interface PublicReview {
  id: string;
  rating: number;
  review_text: string | null;
  by_name: string | null;
  response_text: string | null;
  created_at: number;
}

export interface RateFigures {
  role: string | null;
  city: string | null;
  sufficient_data: boolean;
  sample_size: number;
  min_sample: number;
  window_days: number;
  currency: string | null;
  p25: number | null;
  median: number | null;
  p75: number | null;
}

export type WidgetData =
  | { widget: 'profile'; party: PartyCard }
  | { widget: 'shifts'; party: PartyCard; shifts: OpenShift[] }
  | { widget: 'reviews'; party: PartyCard; reviews: PublicReview[] }
  | { widget: 'rate'; party: PartyCard; rate: RateFigures | null };

/** The party behind a kind and slug, with its public details and ratings; null when there is none. */
export async function loadParty(ctx: ServiceContext, kind: PartyKind, slug: string): Promise<PartyCard | null> {
  if (kind === 'shifter') {
    const s = await findPublicShifter(ctx, slug);
    if (!s) return null;
    const { id, display_name, headline, bio, city, accept_shift_req, ratings } = s;
    return { kind, id, slug: s.slug, name: display_name, headline, bio, city, accept_shift_req, ratings };
  }
  const b = await findPublicBusiness(ctx, slug);
  if (!b) return null;
  return {
    kind,
    id: b.id,
    slug: b.slug,
    name: b.name,
    headline: null,
    bio: null,
    city: b.city,
    accept_shift_req: null,
    ratings: b.ratings,
  };
}

/** A business's open broadcasts (is_broadcast=1, request_status=1) not yet started, soonest first. */
export async function openBroadcasts(ctx: ServiceContext, businessId: string): Promise<OpenShift[]> {
  const [biz] = await ctx.db.select({ timezone: businesses.timezone }).from(businesses).where(eq(businesses.id, businessId)).limit(1);
  const rows = await ctx.db
    .select({ row: shiftRequests, role: shiftRoles.label })
    .from(shiftRequests)
    .innerJoin(shiftRoles, eq(shiftRoles.id, shiftRequests.shiftrole_id))
    .where(
      and(
        eq(shiftRequests.business_id, businessId),
        eq(shiftRequests.is_broadcast, true),
        eq(shiftRequests.request_status, 1),
        gt(shiftRequests.starts_at, ctx.now()),
      ),
    )
    .orderBy(asc(shiftRequests.starts_at), asc(shiftRequests.id))
    .limit(WIDGET_LIST_MAX);
  return rows.map(({ row, role }) => ({
    id: row.id,
    shift_date: row.shift_date,
    shift_in: row.shift_in,
    shift_out: row.shift_out,
    timezone: biz?.timezone ?? 'UTC',
    role,
    hourly_rate: fromMinor(row.hourly_rate_minor, row.currency),
    currency: row.currency,
    is_flexible: row.is_flexible,
  }));
}

/** The newest reviews of a party; reviews removed by an upheld dispute are left out. */
export async function publicReviews(ctx: ServiceContext, kind: PartyKind, id: string): Promise<PublicReview[]> {
  const rows = await selectNamed(ctx)
    .where(and(eq(reviews.review_on, kind), eq(reviews.review_on_id, id), notUpheld))
    .orderBy(desc(reviews.created_at), desc(reviews.id))
    .limit(WIDGET_LIST_MAX);
  return rows.map(({ row, byName }) => ({
    id: row.id,
    rating: row.rating,
    review_text: row.review_text,
    by_name: byName,
    response_text: row.response_text,
    created_at: row.created_at,
  }));
}

/**
 * The going rate for a role (its slug) in the party's city, from the same service as
 * GET /v1/going_rate; null when the role is unknown or the party has no city.
 */
export async function rateFor(ctx: ServiceContext, party: PartyCard, roleSlug: string): Promise<RateFigures | null> {
  const [role] = await ctx.db.select().from(shiftRoles).where(eq(shiftRoles.slug, roleSlug)).limit(1);
  const table = party.kind === 'business' ? businesses : shifters;
  const [place] = await ctx.db.select({ city_id: table.city_id }).from(table).where(eq(table.id, party.id)).limit(1);
  if (!role || !place?.city_id) return null;
  const r = await goingRate(ctx, { city_id: place.city_id, shiftrole_id: role.id });
  return {
    role: role.label,
    city: party.city,
    sufficient_data: r.sufficient_data,
    sample_size: r.sample_size,
    min_sample: r.min_sample,
    window_days: r.window_days,
    currency: r.currency,
    p25: r.p25,
    median: r.median,
    p75: r.p75,
  };
}

/** The data one public widget shows; null for an unknown party. */
export async function loadWidgetData(
  ctx: ServiceContext,
  widget: PublicWidget,
  kind: PartyKind,
  slug: string,
  role: string,
): Promise<WidgetData | null> {
  const party = await loadParty(ctx, kind, slug);
  if (!party) return null;
  switch (widget) {
    case 'profile':
      return { widget, party };
    case 'shifts':
      return { widget, party, shifts: kind === 'business' ? await openBroadcasts(ctx, party.id) : [] };
    case 'reviews':
      return { widget, party, reviews: await publicReviews(ctx, kind, party.id) };
    case 'rate':
      return { widget, party, rate: role ? await rateFor(ctx, party, role) : null };
  }
}
