import type { Context } from 'hono';
import { WEB_ENTRIES } from '@generated/web/assets';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { type Earnings, earnings, earningsGoalInput, earningsQuery, setEarningsGoal } from '@/services/insights';
import { Card, CsrfField, IdempotencyField, InputField, SubmitButton } from '@/web/components';
import { formatMoney } from '@/web/format';
import { renderPage } from '@/web/render';
import { SmallTable } from '@/web/table';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';
import { EARNINGS_PATH, Money, WeekCard, WeeksCard } from './earnings-week';

/**
 * The shifter's earnings ({app_url}/dashboard/shifter/earnings[?week=YYYY-MM-DD]): the chosen week
 * (default this one, Monday to Sunday on the shifter's clock) by shift, the last nine weeks
 * (earnings-week.tsx), this month's gross and its projection (from the third day), the typical rate
 * and hours, the monthly goal with its progress and the shifts still needed (set here), the year by
 * business and the last 12 months (a table, readable anywhere). Figures from the same service as
 * GET /v1/shifter/{id}/earnings; a refused goal is said in the page's words (GOAL_WORDS), the
 * service's message staying the API's. At 360 px no amount wraps and no table scrolls sideways: the
 * tables stack into rows, the 12 months' table (three columns) fits, and its region shows a shadow
 * at an edge should it ever scroll (earnings.css).
 */
const PATH = EARNINGS_PATH;

const monthName = (ym: string) =>
  new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${ym}-15T12:00:00Z`));

function EarningsView({
  base,
  e,
  notice,
  goalError,
  goalValue,
}: {
  base: DashboardBase;
  e: Earnings;
  notice?: string | undefined;
  goalError?: string | undefined;
  goalValue?: string | undefined;
}) {
  const m = (n: number) => formatMoney(n, e.currency);
  const goal = e.monthly_earnings_goal;
  const progress = goal ? Math.min(100, Math.round((e.gross / goal) * 100)) : 0;
  const max = Math.max(1, ...e.trend_12_months.map((t) => t.gross));
  const island = WEB_ENTRIES.islands['earnings-chart'];
  const chart = { currency: e.currency, months: e.trend_12_months.map((t) => ({ month: t.month, gross: t.gross })), goal };
  return (
    <AppShell
      base={base}
      side="shifter"
      current={PATH}
      title="Earnings"
      notice={notice}
      scripts={island ? [island.js] : []}
      styles={island?.css ? [island.css] : []}
    >
      <WeekCard e={e} />
      <WeeksCard e={e} />
      <h2 id="month-head">This month</h2>
      <ul class="stat-row earnings-stats" aria-labelledby="month-head">
        <li>
          <span class="stat-label">This month so far</span>
          <strong class="stat money" data-gross>
            {m(e.gross)}
          </strong>
          <span class="stat-label muted">{`${e.shifts} shift${e.shifts === 1 ? '' : 's'}, day ${e.elapsed_days} of ${e.days_in_month}`}</span>
        </li>
        <li>
          <span class="stat-label">Projected for the month</span>
          <strong class={e.projected_end_of_month === null ? 'stat' : 'stat money'}>
            {e.projected_end_of_month === null ? '—' : m(e.projected_end_of_month)}
          </strong>
          <span class="stat-label muted">
            {e.projected_end_of_month === null ? 'From the third day of the month.' : 'At this month’s pace.'}
          </span>
        </li>
        <li>
          <span class="stat-label">Typical rate · shift</span>
          <strong class={e.typical_hourly_rate === null ? 'stat' : 'stat money'}>
            {e.typical_hourly_rate === null ? '—' : `${m(e.typical_hourly_rate)}/h`}
          </strong>
          <span class="stat-label muted">
            {e.typical_shift_hours === null ? 'No worked shift lately.' : `${e.typical_shift_hours} h a shift`}
          </span>
        </li>
      </ul>
      <Card title="Monthly goal">
        {goal ? (
          <>
            <p>
              <label for="goal-progress">{`${m(e.gross)} of ${m(goal)} (${progress}%)`}</label>
            </p>
            <progress id="goal-progress" class="goal-progress" max={100} value={progress}>
              {`${progress}%`}
            </progress>
            <p data-shifts-to-goal>
              {e.shifts_to_goal === null
                ? 'Work a shift to see how many more reach the goal.'
                : e.shifts_to_goal === 0
                  ? 'Goal reached this month.'
                  : `About ${e.shifts_to_goal} more shift${e.shifts_to_goal === 1 ? '' : 's'} at your typical rate and hours reach it.`}
            </p>
          </>
        ) : (
          <p class="empty">No goal set. A goal shows how many shifts are left to reach it.</p>
        )}
        <form method="post" action={`${PATH}/goal`} class="form-grid goal-form">
          <CsrfField token={base.csrfToken} />
          <IdempotencyField />
          <InputField
            label={`Monthly goal (${e.currency})`}
            name="monthly_earnings_goal"
            type="number"
            step={1}
            min="0"
            inputMode="decimal"
            value={goalValue ?? (goal === null ? '' : String(goal))}
            hint="Leave empty to clear it."
            error={goalError}
          />
          <SubmitButton>Save goal</SubmitButton>
        </form>
      </Card>
      <Card title={`By business, ${e.year}`}>
        {e.by_business.length ? (
          <SmallTable
            class="by-business"
            caption={`Earnings by business, ${e.year}`}
            rows={e.by_business}
            columns={[
              { head: 'Business', cell: (b) => b.business_name, class: 'stack-name' },
              { head: 'Shifts', cell: (b) => `${b.shifts} shift${b.shifts === 1 ? '' : 's'}`, num: true },
              { head: 'Hours', cell: (b) => `${b.hours} h`, num: true },
              { head: 'Gross', cell: (b) => <Money amount={b.gross} currency={e.currency} />, num: true, class: 'stack-end' },
            ]}
          />
        ) : (
          <p class="empty">No worked shift this year yet.</p>
        )}
      </Card>
      <Card title="Last 12 months">
        <figure
          class="earnings-chart"
          data-island="earnings-chart"
          data-props={JSON.stringify(chart)}
          aria-labelledby="earnings-chart-caption"
        >
          {island ? <div class="earnings-chart-canvas" data-chart-canvas aria-hidden="true" /> : null}
          <figcaption id="earnings-chart-caption">
            {`Gross per month, ${monthName(e.trend_12_months[0]?.month ?? '')} to ${monthName(e.trend_12_months.at(-1)?.month ?? '')}`}
            {goal ? `; the dashed line is your monthly goal of ${m(goal)}` : ''}. The table below gives the same figures.
          </figcaption>
        </figure>
        <section class="table-wrap scroll-cue" tabindex={0} aria-label="Earnings, last 12 months">
          <table class="trend-table">
            <caption class="visually-hidden">Gross earnings per month, last 12 months</caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col" class="num">
                  Shifts
                </th>
                <th scope="col">Gross</th>
              </tr>
            </thead>
            <tbody>
              {e.trend_12_months.map((t) => (
                <tr>
                  <th scope="row">{monthName(t.month)}</th>
                  <td class="num">{t.shifts}</td>
                  <td>
                    <span class="trend-gross">
                      <span class="trend-bar" data-share={String(Math.round((t.gross / max) * 10))} aria-hidden="true" />
                      <Money amount={t.gross} currency={e.currency} />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        {e.other_currencies.length ? (
          <p class="muted">{`Also earned in other currencies this month: ${e.other_currencies.map((o) => formatMoney(o.gross, o.currency)).join(', ')}.`}</p>
        ) : null}
      </Card>
    </AppShell>
  );
}

export async function renderEarnings(c: Context<AppEnv>, goalError?: string, goalValue?: string): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  // ?week= picks the week to detail (any of its dates); one the service would refuse shows this week.
  const asked = earningsQuery.safeParse({ week: c.req.query('week') || undefined });
  const e = await earnings(serviceCtx(c), base.shifterId, asked.success ? { week: asked.data.week } : {});
  return renderPage(
    c,
    <EarningsView base={base} e={e} notice={NOTICES[c.req.query('notice') ?? '']} goalError={goalError} goalValue={goalValue} />,
    goalError ? 422 : 200,
  );
}

/** The page's notices, by the key in `?notice=`: the address picks one, never writes one. */
const NOTICES: Record<string, string> = { goal_saved: 'Goal saved.', goal_cleared: 'Goal cleared.' };

/** What the goal's field says when the amount is refused (too many decimals, too large, not a number). */
const GOAL_WORDS = 'Enter a positive amount, like 2500 or 2500.50, or leave it empty to clear the goal.';

export async function postGoal(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const raw = String((await c.req.parseBody()).monthly_earnings_goal ?? '').trim();
  const value = raw === '' ? null : Number(raw);
  if (value !== null && !Number.isFinite(value)) return renderEarnings(c, GOAL_WORDS, raw);
  const parsed = earningsGoalInput.safeParse({ monthly_earnings_goal: value });
  if (!parsed.success) return renderEarnings(c, GOAL_WORDS, raw);
  try {
    await setEarningsGoal(serviceCtx(c), base.shifterId, parsed.data);
  } catch (err) {
    if (err instanceof AppError && err.code === 'VALIDATION-ERR') return renderEarnings(c, GOAL_WORDS, raw);
    if (err instanceof AppError && err.status < 500) return renderEarnings(c, err.message, raw);
    throw err;
  }
  return c.redirect(`${PATH}?notice=${value === null ? 'goal_cleared' : 'goal_saved'}`, 303);
}
