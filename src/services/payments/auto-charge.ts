import { and, asc, eq, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { invoices, paymentCustomers, shiftRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { errorFields } from '../../lib/log';
import { type ServiceContext, workedShiftSql } from '../kernel';
import { CHARGE_LEASE_MS, chargeInvoice } from './charge';

/** Invoices charged per sweep at most (each is one processor call). */
export const AUTO_CHARGE_BATCH = 25;

export interface AutoChargeSummary {
  candidates: number;
  succeeded: number;
  requires_action: number;
  failed: number;
  processing: number;
  skipped: number;
  errors: number;
}

/**
 * The automatic charge (every 5 minutes): each pending invoice of a worked shift that was never
 * attempted (`charge_attempted_at` NULL) and whose business has a default card is charged off-session
 * once, oldest first. The attempt is claimed in a guarded write that requires `charge_attempted_at`
 * to be NULL, so concurrent sweeps (or a sweep racing an on-demand charge) never charge twice. An
 * attempt whose process died before recording the answer is resumed after CHARGE_LEASE_MS with the
 * same attempt number (the same processor key: the same intent). An invoice without a card waits (a later sweep charges it once a card is saved); one above the operator
 * cap is left to the owner.
 */
export async function sweepAutomaticCharges(ctx: ServiceContext, opts: { limit?: number } = {}): Promise<AutoChargeSummary> {
  const limit = opts.limit ?? AUTO_CHARGE_BATCH;
  const cap = ctx.settings.PAYMENT_MAX_CHARGE_MINOR;
  const rows = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .innerJoin(shiftRequests, eq(shiftRequests.id, invoices.shift_request_id))
    .innerJoin(paymentCustomers, eq(paymentCustomers.business_id, invoices.business_id))
    .where(
      and(
        eq(invoices.status, 'pending'),
        eq(invoices.requires_action, false),
        or(
          and(isNull(invoices.charge_attempted_at), isNull(invoices.charging_since)),
          // An attempt whose process died before recording the processor's answer: resumed with its key.
          lt(invoices.charging_since, ctx.now() - CHARGE_LEASE_MS),
        ),
        isNotNull(paymentCustomers.default_payment_method_id),
        lte(sql`COALESCE(${invoices.conversion_amount_minor}, ${invoices.amount_minor})`, cap),
        workedShiftSql(),
      ),
    )
    .orderBy(asc(invoices.created_at), asc(invoices.id))
    .limit(limit);
  const summary: AutoChargeSummary = {
    candidates: rows.length,
    succeeded: 0,
    requires_action: 0,
    failed: 0,
    processing: 0,
    skipped: 0,
    errors: 0,
  };
  for (const { id } of rows) {
    try {
      const r = await chargeInvoice(ctx, id, { trigger: 'automatic' });
      summary[r.status] += 1;
    } catch (err) {
      if (err instanceof AppError && err.status < 500) {
        // Taken by another sweep or an on-demand charge, paid meanwhile, or its card removed: not ours now.
        summary.skipped += 1;
      } else {
        summary.errors += 1;
        ctx.log.warn('automatic charge failed; the invoice stays pending', { invoice_id: id, ...errorFields(err) });
      }
    }
  }
  return summary;
}
