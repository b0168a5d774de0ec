import { and, eq } from 'drizzle-orm';
import { runBatch, isUniqueViolation } from '../../db/client';
import { businesses, cities, countries, currencies, shifters, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { makeSlug } from '../../lib/slug';
import { auditInsert } from '../audit';
import { type ServiceContext, requirePerson } from '../context';
import type { BusinessProfileInput, ShifterProfileInput } from './schemas';

async function cityInfo(ctx: ServiceContext, cityId: number | undefined) {
  if (cityId === undefined) return null;
  const [row] = await ctx.db
    .select({ id: cities.id, state_id: cities.state_id, country_id: cities.country_id, currency: countries.currency, lat: cities.latitude, lon: cities.longitude })
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

/** The shifter row for a new shifter profile (validated, not yet written). */
export async function buildShifterRow(ctx: ServiceContext, userId: string, fallbackName: string, input: ShifterProfileInput) {
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
    timezone: input.timezone ?? 'UTC',
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

/** Adds a shifter profile to the caller's account (a business owner becoming dual-profile). */
export async function createShifterProfile(ctx: ServiceContext, input: ShifterProfileInput) {
  const actor = requirePerson(ctx);
  const [existing] = await ctx.db.select({ id: shifters.id }).from(shifters).where(eq(shifters.user_id, actor.userId)).limit(1);
  if (existing) throw new AppError('PROFILE-EXISTS-ERR', 'This account already has a shifter profile.');
  const [user] = await ctx.db.select({ name: users.display_name }).from(users).where(eq(users.id, actor.userId)).limit(1);
  const row = await buildShifterRow(ctx, actor.userId, user?.name ?? 'Shifter', input);
  try {
    await ctx.db.batch([ctx.db.insert(shifters).values(row), auditInsert(ctx, 'shifter.create', { type: 'shifter', id: row.id })]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('PROFILE-EXISTS-ERR', 'This account already has a shifter profile.');
    throw err;
  }
  return row.id;
}

/** Creates a business owned by the caller. The first one becomes the default. */
export async function createBusiness(ctx: ServiceContext, input: BusinessProfileInput & { is_default?: boolean }) {
  const actor = requirePerson(ctx);
  const owned = await ctx.db.select({ id: businesses.id }).from(businesses).where(eq(businesses.user_id, actor.userId));
  const makeDefault = owned.length === 0 || input.is_default === true;
  const row = await buildBusinessRow(ctx, actor.userId, input, makeDefault);
  const clearDefault = ctx.db
    .update(businesses)
    .set({ is_default: false, updated_at: ctx.now() })
    .where(and(eq(businesses.user_id, actor.userId), eq(businesses.is_default, true)));
  await runBatch(ctx.db, [
    ...(makeDefault ? [clearDefault] : []),
    ctx.db.insert(businesses).values(row),
    auditInsert(ctx, 'business.create', { type: 'business', id: row.id }),
  ]);
  return row.id;
}
