import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { businesses } from './profiles';
import { users } from './users';

/**
 * An owner's (or admin's) invitation to join a business as a teammate, addressed to an email. Nothing
 * of the invitee is known to the business until they accept: the teammate row is created by the
 * acceptance. `pending` until accepted, declined or revoked; a pending invitation past `expires_at`
 * is expired (not acceptable). One pending invitation per business and email.
 */
export const teammateInvitations = sqliteTable(
  'teammate_invitations',
  {
    id: text('id').primaryKey(), // inv_…
    business_id: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    email: text('email').notNull(), // lower-cased
    invited_by_user_id: text('invited_by_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'accepted', 'declined', 'revoked'] }).notNull(),
    /** The account that accepted (its verified email matched). */
    accepted_user_id: text('accepted_user_id').references(() => users.id, { onDelete: 'set null' }),
    expires_at: integer('expires_at').notNull(),
    responded_at: integer('responded_at'),
    /** Stamped by each guarded change, so the batch's dependent statements can see it took effect. */
    last_op_id: text('last_op_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('teammate_invitations_one_pending').on(t.business_id, t.email).where(sql`status = 'pending'`),
    index('teammate_invitations_email_idx').on(t.email, t.status),
  ],
);
