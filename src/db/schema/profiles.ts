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
    latitude: real('latitude'),
    longitude: real('longitude'),
    /** The shifter's own zone: earnings months are computed in it. */
    timezone: text('timezone').notNull().default('UTC'),
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
