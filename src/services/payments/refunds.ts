import { and, asc, type Column, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { runBatch } from '../../db/client';
import { insertWhere } from '../../db/conditional';
import { invoices, refunds, shiftRequests, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { errorFields } from '../../lib/log';
import { fromMinor, roundRatio, toMinorExact } from '../../lib/money';
import { toIso } from '../../lib/time';
import { accessBusiness } from '../access';
import {
  committedSubject,
  type Notice,
  prepareWrite,
  type RefundResult as GatewayRefund,
  requirePerson,
  type ServiceContext,
  SHIFT_STATUS,
} from '../kernel';
import { chargedAmount, type InvoiceRow, loadInvoice } from '../invoices';
import { partnerEvent } from '../webhooks';
import { paymentGateway } from './processor';
import { DEDUCTED_FROM_TRANSFER, invoiceOpApplied, issueReversal } from './payouts';
import type { RefundInput, RefundResult } from './refund-schemas';
import { businessRecipients } from '../notifications';

/*
 * Refunds of paid invoices (spec 4.3): full or partial, never more than what is left, also under
 * concurrent refunds. The amount is reserved on invoices.refunded_minor by a guarded UPDATE whose
 * WHERE holds only while `refunded_minor + amount <= charged amount`, in the same batch as the pending
 * refund row; only then is the processor asked (idempotency key `refund:{refund_id}`). A refusal
 * marks the refund failed and gives the reservation back. The shifter's transfer is then reversed in
 * proportion (idempotency key `reversal:{refund_id}`), reserved the same way on transfer_reversed_minor.
 */

type RefundRow = typeof refunds.$inferSelect;

const REFUND_KIND = 'refund_issued';

async function loadRefund(ctx: ServiceContext, refundId: string): Promise<RefundRow | null> {
  const [row] = await ctx.db.select().from(refunds).where(eq(refunds.id, refundId)).limit(1);
  return row ?? null;
}

function view(r: RefundRow, inv: InvoiceRow): RefundResult {
  const charged = chargedAmount(inv);
  const cur = r.currency;
  return {
    refund_id: r.id,
    invoice_id: inv.id,
    amount: fromMinor(r.amount_minor, cur),
    currency: cur,
    status: r.status,
    refunded_total: fromMinor(inv.refunded_minor, cur),
    refundable_remaining: fromMinor(Math.max(0, charged.amount - inv.refunded_minor), cur),
    transfer_reversal:
      r.reversal_id && r.reversal_id !== DEDUCTED_FROM_TRANSFER
        ? { id: r.reversal_id, amount: fromMinor(r.reversal_amount_minor, cur) }
        : null,
    created_at: toIso(r.created_at),
  };
}

/**
 * Who may refund: the invoice's business owner or an admin. An active teammate is refused (403, as for
 * the invoice list); the invoice's own shifter knows the invoice and gets 403; anyone else 404, so
 * invoice ids cannot be probed.
 */
async function refundableInvoice(ctx: ServiceContext, invoiceId: string): Promise<InvoiceRow> {
  const actor = requirePerson(ctx);
  const inv = await loadInvoice(ctx, invoiceId);
  if (!inv) throw new AppError('INVOICE-NOT-FND-ERR');
  try {
    await accessBusiness(ctx, inv.business_id, ['owner', 'admin']);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'BUSINESS-NOT-FND-ERR') throw err;
    if (inv.shifter_id) {
      const [sh] = await ctx.db.select({ userId: shifters.user_id }).from(shifters).where(eq(shifters.id, inv.shifter_id)).limit(1);
      if (sh?.userId === actor.userId) throw new AppError('FORBIDDEN-ERR', 'Only the business owner may refund an invoice.');
    }
    throw new AppError('INVOICE-NOT-FND-ERR');
  }
  return inv;
}

function amountError(remainingMinor: number, currency: string, asked?: number): AppError {
  const remaining = fromMinor(Math.max(0, remainingMinor), currency);
  const message =
    remainingMinor <= 0
      ? 'Nothing is left to refund on this invoice.'
      : `At most ${remaining} ${currency} is left to refund on this invoice${asked === undefined ? '' : ` (asked: ${fromMinor(asked, currency)})`}.`;
  return new AppError('REFUND-AMOUNT-ERR', message, { refundable_remaining: remaining, currency });
}

/**
 * The refund failed at the processor: marked failed and its reservation given back, in one guarded
 * batch (once: only from one of `from`). Returns whether it applied.
 */
async function releaseRefund(
  ctx: ServiceContext,
  refund: RefundRow,
  why: string,
  from: Array<'pending' | 'succeeded'> = ['pending'],
): Promise<boolean> {
  const now = ctx.now();
  const w = prepareWrite(ctx, { type: 'refund', id: refund.id }, (op) => invoiceOpApplied(refund.invoice_id, op));
  const res = await w.commit({
    guard: ctx.db
      .update(invoices)
      .set({ refunded_minor: sql`${invoices.refunded_minor} - ${refund.amount_minor}`, updated_at: now, last_op_id: w.op })
      .where(
        and(
          eq(invoices.id, refund.invoice_id),
          sql`EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.id} = ${refund.id} AND ${inArray(refunds.status, from)})`,
        ),
      ),
    follow: [
      ctx.db
        .update(refunds)
        .set({ status: 'failed', failure_reason: why.slice(0, 500), updated_at: now })
        .where(and(eq(refunds.id, refund.id), inArray(refunds.status, from), w.applied!)),
    ],
    audit: { action: 'refund.failed', data: { amount_minor: refund.amount_minor, reason: why.slice(0, 200) } },
  });
  return res.applied;
}

/**
 * A refund's later state from the processor's webhook (`refund.updated`, `refund.failed`,
 * `charge.refund.updated`), matched by `metadata.refund_id` and the processor's refund id: a pending
 * refund that succeeded is marked so; one that failed (also after it had succeeded: Stripe can fail a
 * refund days later) is marked failed and its amount is refundable again. A reversal already made of
 * the shifter's transfer is not restored automatically (logged for the operator).
 */
export async function handleRefundUpdated(
  ctx: ServiceContext,
  refund: { id: string; status?: string | null; metadata?: Record<string, string> | null; failure_reason?: string | null },
): Promise<'applied' | 'unchanged' | 'mismatch'> {
  const ours = refund.metadata?.refund_id;
  const row = ours && ours.length <= 64 ? await loadRefund(ctx, ours) : null;
  if (!row || (row.processor_refund_id !== null && row.processor_refund_id !== refund.id)) {
    ctx.log.warn('refund event does not match a refund of ours: ignored', { processor_refund_id: refund.id.slice(0, 64) });
    return 'mismatch';
  }
  if (refund.status === 'succeeded') {
    const res = await ctx.db
      .update(refunds)
      .set({ status: 'succeeded', processor_refund_id: refund.id, updated_at: ctx.now() })
      .where(and(eq(refunds.id, row.id), eq(refunds.status, 'pending')))
      .run();
    return (res.meta?.changes ?? 0) > 0 ? 'applied' : 'unchanged';
  }
  if (refund.status === 'failed' || refund.status === 'canceled') {
    const applied = await releaseRefund(ctx, row, `processor: ${refund.failure_reason ?? refund.status}`, ['pending', 'succeeded']);
    if (applied && row.reversal_id && row.reversal_id !== DEDUCTED_FROM_TRANSFER) {
      ctx.log.warn("a refund failed after the shifter's transfer was reversed for it: the reversal is not restored automatically", {
        refund_id: row.id,
        reversal_id: row.reversal_id,
        reversal_amount_minor: row.reversal_amount_minor,
      });
    }
    return applied ? 'applied' : 'unchanged';
  }
  return 'unchanged';
}

/**
 * The transfer's share of this refund, reversed: round(transfer × refund ÷ charged), bounded by what
 * of the transfer is left; the refund that leaves nothing refundable takes all that is left. The
 * amount is reserved on transfer_reversed_minor by a guarded UPDATE (bounded by the transfer) before
 * the processor is asked; a refusal gives it back (the refund stands; the reversal is logged).
 */
async function reverseForRefund(ctx: ServiceContext, refund: RefundRow): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const inv = await loadInvoice(ctx, refund.invoice_id);
    // No transfer claimed yet: the transfer, when made, is reduced by this refund's share instead.
    if (!inv?.transfer_amount_minor) return;
    // Read after the invoice: a claim that counted this refund marked it in the same batch.
    const mine = await loadRefund(ctx, refund.id);
    if (!mine || mine.reversal_id !== null) return;
    const charged = chargedAmount(inv);
    const left = inv.transfer_amount_minor - inv.transfer_reversed_minor;
    if (left <= 0) return;
    const last = inv.refunded_minor >= charged.amount;
    const amount = last ? left : Math.min(roundRatio(inv.transfer_amount_minor * refund.amount_minor, charged.amount), left);
    if (amount <= 0) return;
    const now = ctx.now();
    const w = prepareWrite(ctx, { type: 'refund', id: refund.id }, (op) => invoiceOpApplied(inv.id, op));
    const reserved = await w.commit({
      guard: ctx.db
        .update(invoices)
        .set({ transfer_reversed_minor: sql`${invoices.transfer_reversed_minor} + ${amount}`, updated_at: now, last_op_id: w.op })
        .where(
          and(
            eq(invoices.id, inv.id),
            sql`${invoices.transfer_reversed_minor} + ${amount} <= ${invoices.transfer_amount_minor}`,
            sql`NOT EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.id} = ${refund.id} AND (${refunds.reversal_id} IS NOT NULL OR ${refunds.reversal_amount_minor} > 0))`,
          ),
        ),
      follow: [
        ctx.db
          .update(refunds)
          .set({ reversal_amount_minor: amount, updated_at: now })
          .where(and(eq(refunds.id, refund.id), w.applied!)),
      ],
    });
    if (!reserved.applied) continue; // another refund reversed meanwhile: recompute on fresh figures
    // The transfer may still be on its way (claimed, not yet made): it makes this reversal once it is.
    const transferId = (await loadInvoice(ctx, inv.id))?.transfer_id;
    if (!transferId) return;
    try {
      await issueReversal(ctx, refund.id, transferId, amount, inv.id);
    } catch (err) {
      ctx.log.error('transfer reversal failed; reservation given back', { refund_id: refund.id, ...errorFields(err) });
      await runBatch(ctx.db, [
        ctx.db
          .update(invoices)
          .set({ transfer_reversed_minor: sql`${invoices.transfer_reversed_minor} - ${amount}`, updated_at: ctx.now() })
          .where(eq(invoices.id, inv.id)),
        ctx.db.update(refunds).set({ reversal_amount_minor: 0, updated_at: ctx.now() }).where(eq(refunds.id, refund.id)),
      ]);
    }
    return;
  }
  ctx.log.warn('transfer reversal gave up after repeated contention', { refund_id: refund.id });
}

/**
 * POST /v1/finance/refund/{invoiceId}: refunds `amount` (a decimal in the charged currency; absent:
 * everything left) of a paid invoice, then reverses the shifter's transfer in proportion, and
 * notifies the business's owner (refund_issued is an owner-only kind in the catalog) and the shifter.
 * A retry with the same Idempotency-Key answers the refund it made.
 */
export async function refundInvoice(ctx: ServiceContext, invoiceId: string, input: RefundInput = {}): Promise<RefundResult> {
  const inv = await refundableInvoice(ctx, invoiceId);
  const replay = committedSubject(ctx, 'refund');
  if (replay) {
    const r = await loadRefund(ctx, replay);
    const now = await loadInvoice(ctx, invoiceId);
    if (r && now && r.invoice_id === now.id) return view(r, now);
  }
  return issueRefund(ctx, inv, input, 'requested');
}

/**
 * What a refund of `input` would take, in minor units of the charged currency: everything left when
 * no amount is given. Refused as the refund itself would be: an invoice not paid, an amount of 0,
 * more than what is left, or more decimals than the currency has.
 */
function refundAmount(inv: InvoiceRow, input: RefundInput): { amount: number; charged: { amount: number; currency: string } } {
  if (inv.status !== 'paid' || !inv.payment_intent_id) throw new AppError('INVOICE-NOT-PAID-ERR');
  const charged = chargedAmount(inv);
  const remaining = charged.amount - inv.refunded_minor;
  const amount = input.amount === undefined ? remaining : toMinorExact(input.amount, charged.currency.toUpperCase(), 'amount');
  if (amount <= 0 || amount > remaining) throw amountError(remaining, charged.currency, input.amount === undefined ? undefined : amount);
  return { amount, charged };
}

/**
 * Whether the caller may refund `input` of the invoice now, and how much that is, writing nothing:
 * the same standing and amount checks as refundInvoice, so a confirmation page is shown only for a
 * refund the service would make (a concurrent refund can still take what is left first).
 */
export async function checkRefund(
  ctx: ServiceContext,
  invoiceId: string,
  input: RefundInput = {},
): Promise<{ amount: number; currency: string }> {
  const inv = await refundableInvoice(ctx, invoiceId);
  const { amount, charged } = refundAmount(inv, input);
  return { amount: fromMinor(amount, charged.currency), currency: charged.currency };
}

/**
 * The refund itself, for a caller already allowed: the amount reserved by the guarded UPDATE, the
 * processor asked, the outcome recorded and notified, the shifter's transfer reversed in proportion.
 * `cause` words the notices: asked by a person, or made by the system for a shift that ended unworked.
 */
async function issueRefund(
  ctx: ServiceContext,
  inv: InvoiceRow,
  input: RefundInput,
  cause: 'requested' | 'shift_not_worked',
): Promise<RefundResult> {
  if (inv.status !== 'paid' || !inv.payment_intent_id) {
    throw new AppError('INVOICE-NOT-PAID-ERR');
  }
  const paymentIntentId = inv.payment_intent_id;
  const { amount, charged } = refundAmount(inv, input);

  // Reserve the amount and record the pending refund, in one guarded batch.
  const now = ctx.now();
  const refundId = newId('refund');
  const w = prepareWrite(ctx, { type: 'refund', id: refundId }, (op) => invoiceOpApplied(inv.id, op));
  const reserved = await w.commit({
    guard: ctx.db
      .update(invoices)
      .set({ refunded_minor: sql`${invoices.refunded_minor} + ${amount}`, updated_at: now, last_op_id: w.op })
      .where(and(eq(invoices.id, inv.id), eq(invoices.status, 'paid'), sql`${invoices.refunded_minor} + ${amount} <= ${charged.amount}`)),
    follow: [
      insertWhere(
        ctx.db,
        refunds,
        {
          id: refundId,
          invoice_id: inv.id,
          amount_minor: amount,
          currency: charged.currency,
          status: 'pending',
          reason: input.reason ?? null,
          requested_by: 'userId' in ctx.actor ? ctx.actor.userId : null,
          created_at: now,
          updated_at: now,
        },
        w.applied!,
      ),
    ],
    audit: { action: 'refund.requested', data: { invoice_id: inv.id, amount_minor: amount, currency: charged.currency } },
  });
  if (!reserved.applied) {
    const fresh = await loadInvoice(ctx, inv.id);
    if (fresh?.status !== 'paid') throw new AppError('INVOICE-NOT-PAID-ERR');
    throw amountError(charged.amount - fresh.refunded_minor, charged.currency, amount);
  }
  const pending = (await loadRefund(ctx, refundId))!;

  // Ask the processor. Declines and outages both come back as a failed refund with nothing reserved.
  let result: GatewayRefund;
  try {
    result = await paymentGateway(ctx).createRefund({
      paymentIntentId,
      amount,
      idempotencyKey: `refund:${refundId}`,
      metadata: { invoice_id: inv.id, refund_id: refundId, business_id: inv.business_id },
    });
  } catch (err) {
    ctx.log.warn('refund refused by the processor', { refund_id: refundId, ...errorFields(err) });
    await releaseRefund(ctx, pending, err instanceof Error ? err.message : 'processor error');
    throw new AppError('PAYMENT-GATEWAY-ERR', 'The payment processor did not make the refund; nothing was refunded.', {
      refund_id: refundId,
    });
  }
  if (result.status === 'failed' || result.status === 'canceled') {
    await releaseRefund(ctx, pending, `processor answered ${result.status}`);
    throw new AppError('PAYMENT-GATEWAY-ERR', 'The payment processor refused the refund; nothing was refunded.', { refund_id: refundId });
  }

  // Made (succeeded, or pending at the processor, which keeps its reservation): record and notify.
  const status = result.status === 'succeeded' ? 'succeeded' : 'pending';
  const money = `${fromMinor(amount, charged.currency)} ${charged.currency.toUpperCase()}`;
  const shifterUser = inv.shifter_id
    ? (await ctx.db.select({ userId: shifters.user_id }).from(shifters).where(eq(shifters.id, inv.shifter_id)).limit(1))[0]?.userId
    : undefined;
  const notices: Notice[] = [
    {
      kind: REFUND_KIND,
      userIds: await businessRecipients(ctx, inv.business_id, REFUND_KIND),
      title: 'A refund was made',
      body:
        cause === 'shift_not_worked'
          ? `${money} of invoice ${inv.id} was refunded to your card: the pre-paid shift was not worked.`
          : `${money} of invoice ${inv.id} was refunded to your card.`,
      data: { invoice_id: inv.id, shift_request_id: inv.shift_request_id },
    },
  ];
  if (shifterUser) {
    notices.push({
      kind: REFUND_KIND,
      userIds: [shifterUser],
      ...(cause === 'shift_not_worked'
        ? {
            title: 'A cancelled shift was refunded',
            body: `The business was refunded ${money} of invoice ${inv.id}, pre-paid for a shift that was not worked.`,
          }
        : {
            title: 'A shift you worked was refunded',
            body: `The business was refunded ${money} of invoice ${inv.id}; your payout for it is reduced in proportion.`,
          }),
      data: { invoice_id: inv.id, shift_request_id: inv.shift_request_id },
    });
  }
  const standing = (await loadInvoice(ctx, inv.id)) ?? inv;
  // Notices and the partner event go out unless the processor's webhook failed it meanwhile.
  const done = prepareWrite(
    ctx,
    { type: 'refund', id: refundId },
    () =>
      sql`EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.id} = ${refundId} AND ${refunds.processor_refund_id} = ${result.id} AND ${refunds.status} != 'failed')`,
  );
  await done.commit({
    guard: ctx.db
      .update(refunds)
      .set({ status, processor_refund_id: result.id, updated_at: ctx.now() })
      .where(and(eq(refunds.id, refundId), eq(refunds.status, 'pending'))),
    audit: { action: 'refund.issued', data: { processor_refund_id: result.id, status } },
    notify: notices,
    events: [
      partnerEvent(
        'invoice.refunded',
        inv.business_id,
        {
          invoice: {
            id: inv.id,
            business_id: inv.business_id,
            shift_request_ids: [inv.shift_request_id],
            currency: charged.currency,
            refunded_total: fromMinor(standing.refunded_minor, charged.currency),
            refundable_remaining: fromMinor(Math.max(0, charged.amount - standing.refunded_minor), charged.currency),
          },
          refund: { id: refundId, amount: fromMinor(amount, charged.currency), status, created_at: toIso(now) },
        },
        ctx.now(),
      ),
    ],
  });

  if ((await loadRefund(ctx, refundId))?.status !== 'failed') await reverseForRefund(ctx, pending);
  return view((await loadRefund(ctx, refundId))!, (await loadInvoice(ctx, inv.id))!);
}

// ── Pre-paid shifts that end without being worked ─────────────────────────────────────────────────

/** The reason recorded on the system's refund of a pre-paid shift that ended without being worked. */
export const SHIFT_NOT_WORKED_REFUND_REASON = 'shift_cancelled';
/** Failed automatic refunds of one invoice after which the sweep stops asking (left to the operator, logged). */
export const AUTO_REFUND_MAX_FAILURES = 3;
/** Invoices refunded per sweep run at most. */
const AUTO_REFUND_BATCH = 50;

/**
 * A shift that is final without having been worked: cancelled (either party), superseded, declined,
 * expired, or an accepted shift marked a no-show (no clock-in can follow). Never a worked one (status
 * 5, or a shift with its clock-out).
 */
function shiftEndedUnworkedSql(shiftRequestId: Column | string): SQL {
  return sql`EXISTS (SELECT 1 FROM ${shiftRequests} WHERE ${shiftRequests.id} = ${shiftRequestId} AND ${shiftRequests.shift_end_at} IS NULL AND (${inArray(
    shiftRequests.request_status,
    [SHIFT_STATUS.declined, SHIFT_STATUS.superseded, SHIFT_STATUS.expired, SHIFT_STATUS.cancelled],
  )} OR (${shiftRequests.request_status} = ${SHIFT_STATUS.accepted} AND ${shiftRequests.is_noshow} = 1)))`;
}

/** What the business was charged, in SQL (the conversion when it settled in another currency; see chargedAmount). */
const chargedMinorSql = sql`CASE WHEN ${invoices.conversion_currency} IS NOT NULL AND ${invoices.conversion_amount_minor} IS NOT NULL THEN ${invoices.conversion_amount_minor} ELSE ${invoices.amount_minor} END`;

/** Paid invoices of shifts that ended unworked with something left to refund, and fewer than the allowed failed attempts. */
function autoRefundableSql(): SQL {
  return and(
    eq(invoices.status, 'paid'),
    sql`${invoices.refunded_minor} < ${chargedMinorSql}`,
    shiftEndedUnworkedSql(invoices.shift_request_id),
    sql`(SELECT COUNT(*) FROM ${refunds} WHERE ${refunds.invoice_id} = ${invoices.id} AND ${refunds.reason} = ${SHIFT_NOT_WORKED_REFUND_REASON} AND ${refunds.status} = 'failed') < ${AUTO_REFUND_MAX_FAILURES}`,
  )!;
}

/**
 * Refunds in full (everything still refundable) the paid invoice of a pre-paid shift that ended
 * without being worked, as the system, through the same guarded reservation as any refund: of two
 * concurrent callers one reserves the remainder and the other finds nothing left (null). Returns the
 * refund made, or null when there is nothing to do (not paid, worked, not final, nothing left).
 */
export async function refundUnworkedShift(ctx: ServiceContext, invoiceId: string): Promise<RefundResult | null> {
  const [inv] = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), autoRefundableSql()))
    .limit(1);
  if (!inv) return null;
  try {
    return await issueRefund(ctx, inv, { reason: SHIFT_NOT_WORKED_REFUND_REASON }, 'shift_not_worked');
  } catch (err) {
    // Lost the race to a concurrent caller (the remainder is reserved) or the invoice moved: nothing to do.
    if (err instanceof AppError && (err.code === 'REFUND-AMOUNT-ERR' || err.code === 'INVOICE-NOT-PAID-ERR')) return null;
    throw err;
  }
}

/** The pre-paid invoice of a shift, refunded at once if the shift just ended unworked (after a cancel); never fails the caller. */
export function refundIfShiftEndedUnworked(ctx: ServiceContext, shiftRequestId: string): void {
  // The system's refund, not the canceller's: its own actor, and none of the request's Idempotency-Key.
  const system: ServiceContext = { ...ctx, actor: { kind: 'system', job: 'refund_unworked_prepaid_shift' }, idempotency: undefined };
  ctx.waitUntil(
    (async () => {
      const [inv] = await ctx.db.select({ id: invoices.id }).from(invoices).where(eq(invoices.shift_request_id, shiftRequestId)).limit(1);
      if (inv) await refundUnworkedShift(system, inv.id);
    })().catch((err: unknown) => {
      ctx.log.warn('refund after the shift ended unworked failed; the sweep retries', {
        shift_request_id: shiftRequestId,
        ...errorFields(err),
      });
    }),
  );
}

/**
 * The 5-minute sweep: every paid invoice whose shift ended without being worked (cancelled by either
 * party, superseded, a no-show, expired) and has something left to refund is refunded in full by the
 * system, oldest first, a bounded batch a run. A processor refusal gives the amount back and the next
 * run asks again, up to AUTO_REFUND_MAX_FAILURES failed attempts per invoice (then logged for the operator).
 */
export async function sweepUnworkedShiftRefunds(
  ctx: ServiceContext,
  opts: { limit?: number } = {},
): Promise<{ refunded: number; failed: number; skipped: number }> {
  const rows = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(autoRefundableSql())
    .orderBy(asc(invoices.paid_at), asc(invoices.id))
    .limit(opts.limit ?? AUTO_REFUND_BATCH);
  const tally = { refunded: 0, failed: 0, skipped: 0 };
  for (const r of rows) {
    try {
      if (await refundUnworkedShift(ctx, r.id)) tally.refunded++;
      else tally.skipped++;
    } catch (err) {
      tally.failed++;
      ctx.log.warn('automatic refund of an unworked pre-paid shift failed', { invoice_id: r.id, ...errorFields(err) });
    }
  }
  return tally;
}
