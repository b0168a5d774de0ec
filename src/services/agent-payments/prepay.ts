import { AppError } from '../../lib/errors';
import type { ServiceContext } from '../kernel';
import { type ChargeResult, prepayShift } from '../payments';
import { type ConfirmTokenRow, recordChargeOutcome } from './tokens';

/** What the confirm page shows: the charge's answer, or why nothing was charged. */
export type PrepayOutcome = { kind: 'charged'; result: ChargeResult } | { kind: 'refused'; code: string; message: string };

/**
 * Charges the shift a used confirmation token names through the payments service's pre-payment (the
 * one `POST /v1/shift_request/{id}/prepay` calls), as the signed-in owner, and records the answer on
 * the token. Called only by the confirmation that took the token (consumeConfirmation), so two
 * confirmations never charge twice. A refusal of the payments service (no saved card, the shift no
 * longer pre-payable, a cap) is shown to the owner; the token stays used, and the agent asks again.
 */
export async function chargeConfirmed(ctx: ServiceContext, token: ConfirmTokenRow, requestOrigin?: string): Promise<PrepayOutcome> {
  try {
    const result = await prepayShift(ctx, token.shift_request_id, requestOrigin ? { requestOrigin } : {});
    await recordChargeOutcome(ctx, token.id, result.status, result.invoice_id);
    return { kind: 'charged', result };
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    await recordChargeOutcome(ctx, token.id, `refused:${err.code}`, null);
    return { kind: 'refused', code: err.code, message: err.message };
  }
}
