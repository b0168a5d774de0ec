import { DurableObject } from 'cloudflare:workers';
import type { AppBindings } from '../env';
import { type ClaimInput, type ClaimOutcome, commitClaim } from '../services/shifts/claim';
import { systemContext } from '../services/system-context';

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
    let failure: { error: unknown } | null = null;
    await this.ctx.blockConcurrencyWhile(async () => {
      // A throw inside blockConcurrencyWhile resets the object and fails every queued claim with it;
      // a failed write is this caller's failure only, so it is carried out and rethrown below.
      try {
        const winner = this.ctx.storage.kv.get<string>('winner');
        if (winner !== undefined && winner !== input.shifterId) {
          outcome = 'lost';
          return;
        }
        const ctx = { ...systemContext(this.env, this.ctx, 'claim', input.actor), requestId: input.requestId, idempotency: input.idempotency };
        const result = await commitClaim(ctx, input);
        if (result.winner) this.ctx.storage.kv.put('winner', result.winner);
        outcome = result.winner === input.shifterId ? 'won' : result.winner ? 'lost' : 'closed';
      } catch (error) {
        failure = { error };
      }
    });
    if (failure) throw (failure as { error: unknown }).error;
    return outcome;
  }
}
