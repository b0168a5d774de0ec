import { fromMinor } from '../../lib/money';
import { shiftForParty } from '../../services/access';
import { proposeCounterOffer } from '../../services/shifts';
import { shiftWhen } from '../../services/kernel';
import { defineTool } from '../tool';
import { createCounterOfferSpec } from '@shiftmarket/tool-specs';

/** create_counter_offer (spec 4.9 rule 4): services/shifts/counter-offer.ts holds the rule. */
export const createCounterOffer = defineTool({
  ...createCounterOfferSpec,
  async describeAction(ctx, args) {
    const { s } = await shiftForParty(ctx, args.shift_request_id);
    return `Offer to work the shift ${shiftWhen(s.row)} at ${s.business.name} for ${args.hourly_rate} ${s.row.currency}/h instead of ${fromMinor(s.row.hourly_rate_minor, s.row.currency)}.`;
  },
  run: (ctx, args) => proposeCounterOffer(ctx, args.shift_request_id, args),
  summarize: (r) =>
    `Counter-offer sent: ${r.counter_offer.hourly_rate} ${r.counter_offer.currency}/h (was ${r.counter_offer.original_hourly_rate}).`,
});
