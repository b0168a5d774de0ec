import { type Context, Hono } from 'hono';
import type { AppEnv } from '../../../http/app-types';
import { serviceCtx } from '../../../http/create-app';
import type { ServiceContext } from '../../../services/context';
import { paymentGateway } from '../../../services/payments';
import type { PaymentIntentResult } from '../../../services/payments/gateway';
import { simulatorAuthenticate } from '../../../services/payments/simulator';
import { Card, CsrfField, SubmitButton } from '../../components';
import { formFields } from '../../forms';
import { Layout } from '../../layout';
import { renderError, renderPage } from '../../render';
import { requireWebUser } from '../../session';
import { safeNextPath } from '../../urls';
import { isRefusal } from './authenticate';
import { formatMoney, INTENT_ID, ownedInvoice, refusePage, webUserOf } from './shared';

const SECRET_MAX = 256;

/**
 * The simulated issuer's page, standing in for the bank's 3D Secure check when the local payment
 * simulator is the processor (no STRIPE_SECRET_KEY; with real keys it is not there). It shows the
 * charge and posts "Complete" or "Fail" to the simulator, which settles the PaymentIntent and queues
 * the signed event the webhook receives, then sends the browser back to `return_to` (a path on this
 * site only). Only the owner of the invoice the intent charges may use it, while the intent still
 * requires action; the client secret must match too, as it would for the real issuer.
 */
async function heldIntent(c: Context<AppEnv>, ctx: ServiceContext): Promise<PaymentIntentResult | null> {
  const id = c.req.param('payment_intent_id') ?? '';
  if (!INTENT_ID.test(id)) return null;
  let intent: PaymentIntentResult;
  try {
    intent = await paymentGateway(ctx).retrievePaymentIntent(id);
  } catch (err) {
    if (isRefusal(err)) return null;
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

export const simulatorPages = new Hono<AppEnv>()
  .use('/simulator/*', requireWebUser, async (c, next) => {
    if (paymentGateway(serviceCtx(c)).kind !== 'simulator') return renderError(c, 404, 'Page not found', 'There is no such page.');
    await next();
  })
  .get('/simulator/authenticate/:payment_intent_id', async (c) => {
    const ctx = serviceCtx(c);
    const clientSecret = (c.req.query('client_secret') ?? '').slice(0, SECRET_MAX);
    const intent = await heldIntent(c, ctx);
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
    if (!intent) return refusePage(c);
    try {
      await simulatorAuthenticate(ctx, intent.id, clientSecret, outcome);
    } catch (err) {
      if (isRefusal(err)) return refusePage(c);
      throw err;
    }
    return c.redirect(safeNextPath(field('return_to', 512), '/account'), 303);
  });
