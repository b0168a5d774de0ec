import { type Context, Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { fromMinor } from '@/lib/money';
import { chargeConfirmed, consumeConfirmation, formatAmount, openConfirmation, type PrepayOutcome } from '@/services/agent-payments';
import { Card, CsrfField, Notice, SubmitButton } from '@/web/components';
import { Layout } from '@/web/layout';
import { renderError, renderPage } from '@/web/render';
import { requireWebUser } from '@/web/session';
import { appOrigin } from '@/web/urls';

/**
 * {app_url}/mcp-confirm/{token}: where the business owner confirms a payment an agent asked for
 * (tool confirm_payment_for_shift, spec 4.9 rule 6). Signed out: sign in and come back here. Only the
 * user the token was issued to sees the shift, the amount and the Confirm button, while the token is
 * unused and unexpired; everyone and everything else gets the same 403 page, so the page tells
 * nobody whether a token exists or whose it is. The POST (CSRF-checked) takes the token once and
 * only then charges.
 */
const REFUSED = { title: 'Link not valid', message: 'This confirmation link is not valid. It may have expired or been used already.' };

const refused = (c: Context<AppEnv>) => renderError(c, 403, REFUSED.title, REFUSED.message);

function userOf(c: Context<AppEnv>) {
  const user = c.get('webUser');
  if (!user) throw new Error('confirm page reached without a signed-in user');
  return user;
}

const REFUSAL_TEXT: Record<string, string> = {
  'PAYMENT-CARD-REQ-ERR': 'The business has no card saved. Add one in Shiftmarket, then ask the assistant again.',
  'PAYMENT-CAP-ERR': 'The amount is over the limit for one payment.',
};

function ResultView({ outcome, amount }: { outcome: PrepayOutcome; amount: string }) {
  if (outcome.kind === 'refused') {
    return <Notice kind="error">{`Nothing was charged. ${REFUSAL_TEXT[outcome.code] ?? outcome.message}`}</Notice>;
  }
  const r = outcome.result;
  switch (r.status) {
    case 'succeeded':
      return <Notice kind="success">{`Paid: ${amount} was charged to your card.`}</Notice>;
    case 'processing':
      return <Notice kind="info">{`Your payment of ${amount} is being processed. You will be notified when it completes.`}</Notice>;
    case 'requires_action':
      return (
        <>
          <Notice kind="info">Your bank asks you to confirm this payment.</Notice>
          <p>
            <a href={`/finance/web/authenticate/${encodeURIComponent(r.invoice_id)}`}>Confirm the payment with your bank</a>
          </p>
        </>
      );
    case 'failed':
      return (
        <Notice kind="error">The card was declined; nothing was charged. Check your payment method in Shiftmarket and try again.</Notice>
      );
  }
}

export const mcpConfirmPages = new Hono<AppEnv>()
  .use('/mcp-confirm/*', requireWebUser)
  .get('/mcp-confirm/:token', async (c) => {
    const user = userOf(c);
    const ctx = serviceCtx(c);
    const view = await openConfirmation(ctx, c.req.param('token'), user.userId);
    if (!view) return refused(c);
    const amount = formatAmount(view.amount, view.token.currency);
    return renderPage(
      c,
      <Layout title="Confirm a payment" user={user} csrfToken={c.get('csrfToken')}>
        <h1>Confirm a payment</h1>
        <p>An assistant connected to your account asks to pay for this shift now. Nothing is charged unless you confirm.</p>
        <Card title="The shift">
          <dl class="details">
            <dt>Business</dt>
            <dd>{view.shift.business_name}</dd>
            <dt>When</dt>
            <dd>{view.shift.when}</dd>
            <dt>Shifter</dt>
            <dd>{view.shift.shifter_name ?? '—'}</dd>
            {view.shift.role ? (
              <>
                <dt>Role</dt>
                <dd>{view.shift.role}</dd>
              </>
            ) : null}
            <dt>Amount</dt>
            <dd>
              <strong>{amount}</strong>
            </dd>
          </dl>
          <form method="post" action={`/mcp-confirm/${encodeURIComponent(c.req.param('token'))}`}>
            <CsrfField token={c.get('csrfToken')} />
            <SubmitButton>{`Confirm and pay ${amount}`}</SubmitButton>
          </form>
          <p class="hint">If you did not ask for this, close this page: the link expires by itself.</p>
        </Card>
      </Layout>,
    );
  })
  .post('/mcp-confirm/:token', async (c) => {
    const user = userOf(c);
    const ctx = serviceCtx(c);
    const token = await consumeConfirmation(ctx, c.req.param('token'), user.userId);
    if (!token) return refused(c);
    const outcome = await chargeConfirmed(ctx, token, appOrigin(c));
    const amount = formatAmount(fromMinor(token.amount_minor, token.currency), token.currency);
    return renderPage(
      c,
      <Layout title="Payment" user={user} csrfToken={c.get('csrfToken')}>
        <h1>Payment</h1>
        <ResultView outcome={outcome} amount={amount} />
        <p>
          <a href="/account">Back to your account</a>
        </p>
      </Layout>,
    );
  });
