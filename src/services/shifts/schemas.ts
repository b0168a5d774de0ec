import { z } from '@hono/zod-openapi';
import { shiftRequests } from '../../db/schema';
import { flag01 } from '../../lib/flags';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { paginationInput } from '../../lib/pagination';
import { isValidDate, TIME_RE } from '../../lib/shift-time';
import { fileField } from '../../lib/uploads';
import { SHIFT_STATUS, SHIFT_STATUS_NAMES } from '../kernel';
import { clockOutTimesheetFields } from '../timesheets';
import { SHIFT_INPUT_BOUNDS } from './input-bounds';
import { SHIFT_STATE_KEYS, SHIFT_TONES } from './state-words';

// The shift-request domain's request and response schemas, in one place: the route contracts import
// them, the services take z.infer of the request schemas and build z.infer of the response schemas.

// ---- Shared field schemas (also used by templates, insights and shifter records) ----

export const dateSchema = z
  .string()
  .max(10)
  .refine(isValidDate, { message: 'must be a calendar date YYYY-MM-DD' })
  .openapi({ example: '2026-12-01' });
export const timeSchema = z.string().max(5).regex(TIME_RE, 'must be HH:MM (24-hour)').openapi({ example: '09:00' });
/** 1/0 as the spec writes flags, or a JSON boolean. */
export const flagSchema = z
  .union([z.boolean(), z.literal(0), z.literal(1)])
  .transform((v) => v === true || v === 1)
  .openapi({ type: 'integer', enum: [0, 1], description: '1 or 0 (true/false also accepted)' });
export const rateSchema = z
  .number()
  .positive()
  .max(SHIFT_INPUT_BOUNDS.maxHourlyRate)
  .openapi({ example: 18.5, description: 'Per hour, in `currency`.' });
export const currencySchema = z.string().length(3).toUpperCase().openapi({ example: 'USD' });
/** A note for the shifter, trimmed. */
export const noteSchema = z.string().trim().max(SHIFT_INPUT_BOUNDS.maxNoteLength);

// ---- Requests ----

export const sendRequestInput = z
  .object({
    business_id: z.string().min(1).max(ID_MAX_LENGTH).optional().openapi({ description: "Defaults to the caller's default business." }),
    shift_date: dateSchema,
    shift_in: timeSchema,
    shift_out: timeSchema.openapi({ description: 'Earlier than shift_in: the shift ends the next day.' }),
    shiftrole_id: z.number().int().positive(),
    hourly_rate: rateSchema,
    currency: currencySchema.optional().openapi({ description: "Defaults to the business's currency." }),
    shifter_id: z
      .string()
      .max(ID_MAX_LENGTH)
      .nullish()
      .transform((v) => (v ? v : null))
      .openapi({ description: 'The targeted shifter; blank for a broadcast.' }),
    is_broadcast: flagSchema.default(false),
    is_flexible: flagSchema.default(false),
    note: noteSchema.nullish(),
  })
  .openapi('SendShiftRequest');
export type SendRequestInput = z.infer<typeof sendRequestInput>;

const statusValue = z.number().int().min(1).max(7);

export const listRequestsBody = z
  .object({
    as: z.enum(['business', 'shifter']).optional().openapi({ description: 'Only one side of a dual-profile account.' }),
    business_id: z.string().max(ID_MAX_LENGTH).optional(),
    shifter_id: z.string().max(ID_MAX_LENGTH).optional(),
    counterparty_id: z.string().max(ID_MAX_LENGTH).optional().openapi({ description: 'The other party: a business id or a shifter id.' }),
    status: z
      .union([statusValue, z.array(statusValue).min(1).max(SHIFT_STATUS_NAMES.length)])
      .optional()
      .openapi({ description: 'One status or a list of them (at most one of each).' }),
    shiftrole_id: z.number().int().positive().optional(),
    date_from: dateSchema.optional(),
    date_to: dateSchema.optional(),
    is_broadcast: flagSchema.optional(),
    ...paginationInput,
  })
  .openapi('ListShiftRequests');
export type ListRequestsInput = z.infer<typeof listRequestsBody>;

export const listBroadcastsBody = z
  .object({
    shifter_id: z.string().max(ID_MAX_LENGTH).optional().openapi({ description: "The caller's shifter id; needed for relevance sorting." }),
    sort_by_relevance: z.boolean().default(false),
    shift_date: dateSchema.optional(),
    date_from: dateSchema.optional(),
    date_to: dateSchema.optional(),
    shiftrole_id: z.number().int().positive().optional(),
    business_id: z.string().max(ID_MAX_LENGTH).optional(),
    min_rate: z.number().positive().optional(),
    ...paginationInput,
  })
  .openapi('ListBroadcasts');
export type ListBroadcastsInput = z.infer<typeof listBroadcastsBody>;

export const conflictsQuery = z.object({
  shifter_id: z.string().min(1).max(ID_MAX_LENGTH),
  date: dateSchema,
  shift_in: timeSchema,
  shift_out: timeSchema,
  exclude_shift_request_id: z.string().max(ID_MAX_LENGTH).optional(),
  business_id: z
    .string()
    .max(ID_MAX_LENGTH)
    .optional()
    .openapi({ description: "Read the window in this business's zone (default: the shifter's zone)." }),
});
export type ConflictsQuery = z.infer<typeof conflictsQuery>;

export const changeRequestBody = z
  .object({
    shift_request_id: z.string().min(1).max(ID_MAX_LENGTH),
    shift_date: dateSchema.optional(),
    shift_in: timeSchema.optional(),
    shift_out: timeSchema.optional(),
    shiftrole_id: z.number().int().positive().optional(),
    hourly_rate: rateSchema.optional(),
    is_flexible: flagSchema.optional(),
    note: noteSchema.nullish(),
  })
  .openapi('ChangeRequest');
export type ChangeRequestInput = z.infer<typeof changeRequestBody>;

export const declineBody = z.object({ reason: z.string().trim().max(500).nullish() });
export type DeclineInput = z.infer<typeof declineBody>;

export const cancelBody = z.object({
  as: z.enum(['business', 'shifter']).optional().openapi({ description: 'Needed only when the caller is both parties.' }),
  reason: z.string().trim().max(500).nullish(),
});
export type CancelInput = z.infer<typeof cancelBody>;

export const unassignBody = z.object({
  reason: z.string().trim().max(500).nullish().openapi({ description: 'Kept with the cancelled assignment (cancel_reason).' }),
});
export type UnassignInput = z.infer<typeof unassignBody>;

export const clockBody = z
  .object({
    lat: z.number().min(-90).max(90).optional(),
    lon: z.number().min(-180).max(180).optional(),
    photo_url: z.string().max(500).optional().openapi({
      description:
        'The url clock_photo returned for this shift and side; the stored photo is checked (400 VALIDATION-ERR if it is not one).',
    }),
    im_here: z.boolean().optional().openapi({
      description:
        '"I\'m here" override for an out-of-geofence clock-in in hard mode. Counts only from the shifter or a kiosk acting for them; the business acting as itself may not send it (400).',
    }),
    actor_id: z.string().max(ID_MAX_LENGTH).optional().openapi({
      description:
        "Kiosk mode: the business's device passes the shift's shifter id; the punch is then the shifter's (shift_start_by_id/shift_end_by_id hold the shifter's user id). Without it, a business caller punches as itself (its own user id is recorded).",
    }),
    device_time: z.iso.datetime({ offset: true }).optional().openapi({
      description:
        "An offline punch: when it was made on the device (ISO 8601), for a punch queued without network and sent later. It is recorded as shift_start_at/shift_end_at when it is at most 120 seconds ahead of the service's clock (a time ahead is recorded as the arrival), at most 12 hours old, and inside the clock window as if sent then (400 VALIDATION-ERR on device_time, 422 SHFT-CLOCK-WINDOW-ERR); the arrival time is kept in clock_in_received_at/clock_out_received_at and the punch is marked clock_in_offline/clock_out_offline. Send it with the Idempotency-Key made with the punch, so a resend never punches twice.",
    }),
    ...clockOutTimesheetFields,
  })
  .refine((b) => (b.lat === undefined) === (b.lon === undefined), { message: 'send lat and lon together', path: ['lat'] })
  .openapi('ClockRequest');
export type ClockInput = z.infer<typeof clockBody>;

export const clockSideSchema = z.enum(['in', 'out']);
export type ClockSide = z.infer<typeof clockSideSchema>;

export const clockPhotoQuery = z.object({ side: clockSideSchema });
export const clockPhotoForm = z.object({ file: fileField });

/** A path segment of a clock photo's URL, documented under its own name and bounded like an id. */
const pathSegment = (name: string) =>
  z
    .string()
    .min(1)
    .max(ID_MAX_LENGTH)
    .openapi({ param: { name, in: 'path' } });

export const clockPhotoParams = z.object({
  shift_request_id: pathSegment('shift_request_id'),
  side: clockSideSchema.openapi({ param: { name: 'side', in: 'path' } }),
  file: pathSegment('file'),
});
export type ClockPhotoParams = z.infer<typeof clockPhotoParams>;

// ---- Responses ----

const STATUS_LEGEND = SHIFT_STATUS_NAMES.map((name) => `${SHIFT_STATUS[name]} ${name}`).join(', ');

/** request_status and its name as closed sets, from the one table in kernel/shift/status.ts. */
export const requestStatusSchema = z.enum(SHIFT_STATUS).openapi({ description: `${STATUS_LEGEND}.` });
const statusNameSchema = z.enum(SHIFT_STATUS_NAMES).openapi({ description: 'The name of request_status.' });

/**
 * What made a broadcast's relevance score (services/shifts/relevance.ts): each signal's points and the
 * figures behind them, so a list can say why a shift ranks where it does.
 */
export const clockWindowSchema = z
  .object({
    state: z.enum(['due', 'in', 'done', 'no_show', 'missed', 'not_accepted']).openapi({
      description:
        'due: not clocked in yet; in: clocked in; done: clocked out; no_show: marked absent; missed: its clock-in closed unused; not_accepted: not a shift that is clocked.',
    }),
    can: clockSideSchema
      .nullable()
      .openapi({ description: 'The side the caller may punch now (clock_in or clock_out accepts it), or null.' }),
    opens_at: z.string().nullable().openapi({ description: 'When the next punch opens for the caller, while it has not yet.' }),
    closes_at: z.string().nullable().openapi({ description: 'When the clock-in closes (the scheduled end).' }),
    reason: z
      .string()
      .nullable()
      .openapi({ description: 'Why nothing can be punched now, in words to show a person; null when a punch is open.' }),
  })
  .openapi('ClockWindow', {
    description:
      "Whether the caller may clock this shift in or out now, as the clock service decides it: the shifter (or a kiosk for them) from 60 minutes before the start until the end for clock-in and from 15 minutes before the scheduled end for clock-out; the business side may end the shift any time a minute after the clock-in. Present for the shift's shifter and its business side on accepted shifts not yet clocked out.",
  });

export const relevanceSignalsSchema = z
  .object({
    role_points: z.number().openapi({
      description:
        'Role fit, 0–25: worked shifts in this role in the last year (0 → 0, 1 → 12, ≥5 → 25); a role on the shifter profile counts as at least 1.',
    }),
    pay_points: z.number().openapi({
      description: 'Pay, 0–25: the rate against reference_rate (≤0.7× → 0, 1× → 12.5, ≥1.3× → 25); 0 when the rate is under rate_floor.',
    }),
    reference_rate: z.number().nullable().openapi({
      description:
        "The rate the pay is measured against (in currency): the shifter's usual rate when they have worked at least 3 shifts in this currency in the last 90 days (their 90-day mean for the role, else their overall mean); otherwise the going rate of the business's city for the role (GET /v1/going_rate's median, when its sample suffices); null: neither (pay scores 12.5).",
    }),
    rate_floor: z.number().nullable().openapi({
      description:
        "The shift's pay floor (in currency): the highest of the shifter's active counter rules matching this shift (with any distance premium) and the profile's min_hourly_rate when it is in this currency; null: neither applies.",
    }),
    distance_points: z.number().openapi({
      description:
        "Distance, 0–20: ≤2 km → 20, falling to 0 at 50 km; 10 when a position is unknown; with the profile's travel_km, 0 beyond it and at least 10 within it.",
    }),
    distance_km: z
      .number()
      .nullable()
      .openapi({ description: "Kilometres from the shifter's position to the business; null when either is unknown." }),
    familiarity_points: z.number().openapi({
      description: 'Familiarity, 0–20: worked shifts with this business (8 + 3 each), less 5 per no-show or own cancellation.',
    }),
    overlaps_accepted_shift: z
      .boolean()
      .openapi({ description: 'The shift overlaps one the shifter has accepted: the score is capped at 10.' }),
  })
  .openapi('RelevanceSignals');
export type RelevanceSignals = z.infer<typeof relevanceSignalsSchema>;

/** A shift's state in people's words (state-words.ts `shiftStateWords`), as the web pages show it. */
export const shiftStateWordsSchema = z
  .object({
    state: z.enum(SHIFT_STATE_KEYS),
    label: z.string().openapi({ example: 'Waiting for answer' }),
    tone: z.enum(SHIFT_TONES).openapi({ description: 'The colour family the web schedule draws the state in.' }),
    attention: z.boolean().openapi({ description: 'A state the business should look at (no-show, expired unfilled).' }),
  })
  .openapi('ShiftStateWords', {
    description:
      "The shift's state in words for a person, from its status, its clock and the no-show mark: Waiting for answer, Open broadcast, Accepted, Clocked in, Worked, Worked and paid, No-show, Expired unfilled, Cancelled…",
  });

export const shiftRequestSchema = z
  .object({
    id: z.string(),
    business_id: z.string(),
    business_name: z.string().nullable(),
    business_slug: z.string().nullable(),
    timezone: z.string().nullable().openapi({ description: "The business's zone: shift_date/shift_in/shift_out are wall-clock there." }),
    shifter_id: z.string().nullable(),
    shifter_name: z.string().nullable(),
    shift_date: z.string(),
    shift_in: z.string(),
    shift_out: z.string(),
    starts_at: z.string(),
    ends_at: z.string(),
    duration_minutes: z.number(),
    shiftrole_id: z.number(),
    role: z.string().nullable(),
    hourly_rate: z.number(),
    currency: z.string(),
    is_broadcast: flag01.openapi({ description: '1: a broadcast to the crew (first claim wins); 0: targeted to shifter_id.' }),
    is_flexible: flag01,
    request_status: requestStatusSchema,
    status: statusNameSchema,
    parent_id: z.string().nullable(),
    template_id: z.string().nullable(),
    note: z.string().nullable(),
    accepted_at: z.string().nullable(),
    shift_start_at: z.string().nullable(),
    shift_start_by_id: z.string().nullable().openapi({
      description:
        "The user id the clock-in is attributed to: the shifter's own user id when the shifter or a kiosk acting for them punched; the manager's user id when the business punched on the shifter's behalf. The audit log records the real caller.",
    }),
    clock_in_distance_m: z.number().nullable(),
    clock_in_photo_url: z.string().nullable(),
    clock_in_override: z.boolean(),
    clock_in_offline: z.boolean().openapi({
      description:
        'The clock-in was made without network and sent later: shift_start_at is the time on the device (device_time), within the documented bounds.',
    }),
    clock_in_received_at: z
      .string()
      .nullable()
      .openapi({ description: 'When an offline clock-in reached the service; null for a punch made online.' }),
    shift_end_at: z.string().nullable(),
    shift_end_by_id: z
      .string()
      .nullable()
      .openapi({ description: 'The user id the clock-out is attributed to, by the same rule as shift_start_by_id.' }),
    clock_out_distance_m: z.number().nullable(),
    clock_out_photo_url: z.string().nullable(),
    clock_out_offline: z.boolean().openapi({
      description: 'The clock-out was made without network and sent later: shift_end_at is the time on the device (device_time).',
    }),
    clock_out_received_at: z
      .string()
      .nullable()
      .openapi({ description: 'When an offline clock-out reached the service; null for a punch made online.' }),
    is_noshow: flag01.openapi({ description: '1: the business marked the shifter absent.' }),
    scheduled_pay: z.number().openapi({
      description:
        "The shift's pay for its scheduled times, in currency: hours × hourly_rate rounded once at the minor unit (what labor costs count for it once worked).",
    }),
    state_words: shiftStateWordsSchema,
    cancelled_at: z.string().nullable(),
    cancelled_by: z
      .enum(shiftRequests.cancelled_by.enumValues)
      .nullable()
      .openapi({ description: 'Which side cancelled (system: a job).' }),
    created_at: z.string(),
    updated_at: z.string(),
    relevance_score: z.number().int().min(0).max(100).optional().openapi({
      description:
        'Present only when relevance sorting is on: the points of relevance_signals, 10 without an overlap (an overlap caps the score at 10) and, for a shifter with fewer than 3 worked shifts, up to 15 for a start within the week (full within 24 hours).',
    }),
    relevance_signals: relevanceSignalsSchema.optional(),
    clock_window: clockWindowSchema.optional(),
    suggested_counter_rate: z.number().nullable().optional().openapi({
      description:
        'Only for the targeted shifter of a pending, targeted request: the counter-offer their counter rules suggest (in currency), or null when no rule asks for more than hourly_rate.',
    }),
    counter_rule_id: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'The counter rule behind suggested_counter_rate; present with it.' }),
  })
  .openapi('ShiftRequest');
/** The API shape of a shift request (REST, MCP tools and widgets all render through this). */
export type ShiftRequestView = z.infer<typeof shiftRequestSchema>;

export const shiftListSchema = z.object({ data: z.array(shiftRequestSchema), next_cursor: z.string().nullable() });
export type ShiftList = z.infer<typeof shiftListSchema>;

/** A window the shifter is busy in, with nothing else of the shift (another business's). */
const busyWindowSchema = z.object({ starts_at: z.string(), ends_at: z.string() });

export const conflictsSchema = z.object({
  window: z.object({ starts_at: z.string(), ends_at: z.string(), timezone: z.string() }),
  data: z.array(shiftRequestSchema).openapi({ description: 'Overlapping shifts the caller may see in full.' }),
  busy: z.array(busyWindowSchema).openapi({
    description:
      'Overlapping shifts at businesses the caller does not act for: only when the shifter is busy. Always empty for the shifter and admins.',
  }),
});
export type ShiftConflicts = z.infer<typeof conflictsSchema>;

/** What the poster of a new shift should know (warnings.ts `postingWarnings`); the shift is made either way. */
export const POSTING_WARNING_CODES = ['shifter_busy', 'empty_crew'] as const;
export type PostingWarningCode = (typeof POSTING_WARNING_CODES)[number];

export const postingWarningSchema = z
  .object({
    code: z.enum(POSTING_WARNING_CODES).openapi({
      description:
        'shifter_busy: the targeted shifter already has an accepted shift overlapping this one, so they cannot accept it while that one stands (it waits, and expires at its start); empty_crew: a broadcast of a business with no crew (no shifter with an accepted connection), so nobody is told of it and nobody can claim it.',
    }),
    message: z.string().openapi({ description: 'The warning in words for a person.' }),
    conflicts: z.array(shiftRequestSchema).optional().openapi({
      description:
        'With shifter_busy: the overlapping accepted shifts the caller may see in full, exactly as GET /v1/shift_request/conflicts answers them in `data` for the same shifter, date, times and business.',
    }),
    busy: z.array(busyWindowSchema).optional().openapi({
      description:
        "With shifter_busy: the overlapping shifts at businesses the caller does not act for, only as windows, as the conflicts operation's `busy`.",
    }),
  })
  .openapi('PostingWarning');
export type PostingWarning = z.infer<typeof postingWarningSchema>;

/** A shift just made (send_request, change_request's child, the post_shift tool, a partner's post, a template's run): the shift and its warnings. */
export const postedShiftSchema = shiftRequestSchema
  .extend({
    warnings: z.array(postingWarningSchema).optional().openapi({
      description:
        'What the poster should know about the shift just made; empty when nothing. The shift is posted either way (docs/decisions/shift-requests.md "Warnings when posting"). Sent by send_request, change_request (on the child), the partner API\'s post and template generation (on each created shift); absent elsewhere.',
    }),
  })
  .openapi('PostedShiftRequest');
export type PostedShift = z.infer<typeof postedShiftSchema>;

export const changedShiftSchema = z.object({ superseded: shiftRequestSchema, shift_request: postedShiftSchema });
export type ChangedShift = z.infer<typeof changedShiftSchema>;

export const cancelledShiftSchema = z.object({ shift_request: shiftRequestSchema, auto_fill_shift_request_id: z.string().nullable() });
export type CancelledShift = z.infer<typeof cancelledShiftSchema>;

/** Unassign's answer: the assignment, cancelled (7, cancelled_by business), and the same shift open to the crew (1, parent_id = it). */
export const unassignedShiftSchema = z.object({ shift_request: shiftRequestSchema, broadcast: shiftRequestSchema });
export type UnassignedShift = z.infer<typeof unassignedShiftSchema>;

export const clockPhotoSchema = z.object({ url: z.string(), content_type: z.string(), size: z.number() });
export type ClockPhotoUpload = z.infer<typeof clockPhotoSchema>;
