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
  week: dateSchema.optional().openapi({
    description:
      "Any date (YYYY-MM-DD) of the week to detail in `weeks` and `week_shifts`; default the current week (Monday to Sunday in the shifter's own zone). Independent of year and month.",
  }),
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

const weekDate = (description: string) => z.string().openapi({ description, example: '2026-10-26' });
const earningsWeekSchema = z
  .object({
    week_start: weekDate("The week's Monday (YYYY-MM-DD, in the shifter's zone)."),
    week_end: weekDate("The week's Sunday (YYYY-MM-DD, in the shifter's zone)."),
    gross: money.openapi({
      description: "Pay of the week's worked shifts in the shifter's currency: the sum of their `pay`, each rounded once.",
    }),
    hours: z.number().openapi({ description: 'Hours of every worked shift that started in the week (any currency), to 0.01 h.' }),
    shifts: z.number().openapi({ description: 'Worked shifts that started in the week (any currency).' }),
    other_currencies: z.array(earningsOtherCurrencySchema).openapi({
      description: "Pay of the week's shifts paid in another currency, per currency (sorted by code); never added to `gross`.",
    }),
  })
  .openapi('EarningsWeek');
const earningsShiftLineSchema = z
  .object({
    shift_request_id: z.string().openapi({ description: 'The worked shift.' }),
    date: z.string().openapi({ description: "The date the shift started on, in the shifter's zone (YYYY-MM-DD)." }),
    starts_at: z.string().openapi({ description: 'When the shift starts (ISO 8601 instant).' }),
    ends_at: z.string().openapi({ description: 'When the shift ends (ISO 8601 instant; the next day for an overnight shift).' }),
    business_id: z.string().openapi({ description: 'The business the shift was worked for.' }),
    business_name: z.string().openapi({ description: "The business's name." }),
    hours: z.number().openapi({ description: 'Hours from start to end on real instants (a DST night is 7 or 9), to 0.01 h.' }),
    pay: money.openapi({ description: 'Hours × rate in `currency`, rounded once at the minor unit, as invoiced.' }),
    currency: z.string().openapi({ description: "The shift's currency (usually the shifter's)." }),
  })
  .openapi('EarningsShiftLine');
export type EarningsWeek = z.infer<typeof earningsWeekSchema>;
export type EarningsShiftLine = z.infer<typeof earningsShiftLineSchema>;

/** The week view of earnings (earnings-weeks.ts), added to the month's answer. */
const earningsWeeksSchema = z.object({
  week_start: weekDate("Monday of the week detailed in `week_shifts` (the asked `week`'s, default the current week)."),
  week_end: weekDate('Sunday of that week.'),
  current_week_start: weekDate("Monday of the current week in the shifter's zone."),
  previous_week_start: weekDate('Monday of the week before `week_start`, to ask for it as `week`.'),
  next_week_start: weekDate('Monday of the week after `week_start`; null when `week_start` is the current week or later.').nullable(),
  weeks: z.array(earningsWeekSchema).openapi({
    description:
      "Nine weeks, oldest first, ending with the week of `week_start` (by default this week and the last 8). A shift belongs to the week of its start in the shifter's zone, Monday 00:00 to the next Monday 00:00, so an overnight shift from Sunday into Monday counts in the week it started.",
  }),
  week_shifts: z.array(earningsShiftLineSchema).openapi({
    description:
      "The worked shifts of the week of `week_start`, by start: the lines whose `pay` in the shifter's currency add up to that week's `gross`.",
  }),
});
export type EarningsWeeks = z.infer<typeof earningsWeeksSchema>;

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
    ...earningsWeeksSchema.shape,
  })
  .openapi('Earnings');
export type Earnings = z.infer<typeof earningsSchema>;

export const earningsGoalInput = z.object({ monthly_earnings_goal: z.number().positive().max(100_000_000).nullable() });
export type EarningsGoalInput = z.infer<typeof earningsGoalInput>;

export const earningsGoalSchema = z.object({ shifter_id: z.string(), monthly_earnings_goal: money.nullable(), currency: z.string() });
export type EarningsGoal = z.infer<typeof earningsGoalSchema>;
