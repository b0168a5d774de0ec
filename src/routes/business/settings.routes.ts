import { z } from '@hono/zod-openapi';
import { ID_MAX_LENGTH } from '../../lib/ids';
import { authRoute, idParam, jsonBody, jsonContent, pathParam } from '../../http/openapi';
import { timezoneSchema } from '../../services/accounts/schemas';
import { dateSchema } from '../../services/shifts/schemas';
import { businessSchema } from './business.routes';

const money = z.number();
const businessIdParam = z.object({ business_id: pathParam('business_id') });

export const settingsBody = z
  .object({
    business_id: z.string().max(ID_MAX_LENGTH).optional().openapi({ description: "Defaults to the caller's default business." }),
    weekly_labor_budget: z.number().nonnegative().max(100_000_000).nullable().optional(),
    auto_fill_on_cancel: z.boolean().optional(),
    geofence_radius_m: z.number().int().min(10).max(100_000).nullable().optional().openapi({ description: 'Null: no enforcement.' }),
    require_clock_photo: z.boolean().optional(),
    timezone: timezoneSchema.optional(),
    latitude: z.number().min(-90).max(90).nullable().optional(),
    longitude: z.number().min(-180).max(180).nullable().optional(),
    name: z.string().trim().min(1).max(120).optional(),
    address: z.string().trim().max(300).nullable().optional(),
  })
  .strict()
  .openapi('BusinessSettings');

export const updateSettings = authRoute({
  method: 'put',
  operationId: 'updateBusinessSettings',
  path: '/v1/business/update_settings',
  tags: ['Businesses'],
  summary: 'Change business settings; only the fields sent change, null clears',
  request: { body: jsonBody(settingsBody) },
  responses: { 200: jsonContent(businessSchema, 'The business after the change.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

/** Pay in a currency other than the business's: never added to the business-currency totals, never dropped. */
const otherCurrencies = z
  .array(z.object({ currency: z.string(), total: money, hours: z.number(), shifts: z.number() }).openapi('OtherCurrencyTotal'))
  .openapi({ description: "Worked shifts paid in a currency other than the business's, totalled per currency (sorted by code)." });
const otherCurrenciesOnRow = otherCurrencies.optional().openapi({ description: "Present only when this row has shifts in a currency other than the business's; the row's own figures cover the business's currency." });
const weekRow = z.object({ week_start: z.string(), total: money, hours: z.number(), shifts: z.number(), other_currencies: otherCurrenciesOnRow });
export const laborCosts = authRoute({
  method: 'get',
  operationId: 'getLaborCosts',
  path: '/v1/business/{id}/labor_costs',
  tags: ['Businesses'],
  summary: 'Labor costs of a week, with last week, budget, breakdowns and 8 weeks of history (owner or admin)',
  description:
    "Totals, hours, shift counts, pct_change_vs_last_week and the budget figures cover shifts paid in the business's currency; shifts paid in another currency are totalled apart per currency in `other_currencies`. Amounts and percentages are rounded half-up, away from zero, at their last digit.",
  request: { params: idParam, query: z.object({ week: dateSchema.optional().openapi({ description: 'Any date of the week; default the current week (Monday start, business zone).' }) }) },
  responses: {
    200: jsonContent(
      z
        .object({
          business_id: z.string(),
          currency: z.string(),
          timezone: z.string(),
          week_start: z.string(),
          week_end: z.string(),
          this_week_total: money,
          this_week_hours: z.number(),
          this_week_shifts: z.number(),
          last_week_total: money,
          pct_change_vs_last_week: z.number().nullable(),
          weekly_budget: money.nullable(),
          over_under_budget: money.nullable().openapi({ description: 'this_week_total − weekly_budget; positive is over.' }),
          other_currencies: otherCurrencies,
          by_shifter: z.array(z.object({ shifter_id: z.string(), shifter_name: z.string().nullable(), shifts: z.number(), hours: z.number(), total: money, other_currencies: otherCurrenciesOnRow })),
          by_role: z.array(z.object({ shiftrole_id: z.number(), role: z.string().nullable(), shifts: z.number(), hours: z.number(), total: money, other_currencies: otherCurrenciesOnRow })),
          last_8_weeks: z.array(weekRow),
        })
        .openapi('LaborCosts'),
      'Labor costs.',
    ),
  },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const weeklyBudget = authRoute({
  method: 'put',
  operationId: 'setWeeklyLaborBudget',
  path: '/v1/business/{id}/weekly_labor_budget',
  tags: ['Businesses'],
  summary: 'Set or clear the weekly labor budget (owner or admin)',
  request: { params: idParam, body: jsonBody(z.object({ weekly_labor_budget: z.number().nonnegative().max(100_000_000).nullable() })) },
  responses: { 200: jsonContent(businessSchema, 'The business after the change.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const crewAnalytics = authRoute({
  method: 'get',
  operationId: 'getCrewAnalytics',
  path: '/v1/business/{business_id}/crew/analytics',
  tags: ['Businesses'],
  summary: 'Crew analytics over 90 days (owner, active teammate or admin)',
  description:
    'reliability_score = worked ÷ (worked + no-shows + own cancellations) × 100 per shifter (null when none); repeat_rate = % of crew with more than one worked shift; accept_rate = % of crew with accept_shift_req on.',
  request: { params: businessIdParam },
  responses: {
    200: jsonContent(
      z
        .object({
          business_id: z.string(),
          currency: z.string(),
          window_days: z.number(),
          crew_size: z.number(),
          total_completed_shifts_90d: z.number(),
          repeat_rate: z.number().nullable(),
          avg_reliability_score: z.number().nullable(),
          rated_crew: z.number(),
          accept_rate: z.number().nullable(),
          per_shifter: z.array(
            z.object({
              shifter_id: z.string(),
              shifter_name: z.string(),
              shifter_slug: z.string(),
              accept_shift_req: z.boolean(),
              completed_shifts_90d: z.number(),
              hours_90d: z.number(),
              total_paid_90d: money.openapi({ description: "Pay of the worked shifts in the business's currency." }),
              no_shows_90d: z.number(),
              cancellations_90d: z.number(),
              reliability_score: z.number().nullable(),
              last_worked_at: z.string().nullable(),
              other_currencies: otherCurrencies.optional().openapi({
                description: "Present only when the shifter worked shifts paid in another currency: pay per currency (completed_shifts_90d and hours_90d count every worked shift).",
              }),
            }),
          ),
        })
        .openapi('CrewAnalytics'),
      'Crew analytics.',
    ),
  },
  errors: ['BUSINESS-NOT-FND-ERR'],
});
