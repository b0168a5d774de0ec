import { z } from '@hono/zod-openapi';
import { dateSchema } from '../shifts';

// The figures' request and response schemas (labor costs, crew analytics, going rate, earnings): the
// route contracts import them, the services take and build z.infer of them.

const money = z.number();

// ── Labor costs and crew analytics ──────────────────────────────────────────────────────────────

/** Pay in a currency other than the business's: never added to the business-currency totals, never dropped. */
const otherCurrencyTotalSchema = z
  .object({ currency: z.string(), total: money, hours: z.number(), shifts: z.number() })
  .openapi('OtherCurrencyTotal');
export type OtherCurrencyTotal = z.infer<typeof otherCurrencyTotalSchema>;

const otherCurrencies = z
  .array(otherCurrencyTotalSchema)
  .openapi({ description: "Worked shifts paid in a currency other than the business's, totalled per currency (sorted by code)." });
const otherCurrenciesOnRow = otherCurrencies.optional().openapi({
  description:
    "Present only when this row has shifts in a currency other than the business's; the row's own figures cover the business's currency.",
});

export const laborCostsQuery = z.object({
  week: dateSchema.optional().openapi({ description: 'Any date of the week; default the current week (Monday start, business zone).' }),
});
export type LaborCostsQuery = z.infer<typeof laborCostsQuery>;

const laborByShifterSchema = z.object({
  shifter_id: z.string(),
  shifter_name: z.string().nullable(),
  shifts: z.number(),
  hours: z.number(),
  total: money,
  other_currencies: otherCurrenciesOnRow,
});
const laborByRoleSchema = z.object({
  shiftrole_id: z.number(),
  role: z.string().nullable(),
  shifts: z.number(),
  hours: z.number(),
  total: money,
  other_currencies: otherCurrenciesOnRow,
});
const laborWeekSchema = z.object({
  week_start: z.string(),
  total: money,
  hours: z.number(),
  shifts: z.number(),
  other_currencies: otherCurrenciesOnRow,
});
export type LaborByShifter = z.infer<typeof laborByShifterSchema>;
export type LaborByRole = z.infer<typeof laborByRoleSchema>;
export type LaborWeek = z.infer<typeof laborWeekSchema>;

export const laborCostsSchema = z
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
    by_shifter: z.array(laborByShifterSchema),
    by_role: z.array(laborByRoleSchema),
    last_8_weeks: z.array(laborWeekSchema),
  })
  .openapi('LaborCosts');
export type LaborCosts = z.infer<typeof laborCostsSchema>;

const crewMemberSchema = z.object({
  shifter_id: z.string(),
  shifter_name: z.string(),
  shifter_slug: z.string(),
  accept_shift_req: z.boolean(),
  completed_shifts_90d: z.number(),
  hours_90d: z.number(),
  total_paid_90d: money.nullable().openapi({
    description:
      "Pay of the worked shifts in the business's currency; null for an active teammate (pay is the owner's and admins' to see).",
  }),
  no_shows_90d: z.number(),
  cancellations_90d: z.number(),
  reliability_score: z.number().nullable(),
  last_worked_at: z.string().nullable(),
  other_currencies: otherCurrencies.optional().openapi({
    description:
      'Present only when the shifter worked shifts paid in another currency and the caller sees pay (not for an active teammate): pay per currency (completed_shifts_90d and hours_90d count every worked shift).',
  }),
});
export type CrewMember = z.infer<typeof crewMemberSchema>;

export const crewAnalyticsSchema = z
  .object({
    business_id: z.string(),
    currency: z.string(),
    window_days: z.number(),
    pay_included: z.boolean().openapi({
      description:
        'Whether the pay fields are filled: true for the owner and admins; false for an active teammate, whose answer has total_paid_90d null and no other_currencies.',
    }),
    crew_size: z.number(),
    total_completed_shifts_90d: z.number(),
    repeat_rate: z.number().nullable(),
    avg_reliability_score: z.number().nullable(),
    rated_crew: z.number(),
    accept_rate: z.number().nullable(),
    per_shifter: z.array(crewMemberSchema),
  })
  .openapi('CrewAnalytics');
export type CrewAnalytics = z.infer<typeof crewAnalyticsSchema>;

// ── Going rate ──────────────────────────────────────────────────────────────────────────────────

const idQuery = z.coerce.number().int().positive().optional();
export const goingRateQuery = z.object({
  city_id: idQuery,
  state_id: idQuery,
  country_id: idQuery,
  shiftrole_id: idQuery,
  currency: z.string().length(3).toUpperCase().optional(),
});
export type GoingRateQuery = z.infer<typeof goingRateQuery>;

export const goingRateSchema = z
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
    filters: z.object({
      city_id: z.number().nullable(),
      state_id: z.number().nullable(),
      country_id: z.number().nullable(),
      shiftrole_id: z.number().nullable(),
    }),
  })
  .openapi('GoingRate');
export type GoingRate = z.infer<typeof goingRateSchema>;

// ── Earnings ────────────────────────────────────────────────────────────────────────────────────

export const earningsQuery = z.object({
  year: z.coerce.number().int().min(2000).max(2100).optional(),
  month: z.coerce.number().int().min(1).max(12).optional(),
});
export type EarningsQuery = z.infer<typeof earningsQuery>;

const earningsByBusinessSchema = z.object({
  business_id: z.string(),
  business_name: z.string(),
  gross: money,
  shifts: z.number(),
  hours: z.number(),
});
const earningsMonthSchema = z.object({ month: z.string(), gross: money, shifts: z.number() });
const earningsOtherCurrencySchema = z.object({ currency: z.string(), gross: money });
export type EarningsByBusiness = z.infer<typeof earningsByBusinessSchema>;
export type EarningsMonth = z.infer<typeof earningsMonthSchema>;
export type EarningsOtherCurrency = z.infer<typeof earningsOtherCurrencySchema>;

export const earningsSchema = z
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
    by_business: z.array(earningsByBusinessSchema),
    trend_12_months: z.array(earningsMonthSchema),
    other_currencies: z.array(earningsOtherCurrencySchema),
  })
  .openapi('Earnings');
export type Earnings = z.infer<typeof earningsSchema>;

export const earningsGoalInput = z.object({ monthly_earnings_goal: z.number().positive().max(100_000_000).nullable() });
export type EarningsGoalInput = z.infer<typeof earningsGoalInput>;

export const earningsGoalSchema = z.object({ shifter_id: z.string(), monthly_earnings_goal: money.nullable(), currency: z.string() });
export type EarningsGoal = z.infer<typeof earningsGoalSchema>;
