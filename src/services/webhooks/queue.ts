import { errorFields } from '../../lib/log';
import type { ServiceContext } from '../kernel';
import { deliverAttempt } from './deliver';
import { fanOutEvent } from './fanout';
import { parseWebhooksMessage } from './messages';

/** Retry delay for a message whose handling failed (storage or queue trouble): 2, 4, 8 … s, at most 5 min. */
export function webhookMessageRetrySeconds(attempts: number): number {
  return Math.min(300, 2 ** Math.max(1, attempts));
}

/**
 * The webhooks queue's messages, handled side by side so one slow receiver (up to the 15 s timeout)
 * does not hold back the others of the batch. Each message is acknowledged only once its work is
 * recorded; a failure retries that message alone. A body that is neither an event nor a delivery
 * will never succeed: it is kept as a dead letter.
 */
export async function handleWebhooksBatch(
  ctx: ServiceContext,
  messages: readonly Message[],
  keepDeadLetter: (msg: Message) => Promise<void>,
): Promise<void> {
  await Promise.all(
    messages.map(async (msg) => {
      const parsed = parseWebhooksMessage(msg.body);
      if (!parsed) {
        ctx.log.error('malformed webhooks message', { message_id: msg.id });
        await keepDeadLetter(msg);
        msg.ack();
        return;
      }
      try {
        if (parsed.kind === 'event') {
          await fanOutEvent(ctx, parsed.event);
          msg.ack();
          return;
        }
        const outcome = await deliverAttempt(ctx, parsed.message);
        if (outcome.ack) msg.ack();
        else msg.retry({ delaySeconds: outcome.retryDelaySeconds });
      } catch (err) {
        ctx.log.warn('webhooks message failed; retrying', { message_id: msg.id, attempts: msg.attempts, ...errorFields(err) });
        msg.retry({ delaySeconds: webhookMessageRetrySeconds(msg.attempts) });
      }
    }),
  );
}
