import { env } from 'cloudflare:workers';
import { vi } from 'vitest';

/*
 * Failures injected around the real local D1 (nothing of our storage is replaced): the batch still
 * runs against D1, or is refused before reaching it. Restore with vi.restoreAllMocks().
 */

/** The next D1 batch commits, then its answer is lost (the call throws): a failure after the commit. */
export function loseNextBatchAnswer() {
  const real = env.DB.batch.bind(env.DB);
  return vi.spyOn(env.DB, 'batch').mockImplementationOnce(async (statements) => {
    await real(statements);
    throw new Error('injected: connection lost after the commit');
  });
}

/** The next D1 batch fails before anything of it commits. */
export function failNextBatch() {
  return vi.spyOn(env.DB, 'batch').mockImplementationOnce(async () => {
    throw new Error('injected: D1 refused the batch');
  });
}
