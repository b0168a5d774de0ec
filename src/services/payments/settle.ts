import { and, eq, ne, or, type SQL, sql } from 'drizzle-orm';
import { invoices, shiftRequests } from '../../db/schema';
import { errorFields } from '../../lib/log';
import { fromMinor } from '../../lib/money';
import { toIso } from '../../lib/time';
import { businessRecipients } from '../notifications';
import { prepareWrite, type ServiceContext, SHIFT_STATUS, workedShiftSql, type WriteResult } from '../kernel';
import { type InvoiceRow, loadInvoice } from '../invoices';
import { partnerEvent } from '../webhooks';
import { transferShifterShare } from './payouts';

/** True inside a batch once the invoice carries this operation id (its guarded update ran). */
const invoiceOpApplied = (invoiceId: string, op: string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${invoices} WHERE ${invoices.id} = ${invoiceId} AND ${invoices.last_op_id} = ${op})`;

export interface SettleResult {
  /** The invoice changed (false: it was already in that state, or paid, which is final). */
  applied: boolean;
  invoice: InvoiceRow | null;
}

function moneyText(minor: number, currency: string): string {
  return `${fromMinor(minor, currency)} ${currency.toUpperCase()}`;
}

/**
 * The charge of an invoice succeeded: status paid, paid_at stamped, requires_action cleared, the
 * payment intent recorded, and the shift moves 2 → 5 once worked (DECISIONS.md; a pre-paid claimed shift
 * moves when it is clocked out), the business owner is
 * notified and `invoice.paid` goes to partners, all in one guarded batch. Paid is final: a second
 * call (a replayed event) changes nothing and notifies no one.
 */
export async function markInvoicePaid(
  ctx: ServiceContext,
  invoiceId: string,
  input: { paymentIntentId: string; chargeId?: string | null; paidAt?: number },
): Promise<SettleResult> {
  const inv = await loadInvoice(ctx, invoiceId);
  if (!inv) return { applied: false, invoice: null };
  if (inv.status === 'paid') return { applied: false, invoice: inv };
  const now = ctx.now();
  const paidAt = input.paidAt ?? now;
  const w = prepareWrite(ctx, { type: 'invoice', id: invoiceId }, (op) => invoiceOpApplied(invoiceId, op));
  const kind = 'invoice_paid';
  const res: WriteResult = await w.commit({
    guard: ctx.db
      .update(invoices)
      .set({
        status: 'paid',
        paid_at: paidAt,
        requires_action: false,
        requires_action_at: null,
        payment_intent_id: input.paymentIntentId,
        charge_id: input.chargeId ?? inv.charge_id,
        charging_since: null,
        updated_at: now,
        last_op_id: w.op,
      })
      .where(and(eq(invoices.id, invoiceId), ne(invoices.status, 'paid'))),
    follow: [
      ctx.db
        .update(shiftRequests)
        .set({ request_status: SHIFT_STATUS.completed, updated_at: now })
        .where(
          and(
            eq(shiftRequests.id, inv.shift_request_id),
            eq(shiftRequests.request_status, SHIFT_STATUS.accepted),
            workedShiftSql(),
            w.applied ?? sql`1`,
          ),
        ),
    ],
    audit: { action: 'invoice.paid', data: { payment_intent_id: input.paymentIntentId } },
    notify: [
      {
        kind,
        userIds: await businessRecipients(ctx, inv.business_id, kind),
        title: 'An invoice was paid',
        body: `Invoice ${inv.id} for ${moneyText(inv.amount_minor, inv.currency)} was paid.`,
        data: { shift_request_id: inv.shift_request_id },
      },
    ],
    events: [
      partnerEvent(
        'invoice.paid',
        inv.business_id,
        {
          invoice: {
            id: inv.id,
            business_id: inv.business_id,
            shift_request_ids: [inv.shift_request_id],
            amount: fromMinor(inv.amount_minor, inv.currency),
            currency: inv.currency,
            paid_at: toIso(paidAt),
          },
        },
        now,
      ),
    ],
  });
  const applied = res.applied && !res.replayed;
  if (applied) afterInvoicePaid(ctx, invoiceId);
  return { applied, invoice: await loadInvoice(ctx, invoiceId) };
}

/**
 * Work that follows a paid settlement, once (only the call that applied it runs this), in the
 * background: the shifter's share is transferred to their connected account (payouts.ts; its
 * cron sweep catches any transfer this misses). Never fails the settlement.
 */
export function afterInvoicePaid(ctx: ServiceContext, invoiceId: string): void {
  ctx.waitUntil(
    transferShifterShare(ctx, invoiceId).catch((err: unknown) => {
      ctx.log.warn('transfer after payment failed; the payout sweep will retry', { invoice_id: invoiceId, ...errorFields(err) });
    }),
  );
}

/**
 * The clock-out of a shift whose invoice was paid beforehand (a pre-payment): the shift moves 2 → 5 in
 * the clock-out's own batch, conditional on that write having applied (`applied`) and on the invoice
 * being paid. Without a paid invoice it changes nothing (the payment moves it later).
 */
export function completeIfPrepaid(db: ServiceContext['db'], shiftRequestId: string, now: number, applied: SQL) {
  return db
    .update(shiftRequests)
    .set({ request_status: SHIFT_STATUS.completed, updated_at: now })
    .where(
      and(
        eq(shiftRequests.id, shiftRequestId),
        eq(shiftRequests.request_status, SHIFT_STATUS.accepted),
        workedShiftSql(),
        applied,
        sql`EXISTS (SELECT 1 FROM ${invoices} WHERE ${invoices.shift_request_id} = ${shiftRequestId} AND ${invoices.status} = 'paid')`,
      ),
    );
}

/**
 * A charge of an invoice failed (`payment_intent.payment_failed`): the invoice stays (or goes back
 * to) pending, requires_action is cleared, failed_at is stamped and the owner is notified. Never
 * un-pays: a failure arriving after the success changes nothing. A repeated failure of the same
 * payment intent with nothing new pending (no authentication asked since) changes nothing either.
 */
export async function markInvoiceFailed(ctx: ServiceContext, invoiceId: string, input: { paymentIntentId: string }): Promise<SettleResult> {
  const inv = await loadInvoice(ctx, invoiceId);
  if (!inv) return { applied: false, invoice: null };
  if (inv.status === 'paid') return { applied: false, invoice: inv };
  const now = ctx.now();
  const w = prepareWrite(ctx, { type: 'invoice', id: invoiceId }, (op) => invoiceOpApplied(invoiceId, op));
  const kind = 'payment_failed';
  const pi = input.paymentIntentId;
  const res = await w.commit({
    guard: ctx.db
      .update(invoices)
      .set({
        status: 'pending',
        requires_action: false,
        requires_action_at: null,
        payment_intent_id: pi,
        failed_at: now,
        updated_at: now,
        last_op_id: w.op,
      })
      .where(
        and(
          eq(invoices.id, invoiceId),
          ne(invoices.status, 'paid'),
          or(
            eq(invoices.requires_action, true),
            sql`${invoices.failed_at} IS NULL`,
            sql`${invoices.payment_intent_id} IS NOT ${pi}`,
            ne(invoices.status, 'pending'),
          ),
        ),
      ),
    audit: { action: 'invoice.payment_failed', data: { payment_intent_id: pi } },
    notify: [
      {
        kind,
        userIds: await businessRecipients(ctx, inv.business_id, kind),
        title: 'A payment failed',
        body: `The payment of invoice ${inv.id} for ${moneyText(inv.amount_minor, inv.currency)} failed; the invoice is still unpaid.`,
        data: { shift_request_id: inv.shift_request_id },
      },
    ],
  });
  return { applied: res.applied && !res.replayed, invoice: await loadInvoice(ctx, invoiceId) };
}
