import { DurableObject } from 'cloudflare:workers';
import type { AppBindings } from '../env';
import { errorFields } from '../lib/log';
import { type ClaimInput, type ClaimOutcome, commitClaim } from '../services/shifts';
import { systemContext } from '../services/kernel';

/**
 * One instance per broadcast: it serializes the claims on it, and D1 stays the truth. Claims run one
 * at a time (blockConcurrencyWhile holds every other call while one writes to D1). A claim is answered
 * `won` only once D1 shows the row claimed by that shifter: the guarded commit is idempotent, so a
 * winner's repeated claims re-run it and read the committed row. The winner is remembered only after
 * its D1 write committed, so a failure between lock and write leaves nothing stuck, and later claims
 * by others lose without touching D1.
 */
export class ClaimLock extends DurableObject<AppBindings> {
  async claim(input: ClaimInput): Promise<ClaimOutcome> {
    let outcome: ClaimOutcome = 'closed';
    await this.ctx.blockConcurrencyWhile(async () => {
      const ctx = {
        ...systemContext(this.env, this.ctx, 'claim', input.actor),
        requestId: input.requestId,
        idempotency: input.idempotency,
      };
      // A throw inside blockConcurrencyWhile would reset the object and fail every claim queued behind
      // this one; a failed write is this caller's failure only, answered as `failed`.
      try {
        const winner = this.ctx.storage.kv.get<string>('winner');
        if (winner !== undefined && winner !== input.shifterId) {
          outcome = 'lost';
          return;
        }
        const result = await commitClaim(ctx, input);
        if (result.winner) this.ctx.storage.kv.put('winner', result.winner);
        outcome = result.winner === input.shifterId ? 'won' : result.winner ? 'lost' : 'closed';
      } catch (err) {
        ctx.log.error('claim write failed; the broadcast stays open', { shift_request_id: input.shiftRequestId, ...errorFields(err) });
        outcome = 'failed';
      }
    });
    return outcome;
  }
}
