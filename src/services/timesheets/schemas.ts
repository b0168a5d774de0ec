import { z } from '@hono/zod-openapi';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { isValidDate } from '../../lib/shift-time';
import { pagingQuery } from '../kernel';
import { MAX_BREAKS } from './policy';

// The timesheet domain's request and response schemas: the routes, the MCP tools and the pages read these.

export const TIMESHEET_STATUSES = ['open', 'submitted', 'approved', 'locked'] as const;
export type TimesheetStatus = (typeof TIMESHEET_STATUSES)[number];
export const EDIT_REASONS = ['missed_punch', 'break_correction', 'sent_home', 'early_release', 'stayed_late', 'no_show', 'other'] as const;
export type EditReason = (typeof EDIT_REASONS)[number];
export const BREAK_ATTESTATIONS = ['taken', 'short', 'waived'] as const;
export const TIMESHEET_ACTIONS = ['approve', 'edit', 'dispute', 'resolve'] as const;
export type TimesheetAction = (typeof TIMESHEET_ACTIONS)[number];
/** What a reviewer should look at before approving (rules.ts `timesheetIssues`). */
export const TIMESHEET_ISSUES = ['open_dispute', 'left_early', 'far_punch', 'offline_punch', 'edited', 'breaks_short'] as const;
export type TimesheetIssue = (typeof TIMESHEET_ISSUES)[number];
export const DISPUTE_STATUSES = ['open', 'accepted', 'rejected', 'resolved_for_worker'] as const;

const instant = z.iso.datetime({ offset: true });

export const breakInput = z
  .object({
    start: instant.openapi({ description: 'When the break began (ISO 8601).' }),
    end: instant.openapi({ description: 'When it ended; after start.' }),
    paid: z.boolean().default(false).openapi({ description: 'A paid break counts as worked time; default unpaid.' }),
  })
  .refine((b) => Date.parse(b.end) > Date.parse(b.start), { message: 'a break ends after it starts', path: ['end'] })
  .openapi('TimesheetBreakInput');
export type BreakInput = z.infer<typeof breakInput>;

export const breaksInput = z.array(breakInput).max(MAX_BREAKS);

/** What the clock-out adds to its punch: the breaks as the worker attests them, and a note. */
export const clockOutTimesheetFields = {
  breaks: breaksInput.optional().openapi({
    description: `Clock-out only: the breaks taken (at most ${MAX_BREAKS}), each inside the clocked time; unpaid ones are taken off the paid minutes.`,
  }),
  break_attestation: z.enum(BREAK_ATTESTATIONS).optional().openapi({
    description: 'Clock-out only: the worker attests their breaks: taken in full, short, or waived.',
  }),
  note: z.string().trim().max(500).optional().openapi({ description: 'Clock-out only: a note for the business with the timesheet.' }),
};

export const timesheetIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(ID_MAX_LENGTH)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'ts_8Kq2' }),
});

const periodQuery = z
  .string()
  .max(10)
  .refine(isValidDate, { message: 'a date, YYYY-MM-DD' })
  .optional()
  .openapi({ description: "A date of the pay period wanted (its Monday–Sunday week in the business's zone)." });

export const listTimesheetsQuery = z.object({
  status: z.enum(TIMESHEET_STATUSES).optional(),
  period: periodQuery,
  ...pagingQuery({ max: 50, default: 50 }),
});
export type ListTimesheetsQuery = z.infer<typeof listTimesheetsQuery>;

export const editTimesheetInput = z
  .object({
    in_at: instant.optional().openapi({ description: 'The corrected start (ISO 8601).' }),
    out_at: instant.optional().openapi({ description: 'The corrected end.' }),
    breaks: breaksInput.optional().openapi({ description: 'The corrected breaks, replacing the attested ones.' }),
    reason: z.enum(EDIT_REASONS),
    note: z.string().trim().max(500).optional().openapi({ description: 'Required with reason other.' }),
  })
  .refine((b) => b.in_at !== undefined || b.out_at !== undefined || b.breaks !== undefined, {
    message: 'send in_at, out_at or breaks',
    path: ['in_at'],
  })
  .refine((b) => b.reason !== 'other' || (b.note ?? '').length > 0, { message: 'say what changed', path: ['note'] })
  .openapi('TimesheetEdit');
export type EditTimesheetInput = z.infer<typeof editTimesheetInput>;

export const disputeTimesheetInput = z
  .object({
    in_at: instant.openapi({ description: 'The start the worker says is right.' }),
    out_at: instant.openapi({ description: 'The end the worker says is right.' }),
    unpaid_break_minutes: z.number().int().min(0).max(720).optional().openapi({
      description: "Unpaid break minutes the worker says are right; default the timesheet's.",
    }),
    reason: z.string().trim().min(1).max(1000),
  })
  .refine((b) => Date.parse(b.out_at) > Date.parse(b.in_at), { message: 'the end comes after the start', path: ['out_at'] })
  .openapi('TimesheetDispute');
export type DisputeTimesheetInput = z.infer<typeof disputeTimesheetInput>;

export const resolveDisputeInput = z
  .object({
    decision: z
      .enum(['accept', 'reject'])
      .openapi({ description: "accept: the worker's times replace the timesheet's; reject: they stay." }),
    note: z.string().trim().max(1000).optional().openapi({ description: 'Required to reject: the reason the worker reads.' }),
  })
  .refine((b) => b.decision === 'accept' || (b.note ?? '').length > 0, { message: 'say why', path: ['note'] })
  .openapi('TimesheetDisputeAnswer');
export type ResolveDisputeInput = z.infer<typeof resolveDisputeInput>;

const iso = z.string().nullable();

export const timesheetBreakSchema = z.object({ start_at: z.string(), end_at: z.string(), paid: z.boolean() }).openapi('TimesheetBreak');

export const timesheetDisputeSchema = z
  .object({
    id: z.string(),
    status: z.enum(DISPUTE_STATUSES).openapi({
      description: 'open; accepted or rejected by the business; resolved_for_worker: unanswered by answer_due_at.',
    }),
    proposed_in_at: z.string(),
    proposed_out_at: z.string(),
    proposed_unpaid_break_minutes: z.number().int(),
    reason: z.string(),
    answer_due_at: z.string(),
    answer_note: z.string().nullable(),
    answered_at: iso,
    created_at: z.string(),
  })
  .openapi('TimesheetDisputeView');

export const timesheetSchema = z
  .object({
    id: z.string(),
    shift_request_id: z.string(),
    business_id: z.string(),
    business_name: z.string(),
    shifter_id: z.string(),
    shifter_name: z.string().nullable(),
    role: z.string().nullable(),
    status: z.enum(TIMESHEET_STATUSES).openapi({
      description: 'open: clocked in; submitted: clocked out, awaiting approval; approved: invoiced; locked: its pay period closed.',
    }),
    period_start: z
      .string()
      .openapi({ description: "The Monday of its pay period (the week its shift starts in, in the business's zone)." }),
    scheduled_start_at: z.string(),
    scheduled_end_at: z.string(),
    punched_in_at: z.string().openapi({ description: 'The clock-in as punched; never changed.' }),
    punched_out_at: iso.openapi({ description: 'The clock-out as punched; never changed.' }),
    clock_in_distance_m: z.number().nullable(),
    clock_out_distance_m: z.number().nullable(),
    clock_in_offline: z.boolean(),
    clock_out_offline: z.boolean(),
    clock_in_photo_url: z.string().nullable(),
    clock_out_photo_url: z.string().nullable(),
    in_at: z.string().openapi({ description: 'The start the timesheet counts (the punch, or its correction).' }),
    out_at: iso,
    rounded_in_at: z.string(),
    rounded_out_at: iso,
    rounding_minutes: z.number().int(),
    breaks: z.array(timesheetBreakSchema),
    unpaid_break_minutes: z.number().int(),
    break_attestation: z.enum(BREAK_ATTESTATIONS).nullable(),
    worker_note: z.string().nullable(),
    left_early: z.boolean().openapi({ description: 'The clock-out came before the scheduled end.' }),
    worked_minutes: z.number().int().nullable().openapi({ description: 'Minutes paid: rounded out − rounded in, less unpaid breaks.' }),
    hourly_rate: z.number().nullable().openapi({ description: 'Null for a teammate (pay is the owner’s).' }),
    pay: z.number().nullable().openapi({ description: 'worked_minutes × rate, rounded once; null for a teammate.' }),
    currency: z.string(),
    edit: z
      .object({ reason: z.enum(EDIT_REASONS), note: z.string().nullable(), edited_at: z.string() })
      .nullable()
      .openapi({ description: "The business's last edit, if any." }),
    dispute: timesheetDisputeSchema.nullable().openapi({ description: 'The latest dispute, if any.' }),
    dispute_until: iso.openapi({ description: 'Until when the worker may dispute.' }),
    submitted_at: iso,
    auto_approve_at: iso.openapi({ description: 'When it approves itself if nobody answers.' }),
    approved_at: iso,
    approved_how: z.enum(['business', 'auto', 'dispute_overdue']).nullable(),
    allowed_actions: z.array(z.enum(TIMESHEET_ACTIONS)).openapi({ description: 'What the caller may do now.' }),
    refusals: z
      .record(z.string(), z.string())
      .openapi({ description: 'Why each other action is refused now, in words, keyed by action (approve, edit, dispute, resolve).' }),
    issues: z
      .array(z.enum(TIMESHEET_ISSUES))
      .openapi({ description: 'What a reviewer should look at before approving; none: safe to approve in bulk.' }),
  })
  .openapi('Timesheet');
export type TimesheetView = z.infer<typeof timesheetSchema>;

export const timesheetListSchema = z
  .object({ data: z.array(timesheetSchema), next_cursor: z.string().nullable() })
  .openapi('TimesheetList');
export type TimesheetList = z.infer<typeof timesheetListSchema>;
