import { eq, type SQL } from 'drizzle-orm';
import { businesses, cities, shifters } from '../../db/schema';
import type { ServiceContext } from '../kernel';
import { partyRating, type Rating } from '../reviews';

/**
 * The public face of a party by slug: what anyone may see (no owner id, position, settings or
 * contact), with its ratings (upheld disputes left out). One reader for every public surface: the
 * agent tools' profiles and the widgets. Null for an unknown slug; callers choose the answer.
 */
export interface PublicShifter {
  id: string;
  slug: string;
  display_name: string;
  headline: string | null;
  bio: string | null;
  photo_url: string | null;
  city: string | null;
  /** False shows the Paused badge (not taking shift requests). */
  accept_shift_req: boolean;
  created_at: number;
  ratings: Rating;
}

export interface PublicBusiness {
  id: string;
  slug: string;
  name: string;
  timezone: string;
  city_id: number | null;
  city: string | null;
  country_id: number | null;
  currency: string;
  created_at: number;
  ratings: Rating;
}

export async function findPublicShifter(ctx: ServiceContext, slug: string): Promise<PublicShifter | null> {
  return publicShifterWhere(ctx, eq(shifters.slug, slug));
}

/** The same public face by shifter id (a business inviting someone by the id they were given). */
export async function findPublicShifterById(ctx: ServiceContext, id: string): Promise<PublicShifter | null> {
  return publicShifterWhere(ctx, eq(shifters.id, id));
}

async function publicShifterWhere(ctx: ServiceContext, where: SQL): Promise<PublicShifter | null> {
  const [row] = await ctx.db
    .select({ s: shifters, city: cities.name })
    .from(shifters)
    .leftJoin(cities, eq(cities.id, shifters.city_id))
    .where(where)
    .limit(1);
  if (!row) return null;
  const s = row.s;
  return {
    id: s.id,
    slug: s.slug,
    display_name: s.display_name,
    headline: s.headline,
    bio: s.bio,
    photo_url: s.photo_url,
    city: row.city,
    accept_shift_req: s.accept_shift_req,
    created_at: s.created_at,
    ratings: await partyRating(ctx, 'shifter', s.id),
  };
}

export async function findPublicBusiness(ctx: ServiceContext, slug: string): Promise<PublicBusiness | null> {
  const [row] = await ctx.db
    .select({ b: businesses, city: cities.name })
    .from(businesses)
    .leftJoin(cities, eq(cities.id, businesses.city_id))
    .where(eq(businesses.slug, slug))
    .limit(1);
  if (!row) return null;
  const b = row.b;
  return {
    id: b.id,
    slug: b.slug,
    name: b.name,
    timezone: b.timezone,
    city_id: b.city_id,
    city: row.city,
    country_id: b.country_id,
    currency: b.currency,
    created_at: b.created_at,
    ratings: await partyRating(ctx, 'business', b.id),
  };
}
