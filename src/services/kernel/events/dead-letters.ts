import { deadLetters } from '../../../db/schema';
import { newId } from '../../../lib/ids';
import type { ServiceContext } from '../context';

/** What is kept of a queue message that will not be delivered (its id, body and attempts so far). */
export interface DeadMessage {
  id: string;
  body: unknown;
  attempts: number;
}

/**
 * Keeps a message that exhausted its retries, or a malformed one, in `dead_letters` for an operator
 * to inspect and replay; a message stored already (by its id) is left as it is.
 */
export async function storeDeadLetter(ctx: ServiceContext, queue: string, msg: DeadMessage): Promise<void> {
  await ctx.db
    .insert(deadLetters)
    .values({
      id: newId('deadLetter'),
      queue,
      message_id: msg.id,
      body: JSON.stringify(msg.body),
      attempts: msg.attempts,
      created_at: Date.now(),
    })
    .onConflictDoNothing();
}
