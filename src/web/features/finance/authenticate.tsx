import { type Context, Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { type ChargeDetails, freshClientSecret, type FreshClientSecret } from '@/services/payments';
import { assetPaths } from '@/web/assets';
import { Card, Notice } from '@/web/components';
import { formatDate, shiftHours } from '@/web/format';
import { Layout } from '@/web/layout';
import { pageCsp, renderPage } from '@/web/render';
import { requireWebUser } from '@/web/session';
import { financePaths, formatMoney, type OwnedInvoice, ownedInvoice, paymentState, refusePage, webUserOf } from './shared';

/** Stripe.js: Stripe requires it to be loaded from its own host (PCI), never bundled or self-hosted. */
export const STRIPE_JS = 'https://js.stripe.com/v3';

/**
 * The page policy with Stripe.js allowed: its script from js.stripe.com, its 3D Secure frames from
 * js.stripe.com and hooks.stripe.com, and its calls to api.stripe.com. Only the pages that run
 * Stripe.js (the authenticate page, the card form of /dashboard/money), and only with real keys, get
 * it; every other page keeps the self-only policy.
 */
export function stripeCsp(c: Context<AppEnv>): string {
  // connect-src is widened in place: a second connect-src directive would be ignored (the first one wins).
  return pageCsp(c)
    .replace("script-src 'self'", "script-src 'self' https://js.stripe.com")
    .replace("connect-src 'self'", "connect-src 'self' https://api.stripe.com")
    .concat('; frame-src https://js.stripe.com https://hooks.stripe.com');
}

/** Refusals the payment services give for "not yours" or "nothing to authenticate": one generic page. */
const REFUSED = new Set([
  'FORBIDDEN-ERR',
  'NOT-FOUND-ERR',
  'INVOICE-NOT-FND-ERR',
  'BUSINESS-NOT-FND-ERR',
  'VALIDATION-ERR',
  'CONFLICT-ERR',
]);
export const isRefusal = (err: unknown): err is AppError => err instanceof AppError && REFUSED.has(err.code);

/** "Visa ending 4242, expires 12/2030". */
function cardWords(card: NonNullable<ChargeDetails['card']>): string {
  const brand = card.brand ? card.brand.charAt(0).toUpperCase() + card.brand.slice(1) : 'Card';
  return `${brand} ending ${card.last4}, expires ${String(card.exp_month).padStart(2, '0')}/${card.exp_year}`;
}

/** Who is charged, for which shift(s) worked by whom, on which card, and how much: what the payer checks. */
function ChargeSummary({ invoice, charge }: { invoice: OwnedInvoice; charge: ChargeDetails }) {
  return (
    <dl class="pairs">
      <dt>Business</dt>
      <dd>{charge.business_name ?? 'Your business'}</dd>
      <dt>{charge.shifts.length === 1 ? 'Shift' : 'Shifts'}</dt>
      <dd>
        {charge.shifts.length ? (
          <ul class="list-plain">
            {charge.shifts.map((s) => (
              <li>
                {`${formatDate(s.shift_date)} ${s.shift_date.slice(0, 4)}, ${shiftHours(s.shift_in, s.shift_out)}`}
                {s.role ? ` · ${s.role}` : ''}
                <span class="muted">{` (times in ${s.timezone})`}</span>
              </li>
            ))}
          </ul>
        ) : (
          'Not found'
        )}
      </dd>
      <dt>Worked by</dt>
      <dd>{charge.shifter_name ?? 'A shifter who has left Shiftmarket'}</dd>
      <dt>Card</dt>
      <dd>{charge.card ? cardWords(charge.card) : 'The card saved for the business'}</dd>
      <dt>Amount</dt>
      <dd>
        <strong>{formatMoney(invoice.amount_minor, invoice.currency)}</strong>
      </dd>
      <dt>Invoice</dt>
      <dd>
        <code>{invoice.id}</code>
      </dd>
    </dl>
  );
}

function AuthenticateView(props: {
  c: Context<AppEnv>;
  invoice: OwnedInvoice;
  mode: 'stripe' | 'simulator';
  publishableKey: string;
  paymentIntentId: string;
  clientSecret: string;
  nextStep: FreshClientSecret['next_step'];
  paymentMethodId: string | null;
  charge: ChargeDetails;
}) {
  const { c, invoice, mode } = props;
  const result = financePaths.result(invoice.id);
  const simulatorUrl =
    mode === 'simulator'
      ? `${financePaths.simulator(props.paymentIntentId)}?${new URLSearchParams({ client_secret: props.clientSecret, return_to: result })}`
      : undefined;
  return (
    <Layout
      title="Confirm a payment"
      user={c.get('webUser')}
      csrfToken={c.get('csrfToken')}
      scripts={mode === 'stripe' ? [STRIPE_JS, assetPaths.financeJs] : [assetPaths.financeJs]}
    >
      <h1>Confirm a payment</h1>
      <Card title="What you are paying for">
        <ChargeSummary invoice={invoice} charge={props.charge} />
        <p id="payment-auth-hint">
          Your bank asks you to confirm this charge on {props.charge.card ? 'this card' : 'your saved card'} before it goes through (3D
          Secure). Nothing is charged until you confirm. If any of this is not what you expect, do not confirm.
        </p>
        <div
          id="payment-auth"
          data-mode={mode}
          data-publishable-key={props.publishableKey}
          data-client-secret={props.clientSecret}
          data-payment-intent={props.paymentIntentId}
          data-next-step={props.nextStep}
          data-payment-method={props.paymentMethodId ?? undefined}
          data-result-url={result}
          data-simulator-url={simulatorUrl}
        >
          <button type="button" id="payment-auth-start" class="button button-primary" aria-describedby="payment-auth-hint" hidden>
            Confirm with your bank
          </button>
          <p id="payment-auth-status" class="hint" role="status" aria-live="polite" />
          <p id="payment-auth-noscript">
            {simulatorUrl ? (
              <a href={simulatorUrl}>Continue to your bank's check</a>
            ) : (
              'This step needs JavaScript: turn it on and reload the page.'
            )}
          </p>
        </div>
      </Card>
    </Layout>
  );
}

function ResultView({ c, invoice }: { c: Context<AppEnv>; invoice: OwnedInvoice }) {
  const { state, message } = paymentState(invoice);
  return (
    <Layout title="Payment" user={c.get('webUser')} csrfToken={c.get('csrfToken')} scripts={[assetPaths.financeJs]}>
      <h1>Payment</h1>
      <Card title={`Invoice ${invoice.id}`}>
        <div id="payment-result" data-state={state} data-status-url={financePaths.status(invoice.id)}>
          <Notice kind={state === 'paid' ? 'success' : state === 'failed' ? 'error' : 'info'}>
            <p id="payment-result-message">{message}</p>
          </Notice>
        </div>
        <p>
          <a href={financePaths.result(invoice.id)}>Refresh</a> · <a href="/account">Back to your account</a>
        </p>
      </Card>
    </Layout>
  );
}

/**
 * /finance/web/authenticate/{invoice_id}: the owner of the invoice's business confirms a charge
 * the issuer held for strong authentication, while the invoice still requires it; `/result` reads
 * the invoice afterwards (paid, not paid, or still waiting for the processor's event) and `/status`
 * is the same as JSON for the result page's short poll. Everyone else, and the owner once the
 * invoice no longer requires action, gets the one generic 403 page.
 */
export const authenticatePages = new Hono<AppEnv>()
  .get('/authenticate/:invoice_id', requireWebUser, async (c) => {
    const ctx = serviceCtx(c);
    const invoice = await ownedInvoice(ctx, webUserOf(c).userId, c.req.param('invoice_id'));
    if (invoice?.status !== 'pending' || !invoice.requires_action) return refusePage(c);
    let fresh: Awaited<ReturnType<typeof freshClientSecret>>;
    try {
      fresh = await freshClientSecret(ctx, invoice.id);
    } catch (err) {
      if (isRefusal(err)) return refusePage(c);
      throw err;
    }
    const res = await renderPage(
      c,
      <AuthenticateView
        c={c}
        invoice={invoice}
        mode={fresh.gateway}
        publishableKey={fresh.publishable_key}
        paymentIntentId={fresh.payment_intent_id}
        clientSecret={fresh.client_secret}
        nextStep={fresh.next_step}
        paymentMethodId={fresh.payment_method_id}
        charge={fresh.charge}
      />,
    );
    if (fresh.gateway === 'stripe') res.headers.set('Content-Security-Policy', stripeCsp(c));
    return res;
  })
  .get('/authenticate/:invoice_id/result', requireWebUser, async (c) => {
    const invoice = await ownedInvoice(serviceCtx(c), webUserOf(c).userId, c.req.param('invoice_id'));
    if (!invoice) return refusePage(c);
    // The result page's poll reads /status on this origin, which the page CSP allows (connect-src 'self').
    return renderPage(c, <ResultView c={c} invoice={invoice} />);
  });
