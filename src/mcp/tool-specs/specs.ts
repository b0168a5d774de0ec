import { z } from 'zod';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { businessSchema, shifterSchema, userDetailsSchema } from '../../services/accounts';
import { earningsSchema, laborCostsSchema } from '../../services/insights';
import { ratingSchema } from '../../services/reviews';
import {
  cancelledShiftSchema,
  currencySchema,
  dateSchema,
  postedShiftSchema,
  rateSchema,
  shiftListSchema,
  shiftRequestSchema,
  timeSchema,
} from '../../services/shifts';
import {
  BREAK_ATTESTATIONS,
  EDIT_REASONS,
  MAX_BREAKS,
  TIMESHEET_STATUSES,
  timesheetListSchema,
  timesheetSchema,
} from '../../services/timesheets';

/** The scope a tool needs: a grant's scopes name which tools its tokens may call. */
export type ToolScope = 'read' | 'write' | 'payment';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint?: boolean;
}

/**
 * Every agent tool's contract (spec 4.9): name (without the `shiftmarket.` prefix), title,
 * description written for a model, scope, zod input and output schemas, and annotations. Pure data:
 * only zod and the domains' schema modules are imported here, so the local stdio tool server can
 * offer the same tools from these specs without the Worker's services. The remote server's tools
 * (src/mcp/tools) pair each spec with the `run` that calls the services.
 *
 * Inputs have no transforms (plain JSON Schema for clients); outputs reuse the REST response schemas.
 */
export interface ToolSpec<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  /** Without the `shiftmarket.` prefix, e.g. `me`, `claim_shift`. */
  name: string;
  title: string;
  description: string;
  scope: ToolScope;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /**
   * `always`: the tool asks the person before it runs on every call, whatever their setting for write
   * tools (a payment tool that acts at once, such as approve_timesheet). Write tools ask unless the
   * person switched that off; other payment tools confirm through their own link.
   */
  confirmation?: 'always';
}

const spec = <I extends z.ZodObject, O extends z.ZodObject>(s: ToolSpec<I, O>) => s;

const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const id = (what: string) => z.string().min(1).max(ID_MAX_LENGTH).describe(what);
const shiftId = id('The shift request id (sr_…), as list_my_shifts, search_shifts or post_shift return it.');
const slug = (what: string) => z.string().min(1).max(120).describe(what);
const statusValue = z.number().int().min(1).max(7);
const roleSide = z.enum(['shifter', 'business']);
const shiftRoleId = (what: string) =>
  z.number().int().positive().describe(`${what} An id from shift_roles in me's answer (e.g. 1 Server, 2 Bartender, 3 Line Cook).`);
const dateFrom = dateSchema.optional().describe('Earliest shift date to keep, YYYY-MM-DD (the business wall-clock date).');
const dateTo = dateSchema.optional().describe('Latest shift date to keep, YYYY-MM-DD (the business wall-clock date).');
const pageLimit = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).default(fallback).describe(`Rows per page, 1–${max} (default ${fallback}).`);
const cursorField = z.string().max(200).optional().describe('next_cursor from the previous page; leave out for the first page.');

/** A tool acting on one shift: the shift row as the REST API answers it. */
const shiftOutput = z.object({ shift_request: shiftRequestSchema });

// ── read ────────────────────────────────────────────────────────────────────────────────────────

export const shiftRoleSchema = z.object({
  id: z.number().int().describe('Pass it as shiftrole_id.'),
  slug: z.string(),
  label: z.string(),
});

export const profileRowSchema = z.object({
  field: z.string(),
  filled: z.boolean(),
  profile: z.enum(['account', 'shifter', 'business']),
});

export const meSpec = spec({
  name: 'me',
  title: 'Who am I',
  description:
    "The signed-in user's identity: account details, role (shifter, business, both or none), a profile completeness score (0–100) with each profile row and whether it is filled, the shifter profile, the businesses they own, and the roles a shift can be posted for (shift_roles: the shiftrole_id values). Call this first to learn which side (shifter or business) the user acts on and which ids to pass to the other tools.",
  scope: 'read',
  input: z.object({}),
  output: z.object({
    user: userDetailsSchema,
    role: z.enum(['shifter', 'business', 'both', 'none']),
    profile_completeness: z.number().int().min(0).max(100),
    profile_rows: z.array(profileRowSchema).max(20),
    shifter: shifterSchema.nullable(),
    businesses: z.array(businessSchema).max(200),
    shift_roles: z
      .array(shiftRoleSchema)
      .max(100)
      .describe('Every role a shift can be posted for (post_shift, search_shifts take its id).'),
  }),
  annotations: READ,
});

export const listMyShiftsSpec = spec({
  name: 'list_my_shifts',
  title: 'List my shifts',
  description:
    "The user's shift requests, newest first: as the shifter (shifts sent to or claimed by them) and/or as the business (shifts of businesses they own). Filter by role, status (1 pending, 2 accepted, 3 declined, 4 superseded, 5 completed, 6 expired, 7 cancelled) and a date range (YYYY-MM-DD, the business's wall-clock date). Returns one page and next_cursor for the next one.",
  scope: 'read',
  input: z.object({
    role: roleSide.optional().describe('Only one side: shifter or business. Default both.'),
    status: z.array(statusValue).min(1).max(7).optional().describe('request_status values to keep.'),
    date_from: dateFrom,
    date_to: dateTo,
    limit: pageLimit(100, 25),
    cursor: cursorField,
  }),
  output: shiftListSchema,
  annotations: READ,
});

export const shiftDetailsSpec = spec({
  name: 'shift_details',
  title: 'Shift details',
  description:
    'One shift request in full (times in the business zone, role, rate, status, clock-in and clock-out, who cancelled). Only its two parties may read it: the business owner or the shifter it belongs to; anyone else gets SHFT-NOT-FND-ERR.',
  scope: 'read',
  input: z.object({ shift_request_id: shiftId }),
  output: shiftOutput,
  annotations: READ,
});

export const searchShiftsSpec = spec({
  name: 'search_shifts',
  title: 'Search open shifts',
  description:
    "Open broadcasts the user's shifter profile may claim (businesses they are connected to), filtered by minimum hourly rate, role, date range and business. With sort_by_relevance the best fit comes first with relevance_score 0–100. Claim one with claim_shift.",
  scope: 'read',
  input: z.object({
    min_rate: z.number().positive().max(10_000).optional().describe('Minimum hourly rate, in the shift currency.'),
    shiftrole_id: shiftRoleId('Only shifts for this role.').optional(),
    date_from: dateFrom,
    date_to: dateTo,
    business_id: id('Only this business (biz_…).').optional(),
    sort_by_relevance: z
      .boolean()
      .default(false)
      .describe('true: best fit first, each with relevance_score 0–100 (default false: soonest first).'),
    limit: pageLimit(100, 25),
    cursor: cursorField,
  }),
  output: shiftListSchema,
  annotations: READ,
});

export const publicBusinessSchema = businessSchema
  .pick({ id: true, slug: true, name: true, timezone: true, city_id: true, country_id: true, currency: true, created_at: true })
  .extend({ ratings: ratingSchema });

export const businessProfileSpec = spec({
  name: 'business_profile',
  title: 'Business profile',
  description: "A business's public profile by its slug: name, zone, currency and its ratings from reviews.",
  scope: 'read',
  input: z.object({ slug: slug('The business slug, as in its public profile address.') }),
  output: z.object({ business: publicBusinessSchema }),
  annotations: READ,
});

export const publicShifterSchema = shifterSchema
  .pick({
    id: true,
    slug: true,
    display_name: true,
    headline: true,
    bio: true,
    photo_url: true,
    city: true,
    accept_shift_req: true,
    is_paused: true,
    created_at: true,
  })
  .extend({ ratings: ratingSchema });

export const shifterProfileSpec = spec({
  name: 'shifter_profile',
  title: 'Shifter profile',
  description:
    "A shifter's public profile by slug: name, headline, bio, city, ratings, and is_paused (true when they are not taking shift requests).",
  scope: 'read',
  input: z.object({ slug: slug('The shifter slug, as in their public profile address.') }),
  output: z.object({ shifter: publicShifterSchema }),
  annotations: READ,
});

export const counterpartySchema = z.object({
  kind: z.enum(['business', 'shifter']),
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  shifts: z.number().int().describe('Shift requests between you, any status.'),
  worked_shifts: z.number().int(),
  last_shift_date: z.string(),
});

export const listConnectionsSpec = spec({
  name: 'list_connections',
  title: 'List the people I work with',
  description:
    'The distinct counterparties from the shift request history: for a shifter, the businesses that sent or broadcast shifts they took; for a business owner, the shifters of its shifts. Each with the number of shifts, worked shifts and the latest shift date, most recent first.',
  scope: 'read',
  input: z.object({
    role: roleSide.optional().describe('Only one side. Default both.'),
    limit: pageLimit(200, 50),
  }),
  output: z.object({ counterparties: z.array(counterpartySchema).max(400) }),
  annotations: READ,
});

export const myEarningsSpec = spec({
  name: 'my_earnings',
  title: 'My earnings',
  description:
    "The shifter's gross earnings for a month (default this month, in their own zone): gross, projected end of month, typical rate and hours, goal progress, by_business (top businesses this year) and a 12-month trend. Gross is hours × rate of worked shifts, before fees.",
  scope: 'read',
  input: z.object({
    year: z.number().int().min(2000).max(2100).optional().describe('The year (default this year, in the shifter zone).'),
    month: z.number().int().min(1).max(12).optional().describe('The month, 1–12 (default this month).'),
  }),
  output: earningsSchema,
  annotations: READ,
});

export const mySpendSpec = spec({
  name: 'my_spend',
  title: 'My spend',
  description:
    "The business mirror of my_earnings: labor spend of a business the user owns for a week (default this week, Monday start in the business zone): this week's and last week's totals, the change, the weekly budget and how far over or under, by_shifter (top shifters), by_role and the last 8 weeks.",
  scope: 'read',
  input: z.object({
    business_id: id("The business (biz_…); default the user's default business.").optional(),
    week: dateSchema.optional().describe('Any date of the week wanted.'),
  }),
  output: laborCostsSchema,
  annotations: READ,
});

const timesheetId = id('The timesheet id (ts_…), as list_timesheets returns it.');

export const listTimesheetsSpec = spec({
  name: 'list_timesheets',
  title: 'List timesheets',
  description:
    "Timesheets, newest first: with business_id, those of a business the user owns; without it, the user's own as a shifter. A timesheet is opened by the clock-in and submitted by the clock-out; the business approves it (the invoice is written then for worked_minutes × rate), edits it with a reason, or answers the worker's dispute. Each carries worked_minutes, pay, currency, issues (what to look at before approving: open_dispute, left_early, far_punch, offline_punch, edited, breaks_short), allowed_actions (what the user may do now) and refusals (why each other action is refused now). Filter by status and by a date of the pay period (its Monday–Sunday week in the business's zone). Returns one page and next_cursor for the next one.",
  scope: 'read',
  input: z.object({
    business_id: id("A business the user owns (biz_…); leave out for the user's own timesheets as a shifter.").optional(),
    status: z
      .enum(TIMESHEET_STATUSES)
      .optional()
      .describe('Only this status: open (clocked in), submitted (awaiting approval), approved (invoiced), locked (its pay period closed).'),
    period: dateSchema
      .optional()
      .describe("Any date of the pay period wanted, YYYY-MM-DD (its Monday–Sunday week in the business's zone)."),
    limit: pageLimit(50, 50),
    cursor: cursorField,
  }),
  output: timesheetListSchema,
  annotations: READ,
});

// ── write ───────────────────────────────────────────────────────────────────────────────────────

const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

export const postShiftSpec = spec({
  name: 'post_shift',
  title: 'Post a shift',
  description:
    "Posts one shift for a business the user owns: targeted to one connected shifter (shifter_id), or broadcast to the business's crew (is_broadcast true, first claim wins). Dates and times are the business's wall clock; shift_out earlier than shift_in ends the next day. A shift whose pay (hours × rate) is over the cap on payments an agent may ask for is refused (PAYMENT-CAP-ERR). Returns the created shift request with its warnings (shift_request.warnings, empty when none): shifter_busy when the shifter already works then (they cannot accept it while booked; tell the user), empty_crew when a broadcast reaches nobody (the business has no crew yet). The shift is posted either way.",
  scope: 'write',
  input: z.object({
    business_id: id("The business (biz_…); default the user's default business.").optional(),
    shift_date: dateSchema.describe("The day the shift starts, YYYY-MM-DD (the business's wall clock)."),
    shift_in: timeSchema.describe('Start time, HH:MM (24-hour).'),
    shift_out: timeSchema.describe('End time, HH:MM (24-hour); earlier than shift_in means the next day.'),
    shiftrole_id: shiftRoleId('The role the shift is for.'),
    hourly_rate: rateSchema.describe('Pay per hour, in the currency (at most as many decimals as it has).'),
    currency: currencySchema.optional().describe("ISO 4217 code; default the business's currency."),
    shifter_id: id('The targeted shifter (shf_…); leave out for a broadcast.').optional(),
    is_broadcast: z
      .boolean()
      .default(false)
      .describe('true: offer it to every connected shifter, first claim wins (leave shifter_id out).'),
    is_flexible: z.boolean().default(false).describe('true: the shift is marked as having flexible times (shown with the request).'),
    note: z.string().max(1000).optional().describe('A note the shifter sees with the request.'),
  }),
  output: z.object({ shift_request: postedShiftSchema }),
  annotations: WRITE,
});

export const claimShiftSpec = spec({
  name: 'claim_shift',
  title: 'Claim an open shift',
  description:
    'Claims an open broadcast for the user as its shifter. The first claim wins; a later one gets CLAIM-LOST-ERR. Claiming a shift you already won returns it again. Returns the claimed (accepted) shift.',
  scope: 'write',
  input: z.object({ shift_request_id: shiftId }),
  output: shiftOutput,
  annotations: { ...WRITE, idempotentHint: true },
});

const position = {
  lat: z.number().min(-90).max(90).optional().describe("The shifter's latitude (with lon), checked against the business geofence."),
  lon: z.number().min(-180).max(180).optional().describe("The shifter's longitude (with lat)."),
};

export const clockInSpec = spec({
  name: 'clock_in',
  title: 'Clock in',
  description:
    "Clocks the user in, as the shift's shifter, from 60 minutes before the start until the scheduled end. Repeating it returns the same result. A business that requires a clock photo refuses it here (SHFT-PHOTO-REQ-ERR: use the app).",
  scope: 'write',
  input: z.object({
    shift_request_id: shiftId,
    ...position,
    im_here: z.boolean().optional().describe('"I\'m here" override for a hard geofence.'),
  }),
  output: shiftOutput,
  annotations: { ...WRITE, idempotentHint: true },
});

const instant = (what: string) => z.iso.datetime({ offset: true }).describe(what);

const breaksField = (what: string) =>
  z
    .array(
      z.object({
        start: instant('When the break began, ISO 8601 with its offset.'),
        end: instant('When it ended, after start.'),
        paid: z.boolean().default(false).describe('true: a paid break, counted as worked time (default false: unpaid).'),
      }),
    )
    .max(MAX_BREAKS)
    .describe(what);

export const clockOutSpec = spec({
  name: 'clock_out',
  title: 'Clock out',
  description: `Clocks the user out, as the shift's shifter, whenever they stop working (a minute after the clock-in at the earliest; leaving before the scheduled end is recorded as left_early). The clock-out submits the shift's timesheet with the breaks taken (at most ${MAX_BREAKS}, inside the clocked time, not overlapping; unpaid ones come off the paid minutes) and the user's attestation of them; the business then approves it and the invoice is written for the approved time (list_timesheets shows it). Repeating it returns the same result.`,
  scope: 'write',
  input: z.object({
    shift_request_id: shiftId,
    ...position,
    breaks: breaksField('The breaks taken during the shift; leave out when none.').optional(),
    break_attestation: z
      .enum(BREAK_ATTESTATIONS)
      .optional()
      .describe('The user attests their breaks: taken (in full), short (cut short) or waived.'),
    note: z.string().max(500).optional().describe('A note for the business with the timesheet.'),
  }),
  output: shiftOutput,
  annotations: { ...WRITE, idempotentHint: true },
});

export const cancelShiftSpec = spec({
  name: 'cancel_shift',
  title: 'Cancel a shift',
  description:
    'Cancels a pending or accepted shift that has not started, as either party (the business owner or the shifter). Completed (5), expired (6), declined, superseded, cancelled, started and worked shifts are refused with their own codes. A shifter cancelling may trigger an automatic re-broadcast (auto_fill_shift_request_id).',
  scope: 'write',
  input: z.object({
    shift_request_id: shiftId,
    as: roleSide.optional().describe('Needed only when the user is both parties of the shift.'),
    reason: z.string().max(500).optional().describe('Why, shown to the other party.'),
  }),
  output: cancelledShiftSchema,
  annotations: { ...WRITE, destructiveHint: true },
});

export const PROFILE_FIELDS = ['display_name', 'phone'] as const;

export const updateMyProfileSpec = spec({
  name: 'update_my_profile',
  title: 'Update my profile',
  description: `Changes the user's own profile. Only these fields are accepted: ${PROFILE_FIELDS.join(', ')} (phone null or "" removes it). Any other field sent is not changed and comes back in ignored_fields. Returns the account as me shows it.`,
  scope: 'write',
  input: z.looseObject({
    display_name: z.string().min(1).max(100).optional().describe('The name others see.'),
    phone: z.string().max(32).nullable().optional().describe('Phone number, international form (+…); null or "" removes it.'),
  }),
  output: z.object({
    user: userDetailsSchema,
    updated_fields: z.array(z.enum(PROFILE_FIELDS)).max(2),
    ignored_fields: z.array(z.string()).max(50),
  }),
  annotations: { ...WRITE, idempotentHint: true },
});

export const counterOfferSchema = z.object({
  id: z.string(),
  shift_request_id: z.string(),
  shifter_id: z.string(),
  business_id: z.string(),
  hourly_rate: z.number(),
  original_hourly_rate: z.number(),
  currency: z.string(),
  note: z.string().nullable(),
  status: z.enum(['pending']),
  created_at: z.string(),
});

export const createCounterOfferSpec = spec({
  name: 'create_counter_offer',
  title: 'Make a counter-offer',
  description:
    'Proposes another hourly rate for a pending shift request targeted to the user as shifter (before accepting it). The business is notified and may answer with a changed request at that rate. Broadcasts are not negotiable (NOT-NEGOTIABLE); other states are refused. A new offer replaces the last one on the same shift.',
  scope: 'write',
  input: z.object({
    shift_request_id: shiftId,
    hourly_rate: rateSchema.describe('The hourly rate you propose instead, in the shift currency.'),
    note: z.string().max(500).optional().describe('A note the business sees with the offer.'),
  }),
  output: z.object({ counter_offer: counterOfferSchema }),
  annotations: { ...WRITE, idempotentHint: true },
});

/** A tool acting on one timesheet: the timesheet as the REST API answers it. */
const timesheetOutput = z.object({ timesheet: timesheetSchema });

export const editTimesheetSpec = spec({
  name: 'edit_timesheet',
  title: 'Edit a timesheet',
  description:
    "Corrects a submitted timesheet of a business the user owns, with a reason code (other needs a note): its start (in_at), end (out_at) and/or breaks (replacing the attested ones). The worker is told and may dispute the edit for the business's dispute window; it can be approved once that window has closed. Moving either end by more than 2 hours needs the worker's consent (TIMESHEET-CONSENT-ERR: the worker disputes with those times instead); an approved or locked timesheet is never rewritten (TIMESHEET-LOCKED-ERR); with a dispute open, answer it first (TIMESHEET-STATE-ERR). Returns the timesheet as it stands.",
  scope: 'write',
  input: z.object({
    timesheet_id: timesheetId,
    in_at: instant('The corrected start, ISO 8601 with its offset.').optional(),
    out_at: instant('The corrected end, ISO 8601 with its offset; not in the future.').optional(),
    breaks: breaksField(`The corrected breaks (at most ${MAX_BREAKS}), replacing the attested ones.`).optional(),
    reason: z.enum(EDIT_REASONS).describe('Why the time changes; other needs a note.'),
    note: z.string().max(500).optional().describe('What changed, for the worker; required with reason other.'),
  }),
  output: timesheetOutput,
  annotations: WRITE,
});

export const disputeTimesheetSpec = spec({
  name: 'dispute_timesheet',
  title: 'Dispute my timesheet',
  description:
    "The user, as the shift's worker, disputes a submitted timesheet within its dispute window (dispute_until), giving the times they say are right and why. The business answers within its answer window (accepting puts these times on it and approves it); unanswered by then, the dispute resolves for the worker and their times are approved. After the window: TIMESHEET-WINDOW-ERR; a dispute already open: TIMESHEET-STATE-ERR; approved: TIMESHEET-LOCKED-ERR. Returns the timesheet with its dispute.",
  scope: 'write',
  input: z.object({
    timesheet_id: timesheetId,
    in_at: instant('The start the user says is right, ISO 8601 with its offset.'),
    out_at: instant('The end the user says is right, after in_at and not in the future.'),
    unpaid_break_minutes: z
      .number()
      .int()
      .min(0)
      .max(720)
      .optional()
      .describe("The unpaid break minutes the user says are right; default the timesheet's."),
    reason: z.string().min(1).max(1000).describe('Why, in the user’s words; the business reads it.'),
  }),
  output: timesheetOutput,
  annotations: WRITE,
});

// ── payment ─────────────────────────────────────────────────────────────────────────────────────

export const confirmPaymentForShiftSpec = spec({
  name: 'confirm_payment_for_shift',
  title: 'Pre-pay a shift (asks the user to confirm)',
  description:
    'Starts the pre-payment of a claimed or accepted shift of a business the user owns. Nothing is charged by this call: it returns a one-time confirm_url (valid 5 minutes, single use) that the user must open, signed in, and confirm; the link is also sent to them by email and, when their account has a phone, by SMS. Give the link to the user and do not open it yourself. Amounts over the operator caps are refused (PAYMENT-CAP-ERR); a shift paid already is refused (INVOICE-PAID-ERR).',
  scope: 'payment',
  input: z.object({ shift_request_id: shiftId }),
  output: z.object({
    confirm_url: z.string(),
    expires_at: z.string(),
    amount: z.number(),
    currency: z.string(),
    shift_request_id: z.string(),
    offered_to_client: z.boolean().describe('True when the client opened the link for the user (URL-mode elicitation).'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
});

export const approveTimesheetSpec = spec({
  name: 'approve_timesheet',
  title: 'Approve a timesheet (writes its invoice)',
  description:
    "Approves a submitted timesheet of a business the user owns: its worked minutes are fixed and the shift's invoice is written for worked_minutes × rate. The first call answers MCP-CONFIRM-REQ-ERR with a preview in details (the timesheet, worked_minutes and the invoice_amount it would create); show it to the user and call again with confirm: true once they agree. Refused: an amount over the cap on payments an agent may ask for (PAYMENT-CAP-ERR: the user approves it in the app), a dispute open or a shift still clocked in (TIMESHEET-STATE-ERR), an edit the worker may still dispute (TIMESHEET-WINDOW-ERR with opens_at), the worker approving (FORBIDDEN-ERR). Approving an approved timesheet answers it as it stands.",
  scope: 'payment',
  confirmation: 'always',
  input: z.object({ timesheet_id: timesheetId }),
  output: z.object({
    timesheet: timesheetSchema,
    invoice_amount: z.number().describe("The invoice's amount: the approved worked_minutes × rate, rounded once."),
    currency: z.string(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
});

/** Every tool spec, in the spec's order (10 read, 9 write, 2 payment). */
export const TOOL_SPECS = [
  meSpec,
  listMyShiftsSpec,
  shiftDetailsSpec,
  searchShiftsSpec,
  businessProfileSpec,
  shifterProfileSpec,
  listConnectionsSpec,
  myEarningsSpec,
  mySpendSpec,
  listTimesheetsSpec,
  postShiftSpec,
  claimShiftSpec,
  clockInSpec,
  clockOutSpec,
  cancelShiftSpec,
  updateMyProfileSpec,
  createCounterOfferSpec,
  editTimesheetSpec,
  disputeTimesheetSpec,
  confirmPaymentForShiftSpec,
  approveTimesheetSpec,
] as const;
