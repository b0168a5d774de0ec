import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { bool, timestamps } from './columns';
import { cities, countries, currencies, states } from './reference';
import { users } from './users';

export const shifters = sqliteTable(
  'shifters',
  {
    id: text('id').primaryKey(), // shf_…
    user_id: text('user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull().unique(),
    display_name: text('display_name').notNull(),
    headline: text('headline'),
    bio: text('bio'),
    photo_url: text('photo_url'),
    city_id: integer('city_id').references(() => cities.id),
    /** The shifter's position for distances: their home area's when they set one, else their city's. */
    latitude: real('latitude'),
    longitude: real('longitude'),
    /** The shifter's own zone: earnings months are computed in it. */
    timezone: text('timezone').notNull().default('UTC'),
    /**
     * True once the zone came from the person (their browser at sign-up, or chosen on the profile);
     * false while it is a default or an inference, so a page can ask them to set it.
     */
    timezone_confirmed: bool('timezone_confirmed').notNull().default(false),
    /** The roles they do (shift_roles ids, at most 10): a broadcast in one ranks up. */
    roles: text('roles', { mode: 'json' }).$type<number[]>(),
    /** The home area's name as they typed it; latitude/longitude are then its position. */
    home_area: text('home_area'),
    /** How far they will travel (km): a venue beyond it ranks down. */
    travel_km: integer('travel_km'),
    /** The lowest hourly rate they take (minor units of its currency): a rate under it ranks down. */
    min_hourly_rate_minor: integer('min_hourly_rate_minor'),
    min_hourly_rate_currency: text('min_hourly_rate_currency').references(() => currencies.code),
    accept_shift_req: bool('accept_shift_req').notNull().default(true),
    monthly_earnings_goal_minor: integer('monthly_earnings_goal_minor'),
    currency: text('currency')
      .notNull()
      .default('USD')
      .references(() => currencies.code),
    ...timestamps,
  },
  (t) => [index('shifters_city_idx').on(t.city_id)],
);

export const businesses = sqliteTable(
  'businesses',
  {
    id: text('id').primaryKey(), // biz_…
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    is_default: bool('is_default').notNull().default(false),
    timezone: text('timezone').notNull(),
    address: text('address'),
    city_id: integer('city_id').references(() => cities.id),
    state_id: integer('state_id').references(() => states.id),
    country_id: integer('country_id').references(() => countries.id),
    latitude: real('latitude'),
    longitude: real('longitude'),
    geofence_radius_m: integer('geofence_radius_m'),
    require_clock_photo: bool('require_clock_photo').notNull().default(false),
    weekly_labor_budget_minor: integer('weekly_labor_budget_minor'),
    currency: text('currency')
      .notNull()
      .default('USD')
      .references(() => currencies.code),
    auto_fill_on_cancel: bool('auto_fill_on_cancel').notNull().default(false),
    /** Timesheets (services/timesheets/policy.ts): rounding to the nearest N minutes (0 = none, 5, 6 or 15). */
    timesheet_rounding_minutes: integer('timesheet_rounding_minutes').notNull().default(0),
    /** Hours the worker has to dispute a submission or an edit. */
    timesheet_dispute_hours: integer('timesheet_dispute_hours').notNull().default(12),
    /** Hours the business has to answer a dispute before it resolves for the worker. */
    timesheet_answer_hours: integer('timesheet_answer_hours').notNull().default(72),
    /** Hours after submission an unanswered timesheet approves itself; null = at its pay period's lock. */
    timesheet_auto_approve_hours: integer('timesheet_auto_approve_hours'),
    ...timestamps,
  },
  (t) => [
    index('businesses_user_idx').on(t.user_id),
    // One default business per owner.
    uniqueIndex('businesses_one_default_per_owner').on(t.user_id).where(sql`is_default = 1`),
    index('businesses_city_idx').on(t.city_id),
    index('businesses_state_idx').on(t.state_id),
    index('businesses_country_idx').on(t.country_id),
  ],
);

/** status 1 = active; 0 = suspended by the owner. Only active teammates act for the business. */
export const teammates = sqliteTable(
  'teammates',
  {
    id: text('id').primaryKey(),
    business_id: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: integer('status').notNull().default(1),
    ...timestamps,
  },
  (t) => [uniqueIndex('teammates_business_user').on(t.business_id, t.user_id), index('teammates_user_idx').on(t.user_id)],
);
