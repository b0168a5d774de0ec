/**
 * The labor costs' words, shared by the money page (src/web/features/money/money.tsx, which renders
 * them without script) and the chart island (src/web/features/money/labor-chart.island.ts, which says them again
 * after the budget changes in place): a week's cost against the weekly budget. Pure code, no DOM;
 * amounts are formatted by the caller's `fmt` (the server's and the browser's money format agree).
 */

/** One week of the chart: its Monday, and the labor cost of its worked shifts in the business's currency. */
export interface LaborChartWeek {
  week_start: string;
  total: number;
}

/** What the chart island gets from the page. */
export interface LaborChartProps {
  businessId: string;
  currency: string;
  weeks: LaborChartWeek[];
  budget: number | null;
  /** The week the page shows (its Monday): the summary above the chart speaks of it. */
  weekStart: string;
  /** The budget form the island sends through the API instead of posting the page. */
  budgetFormId: string;
}

/** "24 Nov": a week's Monday on the chart's axis and in its table (read as the date it names). */
export function weekLabel(weekStart: string): string {
  const d = new Date(`${weekStart}T12:00:00Z`);
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(d);
}

/** A week's cost against the budget: "$120.00 under", "$35.50 over", "on budget", or "no budget". */
export function againstBudget(total: number, budget: number | null, fmt: (amount: number) => string): string {
  if (budget === null) return 'no budget';
  // Compared in cents: the totals are decimals of the currency's minor unit.
  const diff = Math.round(total * 100) - Math.round(budget * 100);
  if (diff === 0) return 'on budget';
  return diff > 0 ? `${fmt(diff / 100)} over` : `${fmt(-diff / 100)} under`;
}

/** The sentence under the week's total: "of $4,500.00 budget: $3,266.00 under." or the lack of a budget. */
export function budgetSentence(total: number, budget: number | null, fmt: (amount: number) => string): string {
  if (budget === null) return 'No weekly budget set: set one below to see the week against it.';
  return `of ${fmt(budget)} budget: ${againstBudget(total, budget, fmt)}.`;
}
