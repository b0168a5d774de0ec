import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { bool, timestamps } from './columns';
import { shifters } from './profiles';
import { currencies, shiftRoles } from './reference';

/** A mileage log line. The rate is captured at write time so later setting changes never alter it. */
export const mileageEntries = sqliteTable(
  'mileage_entries',
  {
    id: text('id').primaryKey(), // mil_…
    shifter_id: text('shifter_id')
      .notNull()
      .references(() => shifters.id, { onDelete: 'cascade' }),
    log_date: text('log_date').notNull(),
    miles: real('miles').notNull(),
    rate_per_mile_cents: integer('rate_per_mile_cents').notNull(),
    purpose: text('purpose'),
    ...timestamps,
  },
  (t) => [index('mileage_shifter_date_idx').on(t.shifter_id, t.log_date)],
);

/**
 * A shifter's counter rule: the least they take for matching shifts. A rule matches a shift by role
 * (null = any), ISO weekdays (null = any) and a start-time band (null = any); the suggested counter
 * rate is the highest matching minimum, plus a per-hour premium when the business is farther than
 * `distance_threshold_km`.
 */
export const counterRules = sqliteTable(
  'counter_rules',
  {
    id: text('id').primaryKey(), // cr_…
    shifter_id: text('shifter_id')
      .notNull()
      .references(() => shifters.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    shiftrole_id: integer('shiftrole_id').references(() => shiftRoles.id),
    weekdays: text('weekdays'), // "1,2,3" ISO weekdays or null
    start_from: text('start_from'), // HH:MM, inclusive
    start_to: text('start_to'), // HH:MM, exclusive; a band may wrap midnight
    min_hourly_rate_minor: integer('min_hourly_rate_minor').notNull(),
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    distance_threshold_km: real('distance_threshold_km'),
    distance_premium_minor: integer('distance_premium_minor'),
    is_active: bool('is_active').notNull().default(true),
    /** Reserved: stored, no behaviour yet. */
    is_auto_apply: bool('is_auto_apply').notNull().default(false),
    ...timestamps,
  },
  (t) => [index('counter_rules_shifter_idx').on(t.shifter_id)],
);

export const credentials = sqliteTable(
  'credentials',
  {
    id: text('id').primaryKey(), // crd_…
    shifter_id: text('shifter_id')
      .notNull()
      .references(() => shifters.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    issuer: text('issuer'),
    issued_on: text('issued_on'),
    expires_on: text('expires_on'),
    notes: text('notes'),
    document_key: text('document_key'),
    document_type: text('document_type'),
    document_size: integer('document_size'),
    is_visible: bool('is_visible').notNull().default(true),
    ...timestamps,
  },
  (t) => [index('credentials_shifter_idx').on(t.shifter_id)],
);
