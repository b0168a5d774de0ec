import type { Context } from 'hono';
import type { AppEnv, WebUser } from '@/http/app-types';
import { fromMinor } from '@/lib/money';
import { invoiceOwnedBy, type OwnedInvoice } from '@/services/invoices';
import type { ServiceContext } from '@/services/kernel';
import { Layout } from '@/web/layout';
import { renderPage } from '@/web/render';

/** The paths of the finance pages (mounted at /finance/web). */
export const financePaths = {
  authenticate: (invoiceId: string) => `/finance/web/authenticate/${encodeURIComponent(invoiceId)}`,
  result: (invoiceId: string) => `/finance/web/authenticate/${encodeURIComponent(invoiceId)}/result`,
  status: (invoiceId: string) => `/finance/web/authenticate/${encodeURIComponent(invoiceId)}/status`,
  simulator: (paymentIntentId: string) => `/finance/web/simulator/authenticate/${encodeURIComponent(paymentIntentId)}`,
} as const;

/** Invoice ids and processor ids as they are minted: anything else is refused before any read. */
export const INVOICE_ID = /^in_[A-Za-z0-9]{1,64}$/;
export const INTENT_ID = /^pi_[A-Za-z0-9_]{1,128}$/;

export function webUserOf(c: Context<AppEnv>): WebUser {
  const user = c.get('webUser');
  // requireWebUser runs before every finance page; reaching here without a user is a wiring bug.
  if (!user) throw new Error('finance page reached without a signed-in user');
  return user;
}

/** An amount in minor units as people read it: "$80.00", "£12.50", "¥1,200". */
export function formatMoney(minor: number, currency: string): string {
  const code = currency.toUpperCase();
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).format(fromMinor(minor, code));
  } catch {
    return `${fromMinor(minor, code)} ${code}`;
  }
}

/**
 * The one refusal of every finance page: another user, a teammate, an unknown invoice and an invoice
 * that no longer needs the step all get these same words, so the page tells nobody which it was.
 */
export function refusePage(c: Context<AppEnv>): Promise<Response> {
  const user = c.get('webUser');
  return renderPage(
    c,
    <Layout title="Not available" user={user} csrfToken={c.get('csrfToken')}>
      <h1>Not available</h1>
      <p>This payment page is not available. The payment may be settled already, or it belongs to another account.</p>
      <p>
        <a href="/account">Back to your account</a>
      </p>
    </Layout>,
    403,
  );
}

export type PaymentState = 'paid' | 'failed' | 'processing';

export type { OwnedInvoice };

/**
 * The invoice if the signed-in person owns its business, else null (teammates and admins included:
 * confirming a charge on the owner's card is the owner's step alone). An id not shaped like one is
 * refused before any read.
 */
export async function ownedInvoice(ctx: ServiceContext, userId: string, invoiceId: string): Promise<OwnedInvoice | null> {
  if (!INVOICE_ID.test(invoiceId)) return null;
  return invoiceOwnedBy(ctx, userId, invoiceId);
}

/**
 * What the result page says, from the invoice alone (the processor's event may land before or after
 * the browser comes back): paid; still waiting for the bank's answer (requires_action still set); or
 * not paid (requires_action cleared by a failure, or the invoice failed).
 */
export function paymentState(inv: OwnedInvoice): { state: PaymentState; message: string } {
  const amount = formatMoney(inv.amount_minor, inv.currency);
  if (inv.status === 'paid') return { state: 'paid', message: `Payment received: ${amount} is paid. Thank you.` };
  if (inv.status === 'pending' && inv.requires_action)
    return { state: 'processing', message: `Waiting for your bank's answer on ${amount}. This page updates by itself.` };
  return {
    state: 'failed',
    message: `The payment of ${amount} was not completed: your bank did not confirm it. Nothing was charged; the invoice stays open to be paid again.`,
  };
}
