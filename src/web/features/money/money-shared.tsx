/**
 * What every part of /dashboard/money shares: its address, the page's query (`?status=`, `?week=`,
 * the going rate's role and place) and the page an active teammate gets instead of any money page.
 */

import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { INVOICE_FILTERS } from '@/services/invoices';
import { Notice } from '@/web/components';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { AppShell } from '@/web/features/dashboard/shell';

export const MONEY = '/dashboard/money';

export type InvoiceFilter = (typeof INVOICE_FILTERS)[number];
export const PLACES = ['city', 'state', 'country'] as const;
export type Place = (typeof PLACES)[number];

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
