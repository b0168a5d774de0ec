/**
 * The /dashboard/money page itself: what it loads (loadMoney), how its sections are laid out
 * (MoneyView), the GET that shows it and the weekly budget's POST.
 */

import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { WEB_ENTRIES } from '@generated/web/assets';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { getBusinessSettings, setWeeklyBudget, weeklyBudgetInput } from '@/services/businesses';
import { type LaborCosts, laborCosts, laborCostsQuery } from '@/services/insights';
import { type InvoiceList, listInvoices } from '@/services/invoices';
import { listCards, type PaymentMethodView, type StuckInvoice, stuckInvoices } from '@/services/payments';
import { findPublicBusiness } from '@/services/profiles';
import { listShiftRoles, type ShiftRoleView } from '@/services/shifts';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { seesPay } from '@/services/access';
import { type DashboardBase, dashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { fieldErrorsOf } from '@/web/features/dashboard/refusals';
import { AppShell } from '@/web/features/dashboard/shell';
import { CardsSection } from './cards-section';
import { GoingRateSection, goingRateFor, type RateView } from './going-rate-section';
import { INVOICES_PER_PAGE, InvoicesSection, StuckSection } from './invoices-section';
import { type BudgetFormState, LaborSection } from './labor-section';
import { MONEY, type MoneyQuery, moneyQuery, renderOwnersOnly } from './money-shared';

/** The page's own sentences, picked by `?notice=` after a form succeeded (never text from the address). */
const NOTICES: Record<string, string> = {
  budget: 'The weekly budget was saved.',
  'card-added': 'The card was saved.',
  'card-default': 'That card is now the default: charges use it from now on.',
  'card-deleted': 'The card was deleted.',
};

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
