import { eq } from 'drizzle-orm';
import { invoices } from '../../db/schema';
import type { ServiceContext } from '../kernel';

export type InvoiceRow = typeof invoices.$inferSelect;

/** The invoice as stored, or null. No access check: callers make it. */
export async function loadInvoice(ctx: ServiceContext, invoiceId: string): Promise<InvoiceRow | null> {
  const [row] = await ctx.db.select().from(invoices).where(eq(invoices.id, invoiceId)).limit(1);
  return row ?? null;
}

/**
 * What the business is (or was) charged for an invoice: the conversion when it settles in another
 * currency. The currency is as stored; the processor's calls lowercase it themselves.
 */
export function chargedAmount(inv: InvoiceRow): { amount: number; currency: string } {
  if (inv.conversion_currency && inv.conversion_amount_minor !== null) {
    return { amount: inv.conversion_amount_minor, currency: inv.conversion_currency };
  }
  return { amount: inv.amount_minor, currency: inv.currency };
}
