import { z } from '@hono/zod-openapi';
import { authRoute, idParam, jsonBody, jsonContent, pathParam } from '../../lib/openapi';
import { timezoneSchema } from '../../services/accounts/schemas';
import { dateSchema } from '../../services/shifts/schemas';
import { businessSchema } from '../business/business.routes';

const money = z.number();
const businessIdParam = z.object({ business_id: pathParam('business_id') });

export const settingsBody = z
  .object({
    business_id: z.string().optional().openapi({ description: "Defaults to the caller's default business." }),
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
  path: '/v1/business/update_settings',
  tags: ['Businesses'],
  summary: 'Change business settings; only the fields sent change, null clears',
  request: { body: jsonBody(settingsBody) },
  responses: { 200: jsonContent(businessSchema, 'The business after the change.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

const weekRow = z.object({ week_start: z.string(), total: money, hours: z.number(), shifts: z.number() });
export const laborCosts = authRoute({
  method: 'get',
  path: '/v1/business/{id}/labor_costs',
  tags: ['Businesses'],
  summary: 'Labor costs of a week, with last week, budget, breakdowns and 8 weeks of history (owner or admin)',
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
          by_shifter: z.array(z.object({ shifter_id: z.string(), shifter_name: z.string().nullable(), shifts: z.number(), hours: z.number(), total: money })),
          by_role: z.array(z.object({ shiftrole_id: z.number(), role: z.string().nullable(), shifts: z.number(), hours: z.number(), total: money })),
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
  path: '/v1/business/{id}/weekly_labor_budget',
  tags: ['Businesses'],
  summary: 'Set or clear the weekly labor budget (owner or admin)',
  request: { params: idParam, body: jsonBody(z.object({ weekly_labor_budget: z.number().nonnegative().max(100_000_000).nullable() })) },
  responses: { 200: jsonContent(businessSchema, 'The business after the change.') },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

export const crewAnalytics = authRoute({
  method: 'get',
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
              total_paid_90d: money,
              no_shows_90d: z.number(),
              cancellations_90d: z.number(),
              reliability_score: z.number().nullable(),
              last_worked_at: z.string().nullable(),
            }),
          ),
        })
        .openapi('CrewAnalytics'),
      'Crew analytics.',
    ),
  },
  errors: ['BUSINESS-NOT-FND-ERR'],
});

const idQuery = z.coerce.number().int().positive().optional();
export const goingRate = authRoute({
  method: 'get',
  path: '/v1/going_rate',
  tags: ['Market'],
  summary: 'Going hourly rate of worked shifts in a place (and role)',
  description: 'sufficient_data is false when the sample is below the operator minimum (default 10); the window defaults to 90 days.',
  request: {
    query: z.object({
      city_id: idQuery,
      state_id: idQuery,
      country_id: idQuery,
      shiftrole_id: idQuery,
      currency: z.string().length(3).toUpperCase().optional(),
    }),
  },
  responses: {
    200: jsonContent(
      z
        .object({
          min: money.nullable(),
          p25: money.nullable(),
          median: money.nullable(),
          p75: money.nullable(),
          max: money.nullable(),
          mean: money.nullable(),
          sample_size: z.number(),
          currency: z.string().nullable(),
          window_days: z.number(),
          window: z.object({ from: z.string(), to: z.string() }),
          min_sample: z.number(),
          sufficient_data: z.boolean(),
          filters: z.object({ city_id: z.number().nullable(), state_id: z.number().nullable(), country_id: z.number().nullable(), shiftrole_id: z.number().nullable() }),
        })
        .openapi('GoingRate'),
      'Going rate.',
    ),
  },
});

export const earnings = authRoute({
  method: 'get',
  path: '/v1/shifter/{id}/earnings',
  tags: ['Shifters'],
  summary: "A month's earnings with projection, typical rate and hours, breakdowns and trend (owner only)",
  request: {
    params: idParam,
    query: z.object({ year: z.coerce.number().int().min(2000).max(2100).optional(), month: z.coerce.number().int().min(1).max(12).optional() }),
  },
  responses: {
    200: jsonContent(
      z
        .object({
          shifter_id: z.string(),
          currency: z.string(),
          timezone: z.string(),
          year: z.number(),
          month: z.number(),
          days_in_month: z.number(),
          elapsed_days: z.number(),
          gross: money,
          shifts: z.number(),
          projected_end_of_month: money.nullable(),
          typical_hourly_rate: money.nullable(),
          typical_shift_hours: z.number().nullable(),
          monthly_earnings_goal: money.nullable(),
          shifts_to_goal: z.number().nullable(),
          by_business: z.array(z.object({ business_id: z.string(), business_name: z.string(), gross: money, shifts: z.number(), hours: z.number() })),
          trend_12_months: z.array(z.object({ month: z.string(), gross: money, shifts: z.number() })),
          other_currencies: z.array(z.object({ currency: z.string(), gross: money })),
        })
        .openapi('Earnings'),
      'Earnings.',
    ),
  },
  errors: ['SHIFTER-NOT-FND-ERR'],
});

export const earningsGoal = authRoute({
  method: 'put',
  path: '/v1/shifter/{id}/earnings_goal',
  tags: ['Shifters'],
  summary: 'Set or clear the monthly earnings goal (owner only)',
  request: { params: idParam, body: jsonBody(z.object({ monthly_earnings_goal: z.number().positive().max(100_000_000).nullable() })) },
  responses: { 200: jsonContent(z.object({ shifter_id: z.string(), monthly_earnings_goal: money.nullable(), currency: z.string() }), 'The goal.') },
  errors: ['SHIFTER-NOT-FND-ERR'],
});
