import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { insertWhere } from '../../db/conditional';
import { invoices, shiftRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { isWorked, type ServiceContext, shiftPayMinor, workedShiftSql } from '../kernel';
import type { InvoiceRow } from './row';

/** The fields of a shift an invoice is priced from. */
export interface InvoicedShift {
  id: string;
  business_id: string;
  shifter_id: string | null;
  starts_at: number;
  ends_at: number;
  hourly_rate_minor: number;
  currency: string;
}

/**
 * The pending invoice of a worked shift: hours × rate in the shift's currency, on the same scheduled
 * duration (real instants, so a DST night is 7 or 9 hours) and rounding as labor costs and earnings.
 */
export function invoiceFor(shift: InvoicedShift, now: number): InvoiceRow {
  return {
    id: newId('invoice'),
    business_id: shift.business_id,
    shift_request_id: shift.id,
    shifter_id: shift.shifter_id,
    amount_minor: shiftPayMinor(shift),
    currency: shift.currency,
    conversion_amount_minor: null,
    conversion_currency: null,
    status: 'pending',
    requires_action: false,
    requires_action_at: null,
    payment_intent_id: null,
    paid_at: null,
    failed_at: null,
    charge_id: null,
    charge_attempted_at: null,
    charge_attempts: 0,
    charging_since: null,
    refunded_minor: 0,
    transfer_id: null,
    transfer_amount_minor: null,
    transfer_reversed_minor: 0,
    last_op_id: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * The invoice insert of a write that makes a shift worked, conditional on that write's `applied`
 * (it happens in the same batch or not at all). The unique shift_request_id keeps it to one: a
 * shift that already has one (an earlier pre-payment) keeps it.
 */
export function invoiceInsertWhere(db: Db, shift: InvoicedShift, now: number, applied: SQL) {
  return insertWhere(db, invoices, invoiceFor(shift, now), applied).onConflictDoNothing({ target: invoices.shift_request_id });
}

/**
 * The invoice of a shift worked before invoices existed (or any worked shift): created once, returned
 * as stored afterwards. Idempotent and safe under concurrent callers (the insert re-checks the worked
 * predicate and the unique shift_request_id). A shift that is not worked is SHFT-STATE-ERR.
 * No access check: callers make it.
 */
export async function ensureInvoiceForShift(ctx: ServiceContext, shiftRequestId: string): Promise<InvoiceRow> {
  const existing = await invoiceOfShift(ctx, shiftRequestId);
  if (existing) return existing;
  const [shift] = await ctx.db.select().from(shiftRequests).where(eq(shiftRequests.id, shiftRequestId)).limit(1);
  if (!shift) throw new AppError('SHFT-NOT-FND-ERR');
  if (!isWorked(shift)) throw new AppError('SHFT-STATE-ERR', 'Only a worked shift has an invoice.');
  const stillWorked = sql`EXISTS (SELECT 1 FROM ${shiftRequests} WHERE ${and(eq(shiftRequests.id, shiftRequestId), workedShiftSql())})`;
  await invoiceInsertWhere(ctx.db, shift, ctx.now(), stillWorked);
  const created = await invoiceOfShift(ctx, shiftRequestId);
  if (!created) throw new AppError('SHFT-STATE-ERR', 'Only a worked shift has an invoice.');
  return created;
}

async function invoiceOfShift(ctx: ServiceContext, shiftRequestId: string): Promise<InvoiceRow | null> {
  const [row] = await ctx.db.select().from(invoices).where(eq(invoices.shift_request_id, shiftRequestId)).limit(1);
  return row ?? null;
}
