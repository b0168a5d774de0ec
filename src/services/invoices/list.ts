import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm';
import { invoices, shiftRequests, shifters } from '../../db/schema';
import { fromMinor } from '../../lib/money';
import { decodeCursor, encodeCursor, isKeysetCursor } from '../../lib/pagination';
import { toIso } from '../../lib/time';
import { accessBusiness } from '../access';
import type { ServiceContext } from '../kernel';
import type { InvoiceList, InvoiceRowView, ListInvoicesQuery } from './schemas';

/**
 * A business's invoices, newest first, keyset-paginated on (created_at, id). Money is the owner's
 * (and an admin's): an active teammate is refused (403), anyone else does not learn the business
 * exists (404).
 */
export async function listInvoices(ctx: ServiceContext, q: ListInvoicesQuery): Promise<InvoiceList> {
  const { business } = await accessBusiness(ctx, q.business_id, ['owner', 'admin']);
  const conds: SQL[] = [eq(invoices.business_id, business.id)];
  if (q.status !== 'all') conds.push(eq(invoices.status, q.status));
  if (q.cursor) {
    const [createdAt, id] = decodeCursor(q.cursor, isKeysetCursor);
    conds.push(or(lt(invoices.created_at, createdAt), and(eq(invoices.created_at, createdAt), lt(invoices.id, id)))!);
  }
  const rows = await ctx.db
    .select({
      inv: invoices,
      shift_date: shiftRequests.shift_date,
      shift_in: shiftRequests.shift_in,
      shift_out: shiftRequests.shift_out,
      shifter_name: shifters.display_name,
    })
    .from(invoices)
    .innerJoin(shiftRequests, eq(shiftRequests.id, invoices.shift_request_id))
    .leftJoin(shifters, eq(shifters.id, invoices.shifter_id))
    .where(and(...conds))
    .orderBy(desc(invoices.created_at), desc(invoices.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    data: page.map(
      (r): InvoiceRowView => ({
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
        status: r.inv.status,
        paid_at: r.inv.paid_at === null ? null : toIso(r.inv.paid_at),
        requires_action: r.inv.requires_action,
        requires_action_at: r.inv.requires_action_at === null ? null : toIso(r.inv.requires_action_at),
      }),
    ),
    next_cursor: rows.length > q.limit && last ? encodeCursor([last.inv.created_at, last.inv.id]) : null,
  };
}
