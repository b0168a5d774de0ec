/**
 * The saved cards of /dashboard/money as the page lists them, with their buttons (make default,
 * delete); the card pages and their posts are in money-cards.tsx.
 */

import type { PaymentMethodView } from '@/services/payments';
import { CsrfField, IdempotencyField } from '@/web/components';
import { type DashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { MONEY } from './money-shared';

// ── Cards ───────────────────────────────────────────────────────────────────────────────────────

export const cardName = (card: Pick<PaymentMethodView, 'brand' | 'last4'>) =>
  `${card.brand.charAt(0).toUpperCase()}${card.brand.slice(1)} ending in ${card.last4}`;

export function CardsSection({ base, cards }: { base: DashboardBase; cards: PaymentMethodView[] }) {
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
