import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { getInvoiceRow, type InvoiceRowView } from '@/services/invoices';
import {
  authenticatePath,
  chargeInvoice,
  checkRefund,
  listCards,
  type PaymentMethodView,
  refundInput,
  refundInvoice,
} from '@/services/payments';
import { Card, CsrfField, IdempotencyField, InputField, SubmitButton, TextareaField } from '@/web/components';
import { dateTimeIn, formatDate, formatMoney, shiftHours } from '@/web/format';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { appOrigin } from '@/web/urls';
import { ConfirmView } from '../dashboard/confirm';
import { seesPay } from '@/services/access';
import { type DashboardBase, dashboardBase, dashboardHref } from '../dashboard/context';
import { cardName, chargedOf, invoiceHref, invoiceStanding, MONEY, renderOwnersOnly } from './money';
import { fieldErrorsOf } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';

/**
 * /dashboard/money/invoices/{id}: one invoice, with what its owner may do to it: charge it now (the
 * charge service, on the default card; a 3-D Secure demand sends them to the existing confirmation
 * page), or refund it in full or in part with a reason (the refund service). Both are plain forms
 * with a confirmation step (confirm.tsx): the first post shows what will happen, the second does it.
 */

/** The page's own sentences after a form succeeded (`?notice=`); `declined` is said as an error. */
const NOTICES: Record<string, string> = {
  charged: 'The charge went through: the invoice is paid.',
  authenticate: 'Your bank asks you to confirm this charge (3-D Secure): use the link below to confirm it.',
  processing: 'The charge is being processed: reload this page in a moment to see the result.',
  refunded: 'The refund was made: the money goes back to the card that paid.',
};
const ERRORS: Record<string, string> = {
  declined: 'The card was declined: nothing was charged and the invoice stays open. Try again later, or make another card the default.',
};

const REFUND_FIELDS = ['amount', 'reason'] as const;
/** Refusals of a refund that concern its amount though the service names no field. */
const REFUND_CODE_FIELDS: Partial<Record<string, string>> = { 'REFUND-AMOUNT-ERR': 'amount' };

const invoiceActionHref = (base: DashboardBase, id: string, what: 'charge' | 'refund') =>
  dashboardHref(base, `${MONEY}/invoices/${encodeURIComponent(id)}/${what}`);

interface RefundFormState {
  amount: string;
  reason: string;
  errors?: Partial<Record<(typeof REFUND_FIELDS)[number], string>>;
  idem?: string | undefined;
}

interface InvoicePageProps {
  base: DashboardBase;
  invoice: InvoiceRowView;
  defaultCard: PaymentMethodView | null;
  refund: RefundFormState;
  notice?: string | undefined;
  error?: string | undefined;
}

export function InvoiceView({ base, invoice: inv, defaultCard, refund, notice, error }: InvoicePageProps) {
  const tz = base.business?.timezone ?? 'UTC';
  const st = invoiceStanding(inv);
  const charged = chargedOf(inv);
  const left = inv.refundable_remaining;
  const errors = refund.errors ?? {};
  const action = (what: 'charge' | 'refund') => invoiceActionHref(base, inv.invoice_id, what);
  return (
    <AppShell base={base} title="Invoice" current={MONEY} notice={notice} error={error}>
      <p>
        <a href={`${dashboardHref(base, MONEY)}#invoices`}>All invoices</a>
      </p>
      <Card title={`${formatDate(inv.shift_date)}, ${shiftHours(inv.shift_in, inv.shift_out)}`}>
        <dl class="pairs">
          <dt>Status</dt>
          <dd>
            <span class={`badge${st.tone ? ` badge-${st.tone}` : ''}`}>{st.label}</span>
          </dd>
          <dt>Shifter</dt>
          <dd>{inv.shifter_name ?? '—'}</dd>
          <dt>Amount</dt>
          <dd>
            {formatMoney(inv.amount, inv.currency)}
            {inv.conversion_amount !== null && inv.conversion_currency !== null
              ? ` (charged as ${formatMoney(inv.conversion_amount, inv.conversion_currency)})`
              : ''}
          </dd>
          {inv.paid_at ? (
            <>
              <dt>Paid</dt>
              <dd>{dateTimeIn(inv.paid_at, tz)}</dd>
            </>
          ) : null}
          {inv.failed_at ? (
            <>
              <dt>Last charge declined</dt>
              <dd>{dateTimeIn(inv.failed_at, tz)}</dd>
            </>
          ) : null}
          {inv.status === 'paid' ? (
            <>
              <dt>Refunded</dt>
              <dd>{`${formatMoney(inv.refunded_amount, charged.currency)} (${formatMoney(left, charged.currency)} left to refund)`}</dd>
            </>
          ) : null}
          <dt>Invoice</dt>
          <dd>
            <code>{inv.invoice_id}</code>
          </dd>
        </dl>
      </Card>

      {inv.status === 'pending' && inv.requires_action ? (
        <section class="notice notice-error" aria-labelledby="auth-head">
          <h2 id="auth-head">Waiting for your bank</h2>
          <p>Your bank asks you to confirm this charge before it goes through (3-D Secure). Nothing is charged until you confirm.</p>
          <p>
            <a class="button button-primary" href={authenticatePath(inv.invoice_id)}>
              Confirm with your bank
            </a>
          </p>
        </section>
      ) : null}

      {inv.status === 'pending' && !inv.requires_action ? (
        <Card title="Charge now">
          <p>
            {defaultCard
              ? `Charge ${formatMoney(charged.amount, charged.currency)} to the default card, the ${cardName(defaultCard)}, now rather than waiting for the automatic charge.`
              : 'No card is saved: add one before charging.'}
          </p>
          {defaultCard ? (
            <form method="post" action={action('charge')} class="actions">
              <CsrfField token={base.csrfToken} />
              <IdempotencyField />
              <SubmitButton>Charge now…</SubmitButton>
            </form>
          ) : (
            <p>
              <a class="button button-secondary" href={dashboardHref(base, `${MONEY}/cards/new`)}>
                Add a card
              </a>
            </p>
          )}
        </Card>
      ) : null}

      {inv.status === 'paid' && left > 0 ? (
        <Card title="Refund">
          <form method="post" action={action('refund')} class="stack" novalidate>
            <CsrfField token={base.csrfToken} />
            <IdempotencyField value={refund.idem} />
            <div class="form-grid">
              <InputField
                label={`Amount to refund (${charged.currency})`}
                name="amount"
                type="text"
                inputMode="decimal"
                value={refund.amount}
                hint={`Up to ${formatMoney(left, charged.currency)}. Empty: everything left.`}
                error={errors.amount}
                autofocus={Boolean(errors.amount)}
              />
            </div>
            <TextareaField
              label="Reason (kept on the record, not shown to the shifter)"
              name="reason"
              value={refund.reason}
              maxLength={500}
              rows={2}
              error={errors.reason}
            />
            <SubmitButton>Refund…</SubmitButton>
          </form>
        </Card>
      ) : null}
      {inv.status === 'paid' && left <= 0 ? <p class="empty">This invoice is refunded in full.</p> : null}
    </AppShell>
  );
}

async function loadInvoicePage(c: Context<AppEnv>, base: DashboardBase, id: string) {
  const ctx = serviceCtx(c);
  const [invoice, cards] = await Promise.all([getInvoiceRow(ctx, base.business!.id, id), listCards(ctx, base.business!.id)]);
  return { invoice, defaultCard: cards.data.find((x) => x.is_default) ?? null };
}

/** The invoice of the address, or the answer to give instead (no business, a teammate, not this business's). */
async function invoicePage(
  c: Context<AppEnv>,
): Promise<{ base: DashboardBase; page: Awaited<ReturnType<typeof loadInvoicePage>> } | { answer: Response }> {
  const base = await dashboardBase(c);
  if (!base.business) return { answer: c.redirect('/dashboard', 303) };
  if (!seesPay(base.business?.role)) return { answer: await renderOwnersOnly(c, base) };
  try {
    return { base, page: await loadInvoicePage(c, base, c.req.param('id') ?? '') };
  } catch (err) {
    if (err instanceof AppError && err.code === 'INVOICE-NOT-FND-ERR') {
      const view = (
        <AppShell base={base} title="Invoice not found" current={MONEY}>
          <p>This business has no such invoice.</p>
          <p>
            <a href={`${dashboardHref(base, MONEY)}#invoices`}>All invoices</a>
          </p>
        </AppShell>
      );
      return { answer: await renderPage(c, view, 404) };
    }
    throw err;
  }
}

export async function renderInvoice(c: Context<AppEnv>): Promise<Response> {
  const got = await invoicePage(c);
  if ('answer' in got) return got.answer;
  const key = c.req.query('notice') ?? '';
  // "Change" on the refund's confirmation comes back here with what was typed.
  const refund = { amount: (c.req.query('amount') ?? '').slice(0, 30), reason: (c.req.query('reason') ?? '').slice(0, 500) };
  return renderPage(c, <InvoiceView base={got.base} {...got.page} refund={refund} notice={NOTICES[key]} error={ERRORS[key]} />);
}

/**
 * POST …/charge: without `confirm`, the confirmation page (the amount and the card); with it, the
 * charge service (`on_demand`). Paid, waiting for 3-D Secure, processing or declined, the answer is the
 * invoice page saying so; a refusal (a paid invoice, no card, an attempt in flight) is shown on it.
 */
export async function postCharge(c: Context<AppEnv>): Promise<Response> {
  const got = await invoicePage(c);
  if ('answer' in got) return got.answer;
  const { base, page } = got;
  const inv = page.invoice;
  const f = await formFields(c);
  const idem = f('_idem', 255);
  const here = invoiceHref(base, inv.invoice_id);
  if (f('confirm') !== '1') {
    const charged = chargedOf(inv);
    return renderPage(
      c,
      <ConfirmView
        base={base}
        title="Confirm the charge"
        current={MONEY}
        action={invoiceActionHref(base, inv.invoice_id, 'charge')}
        fields={{ _idem: idem }}
        confirmLabel={`Charge ${formatMoney(charged.amount, charged.currency)}`}
        cancelHref={here}
      >
        <p>{`Charge ${formatMoney(charged.amount, charged.currency)} for the shift of ${formatDate(inv.shift_date)} (${inv.shifter_name ?? 'no shifter'}) to ${page.defaultCard ? `the ${cardName(page.defaultCard)}` : 'the default card'}?`}</p>
        <p>The money is taken at once. Your bank may ask you to confirm it first (3-D Secure).</p>
      </ConfirmView>,
    );
  }
  let result: Awaited<ReturnType<typeof chargeInvoice>>;
  try {
    result = await chargeInvoice(serviceCtx(c), inv.invoice_id, { trigger: 'on_demand', requestOrigin: appOrigin(c) });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const fresh = await loadInvoicePage(c, base, inv.invoice_id);
    return renderPage(
      c,
      <InvoiceView base={base} {...fresh} refund={{ amount: '', reason: '' }} error={`The charge was not made: ${err.message}`} />,
      err.status as ContentfulStatusCode,
    );
  }
  const notice =
    result.status === 'succeeded'
      ? 'charged'
      : result.status === 'requires_action'
        ? 'authenticate'
        : result.status === 'processing'
          ? 'processing'
          : 'declined';
  return c.redirect(invoiceHref(base, inv.invoice_id, { notice }), 303);
}

/**
 * POST …/refund: the amount (empty: everything left) and the reason, checked against the refund
 * schema; without `confirm`, the confirmation page; with it, the refund service. A refusal (more than
 * is left, too many decimals, not paid) shows the invoice again with what was typed and the service's
 * message beside the field it concerns.
 */
export async function postRefund(c: Context<AppEnv>): Promise<Response> {
  const got = await invoicePage(c);
  if ('answer' in got) return got.answer;
  const { base, page } = got;
  const inv = page.invoice;
  const f = await formFields(c);
  const sent = { amount: f('amount', 30).trim(), reason: f('reason', 600).trim(), idem: f('_idem', 255) };
  const again = async (status: ContentfulStatusCode, errors: RefundFormState['errors'], error: string) =>
    renderPage(
      c,
      <InvoiceView
        base={base}
        {...(await loadInvoicePage(c, base, inv.invoice_id))}
        refund={{ amount: sent.amount, reason: sent.reason, errors, idem: sent.idem }}
        error={error}
      />,
      status,
    );
  const amount = sent.amount === '' ? undefined : Number(sent.amount.replace(/,/g, ''));
  const parsed = refundInput.safeParse({ amount, reason: sent.reason || undefined });
  if (!parsed.success) {
    const errors: RefundFormState['errors'] = {};
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '');
      if (name === 'amount')
        errors.amount ??= 'Enter the amount as a number above 0, e.g. 25.50, or leave it empty to refund everything left.';
      if (name === 'reason') errors.reason ??= 'Keep the reason under 500 characters.';
    }
    return again(400, errors, 'The refund was not made: see the message beside the field.');
  }
  const charged = chargedOf(inv);
  if (f('confirm') !== '1') {
    // The confirmation is shown only for a refund the service would make now (checkRefund: the same
    // checks as the refund, nothing written): more than what is left is said beside the amount here.
    let asked: number;
    try {
      asked = (await checkRefund(serviceCtx(c), inv.invoice_id, parsed.data)).amount;
    } catch (err) {
      const { errors, rest } = fieldErrorsOf(err, REFUND_FIELDS, REFUND_CODE_FIELDS);
      return again(
        (err as AppError).status as ContentfulStatusCode,
        errors,
        rest ? `The refund was not made: ${rest}` : 'The refund was not made: see the message beside the field.',
      );
    }
    return renderPage(
      c,
      <ConfirmView
        base={base}
        title="Confirm the refund"
        current={MONEY}
        action={invoiceActionHref(base, inv.invoice_id, 'refund')}
        fields={{ _idem: sent.idem, amount: sent.amount, reason: sent.reason }}
        confirmLabel={`Refund ${formatMoney(asked, charged.currency)}`}
        cancelHref={invoiceHref(base, inv.invoice_id, { amount: sent.amount, reason: sent.reason })}
        danger
      >
        <p>{`Refund ${parsed.data.amount === undefined ? 'everything left, ' : ''}${formatMoney(asked, charged.currency)} of the invoice for the shift of ${formatDate(inv.shift_date)} (${inv.shifter_name ?? 'no shifter'})?`}</p>
        <dl class="pairs">
          <dt>Charged</dt>
          <dd>{formatMoney(charged.amount, charged.currency)}</dd>
          <dt>Refunded so far</dt>
          <dd>{formatMoney(inv.refunded_amount, charged.currency)}</dd>
          <dt>Reason</dt>
          <dd>{sent.reason || '—'}</dd>
        </dl>
        <p>
          The money goes back to the card that paid; the shifter's payout for this shift is reduced in proportion. A refund cannot be
          undone. Cancel to change the amount.
        </p>
      </ConfirmView>,
    );
  }
  try {
    await refundInvoice(serviceCtx(c), inv.invoice_id, parsed.data);
  } catch (err) {
    const { errors, rest } = fieldErrorsOf(err, REFUND_FIELDS, REFUND_CODE_FIELDS);
    return again(
      (err as AppError).status as ContentfulStatusCode,
      errors,
      rest ? `The refund was not made: ${rest}` : 'The refund was not made: see the message beside the field.',
    );
  }
  return c.redirect(invoiceHref(base, inv.invoice_id, { notice: 'refunded' }), 303);
}
