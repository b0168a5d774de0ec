import { z } from '@hono/zod-openapi';
import { AppError } from '../../lib/errors';
import { currencySchema, dateSchema, rateSchema, timeSchema } from '../shifts/schemas';
import { daysOfWeekSchema } from '../templates/schemas';

/** A VALIDATION-ERR naming one field, for rules checked after merging a partial update. */
export const invalid = (field: string, message: string) => new AppError('VALIDATION-ERR', `${field}: ${message}`, [{ field, message }]);

const atLeastOne = (v: Record<string, unknown>) => Object.values(v).some((x) => x !== undefined);
const nothingSent = { message: 'send at least one field to change' };

/** A calendar date in the years the records cover (the list's year filter has the same range). */
const recordDate = dateSchema.refine((d) => d >= '2000-01-01' && d <= '2100-12-31', { message: 'must be between 2000-01-01 and 2100-12-31' });

// ---- mileage --------------------------------------------------------------------------------

export const MILES_MAX = 2000;
const milesSchema = z
  .number()
  .positive()
  .max(MILES_MAX)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, { message: 'at most two decimals' })
  .openapi({ example: 12.4, description: `Miles driven, > 0 and ≤ ${MILES_MAX}, at most two decimals.` });

export const createMileageInput = z
  .object({
    log_date: recordDate.openapi({ description: 'The day of the trip, YYYY-MM-DD.' }),
    miles: milesSchema,
    purpose: z.string().trim().max(500).nullish(),
  })
  .strict()
  .openapi('CreateMileageEntry');
export type CreateMileageInput = z.infer<typeof createMileageInput>;

export const updateMileageInput = z
  .object({ log_date: recordDate.optional(), miles: milesSchema.optional(), purpose: z.string().trim().max(500).nullish() })
  .strict()
  .refine(atLeastOne, nothingSent)
  .openapi('UpdateMileageEntry', { description: 'Only the fields sent change; rate_per_mile_cents stays as captured.' });
export type UpdateMileageInput = z.infer<typeof updateMileageInput>;

// ---- counter rules --------------------------------------------------------------------------

const ruleFields = {
  label: z.string().trim().min(1).max(120),
  shiftrole_id: z.number().int().positive().nullable().openapi({ description: 'The role the rule is for; null = any role.' }),
  weekdays: daysOfWeekSchema.nullable().openapi({ description: 'ISO weekdays of shift_date ("1,3,5" or [1,3,5]); null = any day.' }),
  start_from: timeSchema.nullable().openapi({ description: 'Start band, inclusive (the shift’s shift_in); send with start_to, or neither.' }),
  start_to: timeSchema
    .nullable()
    .openapi({ description: 'Start band end, exclusive. Earlier than start_from: the band wraps midnight (22:00–06:00).' }),
  min_hourly_rate: rateSchema.openapi({ description: 'The least the shifter takes per hour, in currency.' }),
  currency: currencySchema,
  distance_threshold_km: z.number().min(0).max(1000).nullable().openapi({ description: 'Beyond this distance to the business the premium applies; send with distance_premium, or neither.' }),
  distance_premium: z.number().positive().max(10_000).nullable().openapi({ description: 'Added per hour beyond the threshold, in currency.' }),
  is_active: z.boolean(),
  is_auto_apply: z.boolean().openapi({ description: 'Reserved: stored, no behaviour yet.' }),
};

export const createCounterRuleInput = z
  .object({
    label: ruleFields.label,
    shiftrole_id: ruleFields.shiftrole_id.optional(),
    weekdays: ruleFields.weekdays.optional(),
    start_from: ruleFields.start_from.optional(),
    start_to: ruleFields.start_to.optional(),
    min_hourly_rate: ruleFields.min_hourly_rate,
    currency: ruleFields.currency.optional().openapi({ description: "Defaults to the shifter's currency." }),
    distance_threshold_km: ruleFields.distance_threshold_km.optional(),
    distance_premium: ruleFields.distance_premium.optional(),
    is_active: ruleFields.is_active.default(true),
    is_auto_apply: ruleFields.is_auto_apply.default(false),
  })
  .strict()
  .openapi('CreateCounterRule');
export type CreateCounterRuleInput = z.infer<typeof createCounterRuleInput>;

export const updateCounterRuleInput = z
  .object({
    label: ruleFields.label.optional(),
    shiftrole_id: ruleFields.shiftrole_id.optional(),
    weekdays: ruleFields.weekdays.optional(),
    start_from: ruleFields.start_from.optional(),
    start_to: ruleFields.start_to.optional(),
    min_hourly_rate: ruleFields.min_hourly_rate.optional(),
    currency: ruleFields.currency.optional(),
    distance_threshold_km: ruleFields.distance_threshold_km.optional(),
    distance_premium: ruleFields.distance_premium.optional(),
    is_active: ruleFields.is_active.optional(),
    is_auto_apply: ruleFields.is_auto_apply.optional(),
  })
  .strict()
  .refine(atLeastOne, nothingSent)
  .openapi('UpdateCounterRule', { description: 'Only the fields sent change; null clears a nullable field. The result must still be a valid rule.' });
export type UpdateCounterRuleInput = z.infer<typeof updateCounterRuleInput>;

// ---- credentials ----------------------------------------------------------------------------

const credentialFields = {
  label: z.string().trim().min(1).max(120),
  issuer: z.string().trim().max(200).nullable(),
  issued_on: recordDate.nullable(),
  expires_on: recordDate.nullable().openapi({ description: 'On or after issued_on.' }),
  notes: z.string().trim().max(2000).nullable(),
  is_visible: z.boolean().openapi({ description: 'False: only the shifter and admins see the credential and its document.' }),
};

export const createCredentialInput = z
  .object({
    label: credentialFields.label,
    issuer: credentialFields.issuer.optional(),
    issued_on: credentialFields.issued_on.optional(),
    expires_on: credentialFields.expires_on.optional(),
    notes: credentialFields.notes.optional(),
    is_visible: credentialFields.is_visible.default(true),
  })
  .strict()
  .openapi('CreateCredential');
export type CreateCredentialInput = z.infer<typeof createCredentialInput>;

export const updateCredentialInput = z
  .object({
    label: credentialFields.label.optional(),
    issuer: credentialFields.issuer.optional(),
    issued_on: credentialFields.issued_on.optional(),
    expires_on: credentialFields.expires_on.optional(),
    notes: credentialFields.notes.optional(),
    is_visible: credentialFields.is_visible.optional(),
  })
  .strict()
  .refine(atLeastOne, nothingSent)
  .openapi('UpdateCredential', { description: 'Only the fields sent change; null clears a nullable field.' });
export type UpdateCredentialInput = z.infer<typeof updateCredentialInput>;
