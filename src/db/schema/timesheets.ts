import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { bool, timestamps } from './columns';
import { businesses, shifters } from './profiles';
import { shiftRequests } from './shifts';
import { users } from './users';

/**
 * A shift's timesheet (services/timesheets): written by the first punch, submitted by the clock-out,
 * approved by the business (or automatically), locked with its pay period. Only an approved timesheet
 * is invoiced and paid. The punches themselves stay on the shift request, never changed
 * (shift_start_at, shift_end_at and their place, distance, photo and offline marks); `in_at`/`out_at`
 * are the times the timesheet counts, equal to the punches until an edit or a dispute changes them.
 * States and windows: docs/decisions/timesheets.md.
 */
export const timesheets = sqliteTable(
  'timesheets',
  {
    id: text('id').primaryKey(), // ts_…
    shift_request_id: text('shift_request_id')
      .notNull()
      .references(() => shiftRequests.id, { onDelete: 'cascade' }),
    business_id: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    shifter_id: text('shifter_id')
      .notNull()
      .references(() => shifters.id),
    status: text('status', { enum: ['open', 'submitted', 'approved', 'locked'] }).notNull(),
    in_at: integer('in_at').notNull(),
    out_at: integer('out_at'),
    /** Breaks as the worker attested them at clock-out (or the business's edit): JSON [{start_at, end_at, paid}]. */
    breaks: text('breaks').notNull().default('[]'),
    unpaid_break_minutes: integer('unpaid_break_minutes').notNull().default(0),
    break_attestation: text('break_attestation', { enum: ['taken', 'short', 'waived'] }),
    worker_note: text('worker_note'),
    /** The clock-out came before the scheduled end (recorded for the business, never refused). */
    left_early: bool('left_early').notNull().default(false),
    edit_reason: text('edit_reason'),
    edit_note: text('edit_note'),
    edited_at: integer('edited_at'),
    edited_by_user_id: text('edited_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Until when the worker may dispute (from the submission, or the last edit). */
    dispute_until: integer('dispute_until'),
    submitted_at: integer('submitted_at'),
    /** When an unanswered submitted timesheet approves itself. */
    auto_approve_at: integer('auto_approve_at'),
    approved_at: integer('approved_at'),
    approved_how: text('approved_how', { enum: ['business', 'auto', 'dispute_overdue'] }),
    approved_by_user_id: text('approved_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Fixed at approval: the minutes paid and their pay (minor units, rounded once). */
    paid_minutes: integer('paid_minutes'),
    pay_minor: integer('pay_minor'),
    last_op_id: text('last_op_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('timesheets_shift_idx').on(t.shift_request_id),
    index('timesheets_business_status_idx').on(t.business_id, t.status, t.in_at),
    index('timesheets_shifter_idx').on(t.shifter_id, t.in_at),
    // The sweep's candidates: submitted timesheets by their auto-approval time.
    index('timesheets_auto_approve_idx').on(t.auto_approve_at).where(sql`status = 'submitted'`),
  ],
);

/** A worker's dispute of a timesheet's times, and the business's answer (or its lapse, which resolves for the worker). */
export const timesheetDisputes = sqliteTable(
  'timesheet_disputes',
  {
    id: text('id').primaryKey(), // tsd_…
    timesheet_id: text('timesheet_id')
      .notNull()
      .references(() => timesheets.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['open', 'accepted', 'rejected', 'resolved_for_worker'] }).notNull(),
    proposed_in_at: integer('proposed_in_at').notNull(),
    proposed_out_at: integer('proposed_out_at').notNull(),
    proposed_unpaid_break_minutes: integer('proposed_unpaid_break_minutes').notNull(),
    reason: text('reason').notNull(),
    answer_due_at: integer('answer_due_at').notNull(),
    answer_note: text('answer_note'),
    answered_at: integer('answered_at'),
    answered_by_user_id: text('answered_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    created_by_user_id: text('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('timesheet_disputes_timesheet_idx').on(t.timesheet_id, t.created_at),
    // The sweep's candidates: open disputes by their answer deadline.
    index('timesheet_disputes_due_idx').on(t.answer_due_at).where(sql`status = 'open'`),
  ],
);
