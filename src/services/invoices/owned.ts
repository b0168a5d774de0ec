import { eq } from 'drizzle-orm';
import { businesses, invoices } from '../../db/schema';
import type { ServiceContext } from '../kernel';

/** What the finance pages show of an invoice its business's owner confirms a charge of. */
export interface OwnedInvoice {
  id: string;
  amount_minor: number;
  currency: string;
  status: 'pending' | 'paid' | 'failed';
  requires_action: boolean;
  payment_intent_id: string | null;
}

/**
 * The invoice if `userId` owns its business, else null (teammates and admins included: confirming a
 * charge on the owner's card is the owner's step alone).
 */
export async function invoiceOwnedBy(ctx: ServiceContext, userId: string, invoiceId: string): Promise<OwnedInvoice | null> {
  const [row] = await ctx.db
    .select({
      id: invoices.id,
      amount_minor: invoices.amount_minor,
      currency: invoices.currency,
      status: invoices.status,
      requires_action: invoices.requires_action,
      payment_intent_id: invoices.payment_intent_id,
      owner: businesses.user_id,
    })
    .from(invoices)
    .innerJoin(businesses, eq(businesses.id, invoices.business_id))
    .where(eq(invoices.id, invoiceId))
    .limit(1);
  if (!row || row.owner !== userId) return null;
  const { owner: _owner, ...invoice } = row;
  return invoice;
}
