import { and, desc, eq, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { insertWhere } from '../../db/conditional';
import { businesses, invoices, shiftRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { fromMinor } from '../../lib/money';
import { toIso } from '../../lib/time';
import { accessBusiness } from '../access';
import {
  appLinkOrigin,
  committedSubject,
  type PaymentIntentResult,
  prepareWrite,
  requirePerson,
  type ServiceContext,
  SHIFT_STATUS,
  shiftPayMinor,
} from '../kernel';
import { chargedAmount, invoiceFor, type InvoiceRow, loadInvoice } from '../invoices';
import { defaultCardOf } from './cards';
import { describeCharge } from './charge-details';
import { paymentGateway } from './processor';
import type { ChargeResult, ChargeTrigger, FreshClientSecret, StuckInvoice } from './schemas';
import { markInvoiceFailed, markInvoicePaid } from './settle';
import { businessRecipients } from '../notifications';

export type { ChargeResult } from './schemas';

/**
 * Off-session charges of invoices on the business's default card (spec 3.4, 4.3).
 *
 * One attempt at a time per invoice: an attempt is claimed in a guarded write on the invoice
 * (`charge_attempts + 1`, `charging_since` stamped, only while no attempt holds it), and the attempt's
 * number is in the processor's idempotency key `charge:{invoice_id}:{n}`, so concurrent callers make one
 * PaymentIntent. The intent's id is stamped on the invoice before its answer is acted on (a webhook
 * event racing the answer then finds the invoice). An attempt whose process died is taken over after
 * CHARGE_LEASE_MS with the same number (the same key: the processor answers with the same intent); an
 * attempt the processor could not answer (an outage) gives its number back, so the retry reuses the key
 * too, while one it refused outright keeps it (see refusedOutright).
 */

/** After this long a claimed attempt that recorded no answer may be taken over (same attempt number). */
export const CHARGE_LEASE_MS = 10 * 60_000;

/** Where the card holder confirms a charge the issuer holds for authentication. */
export const authenticatePath = (invoiceId: string) => `/finance/web/authenticate/${invoiceId}`;

const invoiceOpApplied = (invoiceId: string, op: string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${invoices} WHERE ${invoices.id} = ${invoiceId} AND ${invoices.last_op_id} = ${op})`;

/** Owner or admin of the invoice's business; a system job only for the automatic charge. Strangers: 404. */
async function authorize(ctx: ServiceContext, inv: InvoiceRow, trigger: ChargeTrigger): Promise<void> {
  if (ctx.actor.kind === 'system') {
    if (trigger === 'automatic') return;
    throw new AppError('FORBIDDEN-ERR');
  }
  try {
    await accessBusiness(ctx, inv.business_id, ['owner', 'admin']);
  } catch (err) {
    if (err instanceof AppError && err.code === 'BUSINESS-NOT-FND-ERR') throw new AppError('INVOICE-NOT-FND-ERR');
    throw err;
  }
}

const result = (
  status: ChargeResult['status'],
  inv: { id: string },
  pi: { id: string; client_secret?: string | null } | null,
  declineCode: string | null = null,
): ChargeResult => ({
  status,
  invoice_id: inv.id,
  payment_intent_id: pi?.id ?? null,
  client_secret: status === 'requires_action' ? (pi?.client_secret ?? null) : null,
  decline_code: declineCode,
});

/**
 * The result of an invoice as it stands (a retried request whose charge already committed, or an
 * invoice waiting for authentication): requires_action comes with a fresh client secret.
 */
async function standingResult(ctx: ServiceContext, inv: InvoiceRow): Promise<ChargeResult> {
  if (inv.status === 'paid') return result('succeeded', inv, inv.payment_intent_id ? { id: inv.payment_intent_id } : null);
  if (inv.requires_action && inv.payment_intent_id) {
    const pi = await paymentGateway(ctx).retrievePaymentIntent(inv.payment_intent_id);
    return result('requires_action', inv, pi);
  }
  if (inv.charging_since !== null) return result('processing', inv, inv.payment_intent_id ? { id: inv.payment_intent_id } : null);
  return result('failed', inv, inv.payment_intent_id ? { id: inv.payment_intent_id } : null);
}

/**
 * An intent waiting for the card holder to authenticate. Stripe leaves an off-session intent whose
 * issuer demands authentication in `requires_payment_method` with the error `authentication_required`
 * (its create answer is mapped to requires_action by the gateway; a later read is not), so both shapes
 * count. A failed authentication carries another code (`payment_intent_authentication_failure`).
 */
function awaitsAuthentication(pi: PaymentIntentResult): boolean {
  return pi.status === 'requires_action' || (pi.status === 'requires_payment_method' && pi.last_error_code === 'authentication_required');
}

/**
 * The intent already on an invoice that has not ended in a recorded failure (waiting for
 * authentication, still processing, or settled without us hearing: a lost event), read from the
 * processor before another attempt may start, so an open intent is never doubled. Returns the result
 * to give, or null when that intent is over without paying and a new attempt may start (the failure is
 * recorded first: requires_action cleared, the invoice a plain pending one).
 */
async function reconcileOpenIntent(ctx: ServiceContext, inv: InvoiceRow): Promise<ChargeResult | null> {
  const pi = await paymentGateway(ctx).retrievePaymentIntent(inv.payment_intent_id!);
  if (pi.status === 'succeeded') {
    await markInvoicePaid(ctx, inv.id, { paymentIntentId: pi.id, chargeId: pi.latest_charge_id });
    return result('succeeded', inv, pi);
  }
  if (awaitsAuthentication(pi)) return result('requires_action', inv, pi);
  if (pi.status === 'processing' || pi.status === 'requires_capture' || pi.status === 'requires_confirmation') {
    return result('processing', inv, pi);
  }
  await markInvoiceFailed(ctx, inv.id, { paymentIntentId: pi.id });
  return null;
}

/** Claims the next attempt of a charge; null when another attempt holds the invoice (or it is settled). */
async function claimAttempt(
  ctx: ServiceContext,
  inv: InvoiceRow,
  trigger: ChargeTrigger,
): Promise<{ attempt: number; since: number } | null> {
  const now = ctx.now();
  const free = and(eq(invoices.id, inv.id), eq(invoices.status, 'pending'), eq(invoices.requires_action, false));
  const fresh = prepareWrite(ctx, { type: 'invoice', id: inv.id }, (op) => invoiceOpApplied(inv.id, op));
  const claimed = await fresh.commit({
    guard: ctx.db
      .update(invoices)
      .set({
        charge_attempts: sql`${invoices.charge_attempts} + 1`,
        charging_since: now,
        charge_attempted_at: now,
        updated_at: now,
        last_op_id: fresh.op,
      })
      .where(and(free, isNull(invoices.charging_since), ...(trigger === 'automatic' ? [isNull(invoices.charge_attempted_at)] : []))),
    audit: { action: 'invoice.charge_attempted', data: { trigger } },
  });
  if (!claimed.applied) {
    // An attempt that never recorded its answer (its process died): taken over with the same number
    // (the automatic sweep resumes its own this way too; it never starts a second one).
    const stale = prepareWrite(ctx, { type: 'invoice', id: inv.id }, (op) => invoiceOpApplied(inv.id, op));
    const taken = await stale.commit({
      guard: ctx.db
        .update(invoices)
        .set({ charging_since: now, charge_attempted_at: now, updated_at: now, last_op_id: stale.op })
        .where(and(free, lt(invoices.charging_since, now - CHARGE_LEASE_MS))),
      audit: { action: 'invoice.charge_resumed', data: { trigger } },
    });
    if (!taken.applied) return null;
  }
  const after = await loadInvoice(ctx, inv.id);
  if (!after || after.charging_since !== now) return null;
  return { attempt: after.charge_attempts, since: now };
}

/**
 * Whether the processor refused the charge outright (it answered with its own error code, e.g. a card
 * no longer attached): no intent was made, and Stripe replays that refusal to the same idempotency key
 * (and refuses the key with other parameters), so the next attempt takes a new number. Any other error
 * (unreachable, a 5xx) leaves it unknown whether an intent was made, so the number is given back and
 * the retry sends the same key: the processor then answers with that intent instead of a second one.
 */
function refusedOutright(err: unknown): boolean {
  return err instanceof AppError && typeof (err.details as { processor_code?: unknown } | undefined)?.processor_code === 'string';
}

/**
 * Ends an attempt the processor answered with an error. A refusal keeps the attempt (counted, and
 * attempted for the automatic sweep, which does not retry it); an outage gives the number back and
 * clears the attempt stamp, so the sweep (or the owner) retries it with the same key.
 */
async function releaseAfterError(ctx: ServiceContext, inv: InvoiceRow, since: number, err: unknown): Promise<void> {
  const giveBack = !refusedOutright(err);
  await ctx.db
    .update(invoices)
    .set({
      charging_since: null,
      ...(giveBack ? { charge_attempts: sql`${invoices.charge_attempts} - 1`, charge_attempted_at: inv.charge_attempted_at } : {}),
      updated_at: ctx.now(),
    })
    .where(and(eq(invoices.id, inv.id), eq(invoices.charging_since, since)));
}

async function release(ctx: ServiceContext, invoiceId: string, since: number): Promise<void> {
  await ctx.db
    .update(invoices)
    .set({ charging_since: null, updated_at: ctx.now() })
    .where(and(eq(invoices.id, invoiceId), eq(invoices.charging_since, since)));
}

/**
 * The issuer demands authentication: the invoice stays pending with requires_action set and
 * requires_action_at stamped; the owner gets the urgent `payment_action_required` notification whose
 * email carries the link to the authentication page. Nothing is marked paid.
 */
async function holdForAuthentication(ctx: ServiceContext, inv: InvoiceRow, pi: PaymentIntentResult, since: number, origin?: string) {
  const now = ctx.now();
  const w = prepareWrite(ctx, { type: 'invoice', id: inv.id }, (op) => invoiceOpApplied(inv.id, op));
  const kind = 'payment_action_required';
  const link = `${appLinkOrigin(ctx, origin)}${authenticatePath(inv.id)}`;
  const money = `${fromMinor(pi.amount, pi.currency.toUpperCase())} ${pi.currency.toUpperCase()}`;
  await w.commit({
    guard: ctx.db
      .update(invoices)
      .set({
        requires_action: true,
        requires_action_at: now,
        payment_intent_id: pi.id,
        charging_since: null,
        updated_at: now,
        last_op_id: w.op,
      })
      .where(and(eq(invoices.id, inv.id), eq(invoices.status, 'pending'), eq(invoices.charging_since, since))),
    audit: { action: 'invoice.requires_action', data: { payment_intent_id: pi.id } },
    notify: [
      {
        kind,
        userIds: await businessRecipients(ctx, inv.business_id, kind),
        title: 'Confirm a payment with your bank',
        body: `Your bank asks you to confirm the payment of invoice ${inv.id} for ${money}. The invoice stays unpaid until you do: ${link}`,
        data: { shift_request_id: inv.shift_request_id, url: link },
      },
    ],
  });
}

/**
 * Charges an invoice off-session on the business's default card. `trigger`: `automatic` (the sweep
 * after the shift is worked: a system job, one attempt per invoice), `on_demand` (POST
 * /v1/invoices/{id}/charge) or `prepay` (prepayShift). The owner or an admin; others 404.
 *
 * Refused: a paid invoice (INVOICE-PAID-ERR), an attempt in flight (PAYMENT-IN-PROGRESS-ERR), above the
 * operator cap (PAYMENT-CAP-ERR), no default card (PAYMENT-CARD-REQ-ERR). An invoice whose intent is
 * still open (waiting for authentication, processing) starts no new attempt: the result is that intent's
 * state, requires_action with a fresh client secret (or, when the processor has settled it meanwhile,
 * that settlement).
 */
export async function chargeInvoice(
  ctx: ServiceContext,
  invoiceId: string,
  opts: { trigger: ChargeTrigger; requestOrigin?: string },
): Promise<ChargeResult> {
  const inv = await loadInvoice(ctx, invoiceId);
  if (!inv) throw new AppError('INVOICE-NOT-FND-ERR');
  await authorize(ctx, inv, opts.trigger);
  // A retry whose claim committed before its answer was stored: answer from the invoice as it stands.
  if (committedSubject(ctx, 'invoice') === inv.id) return standingResult(ctx, inv);
  if (inv.status === 'paid') throw new AppError('INVOICE-PAID-ERR');
  // An intent not known to have failed (waiting for authentication, processing) starts no new attempt.
  if (inv.payment_intent_id && (inv.requires_action || inv.failed_at === null) && inv.charging_since === null) {
    if (opts.trigger === 'automatic') throw new AppError('PAYMENT-IN-PROGRESS-ERR');
    const settled = await reconcileOpenIntent(ctx, inv);
    if (settled) return settled;
  }
  const charged = chargedAmount(inv);
  if (charged.amount > ctx.settings.PAYMENT_MAX_CHARGE_MINOR) {
    throw new AppError('PAYMENT-CAP-ERR', undefined, { amount_minor: charged.amount, max_minor: ctx.settings.PAYMENT_MAX_CHARGE_MINOR });
  }
  const card = await defaultCardOf(ctx, inv.business_id);
  if (!card) throw new AppError('PAYMENT-CARD-REQ-ERR');

  const current = (await loadInvoice(ctx, inv.id)) ?? inv;
  const claim = await claimAttempt(ctx, current, opts.trigger);
  if (!claim) {
    const now = await loadInvoice(ctx, inv.id);
    if (now?.status === 'paid') throw new AppError('INVOICE-PAID-ERR');
    throw new AppError('PAYMENT-IN-PROGRESS-ERR');
  }

  let pi: PaymentIntentResult;
  try {
    pi = await paymentGateway(ctx).chargeOffSession({
      customerId: card.customerId,
      paymentMethodId: card.paymentMethodId,
      amount: charged.amount,
      // The processor takes ISO currency codes in lowercase.
      currency: charged.currency.toLowerCase(),
      idempotencyKey: `charge:${inv.id}:${claim.attempt}`,
      metadata: { invoice_id: inv.id, business_id: inv.business_id, shift_request_id: inv.shift_request_id, trigger: opts.trigger },
      transferGroup: inv.id,
      description: `Shiftmarket invoice ${inv.id}`,
    });
  } catch (err) {
    await releaseAfterError(ctx, current, claim.since, err);
    throw err;
  }

  // The intent is on the invoice before its answer is acted on; a new intent starts without a failure.
  await ctx.db
    .update(invoices)
    .set({
      payment_intent_id: pi.id,
      failed_at: sql`CASE WHEN ${invoices.payment_intent_id} IS ${pi.id} THEN ${invoices.failed_at} ELSE NULL END`,
      updated_at: ctx.now(),
    })
    .where(and(eq(invoices.id, inv.id), eq(invoices.status, 'pending'), eq(invoices.charging_since, claim.since)));

  if (awaitsAuthentication(pi)) {
    await holdForAuthentication(ctx, inv, pi, claim.since, opts.requestOrigin);
    return result('requires_action', inv, pi);
  }
  switch (pi.status) {
    case 'succeeded':
      await markInvoicePaid(ctx, inv.id, { paymentIntentId: pi.id, chargeId: pi.latest_charge_id });
      await release(ctx, inv.id, claim.since);
      return result('succeeded', inv, pi);
    case 'processing':
    case 'requires_capture':
      await release(ctx, inv.id, claim.since);
      return result('processing', inv, pi);
    default:
      await markInvoiceFailed(ctx, inv.id, { paymentIntentId: pi.id });
      await release(ctx, inv.id, claim.since);
      return result('failed', inv, pi, pi.last_error_code ?? 'card_declined');
  }
}

/**
 * Pre-pays a claimed or accepted shift that is not worked yet (the business owner only; the MCP
 * payment tool calls this too): creates its invoice (scheduled hours × rate, as a worked shift's) and
 * charges it. The clock-out keeps that invoice; when it is paid by then, the clock-out moves the
 * shift 2 → 5. Any other state is SHFT-STATE-ERR. A shift already pre-paid answers succeeded again.
 */
export async function prepayShift(
  ctx: ServiceContext,
  shiftRequestId: string,
  opts: { requestOrigin?: string } = {},
): Promise<ChargeResult> {
  requirePerson(ctx);
  const [shift] = await ctx.db.select().from(shiftRequests).where(eq(shiftRequests.id, shiftRequestId)).limit(1);
  if (!shift) throw new AppError('SHFT-NOT-FND-ERR');
  try {
    await accessBusiness(ctx, shift.business_id, ['owner']);
  } catch (err) {
    if (err instanceof AppError && err.code === 'BUSINESS-NOT-FND-ERR') throw new AppError('SHFT-NOT-FND-ERR');
    throw err;
  }
  const [existing] = await ctx.db.select().from(invoices).where(eq(invoices.shift_request_id, shift.id)).limit(1);
  if (existing?.status === 'paid')
    return result('succeeded', existing, existing.payment_intent_id ? { id: existing.payment_intent_id } : null);
  const prepayable = shift.request_status === SHIFT_STATUS.accepted && shift.shift_end_at === null && !shift.is_noshow && shift.shifter_id;
  if (!prepayable) {
    throw new AppError('SHFT-STATE-ERR', 'Only a claimed or accepted shift that is not worked yet can be pre-paid.');
  }
  if (!existing) {
    const amount = shiftPayMinor(shift);
    if (amount > ctx.settings.PAYMENT_MAX_CHARGE_MINOR) {
      throw new AppError('PAYMENT-CAP-ERR', undefined, { amount_minor: amount, max_minor: ctx.settings.PAYMENT_MAX_CHARGE_MINOR });
    }
    if (!(await defaultCardOf(ctx, shift.business_id))) throw new AppError('PAYMENT-CARD-REQ-ERR');
    const stillOpen = sql`EXISTS (SELECT 1 FROM ${shiftRequests} WHERE ${and(
      eq(shiftRequests.id, shift.id),
      eq(shiftRequests.request_status, SHIFT_STATUS.accepted),
      isNull(shiftRequests.shift_end_at),
      eq(shiftRequests.is_noshow, false),
    )})`;
    await insertWhere(ctx.db, invoices, invoiceFor(shift, ctx.now()), stillOpen).onConflictDoNothing({ target: invoices.shift_request_id });
  }
  const [inv] = await ctx.db.select().from(invoices).where(eq(invoices.shift_request_id, shift.id)).limit(1);
  if (!inv) throw new AppError('SHFT-STATE-ERR', 'Only a claimed or accepted shift that is not worked yet can be pre-paid.');
  return chargeInvoice(ctx, inv.id, { trigger: 'prepay', ...opts });
}

/** The refusal the authentication page gives anyone but the owner, and any invoice not waiting: one generic 403. */
const nothingToConfirm = () => new AppError('FORBIDDEN-ERR', 'There is no payment of yours to confirm here.');

/**
 * For the authentication page (/finance/web/authenticate/{invoice_id}): a fresh client secret of the
 * invoice's payment intent. Only the business owner, only while the invoice still requires action;
 * anything else (another user, an admin, a paid or unknown invoice) is the same 403. When the
 * processor has settled the intent meanwhile, the settlement is recorded and the page is refused.
 */
export async function freshClientSecret(ctx: ServiceContext, invoiceId: string): Promise<FreshClientSecret> {
  const actor = requirePerson(ctx);
  const [row] = await ctx.db
    .select({ inv: invoices, owner: businesses.user_id })
    .from(invoices)
    .innerJoin(businesses, eq(businesses.id, invoices.business_id))
    .where(eq(invoices.id, invoiceId))
    .limit(1);
  if (!row || row.owner !== actor.userId) throw nothingToConfirm();
  const inv = row.inv;
  if (inv.status !== 'pending' || !inv.requires_action || !inv.payment_intent_id) throw nothingToConfirm();
  const gw = paymentGateway(ctx);
  const pi = await gw.retrievePaymentIntent(inv.payment_intent_id);
  if (pi.status === 'succeeded') {
    await markInvoicePaid(ctx, inv.id, { paymentIntentId: pi.id, chargeId: pi.latest_charge_id });
    throw nothingToConfirm();
  }
  if (!awaitsAuthentication(pi)) throw nothingToConfirm();
  // Stripe leaves an off-session intent declined with authentication_required in
  // requires_payment_method (not requires_action): handleNextAction has nothing to run there, the
  // card holder confirms it on-session with the saved card instead (confirmCardPayment runs 3DS).
  const status = pi.status === 'requires_action' ? 'requires_action' : 'requires_payment_method';
  const paymentMethodId = pi.payment_method_id;
  if (status === 'requires_payment_method' && !paymentMethodId) throw nothingToConfirm();
  return {
    invoice_id: inv.id,
    payment_intent_id: pi.id,
    client_secret: pi.client_secret,
    publishable_key: gw.publishableKey,
    gateway: gw.kind,
    amount: fromMinor(pi.amount, pi.currency.toUpperCase()),
    currency: pi.currency.toUpperCase(),
    status,
    payment_method_id: paymentMethodId,
    next_step: status === 'requires_action' ? 'handle_next_action' : 'confirm_card_payment',
    charge: await describeCharge(ctx, inv, paymentMethodId),
  };
}

/** Most stuck invoices listed at once (/finance/web/requires-action). */
export const STUCK_INVOICES_MAX = 100;

/** The caller's invoices waiting for authentication, across the businesses they own, newest first. */
export async function stuckInvoices(ctx: ServiceContext): Promise<StuckInvoice[]> {
  const actor = requirePerson(ctx);
  const rows = await ctx.db
    .select({ inv: invoices })
    .from(invoices)
    .innerJoin(businesses, eq(businesses.id, invoices.business_id))
    .where(and(eq(businesses.user_id, actor.userId), eq(invoices.status, 'pending'), eq(invoices.requires_action, true)))
    .orderBy(desc(invoices.requires_action_at), desc(invoices.id))
    .limit(STUCK_INVOICES_MAX);
  return rows.map(({ inv }) => {
    const c = chargedAmount(inv);
    return {
      invoice_id: inv.id,
      business_id: inv.business_id,
      shift_request_id: inv.shift_request_id,
      amount: fromMinor(c.amount, c.currency.toUpperCase()),
      currency: c.currency.toUpperCase(),
      payment_intent_id: inv.payment_intent_id,
      requires_action_at: toIso(inv.requires_action_at),
      authenticate_path: authenticatePath(inv.id),
    };
  });
}
