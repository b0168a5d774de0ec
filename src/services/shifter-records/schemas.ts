import { z } from '@hono/zod-openapi';
import { AppError } from '../../lib/errors';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { fileField } from '../../lib/uploads';
import { currencySchema, dateSchema, rateSchema, timeSchema } from '../shifts';
import { daysOfWeekSchema } from '../templates';
import { pagingQuery } from '../kernel';

// The shifter-records domain's request and response schemas (mileage, counter rules, credentials):
// the route contracts import them, the services take z.infer of the request schemas and build
// z.infer of the response schemas.

/** A VALIDATION-ERR naming one field, for rules checked after merging a partial update. */
export const invalid = (field: string, message: string) => new AppError('VALIDATION-ERR', `${field}: ${message}`, [{ field, message }]);

const atLeastOne = (v: Record<string, unknown>) => Object.values(v).some((x) => x !== undefined);
const nothingSent = { message: 'send at least one field to change' };

/** A calendar date in the years the records cover (the list's year filter has the same range). */
const recordDate = dateSchema.refine((d) => d >= '2000-01-01' && d <= '2100-12-31', {
  message: 'must be between 2000-01-01 and 2100-12-31',
});

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

export const listMileageQuery = z.object({
  year: z.coerce.number().int().min(2000).max(2100).optional().openapi({ description: "Default: the current year in the shifter's zone." }),
  ...pagingQuery({ cursorMax: 300, limitDescription: null, cursorDescription: null }),
});
export type ListMileageQuery = z.infer<typeof listMileageQuery>;

export const mileageEntrySchema = z
  .object({
    id: z.string(),
    shifter_id: z.string(),
    log_date: z.string(),
    miles: z.number(),
    rate_per_mile_cents: z
      .number()
      .int()
      .openapi({ description: 'Captured from the operator setting when the entry was written; later setting changes never alter it.' }),
    amount_cents: z.number().int().openapi({ description: 'miles × rate, rounded half-up to the cent.' }),
    amount: z.number(),
    currency: z.string().openapi({ description: 'USD: the operator rate is in US cents per mile.' }),
    purpose: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('MileageEntry');
export type MileageEntryView = z.infer<typeof mileageEntrySchema>;

export const mileageListSchema = z
  .object({
    shifter_id: z.string(),
    data: z.array(mileageEntrySchema),
    next_cursor: z.string().nullable(),
    rollup: z.object({
      year: z.number().int(),
      entries: z.number().int(),
      total_miles: z.number(),
      total_amount_cents: z.number().int().openapi({ description: 'Sum of the entries’ amount_cents (each at its captured rate).' }),
      total_amount: z.number(),
      currency: z.string(),
    }),
  })
  .openapi('MileageList');
export type MileageList = z.infer<typeof mileageListSchema>;

export const mileageDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('MileageEntryDeleted');
export type MileageDeleted = z.infer<typeof mileageDeletedSchema>;

// ---- counter rules --------------------------------------------------------------------------

const ruleFields = {
  label: z.string().trim().min(1).max(120),
  shiftrole_id: z.number().int().positive().nullable().openapi({ description: 'The role the rule is for; null = any role.' }),
  weekdays: daysOfWeekSchema.nullable().openapi({ description: 'ISO weekdays of shift_date ("1,3,5" or [1,3,5]); null = any day.' }),
  start_from: timeSchema
    .nullable()
    .openapi({ description: 'Start band, inclusive (the shift’s shift_in); send with start_to, or neither.' }),
  start_to: timeSchema
    .nullable()
    .openapi({ description: 'Start band end, exclusive. Earlier than start_from: the band wraps midnight (22:00–06:00).' }),
  min_hourly_rate: rateSchema.openapi({ description: 'The least the shifter takes per hour, in currency.' }),
  currency: currencySchema,
  distance_threshold_km: z
    .number()
    .min(0)
    .max(1000)
    .nullable()
    .openapi({ description: 'Beyond this distance to the business the premium applies; send with distance_premium, or neither.' }),
  distance_premium: z
    .number()
    .positive()
    .max(10_000)
    .nullable()
    .openapi({ description: 'Added per hour beyond the threshold, in currency.' }),
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
  .openapi('UpdateCounterRule', {
    description: 'Only the fields sent change; null clears a nullable field. The result must still be a valid rule.',
  });
export type UpdateCounterRuleInput = z.infer<typeof updateCounterRuleInput>;

export const counterRuleSchema = z
  .object({
    id: z.string(),
    shifter_id: z.string(),
    label: z.string(),
    shiftrole_id: z.number().int().nullable().openapi({ description: 'Null: any role.' }),
    weekdays: z
      .array(z.number().int().min(1).max(7))
      .max(7)
      .nullable()
      .openapi({ description: 'ISO weekdays (1 = Monday) of shift_date; null: any day.' }),
    start_from: z.string().nullable(),
    start_to: z.string().nullable().openapi({ description: 'Exclusive; earlier than start_from means the band wraps midnight.' }),
    min_hourly_rate: z.number(),
    currency: z.string(),
    distance_threshold_km: z.number().nullable(),
    distance_premium: z.number().nullable().openapi({ description: 'Per hour, added beyond distance_threshold_km.' }),
    is_active: z.boolean(),
    is_auto_apply: z.boolean().openapi({ description: 'Reserved: stored, no behaviour yet.' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('CounterRule');
export type CounterRuleView = z.infer<typeof counterRuleSchema>;

export const counterRuleListSchema = z
  .object({ data: z.array(counterRuleSchema), next_cursor: z.string().nullable() })
  .openapi('CounterRuleList');
export type CounterRuleList = z.infer<typeof counterRuleListSchema>;

export const counterRuleDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('CounterRuleDeleted');
export type CounterRuleDeleted = z.infer<typeof counterRuleDeletedSchema>;

export const suggestCounterQuery = z.object({ shift_request_id: z.string().min(1).max(ID_MAX_LENGTH) });
export type SuggestCounterQuery = z.infer<typeof suggestCounterQuery>;

export const counterSuggestionSchema = z
  .object({
    shift_request_id: z.string(),
    shifter_id: z.string(),
    hourly_rate: z.number(),
    currency: z.string(),
    distance_km: z
      .number()
      .nullable()
      .openapi({ description: 'Shifter to business; null when either position is unknown (no premium then).' }),
    floor_rate: z.number().nullable(),
    floor_rule_id: z.string().nullable(),
    suggested_counter_rate: z.number().nullable(),
    counter_rule_id: z.string().nullable(),
  })
  .openapi('CounterSuggestion');
export type CounterSuggestion = z.infer<typeof counterSuggestionSchema>;

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

export const credentialSchema = z
  .object({
    id: z.string(),
    shifter_id: z.string(),
    label: z.string(),
    issuer: z.string().nullable(),
    issued_on: z.string().nullable(),
    expires_on: z.string().nullable(),
    notes: z.string().nullable(),
    is_visible: z.boolean(),
    expiring: z.boolean().openapi({ description: "expires_on is today or within the next 30 days (the shifter's zone)." }),
    expired: z.boolean().openapi({ description: 'expires_on has passed.' }),
    has_document: z.boolean(),
    document_type: z.string().nullable().openapi({ description: 'The sniffed type: application/pdf or image/*.' }),
    document_size: z.number().int().nullable(),
    document_url: z.string().nullable().openapi({ description: 'GET it with the same credentials; served to those who may see the row.' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Credential');
export type CredentialView = z.infer<typeof credentialSchema>;

export const credentialListSchema = z
  .object({ shifter_id: z.string(), data: z.array(credentialSchema), next_cursor: z.string().nullable() })
  .openapi('CredentialList');
export type CredentialList = z.infer<typeof credentialListSchema>;

export const credentialDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('CredentialDeleted');
export type CredentialDeleted = z.infer<typeof credentialDeletedSchema>;

/** POST …/credentials/{credential_id}/document: the multipart form, one file. */
export const credentialDocumentForm = z.object({ file: fileField });
