import { sql } from 'drizzle-orm';
import { type AnySQLiteColumn, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { bool, timestamps } from './columns';
import { businesses, shifters } from './profiles';
import { currencies, shiftRoles } from './reference';
import { users } from './users';

/** An open broadcast, as the partial indexes state it (literals: a bound parameter cannot match them). */
const OPEN_BROADCAST = sql`request_status = 1 AND is_broadcast = 1`;

/**
 * A shift request. shift_date/shift_in/shift_out are wall-clock values in the business's zone;
 * starts_at/ends_at are the real instants (epoch ms) computed from them once, at write time, so
 * conflicts, expiry and durations compare instants (DST and overnight shifts included).
 * Status values: see src/services/kernel/shift/status.ts.
 */
export const shiftRequests = sqliteTable(
  'shift_requests',
  {
    id: text('id').primaryKey(), // sr_…
    business_id: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    shifter_id: text('shifter_id').references(() => shifters.id),
    created_by_user_id: text('created_by_user_id').references(() => users.id),
    shift_date: text('shift_date').notNull(),
    shift_in: text('shift_in').notNull(),
    shift_out: text('shift_out').notNull(),
    starts_at: integer('starts_at').notNull(),
    ends_at: integer('ends_at').notNull(),
    shiftrole_id: integer('shiftrole_id')
      .notNull()
      .references(() => shiftRoles.id),
    hourly_rate_minor: integer('hourly_rate_minor').notNull(),
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    is_broadcast: bool('is_broadcast').notNull().default(false),
    is_flexible: bool('is_flexible').notNull().default(false),
    request_status: integer('request_status').notNull().default(1),
    parent_id: text('parent_id').references((): AnySQLiteColumn => shiftRequests.id),
    template_id: text('template_id'),
    note: text('note'),
    accepted_at: integer('accepted_at'),
    shift_start_at: integer('shift_start_at'),
    shift_start_by_id: text('shift_start_by_id'),
    clock_in_lat: real('clock_in_lat'),
    clock_in_lon: real('clock_in_lon'),
    clock_in_distance_m: real('clock_in_distance_m'),
    clock_in_photo_url: text('clock_in_photo_url'),
    clock_in_override: bool('clock_in_override'),
    /** When a clock-in queued offline reached the service (shift_start_at is the device's time); null: punched online. */
    clock_in_received_at: integer('clock_in_received_at'),
    shift_end_at: integer('shift_end_at'),
    shift_end_by_id: text('shift_end_by_id'),
    clock_out_lat: real('clock_out_lat'),
    clock_out_lon: real('clock_out_lon'),
    clock_out_distance_m: real('clock_out_distance_m'),
    clock_out_photo_url: text('clock_out_photo_url'),
    /** When a clock-out queued offline reached the service (shift_end_at is the device's time); null: punched online. */
    clock_out_received_at: integer('clock_out_received_at'),
    is_noshow: bool('is_noshow').notNull().default(false),
    cancelled_at: integer('cancelled_at'),
    cancelled_by: text('cancelled_by', { enum: ['business', 'shifter', 'system'] }),
    cancel_reason: text('cancel_reason'),
    /** Id of the last state-changing operation; follow-up inserts in the same batch are conditional on it. */
    last_op_id: text('last_op_id'),
    ...timestamps,
  },
  (t) => [
    index('shift_requests_business_idx').on(t.business_id, t.starts_at),
    index('shift_requests_shifter_idx').on(t.shifter_id, t.request_status, t.starts_at),
    index('shift_requests_open_idx').on(t.request_status, t.is_broadcast, t.starts_at),
    index('shift_requests_parent_idx').on(t.parent_id),
    index('shift_requests_template_idx').on(t.template_id, t.shift_date),
    // Covers the worked-shift aggregates (going rate, labor costs) without reading table rows.
    index('shift_requests_worked_cover_idx').on(
      t.business_id,
      t.starts_at,
      t.request_status,
      t.is_noshow,
      t.currency,
      t.hourly_rate_minor,
      t.shift_end_at,
    ),
    // Lists cost by the page, not the table (docs/decisions/scale.md): each list walks an index in
    // its own order. Newest first for a business's and a shifter's requests, and for everything (admins).
    index('shift_requests_business_created_idx').on(t.business_id, t.created_at, t.id),
    index('shift_requests_shifter_created_idx').on(t.shifter_id, t.created_at, t.id),
    index('shift_requests_created_idx').on(t.created_at, t.id),
    // Open broadcasts only (partial, so small): newest first per business and overall, and per
    // business, role and currency by rate, the order of the relevance score's upper bound. A query
    // uses them only when it states `request_status = 1 AND is_broadcast = 1` as literals. Each ends
    // with starts_at, so the lists' start-in-the-future filter is read from the index, not from a row
    // per entry walked (at a million open broadcasts the newest-first page's SQL took 12.8 ms, 1.3 ms).
    index('shift_requests_open_business_created_idx').on(t.business_id, t.created_at, t.id, t.starts_at).where(OPEN_BROADCAST),
    index('shift_requests_open_created_idx').on(t.created_at, t.id, t.starts_at).where(OPEN_BROADCAST),
    index('shift_requests_open_rate_idx')
      .on(t.business_id, t.shiftrole_id, t.currency, t.hourly_rate_minor, t.starts_at)
      .where(OPEN_BROADCAST),
    // A crew member's latest shift at a business (crew analytics' last_worked_at), one seek each.
    index('shift_requests_business_shifter_idx').on(t.business_id, t.shifter_id, t.starts_at),
  ],
);

/**
 * The groups of open broadcasts (pending broadcasts) by business, role and currency: how many, and the
 * best rate among them. The relevance ranking (services/shifts/relevance-signals.ts) starts from a
 * crew's groups and their best rates, the upper bound of each group's scores, instead of seeking the
 * rate index for every business and role. Kept by triggers on shift_requests
 * (migrations/0023_open_broadcast_groups.sql) in the statement that changes a row; rebuilt from the
 * rows by the nightly job. A group with no open broadcast left has no row.
 */
export const openBroadcastGroups = sqliteTable(
  'open_broadcast_groups',
  {
    business_id: text('business_id').notNull(),
    shiftrole_id: integer('shiftrole_id').notNull(),
    currency: text('currency').notNull(),
    open_count: integer('open_count').notNull(),
    best_rate_minor: integer('best_rate_minor').notNull(),
  },
  (t) => [primaryKey({ columns: [t.business_id, t.shiftrole_id, t.currency] })],
);

/**
 * Rollups of worked shifts for the figures (services/insights/rollups.ts), kept by triggers on
 * shift_requests and businesses (migrations/0019_shift_rollups.sql) in the statement that changes a
 * row, so no write path can miss them, and rebuilt from the rows by the nightly job. A shift counts
 * while it is worked (status 2 or 5, clocked out, not a no-show); crew analytics also counts no-shows
 * and the shifter's own cancellations. Money is summed per shift as the figures round it (hours ×
 * rate rounded once per shift), so a sum of the rollup equals the sum over the rows.
 */

/**
 * Labor per business, UTC week (Monday 00:00 UTC, epoch ms), role and currency: shifts, scheduled
 * minutes and pay. The figures' weeks are Monday-based in the business's zone; the few hours between
 * the two Mondays are read from the rows (services/insights/labor-costs.ts), so a change of zone
 * needs no rebuild.
 */
export const shiftLaborWeeks = sqliteTable(
  'shift_labor_weeks',
  {
    business_id: text('business_id').notNull(),
    week_start: integer('week_start').notNull(),
    shiftrole_id: integer('shiftrole_id').notNull(),
    currency: text('currency').notNull(),
    shifts: integer('shifts').notNull(),
    minutes: integer('minutes').notNull(),
    pay_minor: integer('pay_minor').notNull(),
  },
  (t) => [primaryKey({ columns: [t.business_id, t.week_start, t.shiftrole_id, t.currency] })],
);

/** Labor per business, UTC week, shifter ('' for a worked row without one) and currency. */
export const shiftLaborWeekShifters = sqliteTable(
  'shift_labor_week_shifters',
  {
    business_id: text('business_id').notNull(),
    week_start: integer('week_start').notNull(),
    shifter_id: text('shifter_id').notNull(),
    currency: text('currency').notNull(),
    shifts: integer('shifts').notNull(),
    minutes: integer('minutes').notNull(),
    pay_minor: integer('pay_minor').notNull(),
  },
  (t) => [primaryKey({ columns: [t.business_id, t.week_start, t.shifter_id, t.currency] })],
);

/**
 * Crew figures per business, shifter and currency over the shifts that start inside the crew
 * rollup's window (shift_rollup_windows 'crew': [covers_from, covers_to)). The figures' 90 days
 * are this window plus the rows between its edges and the asked ones.
 */
export const shiftCrewWindow = sqliteTable(
  'shift_crew_window',
  {
    business_id: text('business_id').notNull(),
    shifter_id: text('shifter_id').notNull(),
    currency: text('currency').notNull(),
    worked: integer('worked').notNull(),
    minutes: integer('minutes').notNull(),
    pay_minor: integer('pay_minor').notNull(),
    no_shows: integer('no_shows').notNull(),
    cancels: integer('cancels').notNull(),
  },
  (t) => [primaryKey({ columns: [t.business_id, t.shifter_id, t.currency] })],
);

/**
 * The going rate's histogram: worked shifts per place of the business (0 for an unset id), role
 * (0 = every role), currency and hourly rate, over the shifts that start inside the 'going_rate'
 * window. Percentiles, min, max and mean come out of it exactly; its size is bounded by the distinct
 * rates, not by the shifts.
 */
export const shiftRateWindow = sqliteTable(
  'shift_rate_window',
  {
    city_id: integer('city_id').notNull(),
    state_id: integer('state_id').notNull(),
    country_id: integer('country_id').notNull(),
    shiftrole_id: integer('shiftrole_id').notNull(),
    currency: text('currency').notNull(),
    rate_minor: integer('rate_minor').notNull(),
    shifts: integer('shifts').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.city_id, t.shiftrole_id, t.currency, t.rate_minor, t.state_id, t.country_id] }),
    index('shift_rate_window_state_idx').on(t.state_id, t.shiftrole_id, t.currency, t.rate_minor),
    index('shift_rate_window_country_idx').on(t.country_id, t.shiftrole_id, t.currency, t.rate_minor),
  ],
);

/**
 * The span of starts each windowed rollup covers, [covers_from, covers_to) in epoch ms: the triggers
 * count a shift only inside it, and the 5-minute job moves it with the clock (adding the rows that
 * enter, removing those that leave) in one batch.
 */
export const shiftRollupWindows = sqliteTable('shift_rollup_windows', {
  name: text('name', { enum: ['crew', 'going_rate'] }).primaryKey(),
  covers_from: integer('covers_from').notNull(),
  covers_to: integer('covers_to').notNull(),
  advanced_at: integer('advanced_at'),
});

/**
 * A clock photo stored in R2 at `object_key` (clock-photos/<shift_request_id>/<side>/<id>.<ext>,
 * docs/storage.md). At most MAX_CLOCK_PHOTOS_PER_SIDE rows per shift and side, ever (removed ones
 * count). `used_at` is the instant of the punch that used it (the shift's clock_in/out_photo_url
 * names it), set in the punch's own batch; a photo no punch used is removed from R2 by the maintenance
 * cron after CLOCK_PHOTO_UNUSED_HOURS, and `removed_at` says so (services/shifts/clock.ts).
 */
export const clockPhotos = sqliteTable(
  'clock_photos',
  {
    id: text('id').primaryKey(), // upl_…
    shift_request_id: text('shift_request_id')
      .notNull()
      .references(() => shiftRequests.id, { onDelete: 'cascade' }),
    side: text('side', { enum: ['in', 'out'] }).notNull(),
    object_key: text('object_key').notNull(),
    content_type: text('content_type').notNull(),
    size: integer('size').notNull(),
    uploaded_by_user_id: text('uploaded_by_user_id'),
    created_at: integer('created_at').notNull(),
    used_at: integer('used_at'),
    removed_at: integer('removed_at'),
  },
  (t) => [
    index('clock_photos_shift_side_idx').on(t.shift_request_id, t.side),
    uniqueIndex('clock_photos_object_key_idx').on(t.object_key),
    // The sweep's candidates: photos no punch used and not yet removed, oldest first.
    index('clock_photos_unused_idx').on(t.created_at).where(sql`used_at IS NULL AND removed_at IS NULL`),
  ],
);

/** A weekly recurring shift pattern; `generate` turns it into pending shift requests. */
export const shiftTemplates = sqliteTable(
  'shift_templates',
  {
    id: text('id').primaryKey(), // tpl_…
    business_id: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    /** Comma-separated ISO weekdays, 1 = Monday … 7 = Sunday, e.g. "1,3,5". */
    days_of_week: text('days_of_week').notNull(),
    shift_in: text('shift_in').notNull(),
    shift_out: text('shift_out').notNull(),
    shiftrole_id: integer('shiftrole_id')
      .notNull()
      .references(() => shiftRoles.id),
    hourly_rate_minor: integer('hourly_rate_minor').notNull(),
    currency_id: text('currency_id')
      .notNull()
      .references(() => currencies.code),
    is_flexible: bool('is_flexible').notNull().default(false),
    is_broadcast: bool('is_broadcast').notNull().default(true),
    default_shifter_id: text('default_shifter_id').references(() => shifters.id, { onDelete: 'set null' }),
    note: text('note'),
    is_active: bool('is_active').notNull().default(true),
    /** Reserved; no behaviour yet. */
    frequency: text('frequency'),
    created_by_user_id: text('created_by_user_id'),
    ...timestamps,
  },
  (t) => [index('shift_templates_business_idx').on(t.business_id)],
);
