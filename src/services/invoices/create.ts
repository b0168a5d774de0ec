import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { insertWhere } from '../../db/conditional';
import { invoices, shiftRequests, timesheets } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { isWorked, type ServiceContext, shiftPayMinor, timeApprovedSql, workedShiftSql } from '../kernel';
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
 * The pending invoice of a shift in its currency: the approved pay of its timesheet (`amountMinor`,
 * services/timesheets), or for a pre-payment made before the work, the scheduled hours × rate (real
 * instants, so a DST night is 7 or 9 hours), rounded once.
 */
export function invoiceFor(shift: InvoicedShift, now: number, amountMinor: number = shiftPayMinor(shift)): InvoiceRow {
  return {
    id: newId('invoice'),
    business_id: shift.business_id,
    shift_request_id: shift.id,
    shifter_id: shift.shifter_id,
    amount_minor: amountMinor,
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
 * The invoice insert of the write that approves a shift's time (services/timesheets), for the approved
 * pay (`amountMinor`), conditional on that write's `applied` (it happens in the same batch or not at
 * all). The unique shift_request_id keeps it to one: a shift that already has one (an earlier
 * pre-payment) keeps it.
 */
export function invoiceInsertWhere(db: Db, shift: InvoicedShift, now: number, applied: SQL, amountMinor?: number) {
  return insertWhere(db, invoices, invoiceFor(shift, now, amountMinor), applied).onConflictDoNothing({ target: invoices.shift_request_id });
}

/**
 * The invoice of a shift whose time is approved (its timesheet approved or locked), for the approved
 * pay: the one its approval wrote, or, for one approved without it (written before invoices followed
 * approval), created once. Idempotent and safe under concurrent callers (the insert re-checks the
 * approval in SQL and the unique shift_request_id). Any other shift is SHFT-STATE-ERR.
 * No access check: callers make it.
 */
export async function ensureInvoiceForShift(ctx: ServiceContext, shiftRequestId: string): Promise<InvoiceRow> {
  const existing = await invoiceOfShift(ctx, shiftRequestId);
  if (existing) return existing;
  const [shift] = await ctx.db.select().from(shiftRequests).where(eq(shiftRequests.id, shiftRequestId)).limit(1);
  if (!shift) throw new AppError('SHFT-NOT-FND-ERR');
  const [ts] = await ctx.db
    .select({ pay: timesheets.pay_minor })
    .from(timesheets)
    .where(and(eq(timesheets.shift_request_id, shiftRequestId), inArray(timesheets.status, ['approved', 'locked'])))
    .limit(1);
  if (!isWorked(shift) || ts?.pay == null) throw notApproved();
  const stillApproved = sql`EXISTS (SELECT 1 FROM ${shiftRequests} WHERE ${and(eq(shiftRequests.id, shiftRequestId), workedShiftSql())}) AND ${timeApprovedSql(shiftRequestId)}`;
  await invoiceInsertWhere(ctx.db, shift, ctx.now(), stillApproved, ts.pay);
  const created = await invoiceOfShift(ctx, shiftRequestId);
  if (!created) throw notApproved();
  return created;
}

const notApproved = () => new AppError('SHFT-STATE-ERR', 'Only a worked shift whose time is approved has an invoice.');

async function invoiceOfShift(ctx: ServiceContext, shiftRequestId: string): Promise<InvoiceRow | null> {
  const [row] = await ctx.db.select().from(invoices).where(eq(invoices.shift_request_id, shiftRequestId)).limit(1);
  return row ?? null;
}
