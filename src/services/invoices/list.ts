import { and, desc, eq, isNotNull, isNull, lt, or, type SQL } from 'drizzle-orm';
import { invoices, shiftRequests, shifters } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { fromMinor } from '../../lib/money';
import { decodeCursor, encodeCursor, isKeysetCursor } from '../../lib/pagination';
import { toIso } from '../../lib/time';
import { accessBusiness, PAY_VIEWERS } from '../access';
import type { ServiceContext } from '../kernel';
import { chargedAmount, type InvoiceRow } from './row';
import type { InvoiceList, InvoiceRowView, ListInvoicesQuery } from './schemas';

/**
 * The rows a status filter selects. A failed charge leaves the invoice pending (the spec shows no other
 * status), so `failed` means: pending, its last attempt failed (`failed_at`, cleared when a new attempt
 * makes a new payment intent), and nothing pending since (no authentication asked, no attempt in flight).
 * A stored `failed` status (never written today) would count too.
 */
function statusFilter(status: ListInvoicesQuery['status']): SQL | undefined {
  switch (status) {
    case 'all':
      return undefined;
    case 'failed':
      return or(
        eq(invoices.status, 'failed'),
        and(
          eq(invoices.status, 'pending'),
          isNotNull(invoices.failed_at),
          eq(invoices.requires_action, false),
          isNull(invoices.charging_since),
        ),
      );
    default:
      return eq(invoices.status, status);
  }
}

/** What of the charge was refunded, in the charged currency, and how much of it that is. */
function refundFields(inv: InvoiceRow): Pick<InvoiceRowView, 'refunded_amount' | 'refundable_remaining' | 'refund_status'> {
  const charged = chargedAmount(inv);
  const refunded = inv.refunded_minor;
  return {
    refunded_amount: fromMinor(refunded, charged.currency),
    refundable_remaining: inv.status === 'paid' ? fromMinor(Math.max(0, charged.amount - refunded), charged.currency) : 0,
    refund_status: refunded <= 0 ? 'none' : refunded >= charged.amount ? 'full' : 'partial',
  };
}

/** The invoice with its shift's times and its shifter's name: what a listed row shows. */
const selectRows = (ctx: ServiceContext) =>
  ctx.db
    .select({
      inv: invoices,
      shift_date: shiftRequests.shift_date,
      shift_in: shiftRequests.shift_in,
      shift_out: shiftRequests.shift_out,
      shifter_name: shifters.display_name,
    })
    .from(invoices)
    .innerJoin(shiftRequests, eq(shiftRequests.id, invoices.shift_request_id))
    .leftJoin(shifters, eq(shifters.id, invoices.shifter_id));

interface SelectedRow {
  inv: InvoiceRow;
  shift_date: string;
  shift_in: string;
  shift_out: string;
  shifter_name: string | null;
}

function rowView(r: SelectedRow): InvoiceRowView {
  return {
    invoice_id: r.inv.id,
    shift_request_id: r.inv.shift_request_id,
    shift_date: r.shift_date,
    shift_in: r.shift_in,
    shift_out: r.shift_out,
    shifter_id: r.inv.shifter_id,
    shifter_name: r.shifter_name,
    amount: fromMinor(r.inv.amount_minor, r.inv.currency),
    currency: r.inv.currency,
    conversion_amount:
      r.inv.conversion_amount_minor !== null && r.inv.conversion_currency !== null
        ? fromMinor(r.inv.conversion_amount_minor, r.inv.conversion_currency)
        : null,
    conversion_currency: r.inv.conversion_currency,
    status: r.inv.status === 'paid' ? 'paid' : 'pending',
    paid_at: r.inv.paid_at === null ? null : toIso(r.inv.paid_at),
    requires_action: r.inv.requires_action,
    requires_action_at: r.inv.requires_action_at === null ? null : toIso(r.inv.requires_action_at),
    failed_at: r.inv.failed_at === null ? null : toIso(r.inv.failed_at),
    ...refundFields(r.inv),
  };
}

/**
 * A business's invoices, newest first, keyset-paginated on (created_at, id). Money is the owner's
 * (and an admin's): an active teammate is refused (403), anyone else does not learn the business
 * exists (404).
 */
export async function listInvoices(ctx: ServiceContext, q: ListInvoicesQuery): Promise<InvoiceList> {
  const { business } = await accessBusiness(ctx, q.business_id, [...PAY_VIEWERS]);
  const conds: SQL[] = [eq(invoices.business_id, business.id)];
  const byStatus = statusFilter(q.status);
  if (byStatus) conds.push(byStatus);
  if (q.cursor) {
    const [createdAt, id] = decodeCursor(q.cursor, isKeysetCursor);
    conds.push(or(lt(invoices.created_at, createdAt), and(eq(invoices.created_at, createdAt), lt(invoices.id, id)))!);
  }
  const rows = await selectRows(ctx)
    .where(and(...conds))
    .orderBy(desc(invoices.created_at), desc(invoices.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    data: page.map(rowView),
    next_cursor: rows.length > q.limit && last ? encodeCursor([last.inv.created_at, last.inv.id]) : null,
  };
}

/**
 * One invoice of a business as a listed row (the web application's invoice page), with the list's
 * access: the owner or an admin; an active teammate 403; anyone else, and an invoice of another
 * business, 404 (INVOICE-NOT-FND-ERR).
 */
export async function getInvoiceRow(ctx: ServiceContext, businessId: string, invoiceId: string): Promise<InvoiceRowView> {
  const { business } = await accessBusiness(ctx, businessId, [...PAY_VIEWERS]);
  const [row] = await selectRows(ctx)
    .where(and(eq(invoices.business_id, business.id), eq(invoices.id, invoiceId)))
    .limit(1);
  if (!row) throw new AppError('INVOICE-NOT-FND-ERR');
  return rowView(row);
}
