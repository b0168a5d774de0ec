import { and, eq, ne, type SQL, sql } from 'drizzle-orm';
import { runBatch, isUniqueViolation } from '../../db/client';
import { businesses, cities, countries, currencies, shifters, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { makeSlug } from '../../lib/slug';
import { auditInsert, committedSubject, prepareWrite, requirePerson, type ServiceContext } from '../kernel';
import { accessBusiness } from '../access';
import { partyRating } from '../reviews';
import { businessView, getShifterOfUser } from './reads';
import type { BusinessProfileInput, BusinessView, CreateBusinessInput, ShifterProfileInput, ShifterView } from './schemas';

async function cityInfo(ctx: ServiceContext, cityId: number | undefined) {
  if (cityId === undefined) return null;
  const [row] = await ctx.db
    .select({
      id: cities.id,
      state_id: cities.state_id,
      country_id: cities.country_id,
      currency: countries.currency,
      lat: cities.latitude,
      lon: cities.longitude,
      timezone: cities.timezone,
    })
    .from(cities)
    .innerJoin(countries, eq(countries.id, cities.country_id))
    .where(eq(cities.id, cityId))
    .limit(1);
  if (!row) throw new AppError('VALIDATION-ERR', `Unknown city_id ${cityId}.`, [{ field: 'city_id', message: 'unknown city' }]);
  return row;
}

async function assertCurrency(ctx: ServiceContext, code: string) {
  const [row] = await ctx.db.select({ code: currencies.code }).from(currencies).where(eq(currencies.code, code)).limit(1);
  if (!row) throw new AppError('VALIDATION-ERR', `Unsupported currency ${code}.`, [{ field: 'currency', message: 'unsupported currency' }]);
}

/** How a new shifter profile came to be: `zoneGuessed`, its zone is where the server placed the visitor, not one they gave. */
export interface ShifterRowOptions {
  zoneGuessed?: boolean;
}

/** The shifter row for a new shifter profile (validated, not yet written). */
export async function buildShifterRow(
  ctx: ServiceContext,
  userId: string,
  fallbackName: string,
  input: ShifterProfileInput,
  opts: ShifterRowOptions = {},
) {
  const city = await cityInfo(ctx, input.city_id);
  const currency = input.currency ?? city?.currency ?? 'USD';
  await assertCurrency(ctx, currency);
  const now = ctx.now();
  const display_name = input.display_name ?? fallbackName;
  return {
    id: newId('shifter'),
    user_id: userId,
    slug: makeSlug(display_name),
    display_name,
    headline: input.headline ?? null,
    city_id: city?.id ?? null,
    latitude: city?.lat ?? null,
    longitude: city?.lon ?? null,
    // An explicit zone wins; else the city's; else UTC. Only one the person gave counts as set by them.
    timezone: input.timezone ?? city?.timezone ?? 'UTC',
    timezone_confirmed: input.timezone !== undefined && !opts.zoneGuessed,
    currency,
    created_at: now,
    updated_at: now,
  } satisfies typeof shifters.$inferInsert;
}

/** The business row for a new business (validated, not yet written). */
export async function buildBusinessRow(ctx: ServiceContext, userId: string, input: BusinessProfileInput, isDefault: boolean) {
  const city = await cityInfo(ctx, input.city_id);
  const currency = input.currency ?? city?.currency ?? 'USD';
  await assertCurrency(ctx, currency);
  const now = ctx.now();
  return {
    id: newId('business'),
    user_id: userId,
    slug: makeSlug(input.name),
    name: input.name,
    is_default: isDefault,
    timezone: input.timezone,
    address: input.address ?? null,
    city_id: city?.id ?? null,
    state_id: city?.state_id ?? null,
    country_id: city?.country_id ?? null,
    latitude: input.latitude ?? city?.lat ?? null,
    longitude: input.longitude ?? city?.lon ?? null,
    currency,
    created_at: now,
    updated_at: now,
  } satisfies typeof businesses.$inferInsert;
}

/** Adds a shifter profile to the caller's account (a business owner becoming dual-profile); returns its view. */
export async function createShifterProfile(ctx: ServiceContext, input: ShifterProfileInput): Promise<ShifterView> {
  const actor = requirePerson(ctx);
  // A retry after a lost answer finds the profile the first attempt made: answer with it, not 409.
  if (committedSubject(ctx, 'shifter')) return getShifterOfUser(ctx);
  const [existing] = await ctx.db.select({ id: shifters.id }).from(shifters).where(eq(shifters.user_id, actor.userId)).limit(1);
  if (existing) throw new AppError('PROFILE-EXISTS-ERR', 'This account already has a shifter profile.');
  const [user] = await ctx.db.select({ name: users.display_name }).from(users).where(eq(users.id, actor.userId)).limit(1);
  const row = await buildShifterRow(ctx, actor.userId, user?.name ?? 'Shifter', input);
  try {
    await prepareWrite(ctx, { type: 'shifter', id: row.id }).commit({
      guard: ctx.db.insert(shifters).values(row),
      audit: { action: 'shifter.create' },
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('PROFILE-EXISTS-ERR', 'This account already has a shifter profile.');
    throw err;
  }
  return getShifterOfUser(ctx);
}

/** SQL: the owner has a default business. */
const hasDefault = (userId: string) => sql`EXISTS (SELECT 1 FROM ${businesses} AS b2 WHERE b2.user_id = ${userId} AND b2.is_default = 1)`;

/**
 * Creates a business owned by the caller and returns its view. An owner always has exactly one
 * default business (a unique partial index holds it): the new business becomes the default when
 * asked or when the owner has none, and the flag moves in the same batch as the insert.
 */
export async function createBusiness(ctx: ServiceContext, input: CreateBusinessInput): Promise<BusinessView> {
  const actor = requirePerson(ctx);
  const row = await buildBusinessRow(ctx, actor.userId, input, false);
  const now = ctx.now();
  const setDefault = (when?: SQL) =>
    ctx.db
      .update(businesses)
      .set({ is_default: true })
      .where(and(eq(businesses.id, row.id), when));
  const r = await prepareWrite(ctx, { type: 'business', id: row.id }).commit({
    guard: ctx.db.insert(businesses).values(row),
    follow: input.is_default
      ? [clearDefault(ctx, actor.userId, row.id, now), setDefault()]
      : [setDefault(sql`NOT ${hasDefault(actor.userId)}`)],
    audit: { action: 'business.create' },
  });
  return loadBusinessView(ctx, r.subject.id);
}

/** Clears the owner's default flag on every business but `keepId`. */
function clearDefault(ctx: ServiceContext, ownerId: string, keepId: string, now: number) {
  return ctx.db
    .update(businesses)
    .set({ is_default: false, updated_at: now })
    .where(and(eq(businesses.user_id, ownerId), eq(businesses.is_default, true), ne(businesses.id, keepId)));
}

async function loadBusinessView(ctx: ServiceContext, businessId: string): Promise<BusinessView> {
  const [b] = await ctx.db.select().from(businesses).where(eq(businesses.id, businessId)).limit(1);
  if (!b) throw new AppError('BUSINESS-NOT-FND-ERR');
  return businessView(b, await partyRating(ctx, 'business', b.id));
}

/**
 * Makes one of the owner's businesses the default (owner only): one batch clears the old flag and
 * sets the new one, guarded on the business still being the caller's.
 */
export async function makeDefaultBusiness(ctx: ServiceContext, businessId: string): Promise<BusinessView> {
  const { business, actor } = await accessBusiness(ctx, businessId, ['owner']);
  const now = ctx.now();
  const owned = sql`EXISTS (SELECT 1 FROM ${businesses} AS b2 WHERE b2.id = ${business.id} AND b2.user_id = ${actor.userId})`;
  await runBatch(ctx.db, [
    ctx.db
      .update(businesses)
      .set({ is_default: false, updated_at: now })
      .where(and(eq(businesses.user_id, actor.userId), eq(businesses.is_default, true), ne(businesses.id, business.id), owned)),
    ctx.db
      .update(businesses)
      .set({ is_default: true, updated_at: now })
      .where(and(eq(businesses.id, business.id), eq(businesses.user_id, actor.userId))),
    auditInsert(ctx, 'business.make_default', { type: 'business', id: business.id }, undefined, owned),
  ]);
  return loadBusinessView(ctx, business.id);
}
