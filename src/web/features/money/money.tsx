import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { WEB_ENTRIES } from '@generated/web/assets';
import { againstBudget, budgetSentence, type LaborChartProps, weekLabel } from './labor.model';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { addDays } from '@/lib/shift-time';
import type { BusinessView } from '@/services/accounts';
import { getBusinessSettings, setWeeklyBudget, weeklyBudgetInput } from '@/services/businesses';
import { type GoingRate, goingRate, type LaborCosts, laborCosts, laborCostsQuery } from '@/services/insights';
import { INVOICE_FILTERS, INVOICE_LIST_MAX, type InvoiceList, type InvoiceRowView, invoicesCsv, listInvoices } from '@/services/invoices';
import { listCards, type PaymentMethodView, type StuckInvoice, stuckInvoices } from '@/services/payments';
import { findPublicBusiness } from '@/services/profiles';
import { listShiftRoles, type ShiftRoleView } from '@/services/shifts';
import { CsrfField, IdempotencyField, InputField, Notice, SelectField, SubmitButton } from '@/web/components';
import { dateTimeIn, formatDate, formatMoney, shiftHours } from '@/web/format';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { seesPay } from '@/services/access';
import { type DashboardBase, dashboardBase, dashboardHref } from '../dashboard/context';
import { fieldErrorsOf } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';

/**
 * /dashboard/money: the business's money, for its owner (and admins): card payments waiting for
 * 3-D Secure, the week's labor costs with the last 8 weeks charted against the budget (edited in
 * place), the invoices by status with a CSV export, the saved cards and the going rate. Each invoice
 * opens its own page (money-invoice.tsx) to charge or refund it; cards are managed in money-cards.tsx.
 * An active teammate gets a page saying money is the owner's (the services refuse them too).
 */

export const MONEY = '/dashboard/money';
/** Invoices a page of the list shows; the CSV export takes up to INVOICE_LIST_MAX in one file. */
export const INVOICES_PER_PAGE = 25;

type InvoiceFilter = (typeof INVOICE_FILTERS)[number];
const FILTER_LABELS: Record<InvoiceFilter, string> = { all: 'All', pending: 'Pending', paid: 'Paid', failed: 'Failed' };
const PLACES = ['city', 'state', 'country'] as const;
type Place = (typeof PLACES)[number];

/** The page's own sentences, picked by `?notice=` after a form succeeded (never text from the address). */
const NOTICES: Record<string, string> = {
  budget: 'The weekly budget was saved.',
  'card-added': 'The card was saved.',
  'card-default': 'That card is now the default: charges use it from now on.',
  'card-deleted': 'The card was deleted.',
};

export interface MoneyQuery {
  status: InvoiceFilter;
  cursor: string | undefined;
  week: string | undefined;
  rateRole: string;
  ratePlace: Place;
}

export function moneyQuery(c: Context<AppEnv>): MoneyQuery {
  const q = (k: string) => c.req.query(k) ?? '';
  const status = (INVOICE_FILTERS as readonly string[]).includes(q('status')) ? (q('status') as InvoiceFilter) : 'all';
  const place = (PLACES as readonly string[]).includes(q('rate_place')) ? (q('rate_place') as Place) : 'city';
  return {
    status,
    cursor: q('cursor').slice(0, 200) || undefined,
    week: q('week').slice(0, 10) || undefined,
    rateRole: /^\d{1,9}$/.test(q('rate_role')) ? q('rate_role') : '',
    ratePlace: place,
  };
}

/** The page an active teammate gets for any money page: the owner's business, said plainly. */
export function OwnersOnlyView({ base }: { base: DashboardBase }) {
  return (
    <AppShell base={base} title="Money" current={MONEY}>
      <Notice kind="info">
        <p>
          Money is the owner's: the invoices, cards, refunds and labor costs of {base.business?.name ?? 'this business'} are shown to its
          owner only.
        </p>
      </Notice>
      <p>
        As a teammate you run the day: <a href={dashboardHref(base, '/dashboard/schedule')}>the schedule</a> and{' '}
        <a href={dashboardHref(base, '/dashboard/shifts/new')}>posting shifts</a> are yours. Ask the owner about payments.
      </p>
    </AppShell>
  );
}

export const renderOwnersOnly = (c: Context<AppEnv>, base: DashboardBase) => renderPage(c, <OwnersOnlyView base={base} />, 403);

// ── Invoices ────────────────────────────────────────────────────────────────────────────────────

/** What of an invoice was charged: the conversion when it settled in another currency. */
export function chargedOf(inv: InvoiceRowView): { amount: number; currency: string } {
  return inv.conversion_amount !== null && inv.conversion_currency !== null
    ? { amount: inv.conversion_amount, currency: inv.conversion_currency }
    : { amount: inv.amount, currency: inv.currency };
}

/** How an invoice stands, in a word and a tone (the badge). */
export function invoiceStanding(inv: InvoiceRowView): { label: string; tone: 'ok' | 'warn' | 'info' | '' } {
  if (inv.status === 'paid') {
    if (inv.refund_status === 'full') return { label: 'Refunded', tone: '' };
    if (inv.refund_status === 'partial') return { label: 'Paid, partly refunded', tone: 'ok' };
    return { label: 'Paid', tone: 'ok' };
  }
  if (inv.requires_action) return { label: 'Waiting for 3-D Secure', tone: 'warn' };
  if (inv.failed_at) return { label: 'Charge failed', tone: 'warn' };
  return { label: 'Pending', tone: 'info' };
}

export const invoiceHref = (base: DashboardBase, id: string, query: Record<string, string | undefined> = {}) =>
  dashboardHref(base, `${MONEY}/invoices/${encodeURIComponent(id)}`, query);

function InvoiceTable({ base, list }: { base: DashboardBase; list: InvoiceList }) {
  if (!list.data.length) return <p class="empty">No invoices here.</p>;
  return (
    <section class="table-wrap" tabindex={0} aria-labelledby="invoices-caption">
      <table>
        <caption class="visually-hidden" id="invoices-caption">
          Invoices, newest first
        </caption>
        <thead>
          <tr>
            <th scope="col">Shift</th>
            <th scope="col">Shifter</th>
            <th scope="col" class="num">
              Amount
            </th>
            <th scope="col">Status</th>
            <th scope="col" class="num">
              Refunded
            </th>
          </tr>
        </thead>
        <tbody>
          {list.data.map((inv) => {
            const st = invoiceStanding(inv);
            const charged = chargedOf(inv);
            return (
              <tr>
                <td>
                  <a
                    href={invoiceHref(base, inv.invoice_id)}
                  >{`${formatDate(inv.shift_date)}, ${shiftHours(inv.shift_in, inv.shift_out)}`}</a>
                </td>
                <td>{inv.shifter_name ?? '—'}</td>
                <td class="num nowrap">{formatMoney(inv.amount, inv.currency)}</td>
                <td>
                  <span class={`badge${st.tone ? ` badge-${st.tone}` : ''}`}>{st.label}</span>
                </td>
                <td class="num nowrap">{inv.refunded_amount > 0 ? formatMoney(inv.refunded_amount, charged.currency) : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function InvoicesSection({ base, q, list }: { base: DashboardBase; q: MoneyQuery; list: InvoiceList }) {
  const filterHref = (status: InvoiceFilter) => `${dashboardHref(base, MONEY, { status: status === 'all' ? undefined : status })}#invoices`;
  return (
    <section class="card" id="invoices" aria-labelledby="invoices-head">
      <div class="section-head">
        <h2 id="invoices-head">Invoices</h2>
        <a class="button button-secondary" href={dashboardHref(base, `${MONEY}/invoices.csv`, { status: q.status })} download>
          {`Export ${q.status === 'all' ? 'all' : FILTER_LABELS[q.status].toLowerCase()} as CSV`}
        </a>
      </div>
      <nav aria-label="Invoices by status" class="filter-nav">
        <ul>
          {INVOICE_FILTERS.map((f) => (
            <li>
              <a href={filterHref(f)} aria-current={f === q.status ? 'page' : undefined}>
                {FILTER_LABELS[f]}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <p class="hint">
        Open an invoice to charge it now or to refund it in full or in part. Failed: not paid, and the last charge was declined. The export
        holds up to {INVOICE_LIST_MAX.toLocaleString('en-US')} invoices of this filter, newest first.
      </p>
      <InvoiceTable base={base} list={list} />
      {list.next_cursor || q.cursor ? (
        <nav aria-label="Invoice pages" class="pager">
          {q.cursor ? (
            <a href={`${dashboardHref(base, MONEY, { status: q.status === 'all' ? undefined : q.status })}#invoices`}>First page</a>
          ) : null}
          {list.next_cursor ? (
            <a
              href={`${dashboardHref(base, MONEY, { status: q.status === 'all' ? undefined : q.status, cursor: list.next_cursor })}#invoices`}
            >
              Next page
            </a>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

function StuckSection({ stuck, tz }: { stuck: StuckInvoice[]; tz: string }) {
  if (!stuck.length) return null;
  return (
    <section class="notice notice-error" aria-labelledby="stuck-head" id="three-d-secure">
      <h2 id="stuck-head">Payments waiting for 3-D Secure</h2>
      <p>Your bank asked you to confirm these card payments before they go through:</p>
      <ul>
        {stuck.map((s) => (
          <li>
            <a href={s.authenticate_path}>{`Confirm ${formatMoney(s.amount, s.currency)}`}</a>
            {s.requires_action_at ? <span class="muted">{` · asked ${dateTimeIn(s.requires_action_at, tz)}`}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

// ── Labor costs ─────────────────────────────────────────────────────────────────────────────────

export interface BudgetFormState {
  value: string;
  error?: string | undefined;
  idem?: string | undefined;
}

function LaborSection(props: {
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
          <table id="labor-table">
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
                  <td class="num nowrap">{fmt(w.total)}</td>
                  <td class="num">{w.hours}</td>
                  <td data-against-total={String(w.total)}>{againstBudget(w.total, budget, fmt)}</td>
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

      <div class="grid">
        <div>
          <h3>By shifter</h3>
          {labor.by_shifter.length ? (
            <section class="table-wrap" tabindex={0} aria-labelledby="by-shifter-caption">
              <table class="compact">
                <caption class="visually-hidden" id="by-shifter-caption">
                  This week's labor cost by shifter
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Shifter</th>
                    <th scope="col" class="num">
                      Shifts
                    </th>
                    <th scope="col" class="num">
                      Hours
                    </th>
                    <th scope="col" class="num">
                      Cost
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {labor.by_shifter.map((r) => (
                    <tr>
                      <th scope="row">{r.shifter_name ?? 'Former shifter'}</th>
                      <td class="num">{r.shifts}</td>
                      <td class="num">{r.hours}</td>
                      <td class="num nowrap">{fmt(r.total)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ) : (
            <p class="empty">No worked shifts this week.</p>
          )}
        </div>
        <div>
          <h3>By role</h3>
          {labor.by_role.length ? (
            <section class="table-wrap" tabindex={0} aria-labelledby="by-role-caption">
              <table class="compact">
                <caption class="visually-hidden" id="by-role-caption">
                  This week's labor cost by role
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Role</th>
                    <th scope="col" class="num">
                      Shifts
                    </th>
                    <th scope="col" class="num">
                      Hours
                    </th>
                    <th scope="col" class="num">
                      Cost
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {labor.by_role.map((r) => (
                    <tr>
                      <th scope="row">{r.role ?? 'Other'}</th>
                      <td class="num">{r.shifts}</td>
                      <td class="num">{r.hours}</td>
                      <td class="num nowrap">{fmt(r.total)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ) : (
            <p class="empty">No worked shifts this week.</p>
          )}
        </div>
      </div>
    </section>
  );
}

// ── Cards ───────────────────────────────────────────────────────────────────────────────────────

export const cardName = (card: Pick<PaymentMethodView, 'brand' | 'last4'>) =>
  `${card.brand.charAt(0).toUpperCase()}${card.brand.slice(1)} ending in ${card.last4}`;

function CardsSection({ base, cards }: { base: DashboardBase; cards: PaymentMethodView[] }) {
  const cardHref = (pm: string, what: string) => dashboardHref(base, `${MONEY}/cards/${encodeURIComponent(pm)}/${what}`);
  return (
    <section class="card" id="cards" aria-labelledby="cards-head">
      <div class="section-head">
        <h2 id="cards-head">Saved cards</h2>
        <a class="button button-secondary" href={dashboardHref(base, `${MONEY}/cards/new`)}>
          Add a card
        </a>
      </div>
      {cards.length ? (
        <ul class="list-plain">
          {cards.map((card) => (
            <li class="row-actions">
              <span>
                <strong>{cardName(card)}</strong>
                <span class="muted">{` · expires ${String(card.exp_month).padStart(2, '0')}/${card.exp_year}`}</span>{' '}
                {card.is_default ? <span class="badge badge-ok">Default</span> : null}
              </span>
              <span class="actions">
                {card.is_default ? null : (
                  <form method="post" action={cardHref(card.payment_method_id, 'default')} class="inline-form">
                    <CsrfField token={base.csrfToken} />
                    <IdempotencyField />
                    <button type="submit" class="button button-secondary" aria-label={`Make the ${cardName(card)} the default`}>
                      Make default
                    </button>
                  </form>
                )}
                <form method="post" action={cardHref(card.payment_method_id, 'delete')} class="inline-form">
                  <CsrfField token={base.csrfToken} />
                  <IdempotencyField />
                  <button type="submit" class="button button-secondary" aria-label={`Delete the ${cardName(card)}`}>
                    Delete
                  </button>
                </form>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p class="empty">No card saved: invoices wait until a card is added.</p>
      )}
      <p class="hint">
        Worked shifts are charged to the default card automatically; you can also charge an invoice yourself from its page.
      </p>
    </section>
  );
}

// ── Going rate ──────────────────────────────────────────────────────────────────────────────────

interface RateView {
  rate: GoingRate | null;
  placeName: string;
  missing: string | null;
}

function placeLabels(cityName: string | null): Record<Place, string> {
  return { city: cityName ? `${cityName} (your city)` : 'Your city', state: 'Your state or region', country: 'Your country' };
}

async function goingRateFor(
  c: Context<AppEnv>,
  q: MoneyQuery,
  business: BusinessView,
  currency: string,
  cityName: string | null,
): Promise<RateView> {
  const ids: Record<Place, number | null> = { city: business.city_id, state: business.state_id, country: business.country_id };
  const id = ids[q.ratePlace];
  const placeName = placeLabels(cityName)[q.ratePlace];
  if (id === null)
    return { rate: null, placeName, missing: 'The business has no place of that kind on record: choose another, or set its city.' };
  const where = q.ratePlace === 'city' ? { city_id: id } : q.ratePlace === 'state' ? { state_id: id } : { country_id: id };
  const rate = await goingRate(serviceCtx(c), { ...where, ...(q.rateRole ? { shiftrole_id: Number(q.rateRole) } : {}), currency });
  return { rate, placeName, missing: null };
}

function GoingRateSection(props: { base: DashboardBase; q: MoneyQuery; roles: ShiftRoleView[]; view: RateView; cityName: string | null }) {
  const { base, q, roles, view } = props;
  const r = view.rate;
  const cur = r?.currency ?? base.business?.currency ?? 'USD';
  const labels = placeLabels(props.cityName);
  const role = roles.find((x) => String(x.id) === q.rateRole);
  return (
    <section class="card" id="going-rate" aria-labelledby="going-rate-head">
      <h2 id="going-rate-head">Going rate</h2>
      <form method="get" action={`${MONEY}#going-rate`} class="inline-fields">
        {base.business ? <input type="hidden" name="business_id" value={base.business.id} /> : null}
        <SelectField
          label="Role"
          name="rate_role"
          id="field-rate_role"
          value={q.rateRole}
          options={[{ value: '', label: 'Any role' }, ...roles.map((x) => ({ value: String(x.id), label: x.label }))]}
        />
        <SelectField
          label="Place"
          name="rate_place"
          id="field-rate_place"
          value={q.ratePlace}
          options={PLACES.map((p) => ({ value: p, label: labels[p] }))}
        />
        <SubmitButton variant="secondary">Show the going rate</SubmitButton>
      </form>
      {view.missing ? (
        <p class="empty">{view.missing}</p>
      ) : r && r.median !== null ? (
        <>
          <p class="stat">{`${formatMoney(r.median, cur)} / h`}</p>
          <p class="stat-label">{`Median hourly rate · ${role ? role.label : 'any role'} · ${view.placeName} · worked shifts of the last ${r.window_days} days`}</p>
          <dl class="pairs">
            <dt>Middle half</dt>
            <dd>{r.p25 !== null && r.p75 !== null ? `${formatMoney(r.p25, cur)} to ${formatMoney(r.p75, cur)}` : '—'}</dd>
            <dt>Lowest and highest</dt>
            <dd>{r.min !== null && r.max !== null ? `${formatMoney(r.min, cur)} to ${formatMoney(r.max, cur)}` : '—'}</dd>
            <dt>Shifts counted</dt>
            <dd>{r.sufficient_data ? String(r.sample_size) : `${r.sample_size} (few: fewer than ${r.min_sample}, read it as a hint)`}</dd>
          </dl>
        </>
      ) : (
        <p class="empty">{`No worked shifts at this rate's place and role in the last ${r?.window_days ?? 90} days yet.`}</p>
      )}
    </section>
  );
}

// ── The page ────────────────────────────────────────────────────────────────────────────────────

export interface MoneyData {
  q: MoneyQuery;
  invoices: InvoiceList;
  labor: LaborCosts;
  cards: PaymentMethodView[];
  stuck: StuckInvoice[];
  roles: ShiftRoleView[];
  rate: RateView;
  cityName: string | null;
  weekError?: string | undefined;
  pageError?: string | undefined;
}

export async function loadMoney(c: Context<AppEnv>, base: DashboardBase, q: MoneyQuery): Promise<MoneyData> {
  const ctx = serviceCtx(c);
  const b = base.business!;
  const week = q.week ? laborCostsQuery.safeParse({ week: q.week }) : null;
  const weekError = week && !week.success ? 'Enter a date as YYYY-MM-DD.' : undefined;
  const invoicesPage = async (): Promise<{ list: InvoiceList; error?: string }> => {
    const first = () => listInvoices(ctx, { business_id: b.id, status: q.status, limit: INVOICES_PER_PAGE });
    if (!q.cursor) return { list: await first() };
    try {
      return { list: await listInvoices(ctx, { business_id: b.id, status: q.status, limit: INVOICES_PER_PAGE, cursor: q.cursor }) };
    } catch (err) {
      // A page link that no longer reads (edited by hand, or from an older list): the first page instead.
      if (err instanceof AppError && err.code === 'VALIDATION-ERR') {
        return { list: await first(), error: 'That page of invoices could not be read: here is the first page.' };
      }
      throw err;
    }
  };
  const [page, labor, cards, stuck, roles, settings, pub] = await Promise.all([
    invoicesPage(),
    laborCosts(ctx, b.id, week?.success ? week.data : {}),
    listCards(ctx, b.id),
    stuckInvoices(ctx),
    listShiftRoles(ctx),
    getBusinessSettings(ctx, b.id),
    findPublicBusiness(ctx, b.slug),
  ]);
  const cityName = pub?.city ?? null;
  return {
    q,
    invoices: page.list,
    labor,
    cards: cards.data,
    stuck: stuck.filter((s) => s.business_id === b.id),
    roles,
    rate: await goingRateFor(c, q, settings.business, b.currency, cityName),
    cityName,
    weekError,
    pageError: page.error,
  };
}

export function MoneyView(props: {
  base: DashboardBase;
  data: MoneyData;
  budgetForm?: BudgetFormState | undefined;
  notice?: string | undefined;
  error?: string | undefined;
}) {
  const { base, data } = props;
  const island = WEB_ENTRIES.islands['labor-chart'];
  const budget = data.labor.weekly_budget;
  const budgetForm = props.budgetForm ?? { value: budget === null ? '' : String(budget) };
  return (
    <AppShell
      base={base}
      title="Money"
      current={MONEY}
      notice={props.notice}
      error={props.error ?? data.pageError}
      scripts={[island.js]}
      styles={island.css ? [island.css] : []}
    >
      <nav aria-label="On this page" class="toc">
        <ul>
          <li>
            <a href="#labor">Labor costs</a>
          </li>
          <li>
            <a href="#invoices">Invoices</a>
          </li>
          <li>
            <a href="#cards">Saved cards</a>
          </li>
          <li>
            <a href="#going-rate">Going rate</a>
          </li>
        </ul>
      </nav>
      <StuckSection stuck={data.stuck} tz={data.labor.timezone} />
      <LaborSection
        base={base}
        labor={data.labor}
        budgetForm={budgetForm}
        weekError={data.weekError}
        weekValue={data.q.week && !data.weekError ? data.labor.week_start : (data.q.week ?? data.labor.week_start)}
      />
      <InvoicesSection base={base} q={data.q} list={data.invoices} />
      <CardsSection base={base} cards={data.cards} />
      <GoingRateSection base={base} q={data.q} roles={data.roles} view={data.rate} cityName={data.cityName} />
    </AppShell>
  );
}

export async function renderMoney(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  if (!seesPay(base.business?.role)) return renderOwnersOnly(c, base);
  const data = await loadMoney(c, base, moneyQuery(c));
  const notice = NOTICES[c.req.query('notice') ?? ''];
  return renderPage(c, <MoneyView base={base} data={data} notice={notice} />, data.weekError ? 400 : 200);
}

/**
 * POST /dashboard/money/budget: the weekly budget, through the budget service. Succeeds back to the
 * labor costs of the week shown; a refusal shows the page again with what was typed and the
 * service's message beside the field.
 */
export async function postBudget(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  if (!seesPay(base.business?.role)) return renderOwnersOnly(c, base);
  const f = await formFields(c);
  const raw = f('weekly_labor_budget', 40).trim();
  const week = f('week', 10);
  const idem = f('_idem', 255);
  const again = async (status: ContentfulStatusCode, error: string) => {
    const q = { ...moneyQuery(c), week: week || undefined };
    return renderPage(
      c,
      <MoneyView
        base={base}
        data={await loadMoney(c, base, q)}
        budgetForm={{ value: raw, error, idem }}
        error="The budget was not saved: see the message beside it."
      />,
      status,
    );
  };
  const parsed = weeklyBudgetInput.safeParse({ weekly_labor_budget: raw === '' ? null : Number(raw.replace(/,/g, '')) });
  if (!parsed.success) {
    return again(400, 'Enter the budget as an amount of 0 or more, e.g. 4500, or leave it empty for none.');
  }
  try {
    await setWeeklyBudget(serviceCtx(c), base.business.id, parsed.data);
  } catch (err) {
    const { errors, rest } = fieldErrorsOf(err, ['weekly_labor_budget'], {});
    return again((err as AppError).status as ContentfulStatusCode, errors.weekly_labor_budget ?? rest ?? 'The budget was not saved.');
  }
  return c.redirect(`${dashboardHref(base, MONEY, { week: week || undefined, notice: 'budget' })}#labor`, 303);
}

/**
 * GET /dashboard/money/invoices.csv: the invoices of a status filter as the API's export writes them
 * (the same service and CSV writer, up to INVOICE_LIST_MAX rows, X-Next-Cursor when there are more),
 * with the cookie session. A page route rather than a link to the API: the API reads the cookie only
 * with the X-CSRF-Token header, which a plain link cannot send; a download link needs no script.
 */
export async function exportInvoicesCsv(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  if (!seesPay(base.business?.role)) return renderOwnersOnly(c, base);
  const { status } = moneyQuery(c);
  const page = await listInvoices(serviceCtx(c), { business_id: base.business.id, status, limit: INVOICE_LIST_MAX });
  const headers: Record<string, string> = {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="invoices-${base.business.slug}-${status}.csv"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
  if (page.next_cursor) headers['X-Next-Cursor'] = page.next_cursor;
  return c.body(invoicesCsv(page.data), 200, headers);
}
