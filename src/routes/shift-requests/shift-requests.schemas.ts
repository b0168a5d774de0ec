import { z } from '@hono/zod-openapi';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { flag01 } from '../../http/openapi';
import { paginationInput } from '../../lib/pagination';
import { shiftRequests } from '../../db/schema';
import { dateSchema, flagSchema, timeSchema } from '../../services/shifts/schemas';
import { SHIFT_STATUS } from '../../services/shifts/status';

type ShiftStatusName = keyof typeof SHIFT_STATUS;
const STATUS_NAMES = Object.keys(SHIFT_STATUS) as [ShiftStatusName, ...ShiftStatusName[]];
const STATUS_LEGEND = Object.entries(SHIFT_STATUS)
  .map(([name, value]) => `${value} ${name}`)
  .join(', ');

/**
 * request_status and its name as closed sets, from the one table in services/shifts/status.ts. The
 * enum is stated in the document; the TypeScript type stays number/string until the shift view is
 * typed from this schema (its row column is a plain integer).
 */
export const requestStatusSchema = z
  .number()
  .int()
  .openapi({ enum: Object.values(SHIFT_STATUS), description: `${STATUS_LEGEND}.` });
const statusNameSchema = z.string().openapi({ enum: STATUS_NAMES, description: 'The name of request_status.' });

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
    shift_start_by_id: z
      .string()
      .nullable()
      .openapi({
        description:
          "The user id the clock-in is attributed to: the shifter's own user id when the shifter or a kiosk acting for them punched; the manager's user id when the business punched on the shifter's behalf. The audit log records the real caller.",
      }),
    clock_in_distance_m: z.number().nullable(),
    clock_in_photo_url: z.string().nullable(),
    clock_in_override: z.boolean(),
    shift_end_at: z.string().nullable(),
    shift_end_by_id: z.string().nullable().openapi({ description: 'The user id the clock-out is attributed to, by the same rule as shift_start_by_id.' }),
    clock_out_distance_m: z.number().nullable(),
    clock_out_photo_url: z.string().nullable(),
    is_noshow: flag01.openapi({ description: '1: the business marked the shifter absent.' }),
    cancelled_at: z.string().nullable(),
    cancelled_by: z.enum(shiftRequests.cancelled_by.enumValues).nullable().openapi({ description: 'Which side cancelled (system: a job).' }),
    created_at: z.string(),
    updated_at: z.string(),
    relevance_score: z.number().int().min(0).max(100).optional().openapi({ description: 'Present only when relevance sorting is on.' }),
    suggested_counter_rate: z
      .number()
      .nullable()
      .optional()
      .openapi({
        description:
          "Only for the targeted shifter of a pending, targeted request: the counter-offer their counter rules suggest (in currency), or null when no rule asks for more than hourly_rate.",
      }),
    counter_rule_id: z.string().nullable().optional().openapi({ description: 'The counter rule behind suggested_counter_rate; present with it.' }),
  })
  .openapi('ShiftRequest');

export const shiftListSchema = z.object({ data: z.array(shiftRequestSchema), next_cursor: z.string().nullable() });

const statusValue = z.number().int().min(1).max(7);

export const listRequestsBody = z
  .object({
    as: z.enum(['business', 'shifter']).optional().openapi({ description: 'Only one side of a dual-profile account.' }),
    business_id: z.string().max(ID_MAX_LENGTH).optional(),
    shifter_id: z.string().max(ID_MAX_LENGTH).optional(),
    counterparty_id: z.string().max(ID_MAX_LENGTH).optional().openapi({ description: 'The other party: a business id or a shifter id.' }),
    status: z
      .union([statusValue, z.array(statusValue).min(1).max(STATUS_NAMES.length)])
      .optional()
      .openapi({ description: 'One status or a list of them (at most one of each).' }),
    shiftrole_id: z.number().int().positive().optional(),
    date_from: dateSchema.optional(),
    date_to: dateSchema.optional(),
    is_broadcast: flagSchema.optional(),
    ...paginationInput,
  })
  .openapi('ListShiftRequests');

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

export const conflictsQuery = z.object({
  shifter_id: z.string().min(1).max(ID_MAX_LENGTH),
  date: dateSchema,
  shift_in: timeSchema,
  shift_out: timeSchema,
  exclude_shift_request_id: z.string().max(ID_MAX_LENGTH).optional(),
  business_id: z.string().max(ID_MAX_LENGTH).optional().openapi({ description: "Read the window in this business's zone (default: the shifter's zone)." }),
});

export const changeRequestBody = z
  .object({
    shift_request_id: z.string().min(1).max(ID_MAX_LENGTH),
    shift_date: dateSchema.optional(),
    shift_in: timeSchema.optional(),
    shift_out: timeSchema.optional(),
    shiftrole_id: z.number().int().positive().optional(),
    hourly_rate: z.number().positive().max(10_000).optional(),
    is_flexible: flagSchema.optional(),
    note: z.string().trim().max(1000).nullish(),
  })
  .openapi('ChangeRequest');

export const cancelBody = z.object({
  as: z.enum(['business', 'shifter']).optional().openapi({ description: 'Needed only when the caller is both parties.' }),
  reason: z.string().trim().max(500).nullish(),
});

export const clockBody = z
  .object({
    lat: z.number().min(-90).max(90).optional(),
    lon: z.number().min(-180).max(180).optional(),
    photo_url: z
      .string()
      .max(500)
      .optional()
      .openapi({ description: 'The url clock_photo returned for this shift and side; the stored photo is checked (400 VALIDATION-ERR if it is not one).' }),
    im_here: z
      .boolean()
      .optional()
      .openapi({
        description:
          '"I\'m here" override for an out-of-geofence clock-in in hard mode. Counts only from the shifter or a kiosk acting for them; the business acting as itself may not send it (400).',
      }),
    actor_id: z
      .string()
      .max(ID_MAX_LENGTH)
      .optional()
      .openapi({
        description:
          "Kiosk mode: the business's device passes the shift's shifter id; the punch is then the shifter's (shift_start_by_id/shift_end_by_id hold the shifter's user id). Without it, a business caller punches as itself (its own user id is recorded).",
      }),
  })
  .refine((b) => (b.lat === undefined) === (b.lon === undefined), { message: 'send lat and lon together', path: ['lat'] })
  .openapi('ClockRequest');

