import type { ServiceContext } from '../context';
import { type ConfirmTokenRow, recordChargeOutcome } from './tokens';

/** What a pre-payment answered (services/payments/charge.ts `ChargeResult`). */
export interface PrepayOutcome {
  status: 'succeeded' | 'requires_action' | 'failed' | 'processing';
  invoice_id: string | null;
  decline_code: string | null;
}

/**
 * Charges the shift a used confirmation token names, through the payments service's pre-payment
 * (the same one `POST /v1/shift_request/{id}/prepay` calls), as the signed-in owner, and records the
 * answer on the token. Called only by the confirmation that took the token (consumeConfirmation).
 */
export async function chargeConfirmed(ctx: ServiceContext, token: ConfirmTokenRow): Promise<PrepayOutcome> {
  const result = await prepay(ctx, token.shift_request_id);
  await recordChargeOutcome(ctx, token.id, result.status, result.invoice_id);
  return result;
}

async function prepay(_ctx: ServiceContext, _shiftRequestId: string): Promise<PrepayOutcome> {
  // Wired to services/payments/charge.ts prepayShift once it lands.
  throw new Error('pre-payment is not available yet');
}
