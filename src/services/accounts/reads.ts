import { and, asc, count, desc, eq, isNull } from 'drizzle-orm';
import { admins, businesses, cities, shifters, teammates, twoFactor, twoFactorBackupCodes, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { isValidTimeZone, toIso } from '../../lib/time';
import { fromMinor } from '../../lib/money';
import { assertSelfOrAdminOf, TEAMMATE_STATUS } from '../access';
import { type ServiceContext, requirePerson } from '../kernel';
import { NO_RATINGS, partyRating, type Rating, ratingsFor } from '../reviews';
import { isEnabled, methodsOf } from './two-factor/state';
import type { BusinessList, BusinessView, ShifterView, UserDetails, UserIdQuery } from './schemas';

type UserRow = typeof users.$inferSelect;
type ShifterRow = typeof shifters.$inferSelect;
type BusinessRow = typeof businesses.$inferSelect;

export function shifterView(s: ShifterRow, cityName: string | null, ratings: Rating): ShifterView {
  return {
    id: s.id,
    slug: s.slug,
    user_id: s.user_id,
    display_name: s.display_name,
    headline: s.headline,
    bio: s.bio,
    photo_url: s.photo_url,
    city_id: s.city_id,
    city: cityName,
    timezone: s.timezone,
    timezone_confirmed: s.timezone_confirmed,
    accept_shift_req: s.accept_shift_req,
    /** Shown as a "Paused" badge on the public profile. */
    is_paused: !s.accept_shift_req,
    monthly_earnings_goal: s.monthly_earnings_goal_minor === null ? null : fromMinor(s.monthly_earnings_goal_minor, s.currency),
    currency: s.currency,
    roles: s.roles ?? [],
    home_area: s.home_area,
    // The home's position is the profile's only while a home area is set (else it is the city's).
    home_latitude: s.home_area ? s.latitude : null,
    home_longitude: s.home_area ? s.longitude : null,
    travel_km: s.travel_km,
    min_hourly_rate: s.min_hourly_rate_minor === null ? null : fromMinor(s.min_hourly_rate_minor, s.min_hourly_rate_currency ?? s.currency),
    min_hourly_rate_currency: s.min_hourly_rate_minor === null ? null : (s.min_hourly_rate_currency ?? s.currency),
    ratings,
    created_at: toIso(s.created_at),
  };
}

export function businessView(b: BusinessRow, ratings: Rating): BusinessView {
  return {
    id: b.id,
    slug: b.slug,
    user_id: b.user_id,
    name: b.name,
    is_default: b.is_default,
    timezone: b.timezone,
    address: b.address,
    city_id: b.city_id,
    state_id: b.state_id,
    country_id: b.country_id,
    latitude: b.latitude,
    longitude: b.longitude,
    geofence_radius_m: b.geofence_radius_m,
    require_clock_photo: b.require_clock_photo,
    weekly_labor_budget: b.weekly_labor_budget_minor === null ? null : fromMinor(b.weekly_labor_budget_minor, b.currency),
    currency: b.currency,
    auto_fill_on_cancel: b.auto_fill_on_cancel,
    ratings,
    created_at: toIso(b.created_at),
  };
}

async function loadUser(ctx: ServiceContext, userId: string): Promise<UserRow> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new AppError('USER-NOT-FND-ERR');
  return user;
}

/** Account profile, dual-profile flags and verification state (spec 4.1). */
export async function getUserDetails(ctx: ServiceContext, input: UserIdQuery = {}): Promise<UserDetails> {
  const id = input.user_id ?? requirePerson(ctx).userId;
  await assertSelfOrAdminOf(ctx, id);
  // One D1 round trip for all five reads (a batch), not the user first and then four more.
  const [found, shifter, owned, teams, admin, secondFactor, backupLeft] = await ctx.db.batch([
    ctx.db.select().from(users).where(eq(users.id, id)).limit(1),
    ctx.db.select({ id: shifters.id }).from(shifters).where(eq(shifters.user_id, id)).limit(1),
    ctx.db.select({ id: businesses.id, is_default: businesses.is_default }).from(businesses).where(eq(businesses.user_id, id)),
    ctx.db
      .select({ business_id: teammates.business_id })
      .from(teammates)
      .where(and(eq(teammates.user_id, id), eq(teammates.status, TEAMMATE_STATUS.active))),
    ctx.db.select({ id: admins.user_id }).from(admins).where(eq(admins.user_id, id)).limit(1),
    ctx.db.select().from(twoFactor).where(eq(twoFactor.user_id, id)).limit(1),
    ctx.db
      .select({ n: count() })
      .from(twoFactorBackupCodes)
      .where(and(eq(twoFactorBackupCodes.user_id, id), isNull(twoFactorBackupCodes.used_at))),
  ]);
  const user = found[0];
  if (!user) throw new AppError('USER-NOT-FND-ERR');
  const hasShifter = shifter.length > 0;
  const hasBusiness = owned.length > 0;
  const tf = secondFactor[0];
  const twoFactorOn = isEnabled(tf);
  return {
    id: user.id,
    email: user.email,
    display_name: user.display_name,
    phone: user.phone,
    email_verified: user.email_verified_at !== null,
    email_verified_at: toIso(user.email_verified_at),
    is_admin: admin.length > 0,
    is_demo: user.is_demo,
    has_shifter_profile: hasShifter,
    has_business_profile: hasBusiness,
    is_dual_profile: hasShifter && hasBusiness,
    shifter_id: shifter[0]?.id ?? null,
    default_business_id: owned.find((b) => b.is_default)?.id ?? owned[0]?.id ?? null,
    business_ids: owned.map((b) => b.id),
    teammate_of_business_ids: teams.map((t) => t.business_id),
    two_factor_enabled: twoFactorOn,
    two_factor: {
      enabled: twoFactorOn,
      methods: methodsOf(tf, ctx.settings.TWO_FACTOR_SMS_ENABLED, !!user.phone),
      backup_codes_left: twoFactorOn ? (backupLeft[0]?.n ?? 0) : 0,
    },
    created_at: toIso(user.created_at),
  };
}

export async function getShifterOfUser(ctx: ServiceContext, input: UserIdQuery = {}): Promise<ShifterView> {
  const id = input.user_id ?? requirePerson(ctx).userId;
  await assertSelfOrAdminOf(ctx, id);
  const [row] = await ctx.db
    .select({ s: shifters, city: cities.name })
    .from(shifters)
    .leftJoin(cities, eq(cities.id, shifters.city_id))
    .where(eq(shifters.user_id, id))
    .limit(1);
  if (!row) throw new AppError('SHIFTER-NOT-FND-ERR', 'This user has no shifter profile.');
  return shifterView(row.s, row.city, await partyRating(ctx, 'shifter', row.s.id));
}

/** Every business the user owns, default first. */
export async function getBusinessesOfUser(ctx: ServiceContext, input: UserIdQuery = {}): Promise<BusinessList> {
  const id = input.user_id ?? requirePerson(ctx).userId;
  await assertSelfOrAdminOf(ctx, id);
  await loadUser(ctx, id);
  const rows = await ctx.db
    .select()
    .from(businesses)
    .where(eq(businesses.user_id, id))
    .orderBy(desc(businesses.is_default), asc(businesses.created_at));
  const ratings = await ratingsFor(
    ctx,
    rows.map((b) => ({ kind: 'business' as const, id: b.id })),
  );
  return { data: rows.map((b) => businessView(b, ratings.get(`business:${b.id}`) ?? NO_RATINGS)) };
}

/** Where the person's time zone came from: their shifter profile, their default business, or nowhere (UTC). */
export type TimeZoneSource = 'shifter' | 'business' | 'none';

/**
 * The zone to show the caller's own times in: the one their shifter profile keeps (set from their
 * browser when the profile was made, or chosen since), else their default business's; with neither,
 * UTC, and `source` says so, so a page can name it rather than pass UTC off as local time.
 */
export async function personTimeZone(ctx: ServiceContext): Promise<{ timeZone: string; source: TimeZoneSource }> {
  const actor = requirePerson(ctx);
  const [shifter] = await ctx.db.select({ tz: shifters.timezone }).from(shifters).where(eq(shifters.user_id, actor.userId)).limit(1);
  if (shifter?.tz && isValidTimeZone(shifter.tz)) return { timeZone: shifter.tz, source: 'shifter' };
  const [business] = await ctx.db
    .select({ tz: businesses.timezone })
    .from(businesses)
    .where(eq(businesses.user_id, actor.userId))
    .orderBy(desc(businesses.is_default), asc(businesses.created_at))
    .limit(1);
  if (business?.tz && isValidTimeZone(business.tz)) return { timeZone: business.tz, source: 'business' };
  return { timeZone: 'UTC', source: 'none' };
}
