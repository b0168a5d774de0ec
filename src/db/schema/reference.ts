import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { bool } from './columns';

/** Reference data. Seeded by migration; ids are stable integers the spec names (shiftrole_id, city_id…). */
export const shiftRoles = sqliteTable('shift_roles', {
  id: integer('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  label: text('label').notNull(),
  is_active: bool('is_active').notNull().default(true),
});

export const currencies = sqliteTable('currencies', {
  code: text('code').primaryKey(), // ISO 4217
  name: text('name').notNull(),
  minor_unit: integer('minor_unit').notNull(),
});

export const countries = sqliteTable('countries', {
  id: integer('id').primaryKey(),
  code: text('code').notNull().unique(), // ISO 3166-1 alpha-2
  name: text('name').notNull(),
  currency: text('currency')
    .notNull()
    .references(() => currencies.code),
});

export const states = sqliteTable(
  'states',
  {
    id: integer('id').primaryKey(),
    country_id: integer('country_id')
      .notNull()
      .references(() => countries.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
  },
  (t) => [index('states_country_idx').on(t.country_id)],
);

export const cities = sqliteTable(
  'cities',
  {
    id: integer('id').primaryKey(),
    state_id: integer('state_id')
      .notNull()
      .references(() => states.id),
    country_id: integer('country_id')
      .notNull()
      .references(() => countries.id),
    name: text('name').notNull(),
    timezone: text('timezone').notNull(),
    latitude: real('latitude').notNull(),
    longitude: real('longitude').notNull(),
  },
  (t) => [index('cities_state_idx').on(t.state_id), index('cities_country_idx').on(t.country_id)],
);
