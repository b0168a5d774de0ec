/**
 * The labor costs of /dashboard/money: the week shown (picked by `?week=`), its total against the
 * weekly budget, the last 8 weeks charted (labor-chart.island.ts) and tabled, and the budget's form.
 * The week's split by shifter and by role is in labor-breakdown.tsx.
 */

import { againstBudget, budgetSentence, type LaborChartProps, weekLabel } from './labor.model';
import { addDays } from '@/lib/shift-time';
import type { LaborCosts } from '@/services/insights';
import { CsrfField, IdempotencyField, InputField, SubmitButton } from '@/web/components';
import { formatDate, formatMoney } from '@/web/format';
import { type DashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { LaborBreakdown } from './labor-breakdown';
import { MONEY } from './money-shared';

// ── Labor costs ─────────────────────────────────────────────────────────────────────────────────

export interface BudgetFormState {
  value: string;
  error?: string | undefined;
  idem?: string | undefined;
}

export function LaborSection(props: {
  base: DashboardBase;
  labor: LaborCosts;
  budgetForm: BudgetFormState;
  weekError?: string | undefined;
  weekValue: string;
}) {
  const { base, labor, budgetForm } = props;
  const cur = labor.currency;
  const fmt = (n: number) => formatMoney(n, cur);
  const budget = labor.weekly_budget;
  const chartProps: LaborChartProps = {
    businessId: labor.business_id,
    currency: cur,
    weeks: labor.last_8_weeks.map((w) => ({ week_start: w.week_start, total: w.total })),
    budget,
    weekStart: labor.week_start,
    budgetFormId: 'budget-form',
  };
  const weekHref = (week: string) => `${dashboardHref(base, MONEY, { week })}#labor`;
  return (
    <section class="card" id="labor" aria-labelledby="labor-head">
      <h2 id="labor-head">Labor costs</h2>
      <form method="get" action={`${MONEY}#labor`} class="inline-fields" aria-label="Choose the week">
        {base.business ? <input type="hidden" name="business_id" value={base.business.id} /> : null}
        <InputField
          label="Week of"
          name="week"
          id="field-week"
          type="date"
          value={props.weekValue}
          error={props.weekError}
          hint="Any day of the week; weeks start on Monday."
        />
        <SubmitButton variant="secondary">Show the week</SubmitButton>
      </form>
      <nav aria-label="Other weeks" class="pager">
        <a href={weekHref(addDays(labor.week_start, -7))}>Previous week</a>
        <a href={weekHref(addDays(labor.week_start, 7))}>Next week</a>
      </nav>
      <p class="aside">{`Week of ${formatDate(labor.week_start)} to ${formatDate(labor.week_end)}, worked shifts, times in ${labor.timezone}.`}</p>
      <p class="stat">{fmt(labor.this_week_total)}</p>
      <p class="stat-label" data-budget-sentence>
        {budgetSentence(labor.this_week_total, budget, fmt)}
      </p>
      <p class="stat-label">
        {`${labor.this_week_shifts} worked shift(s), ${labor.this_week_hours} h.`}
        {labor.pct_change_vs_last_week === null
          ? ''
          : ` ${labor.pct_change_vs_last_week > 0 ? '+' : ''}${labor.pct_change_vs_last_week}% against last week.`}
      </p>
      <meter
        class="meter"
        data-budget-meter
        min={0}
        max={budget && budget > 0 ? budget : 1}
        high={budget && budget > 0 ? budget * 0.9 : 1}
        optimum={0}
        value={budget && budget > 0 ? Math.min(labor.this_week_total, budget) : 0}
        aria-label="This week's labor cost against the budget"
        hidden={!(budget && budget > 0)}
      />
      {labor.other_currencies.length ? (
        <p class="hint">
          {`Also this week, in other currencies (not added above): ${labor.other_currencies.map((o) => `${formatMoney(o.total, o.currency)} (${o.shifts} shift(s))`).join(', ')}.`}
        </p>
      ) : null}

      <div class="labor-grid">
        <figure class="chart" data-island="labor-chart" data-props={JSON.stringify(chartProps)}>
          <figcaption id="labor-chart-caption">Labor cost per week, last 8 weeks, against the weekly budget</figcaption>
          <div class="chart-canvas" data-chart-canvas role="img" aria-labelledby="labor-chart-caption" aria-describedby="labor-table-note">
            <noscript>The chart needs JavaScript; the table gives the same figures.</noscript>
          </div>
          <ul class="chart-legend" aria-hidden="true">
            <li>
              <span class="swatch swatch-bar" /> Labor cost
            </li>
            <li>
              <span class="swatch swatch-budget" /> Weekly budget
            </li>
          </ul>
        </figure>
        <section class="table-wrap" tabindex={0} aria-labelledby="labor-table-caption">
          {/* On a phone its rows stack like the small tables' (.stack-table): the week, then its figures. */}
          <table id="labor-table" class="stack-table">
            <caption id="labor-table-caption">
              Labor cost per week{' '}
              <span class="muted" id="labor-table-note" data-budget-caption>
                {budget === null ? 'No weekly budget set.' : `Weekly budget: ${fmt(budget)}.`}
              </span>
            </caption>
            <thead>
              <tr>
                <th scope="col">Week of</th>
                <th scope="col" class="num">
                  Cost
                </th>
                <th scope="col" class="num">
                  Hours
                </th>
                <th scope="col">Budget</th>
              </tr>
            </thead>
            <tbody>
              {labor.last_8_weeks.map((w) => (
                <tr aria-current={w.week_start === labor.week_start ? 'true' : undefined}>
                  <th scope="row">{weekLabel(w.week_start)}</th>
                  <td class="num nowrap" data-label="Cost">
                    {fmt(w.total)}
                  </td>
                  <td class="num">{`${w.hours} h`}</td>
                  <td class="stack-end" data-against-total={String(w.total)}>
                    {againstBudget(w.total, budget, fmt)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>

      <form method="post" action={dashboardHref(base, `${MONEY}/budget`)} id="budget-form" class="inline-fields" novalidate>
        <CsrfField token={base.csrfToken} />
        <IdempotencyField value={budgetForm.idem} />
        <input type="hidden" name="week" value={props.weekValue} />
        <InputField
          label={`Weekly budget (${cur})`}
          name="weekly_labor_budget"
          type="text"
          inputMode="decimal"
          value={budgetForm.value}
          hint="Empty: no budget."
          error={budgetForm.error}
          autofocus={Boolean(budgetForm.error)}
        />
        <SubmitButton>Save the budget</SubmitButton>
        <p class="hint" data-budget-status role="status" aria-live="polite" />
      </form>

      <LaborBreakdown labor={labor} fmt={fmt} />
    </section>
  );
}
