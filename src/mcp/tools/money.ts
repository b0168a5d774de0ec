import { errorFields } from '../../lib/log';
import { issueConfirmation } from '../../services/agent-payments';
import { earnings, laborCosts } from '../../services/insights';
import { defineTool } from '../tool';
import { confirmPaymentForShiftSpec, myEarningsSpec, mySpendSpec } from '@shiftmarket/tool-specs';
import { ownedBusiness, ownShifterId } from '../../services/access';

/** The shifter's earnings through the same service as GET /v1/shifter/{id}/earnings. */
export const myEarnings = defineTool({
  ...myEarningsSpec,
  async run(ctx, args) {
    return earnings(ctx, await ownShifterId(ctx), { year: args.year, month: args.month });
  },
  summarize: (r) =>
    `${r.year}-${String(r.month).padStart(2, '0')}: ${r.gross} ${r.currency} gross from ${r.shifts} shift(s)${r.by_business[0] ? `; top business ${r.by_business[0].business_name}` : ''}.`,
});

/** The business's spend through the same service as GET /v1/business/{id}/labor_costs (owner only here). */
export const mySpend = defineTool({
  ...mySpendSpec,
  async run(ctx, args) {
    const b = await ownedBusiness(ctx, args.business_id);
    return laborCosts(ctx, b.id, { week: args.week });
  },
  summarize: (r) => `Week of ${r.week_start}: ${r.this_week_total} ${r.currency} (last week ${r.last_week_total}).`,
});

/**
 * Pre-payment of a claimed shift (spec 4.9 rule 6): issues the one-time confirm link (services/
 * agent-payments) and, when the client supports URL-mode elicitation, asks it to open the link for
 * the user, so the payment step itself never passes through the client. Nothing is charged here.
 */
export const confirmPaymentForShift = defineTool({
  ...confirmPaymentForShiftSpec,
  async run(ctx, args, extras) {
    const issued = await issueConfirmation(ctx, args.shift_request_id, extras.tokenId, extras.requestOrigin);
    let offered = false;
    if (extras.clientSupportsUrlElicitation) {
      try {
        offered = await extras.elicitUrl({
          url: issued.confirm_url,
          message: `Confirm the payment of ${issued.amount} ${issued.currency} for this shift in Shiftmarket (the link works for 5 minutes).`,
          elicitationId: issued.id,
        });
      } catch (err) {
        ctx.log.warn('confirm_payment_for_shift: URL elicitation failed; the link was sent by SMS and email', errorFields(err));
      }
    }
    return {
      confirm_url: issued.confirm_url,
      expires_at: issued.expires_at,
      amount: issued.amount,
      currency: issued.currency,
      shift_request_id: issued.shift_request_id,
      offered_to_client: offered,
    };
  },
  summarize: (r) =>
    `Ask the user to open ${r.confirm_url} (valid until ${r.expires_at}) to confirm paying ${r.amount} ${r.currency}; it was also sent to them by email (and by SMS to their phone, if any). Nothing is charged until they confirm.`,
});
