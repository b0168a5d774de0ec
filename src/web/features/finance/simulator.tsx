import { type Context, Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { AppError } from '@/lib/errors';
import { serviceCtx } from '@/http/create-app';
import type { ConnectedAccountResult, PaymentIntentResult, ServiceContext } from '@/services/kernel';
import { applyAccountStatus, paymentGateway, payoutAccountOfUser } from '@/services/payments';
import { simulatorAuthenticate, simulatorCompleteOnboarding } from '@/local/payment-simulator';
import { Card, CsrfField, Notice, SubmitButton } from '@/web/components';
import { formFields } from '@/web/forms';
import { Layout } from '@/web/layout';
import { renderError, renderPage } from '@/web/render';
import { requireWebUser } from '@/web/session';
import { safeNextPath } from '@/web/urls';
import { isRefusal } from './authenticate';
import { formatMoney, INTENT_ID, ownedInvoice, refusePage, webUserOf } from './shared';

const SECRET_MAX = 256;
const ACCOUNT_ID = /^acct_[A-Za-z0-9_]{1,128}$/;

/** The processor does not know the id (Stripe's `resource_missing`, which the simulator answers too). */
const unknownToProcessor = (err: unknown) =>
  err instanceof AppError &&
  err.code === 'PAYMENT-GATEWAY-ERR' &&
  (err.details as { processor_code?: string } | undefined)?.processor_code === 'resource_missing';

/** An intent the processor does not know: there is no such page (a 404 page, not the processor's error). */
const noSuchPage = (c: Context<AppEnv>) => renderError(c, 404, 'Page not found', 'There is no such page.');

/**
 * The simulated issuer's page, standing in for the bank's 3D Secure check when the local payment
 * simulator is the processor (no STRIPE_SECRET_KEY; with real keys it is not there). It shows the
 * charge and posts "Complete" or "Fail" to the simulator, which settles the PaymentIntent and queues
 * the signed event the webhook receives, then sends the browser back to `return_to` (a path on this
 * site only). Only the owner of the invoice the intent charges may use it, while the intent still
 * requires action; the client secret must match too, as it would for the real issuer. An intent the
 * processor does not know answers 'unknown': the page is a 404.
 */
async function heldIntent(c: Context<AppEnv>, ctx: ServiceContext): Promise<PaymentIntentResult | null | 'unknown'> {
  const id = c.req.param('payment_intent_id') ?? '';
  if (!INTENT_ID.test(id)) return null;
  let intent: PaymentIntentResult;
  try {
    intent = await paymentGateway(ctx).retrievePaymentIntent(id);
  } catch (err) {
    if (isRefusal(err)) return null;
    if (unknownToProcessor(err)) return 'unknown';
    throw err;
  }
  const invoiceId = intent.metadata.invoice_id;
  if (intent.status !== 'requires_action' || !invoiceId) return null;
  const invoice = await ownedInvoice(ctx, webUserOf(c).userId, invoiceId);
  return invoice && invoice.payment_intent_id === intent.id ? intent : null;
}

function IssuerView(props: { c: Context<AppEnv>; intent: PaymentIntentResult; clientSecret: string; returnTo: string }) {
  const { c, intent } = props;
  return (
    <Layout title="Your bank's check (simulated)" user={c.get('webUser')} csrfToken={c.get('csrfToken')}>
      <h1>Your bank's check (simulated)</h1>
      <Card title="Confirm this payment">
        <p>
          This page stands in for your card issuer's 3D Secure check: the local payment simulator is running, so no bank is asked and no
          real money moves.
        </p>
        <dl class="details">
          <dt>Merchant</dt>
          <dd>Shiftmarket</dd>
          <dt>Amount</dt>
          <dd>{formatMoney(intent.amount, intent.currency)}</dd>
          <dt>Invoice</dt>
          <dd>
            <code>{intent.metadata.invoice_id}</code>
          </dd>
        </dl>
        <form method="post" action={c.req.path} class="actions">
          <CsrfField token={c.get('csrfToken')} />
          <input type="hidden" name="client_secret" value={props.clientSecret} />
          <input type="hidden" name="return_to" value={props.returnTo} />
          <SubmitButton name="outcome" value="succeed">
            Complete authentication
          </SubmitButton>
          <SubmitButton name="outcome" value="fail" variant="secondary">
            Fail authentication
          </SubmitButton>
        </form>
      </Card>
    </Layout>
  );
}

/**
 * The simulated connected account of the signed-in shifter named in the path (the onboarding link's
 * account), read from the simulator; null for anyone else's account, an unknown one or a bad id.
 */
async function ownAccount(c: Context<AppEnv>, ctx: ServiceContext): Promise<ConnectedAccountResult | null> {
  const id = c.req.param('account_id') ?? '';
  if (!ACCOUNT_ID.test(id)) return null;
  const accountId = await payoutAccountOfUser(ctx, webUserOf(c).userId, id);
  if (!accountId) return null;
  try {
    return await paymentGateway(ctx).retrieveConnectedAccount(accountId);
  } catch (err) {
    if (isRefusal(err)) return null;
    throw err;
  }
}

/**
 * The simulated onboarding page the simulator's account links open (Stripe's hosted onboarding with
 * real keys): the shifter whose connected account it is completes it with one button; the simulator
 * then sends the signed `account.updated` the webhook receives, and the row is updated at once too.
 */
function OnboardingView(props: { c: Context<AppEnv>; account: ConnectedAccountResult; returnTo: string }) {
  const { c, account } = props;
  const done = account.details_submitted && account.payouts_enabled;
  return (
    <Layout title="Payout account onboarding (simulated)" user={c.get('webUser')} csrfToken={c.get('csrfToken')}>
      <h1>Payout account onboarding (simulated)</h1>
      <Card title="Your payout account">
        <p>
          This page stands in for the payment processor's onboarding: the local payment simulator is running, so no identity or bank details
          are asked and no real money moves.
        </p>
        <dl class="details">
          <dt>Account</dt>
          <dd>
            <code id="onboarding-account">{account.id}</code>
          </dd>
          <dt>Payouts</dt>
          <dd id="onboarding-state">{done ? 'enabled' : 'not enabled yet'}</dd>
        </dl>
        {done ? (
          <Notice kind="success">
            <p>Onboarding is complete: your pay for worked shifts is sent to this account.</p>
          </Notice>
        ) : (
          <form method="post" action={c.req.path} class="actions">
            <CsrfField token={c.get('csrfToken')} />
            <input type="hidden" name="return_to" value={props.returnTo} />
            <SubmitButton>Complete onboarding</SubmitButton>
          </form>
        )}
        <p>
          <a href={props.returnTo}>Back to Shiftmarket</a>
        </p>
      </Card>
    </Layout>
  );
}

export const simulatorPages = new Hono<AppEnv>()
  .use('/simulator/*', requireWebUser, async (c, next) => {
    if (paymentGateway(serviceCtx(c)).kind !== 'simulator') return renderError(c, 404, 'Page not found', 'There is no such page.');
    await next();
  })
  .get('/simulator/authenticate/:payment_intent_id', async (c) => {
    const ctx = serviceCtx(c);
    const clientSecret = (c.req.query('client_secret') ?? '').slice(0, SECRET_MAX);
    const intent = await heldIntent(c, ctx);
    if (intent === 'unknown') return noSuchPage(c);
    if (!intent || !clientSecret) return refusePage(c);
    const returnTo = safeNextPath(c.req.query('return_to'), '/account');
    return renderPage(c, <IssuerView c={c} intent={intent} clientSecret={clientSecret} returnTo={returnTo} />);
  })
  .post('/simulator/authenticate/:payment_intent_id', async (c) => {
    const ctx = serviceCtx(c);
    const field = await formFields(c);
    const outcome = field('outcome', 16);
    const clientSecret = field('client_secret', SECRET_MAX);
    if ((outcome !== 'succeed' && outcome !== 'fail') || !clientSecret) return refusePage(c);
    const intent = await heldIntent(c, ctx);
    if (intent === 'unknown') return noSuchPage(c);
    if (!intent) return refusePage(c);
    try {
      await simulatorAuthenticate(ctx, intent.id, clientSecret, outcome);
    } catch (err) {
      if (isRefusal(err)) return refusePage(c);
      throw err;
    }
    return c.redirect(safeNextPath(field('return_to', 512), '/account'), 303);
  })
  .get('/simulator/onboarding/:account_id', async (c) => {
    const account = await ownAccount(c, serviceCtx(c));
    if (!account) return refusePage(c);
    const returnTo = safeNextPath(c.req.query('return_to'), '/account');
    return renderPage(c, <OnboardingView c={c} account={account} returnTo={returnTo} />);
  })
  .post('/simulator/onboarding/:account_id', async (c) => {
    const ctx = serviceCtx(c);
    const field = await formFields(c);
    const account = await ownAccount(c, ctx);
    if (!account) return refusePage(c);
    const done = await simulatorCompleteOnboarding(ctx, account.id);
    // The processor's event (account.updated) says the same; the row need not wait for it.
    await applyAccountStatus(ctx, done);
    return c.redirect(safeNextPath(field('return_to', 512), '/account'), 303);
  });
