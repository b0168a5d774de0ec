import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { businesses, shifters } from './profiles';
import { users } from './users';

/**
 * A business's invitation to join its crew, sent to an email address or a phone number that has no
 * shifter account to send a connection request to (services/connections/crew-invites.ts). The
 * message carries a link with a random token; only its SHA-256 is kept, so the link works from the
 * message alone and once. `address` is kept normalized (an email lower-cased, a phone as + and
 * digits) so a re-send to the same address finds the last one; nobody is ever shown more of it
 * than its mask. A re-send inserts a new row and marks the previous one `replaced`; a pending row
 * past `expires_at` is expired.
 */
export const crewInvites = sqliteTable(
  'crew_invites',
  {
    id: text('id').primaryKey(), // cin_…
    business_id: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    address: text('address').notNull(),
    /** The name the business typed for the person (shown to the business and in the message). */
    name: text('name'),
    token_hash: text('token_hash').notNull(),
    status: text('status', { enum: ['pending', 'accepted', 'revoked', 'replaced'] }).notNull(),
    invited_by_user_id: text('invited_by_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The shifter who joined with it. */
    accepted_shifter_id: text('accepted_shifter_id').references(() => shifters.id, { onDelete: 'set null' }),
    expires_at: integer('expires_at').notNull(),
    responded_at: integer('responded_at'),
    /** Stamped by each guarded change, so the batch's dependent statements can see it took effect. */
    last_op_id: text('last_op_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('crew_invites_token_idx').on(t.token_hash),
    index('crew_invites_business_idx').on(t.business_id, t.status, t.created_at),
    index('crew_invites_address_idx').on(t.business_id, t.address, t.status),
  ],
);

/**
 * A business's crew join link, printed on a poster at the venue as a QR code: anyone with a shifter
 * profile who opens it joins the crew. One live link per business (`revoked_at` null); rotating it
 * inserts a new row and revokes the old one in the same batch. Unlike an invitation's token, the
 * link's token is kept as it is: the crew page shows the link and its QR code again whenever asked,
 * and the link is public by design (on a wall).
 */
export const crewJoinLinks = sqliteTable(
  'crew_join_links',
  {
    id: text('id').primaryKey(), // cjl_…
    business_id: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    token: text('token').notNull(),
    created_by_user_id: text('created_by_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** People who joined with it. */
    uses: integer('uses').notNull().default(0),
    revoked_at: integer('revoked_at'),
    last_op_id: text('last_op_id'),
    ...timestamps,
  },
  (t) => [uniqueIndex('crew_join_links_token_idx').on(t.token), index('crew_join_links_business_idx').on(t.business_id, t.revoked_at)],
);
