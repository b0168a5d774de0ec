import { chargedAmount } from '../invoices';
import { type ActorWords, line, parse, type StoryLine, type StoryMoney, type StoryRecords } from './story-types';

/** A shift's invoice as lines of its story: invoiced (or pre-paid), charge attempts, 3-D Secure, declines, paid, paid out, refunds. */
export function moneyLines(
  r: StoryRecords,
  shifter: string,
  actorOf: ActorWords,
  money: (minor: number | null | undefined, currency: string) => StoryMoney | null,
): StoryLine[] {
  const inv = r.invoice;
  if (!inv) return [];
  const business = r.side === 'business';
  const paid = chargedAmount(inv);
  const charged = { minor: paid.amount, currency: paid.currency };
  const ofInvoice = r.audits.filter((a) => a.subject_type === 'invoice' && a.subject_id === inv.id);
  // Pre-paid: charged in advance (prepayShift's trigger), or invoiced before any clock-out; the clock-out's own invoice is written in its batch.
  const worked = r.s.row.shift_end_at;
  const prepaid = worked === null || inv.created_at < worked - 60_000 || ofInvoice.some((a) => parse(a.data).trigger === 'prepay');
  const out: StoryLine[] = [
    line(inv.created_at, 'invoiced', prepaid ? 'Invoiced in advance (pre-paid)' : 'Invoiced for the shift', {
      money: money(inv.amount_minor, inv.currency),
    }),
  ];
  for (const a of ofInvoice) {
    const data = parse(a.data);
    if (a.action === 'invoice.charge_attempted' && business) {
      const said = data.trigger === 'automatic' ? 'Charged automatically to the card on file' : 'Charge to the card on file asked';
      out.push(line(a.created_at, 'charge', said, { by: actorOf(a) }));
    } else if (a.action === 'invoice.requires_action' && business) {
      out.push(
        line(a.created_at, 'authentication', 'The card asked for 3-D Secure: waiting for the owner to confirm', { attention: true }),
      );
    } else if (a.action === 'invoice.payment_failed' && business) {
      out.push(line(a.created_at, 'payment_failed', 'The charge was declined', { attention: true }));
    } else if (a.action === 'invoice.transferred') {
      const amount = typeof data.amount_minor === 'number' ? data.amount_minor : inv.transfer_amount_minor;
      out.push(line(a.created_at, 'paid_out', `Paid out to ${shifter}`, { money: money(amount, charged.currency) }));
    }
  }
  if (inv.paid_at !== null) out.push(line(inv.paid_at, 'paid', 'Paid', { money: money(charged.minor, charged.currency) }));
  for (const f of r.refunds) {
    const full = f.reason === 'shift_cancelled' ? ' in full: the shift was not worked' : '';
    const said = f.status === 'failed' ? 'A refund failed' : f.status === 'pending' ? `Refund on its way${full}` : `Refunded${full}`;
    out.push(line(f.created_at, 'refund', said, { money: money(f.amount_minor, f.currency), attention: f.status === 'failed' }));
  }
  return out;
}
