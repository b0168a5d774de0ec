/**
 * The invoices of /dashboard/money: how an invoice stands (shared with its own page, money-invoice.tsx),
 * the list by status with its pages, the card payments waiting for 3-D Secure, and the CSV export.
 */

import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { INVOICE_FILTERS, INVOICE_LIST_MAX, type InvoiceList, type InvoiceRowView, invoicesCsv, listInvoices } from '@/services/invoices';
import type { StuckInvoice } from '@/services/payments';
import { dateTimeIn, formatDate, formatMoney, shiftHours } from '@/web/format';
import { seesPay } from '@/services/access';
import { type DashboardBase, dashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { type InvoiceFilter, MONEY, type MoneyQuery, moneyQuery, renderOwnersOnly } from './money-shared';

/** Invoices a page of the list shows; the CSV export takes up to INVOICE_LIST_MAX in one file. */
export const INVOICES_PER_PAGE = 25;

const FILTER_LABELS: Record<InvoiceFilter, string> = { all: 'All', pending: 'Pending', paid: 'Paid', failed: 'Failed' };

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
      {/* On a phone each invoice stacks (.stack-table): its shift on a line, then who, the amount and its state. */}
      <table class="stack-table invoice-table">
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
                <th scope="row">
                  <a
                    href={invoiceHref(base, inv.invoice_id)}
                  >{`${formatDate(inv.shift_date)}, ${shiftHours(inv.shift_in, inv.shift_out)}`}</a>
                </th>
                <td class="stack-name">{inv.shifter_name ?? '—'}</td>
                <td class="num nowrap">{formatMoney(inv.amount, inv.currency)}</td>
                <td>
                  <span class={`badge${st.tone ? ` badge-${st.tone}` : ''}`}>{st.label}</span>
                </td>
                {inv.refunded_amount > 0 ? (
                  <td class="num nowrap" data-label="Refunded">
                    {formatMoney(inv.refunded_amount, charged.currency)}
                  </td>
                ) : (
                  <td class="num stack-skip">—</td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

export function InvoicesSection({ base, q, list }: { base: DashboardBase; q: MoneyQuery; list: InvoiceList }) {
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
export function StuckSection({ stuck, tz }: { stuck: StuckInvoice[]; tz: string }) {
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
