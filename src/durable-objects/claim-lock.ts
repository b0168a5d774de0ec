import { DurableObject } from 'cloudflare:workers';
import type { AppBindings } from '../env';
import { type ClaimInput, type ClaimOutcome, commitClaim } from '../services/shifts/claim';
import { systemContext } from '../services/system-context';

/**
 * One instance per broadcast: the single owner of "who claimed it". The winner is recorded in
 * storage synchronously before any await, so claims that arrive while the first is writing to D1
 * lose at once; the D1 update is itself guarded, so even a claim that bypassed this object could
 * not produce a second winner.
 */
export class ClaimLock extends DurableObject<AppBindings> {
  async claim(input: ClaimInput): Promise<ClaimOutcome> {
    const winner = this.ctx.storage.kv.get<string>('winner');
    if (winner !== undefined) return winner === input.shifterId ? 'won' : 'lost';
    this.ctx.storage.kv.put('winner', input.shifterId);
    try {
      const ctx = systemContext(this.env, this.ctx, 'claim', input.actor);
      const committed = await commitClaim({ ...ctx, requestId: input.requestId }, input);
      if (!committed) this.ctx.storage.kv.delete('winner');
      return committed ? 'won' : 'closed';
    } catch (err) {
      this.ctx.storage.kv.delete('winner');
      throw err;
    }
  }
}
