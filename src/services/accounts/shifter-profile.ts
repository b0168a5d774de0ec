import { z } from '@hono/zod-openapi';
import { and, eq, inArray } from 'drizzle-orm';
import { cities, currencies, shifters, shiftRoles } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { toMinorExact } from '../../lib/money';
import { shifterIdOf } from '../access';
import { prepareWrite, requirePerson, type ServiceContext } from '../kernel';
import { getShifterOfUser } from './reads';
import { timezoneSchema, type ShifterView } from './schemas';

/** The most roles a profile lists; the longest home area name; the farthest travel (km). */
export const SHIFTER_ROLES_MAX = 10;
export const HOME_AREA_MAX = 120;
export const TRAVEL_KM_MAX = 500;

/**
 * The public details a shifter edits, whether they take shift requests (off: the Paused badge), their
 * time zone, and what ranks open shifts for them (services/shifts/relevance.ts): the roles they do,
 * their home area (a name and its position), how far they travel and their lowest hourly rate.
 * Only the fields sent change; null clears one.
 */
export const updateShifterProfileInput = z.strictObject({
  display_name: z.string().trim().min(1).max(100).optional(),
  headline: z.string().trim().max(140).nullable().optional(),
  bio: z.string().trim().max(2000).nullable().optional(),
  accept_shift_req: z.boolean().optional(),
  timezone: timezoneSchema
    .optional()
    .openapi({ description: 'Your own zone: earnings weeks and months, and your own clock on shift pages.' }),
  roles: z
    .array(z.number().int().positive())
    .max(SHIFTER_ROLES_MAX)
    .optional()
    .openapi({
      description: `The roles you do (shiftrole_id values, at most ${SHIFTER_ROLES_MAX}); [] clears them. An open shift in one ranks up.`,
    }),
  home_area: z.string().trim().max(HOME_AREA_MAX).nullable().optional().openapi({
    description: 'Your home area in words (e.g. "Astoria, Queens"); send it with home_latitude and home_longitude. null clears it.',
  }),
  home_latitude: z.number().min(-90).max(90).nullable().optional(),
  home_longitude: z.number().min(-180).max(180).nullable().optional(),
  travel_km: z
    .number()
    .int()
    .min(1)
    .max(TRAVEL_KM_MAX)
    .nullable()
    .optional()
    .openapi({ description: 'How far you will travel from home (km): a venue beyond it ranks down. null: no limit.' }),
  min_hourly_rate: z
    .number()
    .positive()
    .max(100_000)
    .nullable()
    .optional()
    .openapi({ description: 'The lowest hourly rate you take, in min_hourly_rate_currency: a shift under it ranks down. null clears it.' }),
  min_hourly_rate_currency: z
    .string()
    .length(3)
    .toUpperCase()
    .optional()
    .openapi({ description: "ISO 4217; defaults to the profile's currency." }),
});
export type UpdateShifterProfileInput = z.infer<typeof updateShifterProfileInput>;

/** A refusal naming its field, as the pages show it beside the field. */
const refuse = (field: string, message: string) => new AppError('VALIDATION-ERR', message, [{ field, message }]);

/**
 * The caller changes their own shifter profile, in one guarded write with an audit row naming the
 * fields changed; an empty headline or bio clears it. A zone set here is the person's own (the
 * pages stop asking for it). A home area comes with its position, which becomes the profile's
 * position for distances; clearing it falls back to the city's. Answers the profile as get_shifter does.
 */
export async function updateShifterProfile(ctx: ServiceContext, input: UpdateShifterProfileInput): Promise<ShifterView> {
  const actor = requirePerson(ctx);
  const shifterId = await shifterIdOf(ctx, actor.userId);
  if (!shifterId) throw new AppError('FORBIDDEN-ERR', 'You have no shifter profile.');
  const set: Partial<typeof shifters.$inferInsert> = {};
  if (input.display_name !== undefined) set.display_name = input.display_name;
  if (input.headline !== undefined) set.headline = input.headline || null;
  if (input.bio !== undefined) set.bio = input.bio || null;
  if (input.accept_shift_req !== undefined) set.accept_shift_req = input.accept_shift_req;
  if (input.timezone !== undefined) {
    set.timezone = input.timezone;
    set.timezone_confirmed = true;
  }
  if (input.roles !== undefined) set.roles = await knownRoles(ctx, input.roles);
  if (input.travel_km !== undefined) set.travel_km = input.travel_km;
  Object.assign(set, await homeArea(ctx, shifterId, input));
  Object.assign(set, await minimumRate(ctx, shifterId, input));
  const fields = Object.keys(set);
  if (fields.length) {
    const w = prepareWrite(ctx, { type: 'shifter', id: shifterId });
    await w.commit({
      guard: ctx.db
        .update(shifters)
        .set({ ...set, updated_at: ctx.now() })
        .where(eq(shifters.id, shifterId)),
      audit: { action: 'shifter.update', data: { fields } },
    });
  }
  return getShifterOfUser(ctx);
}

/** The roles as stored: each a known shift role, once, in the order given. */
async function knownRoles(ctx: ServiceContext, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const found = await ctx.db
    .select({ id: shiftRoles.id })
    .from(shiftRoles)
    .where(and(inArray(shiftRoles.id, unique), eq(shiftRoles.is_active, true)));
  const known = new Set(found.map((r) => r.id));
  const unknown = unique.filter((id) => !known.has(id));
  if (unknown.length) throw refuse('roles', `Choose roles from the list (${unknown.join(', ')} is not one).`);
  return unique;
}

/** The home area's columns: its name and position together, or none of them (the city's position again). */
async function homeArea(ctx: ServiceContext, shifterId: string, input: UpdateShifterProfileInput) {
  const { home_area: name, home_latitude: lat, home_longitude: lon } = input;
  if (name === undefined && lat === undefined && lon === undefined) return {};
  if (!name) {
    if ((lat ?? null) !== null || (lon ?? null) !== null) throw refuse('home_area', 'Give your home area a name, like “Astoria, Queens”.');
    // Cleared: distances count from the profile's city again, when it has one (a profile without a
    // home area keeps the position it has).
    const [row] = await ctx.db
      .select({ home: shifters.home_area, lat: cities.latitude, lon: cities.longitude })
      .from(shifters)
      .leftJoin(cities, eq(cities.id, shifters.city_id))
      .where(eq(shifters.id, shifterId))
      .limit(1);
    if (!row?.home) return {};
    return { home_area: null, latitude: row.lat ?? null, longitude: row.lon ?? null };
  }
  if (lat === undefined || lat === null || lon === undefined || lon === null) {
    throw refuse(
      'home_latitude',
      'Say where your home area is: use this device’s position, paste a map link, or type its latitude and longitude.',
    );
  }
  return { home_area: name, latitude: lat, longitude: lon };
}

/** The lowest rate's columns, in minor units of its currency (refused with more decimals than the currency has). */
async function minimumRate(ctx: ServiceContext, shifterId: string, input: UpdateShifterProfileInput) {
  const { min_hourly_rate: rate, min_hourly_rate_currency: asked } = input;
  if (rate === undefined && asked === undefined) return {};
  if (rate === null) return { min_hourly_rate_minor: null, min_hourly_rate_currency: null };
  const [me] = await ctx.db
    .select({ currency: shifters.currency, minCurrency: shifters.min_hourly_rate_currency })
    .from(shifters)
    .where(eq(shifters.id, shifterId))
    .limit(1);
  const currency = asked ?? me?.minCurrency ?? me?.currency ?? 'USD';
  const [known] = await ctx.db.select({ code: currencies.code }).from(currencies).where(eq(currencies.code, currency)).limit(1);
  if (!known) throw refuse('min_hourly_rate_currency', `Choose a currency we support (${currency} is not one).`);
  if (rate === undefined) throw refuse('min_hourly_rate', 'Send the lowest hourly rate with its currency.');
  return { min_hourly_rate_minor: toMinorExact(rate, currency, 'min_hourly_rate'), min_hourly_rate_currency: currency };
}
