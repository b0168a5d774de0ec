import { and, asc, type Column, desc, eq, gt, inArray, isNotNull, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { businesses, invoices, payoutAccounts, refunds, shiftRequests, shifters, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { errorFields } from '../../lib/log';
import { fromMinor, roundRatio } from '../../lib/money';
import { toIso } from '../../lib/time';
import { shifterAccess } from '../access';
import {
  type ConnectedAccountResult,
  prepareWrite,
  requirePerson,
  type ServiceContext,
  SHIFT_STATUS,
  timeApprovedSql,
  type TransferResult,
  workedShiftSql,
} from '../kernel';
import { chargedAmount, type InvoiceRow, loadInvoice } from '../invoices';
import { paymentGateway } from './processor';
import type { PayoutAccountQuery, PayoutAccountView, PayoutOnboardingView } from './refund-schemas';

/*
 * Shifters' connected accounts and the transfer of their share of each paid invoice. The business is
 * charged on the platform's account; the shifter's share (the charged amount less PLATFORM_FEE_BPS)
 * is transferred to their connected account with the charge as its source transaction, once per
 * invoice (idempotency key `transfer:{invoice_id}`, and a guarded stamp of transfer_id).
 */

/** True inside a batch once the invoice carries this operation id (its guarded update ran). */
export const invoiceOpApplied = (invoiceId: string, op: string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${invoices} WHERE ${invoices.id} = ${invoiceId} AND ${invoices.last_op_id} = ${op})`;

/** The shifter's share of a charged amount: the amount less the platform fee (bps, rounded half-up). */
export function shifterShare(chargedMinor: number, feeBps: number): number {
  return chargedMinor - roundRatio(chargedMinor * feeBps, 10_000);
}

/**
 * True (in SQL) when the invoice's shift is worked (the one predicate) and its time approved (its
 * timesheet approved or locked): only then is the shifter's share earned. A shift paid beforehand is
 * paid out only once its time is approved.
 */
const invoiceShiftWorked = (shiftRequestId: Column | string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${shiftRequests} WHERE ${shiftRequests.id} = ${shiftRequestId} AND ${workedShiftSql()}) AND ${timeApprovedSql(shiftRequestId)}`;

async function shiftWorked(ctx: ServiceContext, shiftRequestId: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ ok: sql<number>`1` })
    .from(shiftRequests)
    .where(and(eq(shiftRequests.id, shiftRequestId), workedShiftSql(), timeApprovedSql(shiftRequests.id)))
    .limit(1);
  return row !== undefined;
}

async function shifterUserId(ctx: ServiceContext, shifterId: string): Promise<string | null> {
  const [row] = await ctx.db.select({ userId: shifters.user_id }).from(shifters).where(eq(shifters.id, shifterId)).limit(1);
  return row?.userId ?? null;
}

/**
 * `refunds.reversal_id` of a refund made before the shifter's transfer: the transfer was reduced by
 * its share instead, so it has nothing to reverse.
 */
export const DEDUCTED_FROM_TRANSFER = 'deducted_from_transfer';

/** A refund still with the processor this recently holds the first transfer back (its outcome changes the amount). */
const REFUND_IN_FLIGHT_MS = 10 * 60_000;

export type TransferOutcome =
  | { status: 'transferred'; transfer_id: string; amount_minor: number }
  | { status: 'already'; transfer_id: string; amount_minor: number }
  | {
      status: 'skipped';
      reason:
        | 'not_found'
        | 'not_paid'
        | 'not_worked'
        | 'no_charge'
        | 'no_shifter'
        | 'no_account'
        | 'payouts_disabled'
        | 'nothing_to_transfer'
        | 'refund_in_progress';
    };

/**
 * Reverses a reserved share of the transfer for a refund (idempotency key `reversal:{refund_id}`, so
 * the refund and the transfer that finds it waiting may both ask) and records the reversal's id.
 */
export async function issueReversal(ctx: ServiceContext, refundId: string, transferId: string, amount: number, invoiceId: string) {
  const rev = await paymentGateway(ctx).reverseTransfer({
    transferId,
    amount,
    idempotencyKey: `reversal:${refundId}`,
    metadata: { invoice_id: invoiceId, refund_id: refundId },
  });
  await ctx.db.update(refunds).set({ reversal_id: rev.id, updated_at: ctx.now() }).where(eq(refunds.id, refundId));
  return rev;
}

/**
 * Fixes the transfer's amount on the invoice before the processor is asked (a claim), so a refund
 * reversing it and the transfer agree on one figure: the share of what is charged and not refunded.
 * The claim holds only while no refund changed `refunded_minor` since it was read and none is still
 * with the processor; the refunds it counted are marked as deducted (nothing to reverse), in the same
 * batch. Returns the claimed amount, or why not.
 */
async function claimTransferAmount(
  ctx: ServiceContext,
  invoiceId: string,
): Promise<{ amount: number; inv: InvoiceRow } | { skipped: 'not_found' | 'nothing_to_transfer' | 'refund_in_progress' } | null> {
  const inv = await loadInvoice(ctx, invoiceId);
  if (!inv) return { skipped: 'not_found' };
  if (inv.transfer_amount_minor !== null) return { amount: inv.transfer_amount_minor, inv };
  const now = ctx.now();
  const [inFlight] = await ctx.db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.invoice_id, inv.id), eq(refunds.status, 'pending'), gt(refunds.created_at, now - REFUND_IN_FLIGHT_MS)))
    .limit(1);
  if (inFlight) return { skipped: 'refund_in_progress' };
  const charged = chargedAmount(inv);
  const share = shifterShare(charged.amount, ctx.settings.PLATFORM_FEE_BPS);
  const amount = share - roundRatio(share * inv.refunded_minor, charged.amount);
  if (amount <= 0) return { skipped: 'nothing_to_transfer' };
  const w = prepareWrite(ctx, { type: 'invoice', id: inv.id }, (op) => invoiceOpApplied(inv.id, op));
  const res = await w.commit({
    guard: ctx.db
      .update(invoices)
      .set({ transfer_amount_minor: amount, updated_at: now, last_op_id: w.op })
      .where(
        and(
          eq(invoices.id, inv.id),
          eq(invoices.status, 'paid'),
          isNull(invoices.transfer_id),
          isNull(invoices.transfer_amount_minor),
          eq(invoices.refunded_minor, inv.refunded_minor),
          invoiceShiftWorked(inv.shift_request_id),
          sql`NOT EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.invoice_id} = ${inv.id} AND ${refunds.status} = 'pending' AND ${refunds.created_at} > ${now - REFUND_IN_FLIGHT_MS})`,
        ),
      ),
    follow: [
      ctx.db
        .update(refunds)
        .set({ reversal_id: DEDUCTED_FROM_TRANSFER, updated_at: now })
        .where(and(eq(refunds.invoice_id, inv.id), ne(refunds.status, 'failed'), isNull(refunds.reversal_id), w.applied!)),
    ],
  });
  return res.applied ? { amount, inv } : null; // null: a refund moved meanwhile; read again
}

/**
 * Transfers the shifter's share of a paid invoice to their payouts-enabled connected account, once:
 * amount = share of the charged amount (less PLATFORM_FEE_BPS), less the same share of anything
 * already refunded (fixed first by a guarded claim, see claimTransferAmount); source_transaction =
 * the invoice's charge, transfer_group = the invoice id, idempotency key `transfer:{invoice_id}`.
 * transfer_id is stamped in a guarded write (WHERE transfer_id IS NULL), so concurrent callers make
 * one transfer, one stamp and one `payout_paid` notice; reversals that refunds reserved while the
 * transfer was on its way are then made. Skips (not an error) what cannot be transferred yet; the
 * 5-minute sweep retries.
 */
export async function transferShifterShare(ctx: ServiceContext, invoiceId: string): Promise<TransferOutcome> {
  const first = await loadInvoice(ctx, invoiceId);
  if (!first) return { status: 'skipped', reason: 'not_found' };
  if (first.transfer_id) return { status: 'already', transfer_id: first.transfer_id, amount_minor: first.transfer_amount_minor ?? 0 };
  if (first.status !== 'paid') return { status: 'skipped', reason: 'not_paid' };
  // A pre-paid shift's share is earned only once it is worked (and a cancelled one is refunded
  // instead): until its clock-out the sweep finds it and skips it.
  if (!(await shiftWorked(ctx, first.shift_request_id))) return { status: 'skipped', reason: 'not_worked' };
  if (!first.charge_id) return { status: 'skipped', reason: 'no_charge' };
  if (!first.shifter_id) return { status: 'skipped', reason: 'no_shifter' };
  const chargeId = first.charge_id;
  const shifterId = first.shifter_id;
  const [acct] = await ctx.db.select().from(payoutAccounts).where(eq(payoutAccounts.shifter_id, shifterId)).limit(1);
  if (!acct) return { status: 'skipped', reason: 'no_account' };
  if (!acct.payouts_enabled) return { status: 'skipped', reason: 'payouts_disabled' };

  let claim: Awaited<ReturnType<typeof claimTransferAmount>> = null;
  for (let attempt = 0; attempt < 5 && claim === null; attempt++) claim = await claimTransferAmount(ctx, invoiceId);
  if (claim === null) return { status: 'skipped', reason: 'refund_in_progress' };
  if ('skipped' in claim) return { status: 'skipped', reason: claim.skipped };
  const { amount, inv } = claim;
  if (inv.transfer_id) return { status: 'already', transfer_id: inv.transfer_id, amount_minor: amount };
  const charged = chargedAmount(inv);

  const input = {
    amount,
    currency: charged.currency.toLowerCase(),
    destination: acct.account_id,
    transferGroup: inv.id,
    sourceTransaction: chargeId,
    idempotencyKey: `transfer:${inv.id}`,
    metadata: { invoice_id: inv.id, shifter_id: shifterId, business_id: inv.business_id },
  };
  let transfer: TransferResult | null = null;
  // A concurrent caller with the same idempotency key may be answered with an error while the first
  // is in progress (Stripe: 409 idempotency_key_in_use): wait briefly and ask again; the key then
  // returns the transfer the first one made.
  for (let attempt = 0; transfer === null; attempt++) {
    try {
      transfer = await paymentGateway(ctx).createTransfer(input);
    } catch (err) {
      const stamped = (await loadInvoice(ctx, inv.id))?.transfer_id;
      if (stamped) return { status: 'already', transfer_id: stamped, amount_minor: amount };
      if (attempt >= 3) throw err;
      await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
    }
  }

  const now = ctx.now();
  const userId = await shifterUserId(ctx, shifterId);
  const w = prepareWrite(ctx, { type: 'invoice', id: inv.id }, (op) => invoiceOpApplied(inv.id, op));
  const res = await w.commit({
    guard: ctx.db
      .update(invoices)
      .set({ transfer_id: transfer.id, updated_at: now, last_op_id: w.op })
      .where(and(eq(invoices.id, inv.id), isNull(invoices.transfer_id))),
    audit: {
      action: 'invoice.transferred',
      data: { transfer_id: transfer.id, amount_minor: transfer.amount, destination: acct.account_id },
    },
    notify: [
      userId
        ? {
            kind: 'payout_paid',
            userIds: [userId],
            title: 'Your pay is on its way',
            body: `${fromMinor(transfer.amount, charged.currency)} ${charged.currency.toUpperCase()} for invoice ${inv.id} was sent to your payout account.`,
            data: { shift_request_id: inv.shift_request_id, transfer_id: transfer.id },
          }
        : null,
    ],
  });
  // Refunds made while the transfer was on its way reserved their reversal: make them now.
  const waiting = await ctx.db
    .select({ id: refunds.id, amount: refunds.reversal_amount_minor })
    .from(refunds)
    .where(and(eq(refunds.invoice_id, inv.id), gt(refunds.reversal_amount_minor, 0), isNull(refunds.reversal_id)));
  for (const r of waiting) {
    try {
      await issueReversal(ctx, r.id, transfer.id, r.amount, inv.id);
    } catch (err) {
      ctx.log.error('a waiting transfer reversal failed', { refund_id: r.id, ...errorFields(err) });
    }
  }
  if (res.applied && !res.replayed) return { status: 'transferred', transfer_id: transfer.id, amount_minor: transfer.amount };
  const after = await loadInvoice(ctx, inv.id);
  return {
    status: 'already',
    transfer_id: after?.transfer_id ?? transfer.id,
    amount_minor: after?.transfer_amount_minor ?? transfer.amount,
  };
}

/**
 * The 5-minute sweep: every paid, charged invoice of a worked shift without its transfer whose
 * shifter has a payouts-enabled account (e.g. enabled after the invoice was paid, a pre-paid shift
 * clocked out since, or a transfer that failed),
 * oldest first, a bounded batch a run. One failing transfer does not stop the others.
 */
export async function sweepMissingTransfers(
  ctx: ServiceContext,
  opts: { limit?: number; shifterId?: string } = {},
): Promise<{ transferred: number; failed: number; skipped: number }> {
  const conds: SQL[] = [
    eq(invoices.status, 'paid'),
    isNull(invoices.transfer_id),
    isNotNull(invoices.charge_id),
    invoiceShiftWorked(invoices.shift_request_id),
    sql`${invoices.shifter_id} IN (SELECT ${payoutAccounts.shifter_id} FROM ${payoutAccounts} WHERE ${payoutAccounts.payouts_enabled} = 1)`,
  ];
  if (opts.shifterId) conds.push(eq(invoices.shifter_id, opts.shifterId));
  const rows = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(...conds))
    .orderBy(asc(invoices.paid_at), asc(invoices.id))
    .limit(opts.limit ?? 50);
  const tally = { transferred: 0, failed: 0, skipped: 0 };
  for (const r of rows) {
    try {
      const out = await transferShifterShare(ctx, r.id);
      if (out.status === 'transferred') tally.transferred++;
      else tally.skipped++;
    } catch (err) {
      tally.failed++;
      ctx.log.warn('transfer of a paid invoice failed; the next sweep retries', { invoice_id: r.id, ...errorFields(err) });
    }
  }
  return tally;
}

// ── Connected accounts ─────────────────────────────────────────────────────────────────────────

type PayoutAccountRow = typeof payoutAccounts.$inferSelect;

function accountView(shifterId: string, row: PayoutAccountRow | null): PayoutAccountView {
  if (!row) return { set_up: false, shifter_id: shifterId, account_id: null, details_submitted: false, payouts_enabled: false };
  return {
    set_up: true,
    shifter_id: shifterId,
    account_id: row.account_id,
    details_submitted: row.details_submitted,
    payouts_enabled: row.payouts_enabled,
  };
}

async function accountOf(ctx: ServiceContext, shifterId: string): Promise<PayoutAccountRow | null> {
  const [row] = await ctx.db.select().from(payoutAccounts).where(eq(payoutAccounts.shifter_id, shifterId)).limit(1);
  return row ?? null;
}

/**
 * Stores the processor's view of a connected account (from `account.updated` or a read) when it
 * differs. When payouts become enabled, the shifter's waiting transfers are made in the background.
 * Returns whether the row changed; null when no shifter has this account.
 */
export async function applyAccountStatus(ctx: ServiceContext, account: ConnectedAccountResult): Promise<boolean | null> {
  const [row] = await ctx.db.select().from(payoutAccounts).where(eq(payoutAccounts.account_id, account.id)).limit(1);
  if (!row) return null;
  const res = await ctx.db
    .update(payoutAccounts)
    .set({ details_submitted: account.details_submitted, payouts_enabled: account.payouts_enabled, updated_at: ctx.now() })
    .where(
      and(
        eq(payoutAccounts.account_id, account.id),
        sql`(${payoutAccounts.details_submitted} IS NOT ${account.details_submitted ? 1 : 0} OR ${payoutAccounts.payouts_enabled} IS NOT ${account.payouts_enabled ? 1 : 0})`,
      ),
    )
    .run();
  const changed = (res.meta?.changes ?? 0) > 0;
  if (changed && account.payouts_enabled && !row.payouts_enabled) {
    ctx.waitUntil(
      sweepMissingTransfers(ctx, { shifterId: row.shifter_id }).catch((err) =>
        ctx.log.warn('transfers after payouts were enabled failed; the sweep retries', errorFields(err)),
      ),
    );
  }
  return changed;
}

/** `account.updated` from the processor's webhook: the account's onboarding state. */
export async function handleAccountUpdated(
  ctx: ServiceContext,
  account: { id: string; details_submitted?: boolean | null; payouts_enabled?: boolean | null },
): Promise<'applied' | 'unchanged' | 'mismatch'> {
  const changed = await applyAccountStatus(ctx, {
    id: account.id,
    details_submitted: account.details_submitted === true,
    payouts_enabled: account.payouts_enabled === true,
  });
  if (changed === null) {
    ctx.log.warn('account.updated for an account no shifter has: ignored', { account_id: account.id.slice(0, 64) });
    return 'mismatch';
  }
  return changed ? 'applied' : 'unchanged';
}

/** The caller's own shifter profile, or 404. */
async function ownShifter(ctx: ServiceContext) {
  const actor = requirePerson(ctx);
  const [row] = await ctx.db
    .select({ id: shifters.id, email: users.email })
    .from(shifters)
    .innerJoin(users, eq(users.id, shifters.user_id))
    .where(eq(shifters.user_id, actor.userId))
    .limit(1);
  if (!row) throw new AppError('SHIFTER-NOT-FND-ERR', 'You have no shifter profile.');
  return row;
}

/**
 * POST /v1/shifter/payout_account: creates the caller's connected account once (idempotency key
 * `account:{shifter_id}`, one row per shifter) and returns a fresh onboarding link. Calling it again
 * returns a new link for the same account (links are one-time and expire).
 */
export async function startPayoutOnboarding(
  ctx: ServiceContext,
  urls: { refreshUrl: string; returnUrl: string },
): Promise<PayoutOnboardingView> {
  const me = await ownShifter(ctx);
  const gateway = paymentGateway(ctx);
  let row = await accountOf(ctx, me.id);
  if (!row) {
    const acct = await gateway.createConnectedAccount({
      shifterId: me.id,
      email: me.email,
      country: null,
      idempotencyKey: `account:${me.id}`,
    });
    const now = ctx.now();
    const w = prepareWrite(ctx, { type: 'payout_account', id: me.id });
    await w.commit({
      guard: ctx.db
        .insert(payoutAccounts)
        .values({
          shifter_id: me.id,
          account_id: acct.id,
          details_submitted: acct.details_submitted,
          payouts_enabled: acct.payouts_enabled,
          created_at: now,
          updated_at: now,
        })
        .onConflictDoNothing(),
      audit: { action: 'payout_account.created', data: { account_id: acct.id } },
    });
    row = await accountOf(ctx, me.id);
    if (!row) throw new Error('payout account row missing after insert');
  }
  const link = await gateway.createAccountLink({ accountId: row.account_id, refreshUrl: urls.refreshUrl, returnUrl: urls.returnUrl });
  return { account_id: row.account_id, url: link.url, expires_at: toIso(link.expires_at * 1000) };
}

/**
 * GET /v1/shifter/payout_account: the caller's account (an admin may name another shifter), its
 * status refreshed from the processor; a shifter who has not started onboarding gets `set_up: false`.
 * Anyone else naming a shifter gets 404.
 */
export async function getPayoutAccount(ctx: ServiceContext, q: PayoutAccountQuery): Promise<PayoutAccountView> {
  let shifterId: string;
  if (q.shifter_id) {
    const a = await shifterAccess(ctx, q.shifter_id);
    if (!a.isOwner && !a.asAdmin) throw new AppError('SHIFTER-NOT-FND-ERR');
    shifterId = a.shifter.id;
  } else {
    shifterId = (await ownShifter(ctx)).id;
  }
  const row = await accountOf(ctx, shifterId);
  if (!row) return accountView(shifterId, null);
  try {
    const fresh = await paymentGateway(ctx).retrieveConnectedAccount(row.account_id);
    if (fresh.details_submitted !== row.details_submitted || fresh.payouts_enabled !== row.payouts_enabled) {
      await applyAccountStatus(ctx, { ...fresh, id: row.account_id });
      return accountView(shifterId, await accountOf(ctx, shifterId));
    }
  } catch (err) {
    // The stored status (kept current by account.updated) is still a true answer.
    ctx.log.warn('could not refresh the payout account from the processor', errorFields(err));
  }
  return accountView(shifterId, row);
}

/**
 * The connected account `accountId` if it is the payout account of `userId`'s shifter profile, else
 * null: the simulated onboarding page opens only for its own shifter.
 */
export async function payoutAccountOfUser(ctx: ServiceContext, userId: string, accountId: string): Promise<string | null> {
  const [row] = await ctx.db
    .select({ id: payoutAccounts.account_id })
    .from(payoutAccounts)
    .innerJoin(shifters, eq(shifters.id, payoutAccounts.shifter_id))
    .where(and(eq(payoutAccounts.account_id, accountId), eq(shifters.user_id, userId)))
    .limit(1);
  return row?.id ?? null;
}

/**
 * What a payout row says of an invoice of the shifter's worked shift:
 * `invoiced` (the business has not paid yet), `waiting` (paid; the share goes out once the payout
 * account has payouts enabled), `sent` (transferred), `refunded` (nothing left to send or kept).
 */
export type PayoutState = 'invoiced' | 'waiting' | 'sent' | 'refunded';

export interface PayoutRow {
  invoice_id: string;
  shift_request_id: string;
  shift_date: string;
  business_name: string;
  /** The shifter's share, in currency: what was sent (less reversals), or what will be. */
  amount: number;
  currency: string;
  state: PayoutState;
  paid_at: string | null;
}

/** Payout rows a page shows at once: the latest worked shifts. */
export const PAYOUT_ROWS = 20;

/**
 * The caller's latest payouts, newest shift first: one row per invoice of their worked shifts, with its
 * state and their share. Read through the shifter's shift index and each shift's one invoice (the
 * invoices table has no shifter index), so it costs the same whatever the number of invoices.
 */
export async function listPayouts(ctx: ServiceContext, q: { limit?: number } = {}): Promise<PayoutRow[]> {
  const me = await ownShifter(ctx);
  const rows = await ctx.db
    .select({ inv: invoices, shift_date: shiftRequests.shift_date, business_name: businesses.name })
    .from(shiftRequests)
    .innerJoin(invoices, eq(invoices.shift_request_id, shiftRequests.id))
    .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
    .where(and(eq(shiftRequests.shifter_id, me.id), inArray(shiftRequests.request_status, [SHIFT_STATUS.accepted, SHIFT_STATUS.completed])))
    .orderBy(desc(shiftRequests.starts_at))
    .limit(Math.min(q.limit ?? PAYOUT_ROWS, 100));
  return rows.map(({ inv, shift_date, business_name }) => {
    const charged = chargedAmount(inv);
    const share = shifterShare(charged.amount, ctx.settings.PLATFORM_FEE_BPS);
    let minor: number;
    let state: PayoutState;
    if (inv.transfer_id) {
      minor = (inv.transfer_amount_minor ?? 0) - inv.transfer_reversed_minor;
      state = minor > 0 ? 'sent' : 'refunded';
    } else {
      minor = share - roundRatio(share * inv.refunded_minor, charged.amount);
      state = minor <= 0 ? 'refunded' : inv.status === 'paid' ? 'waiting' : 'invoiced';
    }
    return {
      invoice_id: inv.id,
      shift_request_id: inv.shift_request_id,
      shift_date,
      business_name,
      amount: fromMinor(Math.max(0, minor), charged.currency),
      currency: charged.currency.toUpperCase(),
      state,
      paid_at: inv.paid_at === null ? null : toIso(inv.paid_at),
    };
  });
}
