import { z } from '@hono/zod-openapi';
import { flag01 } from '../../lib/flags';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { isValidDate } from '../../lib/shift-time';
import { currencySchema, flagSchema, noteSchema, postedShiftSchema, rateSchema, timeSchema } from '../shifts';

// The templates domain's request and response schemas: the route contracts import them, the services
// take and build z.infer of them.

/** Canonical form of a weekday set: ISO weekdays (1 = Monday … 7 = Sunday), unique, ascending, comma-separated. */
export function canonicalDays(days: readonly number[]): string {
  return [...new Set(days)].sort((a, b) => a - b).join(',');
}

export function parseDays(daysOfWeek: string): number[] {
  return daysOfWeek
    .split(',')
    .map((d) => Number(d.trim()))
    .filter((d) => Number.isInteger(d) && d >= 1 && d <= 7);
}

export const daysOfWeekSchema = z
  .union([
    z
      .string()
      .max(40)
      .regex(/^\s*[1-7]\s*(,\s*[1-7]\s*)*$/, 'must be ISO weekdays 1–7 separated by commas, e.g. "1,3,5"'),
    z.array(z.number().int().min(1).max(7)).min(1).max(7),
  ])
  .transform((v) => canonicalDays(typeof v === 'string' ? parseDays(v) : v))
  .openapi({
    description: 'ISO weekdays, 1 = Monday … 7 = Sunday: "1,3,5" or [1, 3, 5]. Stored as a sorted comma list.',
    example: '1,3,5',
  });

const fields = {
  label: z.string().trim().min(1).max(120),
  days_of_week: daysOfWeekSchema,
  shift_in: timeSchema,
  shift_out: timeSchema.openapi({ description: 'Earlier than shift_in: the shift ends the next day. Equal to shift_in is refused.' }),
  shiftrole_id: z.number().int().positive(),
  hourly_rate: rateSchema.openapi({
    description: "Per hour, in currency_id; no more decimals than the currency's minor unit (2 for USD, 0 for JPY).",
  }),
  currency_id: currencySchema,
  is_flexible: flagSchema,
  is_broadcast: flagSchema,
  default_shifter_id: z
    .string()
    .min(1)
    .max(ID_MAX_LENGTH)
    .nullable()
    .openapi({ description: 'The shifter a targeted template (is_broadcast=0) posts to; must be connected.' }),
  note: noteSchema.nullable(),
  is_active: flagSchema,
  frequency: z.string().trim().max(40).nullable().openapi({ description: 'Reserved; stored, no behaviour yet (recurrence is weekly).' }),
};

export const createTemplateInput = z
  .object({
    business_id: z.string().min(1).max(ID_MAX_LENGTH),
    label: fields.label,
    days_of_week: fields.days_of_week,
    shift_in: fields.shift_in,
    shift_out: fields.shift_out,
    shiftrole_id: fields.shiftrole_id,
    hourly_rate: fields.hourly_rate,
    currency_id: fields.currency_id.optional().openapi({ description: "Defaults to the business's currency." }),
    is_flexible: fields.is_flexible.default(false),
    is_broadcast: fields.is_broadcast.optional().openapi({ description: 'Default: 0 when default_shifter_id is given, else 1.' }),
    default_shifter_id: fields.default_shifter_id.optional(),
    note: fields.note.optional(),
    is_active: fields.is_active.default(true),
    frequency: fields.frequency.optional(),
  })
  .openapi('CreateShiftTemplate');
export type CreateTemplateInput = z.infer<typeof createTemplateInput>;

/** PUT: only the fields sent change. */
export const updateTemplateInput = z
  .object({
    label: fields.label.optional(),
    days_of_week: fields.days_of_week.optional(),
    shift_in: fields.shift_in.optional(),
    shift_out: fields.shift_out.optional(),
    shiftrole_id: fields.shiftrole_id.optional(),
    hourly_rate: fields.hourly_rate.optional(),
    currency_id: fields.currency_id.optional(),
    is_flexible: fields.is_flexible.optional(),
    is_broadcast: fields.is_broadcast.optional(),
    default_shifter_id: fields.default_shifter_id.optional(),
    note: fields.note.optional(),
    is_active: fields.is_active.optional(),
    frequency: fields.frequency.optional(),
  })
  .openapi('UpdateShiftTemplate');
export type UpdateTemplateInput = z.infer<typeof updateTemplateInput>;

export const GENERATE_WEEKS = { min: 1, max: 12, default: 4 } as const;

/** How far ahead the first week of a generate may start: a year of weeks. */
export const GENERATE_WEEK_OF_MAX_WEEKS_AHEAD = 52;

export const generateQuery = z.object({
  weeks: z
    .string()
    .max(4)
    .regex(/^-?\d+$/, 'must be an integer')
    .transform(Number)
    .optional()
    .openapi({
      param: { name: 'weeks', in: 'query' },
      type: 'integer',
      example: GENERATE_WEEKS.default,
      description: `Calendar weeks, Monday to Sunday in the business's time zone. Default ${GENERATE_WEEKS.default}; clamped to ${GENERATE_WEEKS.min}–${GENERATE_WEEKS.max}.`,
    }),
  week_of: z
    .string()
    .max(10)
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD')
    .refine(isValidDate, 'must be a date that exists')
    .optional()
    .openapi({
      param: { name: 'week_of', in: 'query' },
      example: '2027-01-04',
      description: `A date of the first week to generate: the weeks start on its Monday. Default: next week. This week is allowed (its days already begun are left out); an earlier week, or one more than ${GENERATE_WEEK_OF_MAX_WEEKS_AHEAD} weeks ahead, is refused.`,
    }),
});
export type GenerateQuery = z.infer<typeof generateQuery>;

/**
 * Why generate leaves a date out: `same_template`, a live shift request (pending, accepted or
 * worked) made from this template is already on that date; `same_shift`, a live one identical in
 * time, role and person (the same shifter, or a broadcast for a broadcast template) was posted
 * another way.
 */
export const SKIP_REASONS = ['same_template', 'same_shift'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
const skippedReasonsSchema = z.array(z.object({ shift_date: z.string(), reason: z.enum(SKIP_REASONS) })).openapi({
  description:
    'Each date of `skipped` with its reason: `same_template` (a live shift request from this template is on that date) or `same_shift` (a live one identical in time, role and person). Earliest first.',
});
const skippedDescription =
  'Dates left out because a live shift request (pending, accepted or worked; never a declined, cancelled, expired or superseded one) is already there: one made from this template, or one identical in time, role and person. Their reasons are in `skipped_reasons`.';

/** weeks for generate: default 4, clamped to 1..12 (spec part 8), never refused for being out of range. */
export function clampWeeks(weeks: number | undefined): number {
  if (weeks === undefined) return GENERATE_WEEKS.default;
  return Math.min(GENERATE_WEEKS.max, Math.max(GENERATE_WEEKS.min, weeks));
}

/** The API shape of a shift template; flags are 1/0 as on shift requests. */
export const templateSchema = z
  .object({
    id: z.string(),
    business_id: z.string(),
    label: z.string(),
    days_of_week: z.string().openapi({ description: 'ISO weekdays, 1 = Monday … 7 = Sunday, sorted, comma-separated.', example: '1,3,5' }),
    shift_in: z.string(),
    shift_out: z.string(),
    shiftrole_id: z.number(),
    hourly_rate: z.number(),
    currency_id: z.string(),
    is_flexible: flag01,
    is_broadcast: flag01.openapi({ description: '1: generated shifts are broadcast to the crew; 0: targeted to default_shifter_id.' }),
    default_shifter_id: z.string().nullable(),
    note: z.string().nullable(),
    is_active: flag01.openapi({ description: '1: generate creates shifts; 0: paused.' }),
    frequency: z.string().nullable().openapi({ description: 'Reserved; no behaviour yet.' }),
    created_by_user_id: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('ShiftTemplate');
export type TemplateView = z.infer<typeof templateSchema>;

export const templateListSchema = z.object({ data: z.array(templateSchema) });
export type TemplateList = z.infer<typeof templateListSchema>;

export const templateDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('TemplateDeleted');
export type TemplateDeleted = z.infer<typeof templateDeletedSchema>;

/** POST /v1/shift_templates/{id}/generate: the shift requests made and the dates left out. */
export const generateResultSchema = z
  .object({
    created: z.array(postedShiftSchema).openapi({
      description:
        'The shift requests made, earliest first, each with its `warnings` as send_request gives them (shifter_busy: the targeted shifter is already booked then; empty_crew: a broadcast template of a business with no crew). They are made either way.',
    }),
    skipped: z.array(z.string()).openapi({ description: skippedDescription }),
    skipped_reasons: skippedReasonsSchema,
    weeks: z.number().int().openapi({ description: 'The number of weeks used, after clamping.' }),
    week_start: z.string().openapi({ description: "The Monday the first week starts on, in the business's time zone." }),
  })
  .openapi('TemplateGenerateResult');
export type GenerateResult = z.infer<typeof generateResultSchema>;

/** GET /v1/shift_templates/{id}/generate/preview: what generate would do now, nothing written. */
export const generatePreviewSchema = z
  .object({
    template_id: z.string(),
    timezone: z.string().openapi({ description: "The business's zone: shift_date, shift_in and shift_out are wall-clock there." }),
    weeks: z.number().int().openapi({ description: 'The number of weeks used, after clamping.' }),
    would_create: z
      .array(
        z.object({
          shift_date: z.string(),
          shift_in: z.string(),
          shift_out: z.string(),
          starts_at: z.string(),
          ends_at: z.string(),
        }),
      )
      .openapi({ description: 'The shift requests generate would create, earliest first.' }),
    skipped: z.array(z.string()).openapi({ description: skippedDescription }),
    skipped_reasons: skippedReasonsSchema,
    week_start: z.string().openapi({ description: "The Monday the first week starts on, in the business's time zone." }),
  })
  .openapi('TemplateGeneratePreview');
export type GeneratePreview = z.infer<typeof generatePreviewSchema>;
