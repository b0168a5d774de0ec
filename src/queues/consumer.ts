import type { AppBindings } from '../env';
import { errorFields } from '../lib/log';
import { notificationsMessageSchema, storeDeadLetter as keepDeadLetter, systemContext } from '../services/kernel';
import { publishLiveOfNotify, publishLiveOfPartnerEvents } from '../services/live';
import { deliverEmail } from '../services/mail';
import { deliverOne, deliverText, processNotify } from '../services/notifications';
import { handleWebhooksBatch } from '../services/webhooks';

/**
 * Exponential backoff for retried messages: 2, 4, 8 … seconds, capped at 10 minutes. After the
 * consumer's max_retries the message goes to the dead-letter queue; an email row left queued is then
 * re-enqueued by the cron sweep until it is sent or ends `failed` (services/mail).
 */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(600, 2 ** Math.max(1, attempts));
}

export const QUEUES = {
  notifications: 'shiftmarket-notifications',
  webhooks: 'shiftmarket-webhooks',
  notificationsDlq: 'shiftmarket-notifications-dlq',
  webhooksDlq: 'shiftmarket-webhooks-dlq',
} as const;

async function handleNotifications(batch: MessageBatch, env: AppBindings, exec: ExecutionContext) {
  const ctx = systemContext(env, exec, 'queue:notifications');
  for (const msg of batch.messages) {
    const parsed = notificationsMessageSchema.safeParse(msg.body);
    if (!parsed.success) {
      // A malformed message will never succeed: keep it for inspection instead of retrying it.
      ctx.log.error('malformed notifications message', { message_id: msg.id });
      await storeDeadLetter(env, batch.queue, msg);
      msg.ack();
      continue;
    }
    try {
      // 'failed' (the email gave up for good) is acknowledged like 'sent': there is nothing to retry.
      if (parsed.data.type === 'email.send') await deliverEmail(ctx, parsed.data.outbox_id);
      // A text to a number of no account (a crew invitation): sent once, 'failed' acknowledged like 'sent'.
      else if (parsed.data.type === 'sms.send') await deliverText(ctx, parsed.data.outbox_id);
      // One channel delivery (re-sent by the sweep): not yet due or already sent is acknowledged too.
      else if (parsed.data.type === 'notification.deliver') await deliverOne(ctx, parsed.data.delivery_id);
      // In-app rows, then each channel on its own; a channel failing now throws after the others are sent.
      else await processNotify(ctx, parsed.data);
      msg.ack();
    } catch (err) {
      ctx.log.warn('notifications message failed; retrying', { message_id: msg.id, attempts: msg.attempts, ...errorFields(err) });
      msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
    }
    // The business pages it changed hear of it (services/live): after the in-app rows, best effort, never failing the delivery.
    if (parsed.data.type === 'notify') await publishLiveOfNotify(ctx, parsed.data);
  }
}

/**
 * Partner events and their deliveries (services/webhooks/queue.ts): an event fans out to the
 * subscribed endpoints, one delivery message each; a delivery message makes one signed attempt.
 */
async function handleWebhookEvents(batch: MessageBatch, env: AppBindings, exec: ExecutionContext) {
  const ctx = systemContext(env, exec, 'queue:webhooks');
  await handleWebhooksBatch(ctx, batch.messages, (msg) => storeDeadLetter(env, batch.queue, msg));
  // A shift event changed its business's pages (services/live): best effort, never failing the delivery.
  await publishLiveOfPartnerEvents(
    ctx,
    batch.messages.map((m) => m.body),
  );
}

async function storeDeadLetter(env: AppBindings, queue: string, msg: Message) {
  await keepDeadLetter(systemContext(env, { waitUntil: () => undefined }, 'queue:dlq'), queue, msg);
}

async function handleDeadLetters(batch: MessageBatch, env: AppBindings) {
  for (const msg of batch.messages) {
    await storeDeadLetter(env, batch.queue, msg);
    msg.ack();
  }
}

export async function handleQueue(batch: MessageBatch, env: AppBindings, exec: ExecutionContext): Promise<void> {
  switch (batch.queue) {
    case QUEUES.notifications:
      return handleNotifications(batch, env, exec);
    case QUEUES.notificationsDlq:
    case QUEUES.webhooksDlq:
      return handleDeadLetters(batch, env);
    case QUEUES.webhooks:
      return handleWebhookEvents(batch, env, exec);
    default:
      throw new Error(`no consumer for queue ${batch.queue}`);
  }
}
