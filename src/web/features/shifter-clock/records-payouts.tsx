// The records page's payouts: the latest payouts with their state, and the post that opens the payout account's onboarding.
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { type PayoutRow, type PayoutState, startPayoutOnboarding } from '@/services/payments';
import { formatDate, formatMoney } from '@/web/format';
import { PATH } from './records-shared';

const PAYOUT_STATES: Record<PayoutState, { label: string; kind: string }> = {
  sent: { label: 'Sent', kind: 'badge-ok' },
  waiting: { label: 'Waiting for your payout account', kind: 'badge-warn' },
  invoiced: { label: 'Not paid by the business yet', kind: '' },
  refunded: { label: 'Refunded', kind: '' },
};

export function PayoutList({ rows }: { rows: PayoutRow[] }) {
  if (!rows.length) return <p class="empty">No payout yet: your share of a worked shift shows here once it is invoiced.</p>;
  return (
    <ul class="list-plain record-list" data-payouts>
      {rows.map((p) => {
        const s = PAYOUT_STATES[p.state];
        return (
          <li data-state={p.state}>
            <strong>{formatMoney(p.amount, p.currency)}</strong>
            {` · ${p.business_name} · ${formatDate(p.shift_date)} `}
            <span class={`badge ${s.kind}`.trim()}>{s.label}</span>
          </li>
        );
      })}
    </ul>
  );
}

export async function postPayout(c: Context<AppEnv>) {
  const origin = new URL(c.req.url).origin;
  const link = await startPayoutOnboarding(serviceCtx(c), { refreshUrl: `${origin}${PATH}`, returnUrl: `${origin}${PATH}` });
  return c.redirect(link.url, 303);
}
