import { and, eq } from 'drizzle-orm';
import { businesses, paymentMethods, shiftRequests, shiftRoles, shifters } from '../../db/schema';
import type { ServiceContext } from '../kernel';
import type { InvoiceRow } from '../invoices';
import type { ChargeDetails } from './schemas';

/**
 * What a charge is for, in the words its payer checks before confirming it with their bank: the
 * business charged, the shift the invoice bills (date and hours in the business's zone, the role),
 * who worked it, and the saved card the intent charges (brand, last four, expiry) when it is one of
 * the business's saved cards.
 */
export async function describeCharge(ctx: ServiceContext, inv: InvoiceRow, paymentMethodId: string | null): Promise<ChargeDetails> {
  const [row] = await ctx.db
    .select({
      businessName: businesses.name,
      timezone: businesses.timezone,
      shift: {
        id: shiftRequests.id,
        shift_date: shiftRequests.shift_date,
        shift_in: shiftRequests.shift_in,
        shift_out: shiftRequests.shift_out,
      },
      role: shiftRoles.label,
      shifterName: shifters.display_name,
    })
    .from(shiftRequests)
    .innerJoin(businesses, eq(businesses.id, shiftRequests.business_id))
    .leftJoin(shiftRoles, eq(shiftRoles.id, shiftRequests.shiftrole_id))
    .leftJoin(shifters, eq(shifters.id, inv.shifter_id ?? shiftRequests.shifter_id))
    .where(eq(shiftRequests.id, inv.shift_request_id))
    .limit(1);
  const [card] = paymentMethodId
    ? await ctx.db
        .select({
          brand: paymentMethods.brand,
          last4: paymentMethods.last4,
          exp_month: paymentMethods.exp_month,
          exp_year: paymentMethods.exp_year,
        })
        .from(paymentMethods)
        .where(and(eq(paymentMethods.id, paymentMethodId), eq(paymentMethods.business_id, inv.business_id)))
        .limit(1)
    : [];
  return {
    business_name: row?.businessName ?? null,
    shifts: row ? [{ ...row.shift, role: row.role ?? null, timezone: row.timezone }] : [],
    shifter_name: row?.shifterName ?? null,
    card: card ?? null,
  };
}
