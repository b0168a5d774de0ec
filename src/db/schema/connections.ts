import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { businesses, shifters } from './profiles';

/**
 * Request authorizations: a business and a shifter connect. One row per pair; the accepted rows are
 * the business's crew (the broadcast audience).
 */
export const requestAuthorizations = sqliteTable(
  'request_authorizations',
  {
    id: text('id').primaryKey(), // con_…
    business_id: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    shifter_id: text('shifter_id')
      .notNull()
      .references(() => shifters.id, { onDelete: 'cascade' }),
    initiated_by: text('initiated_by', { enum: ['business', 'shifter'] }).notNull(),
    status: text('status', { enum: ['pending', 'accepted', 'declined', 'removed'] }).notNull(),
    responded_at: integer('responded_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('request_authorizations_pair').on(t.business_id, t.shifter_id),
    index('request_authorizations_shifter_idx').on(t.shifter_id, t.status),
    index('request_authorizations_business_idx').on(t.business_id, t.status),
  ],
);
